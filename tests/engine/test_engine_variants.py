"""The variant records drive the referee: presets, options checks and bets."""

from __future__ import annotations

import dataclasses
import random

import pytest

from arena.engine import Action, Card, Deal, Game, Kind, Options, OptionsError, make_options
from arena.engine import variants as vs
from arena.engine.options import VARIANTS


def test_every_record_gives_a_preset_that_obeys_it() -> None:
    assert VARIANTS == tuple(v.name for v in vs.VARIANT_LIST) == ("argentino", "uruguayo", "venezolano")
    for v in vs.VARIANT_LIST:
        opts = make_options(v.name)
        assert (opts.seats, opts.target) == (v.seats[0], v.default_target)
        assert opts.falta_envido == (v.falta_modes[0] if v.falta_modes else None)
        game = Game(opts)
        assert game.variant is v and game.truco_calls == v.truco_calls
        deal = game.deal(random.Random(0))
        assert (deal.up is not None) == (v.up_card is not None)


def test_options_checks_come_from_the_record() -> None:
    assert make_options("argentino", {"seats": 6}).pico_a_pico  # pico_a_pico_seats
    with pytest.raises(OptionsError, match="venezolano has no falta envido"):
        make_options("venezolano", {"falta_envido": "leader"})
    with pytest.raises(OptionsError, match="uruguayo is played with 2 seats, not 4"):
        make_options("uruguayo", {"seats": 4})
    with pytest.raises(OptionsError, match="pico a pico exists only in argentino with 6 seats"):
        make_options("argentino", {"seats": 4, "pico_a_pico": True})
    with pytest.raises(OptionsError, match="variant: unknown variant 'chileno'"):
        Game(Options("chileno"))


def test_enums_replace_texts_and_codes() -> None:
    as_text: str = vs.FlorKind.RESERVADA  # callers that compared texts keep working
    assert as_text == "reservada" and vs.FaltaMode("malas_buenas") is vs.FaltaMode.MALAS_BUENAS
    assert [s.name for s in vs.EnvidoState] == ["NOT_STARTED", "WAITING", "SETTLED", "CANCELLED"]
    assert vs.VENEZOLANO.envido_openers == (Kind.ENVIDO,)
    assert vs.ARGENTINO.envido_value(Kind.REAL_ENVIDO) == 3


def _play(game: Game, deal: Deal, script: list[str]) -> tuple[int, int]:
    state = game.new_state(deals=[deal, deal])
    for text in script:
        state.apply(Action.parse(text))
    return state.scores


def test_a_new_record_changes_the_bets_without_engine_code(monkeypatch: pytest.MonkeyPatch) -> None:
    """What adding a variant means: a record with other truco values and flor
    answers, and the referee follows it."""
    trial = dataclasses.replace(
        vs.URUGUAYO, name="uruguayo_trial", truco_values=(1, 5, 7, 9),
        flor_answers=(Kind.FLOR, Kind.CON_FLOR_ME_ACHICO), flor_pays_every_declared=True,
    )
    monkeypatch.setitem(vs.VARIANT_BY_NAME, trial.name, trial)
    game = Game(Options("uruguayo_trial", 2, 30, True, "leader", False))
    c = Card.parse
    plain = Deal(((c("1E"), c("7O"), c("3B")), (c("4C"), c("5O"), c("6B"))), c("12B"))
    assert _play(game, plain, ["truco", "quiero", "play 1E", "play 4C", "play 7O", "play 5O"]) == (5, 0)
    # Both hold a flor (three of one suit); the answers are the record's.
    flores = Deal(((c("1E"), c("7E"), c("3E")), (c("4C"), c("5C"), c("6C"))), c("1O"))
    state = game.new_state(deals=[flores])
    state.apply(Action.parse("flor"))
    assert [str(a) for a in state.legal_actions()] == ["flor", "con_flor_me_achico"]
    state.apply(Action.parse("flor"))
    assert state.scores == (0, 6)  # 3 for each declared flor; seat 1's 35 beats seat 0's 31
