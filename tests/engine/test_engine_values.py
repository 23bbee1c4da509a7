"""Typed values of the engine: cards, actions and options round-trip as text."""

from __future__ import annotations

import pytest

from arena.engine import DECK, Action, Card, Game, IllegalActionError, Kind, OptionsError, make_options


def test_deck_has_forty_distinct_cards_with_text_round_trip() -> None:
    assert len(DECK) == 40 and len(set(DECK)) == 40
    for card in DECK:
        assert Card.parse(str(card)) is card
    assert str(Card.parse("7o")) == "7O" and Card.parse("12C").number == 0


@pytest.mark.parametrize("text", ["8E", "0O", "7X", "", "1", "12"])
def test_bad_card_text_is_rejected(text: str) -> None:
    with pytest.raises(ValueError, match="not a card"):
        Card.parse(text)


@pytest.mark.parametrize(
    "text",
    ["play 7O", "envido", "real_envido", "falta_envido", "raise 3", "flor", "con_flor_envido",
     "contraflor", "contraflor_al_resto", "con_flor_me_achico", "truco", "retruco", "vale_cuatro",
     "vale_nueve", "quiero", "no_quiero", "truco con_flor", "quiero con_flor", "mazo"],
)
def test_action_text_round_trip(text: str) -> None:
    assert str(Action.parse(text)) == text


@pytest.mark.parametrize("text", ["play", "play 8E", "raise 0", "raise x", "envido con_flor", "jump", ""])
def test_bad_action_text_is_rejected(text: str) -> None:
    with pytest.raises(ValueError):
        Action.parse(text)


def test_options_presets_and_errors_name_the_key() -> None:
    assert make_options("venezolano").target == 24
    assert make_options("argentino", {"seats": 6}).pico_a_pico is True
    assert make_options("argentino", {"seats": 4}).pico_a_pico is False
    with pytest.raises(OptionsError, match="options.trget"):
        make_options("argentino", {"trget": 30})
    with pytest.raises(OptionsError, match="options.seats"):
        make_options("uruguayo", {"seats": 4})
    with pytest.raises(OptionsError, match="options.falta_envido"):
        make_options("argentino", {"falta_envido": "everything"})
    with pytest.raises(OptionsError, match="variant"):
        make_options("chileno")


def test_apply_rejects_an_illegal_action_with_a_reason() -> None:
    state = Game("argentino").new_state(seed=1)
    with pytest.raises(IllegalActionError, match="no call to answer"):
        state.apply(Action(Kind.QUIERO))
    not_held = next(c for c in DECK if c not in state.unplayed(0))
    with pytest.raises(IllegalActionError, match=f"does not hold {not_held}"):
        state.apply(Action(Kind.PLAY, card=not_held))
