"""The engine as a library: what callers get back cannot corrupt a game."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from arena.engine import Action, Game, Kind, OptionsError, make_options


def test_legal_actions_cannot_be_mutated_and_state_is_unaffected() -> None:
    state = Game("argentino").new_state(seed=5)
    legal = state.legal_actions()
    before = [str(a) for a in legal]
    assert isinstance(legal, tuple) and legal
    with pytest.raises(AttributeError):
        legal.clear()  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        legal[0] = legal[-1]  # type: ignore[index]
    with pytest.raises(AttributeError):
        legal.append(legal[0])  # type: ignore[attr-defined]
    # A caller's own list copy is free to change; the state keeps its actions.
    mine = list(legal)
    mine.clear()
    assert [str(a) for a in state.legal_actions()] == before
    assert state.observation(0).legal == state.legal_actions()
    play = next(a for a in state.legal_actions() if a.kind is Kind.PLAY)
    state.apply(play)  # still legal: nothing above reached the state
    assert state.current_player() == 1


def test_legal_actions_is_a_tuple_through_a_whole_game() -> None:
    state = Game("venezolano").new_state(seed=2)
    rng = random.Random(2)
    while not state.is_terminal():
        legal = state.legal_actions()
        assert type(legal) is tuple and legal
        state.apply(rng.choice(legal))
    assert state.legal_actions() == ()


def test_game_applies_overrides_to_given_options() -> None:
    base = make_options("uruguayo")
    game = Game(base, target=15, flor=False)
    assert game.options == make_options("uruguayo", {"target": 15, "flor": False})
    assert base.target == 30  # the given options are left as they were
    assert Game(base).options is base


def test_game_overrides_on_options_follow_seats_like_make_options() -> None:
    six = make_options("argentino", {"seats": 6})
    assert Game(six, target=20).options.pico_a_pico is True  # kept: seats unchanged
    assert Game(six, seats=4).options == make_options("argentino", {"seats": 4})
    assert Game(make_options("argentino"), seats=6).options.pico_a_pico is True
    assert Game(six, seats=6, pico_a_pico=False).options.pico_a_pico is False


@pytest.mark.parametrize(
    ("overrides", "key"),
    [({"trget": 30}, "options.trget"), ({"seats": 4}, "options.seats"), ({"target": 0}, "options.target"),
     ({"flor": "yes"}, "options.flor"), ({"falta_envido": "everything"}, "options.falta_envido"),
     ({"pico_a_pico": True}, "options.pico_a_pico"), ({"variant": "argentino"}, "options.variant")],
)
def test_game_rejects_bad_overrides_on_options_naming_the_key(overrides: dict[str, object], key: str) -> None:
    with pytest.raises(OptionsError, match=key):
        Game(make_options("uruguayo"), **overrides)
    with pytest.raises(OptionsError, match=key):  # the same check as with a variant name
        Game("uruguayo", **overrides)


def test_state_repr_says_variant_hand_scores_who_acts_and_the_pending_call() -> None:
    state = Game("argentino").new_state(seed=1)
    assert repr(state) == "State(argentino, 2 seats, hand 1, scores 0-0, seat 0 to act)"
    state.apply(Action.parse("truco"))
    state.apply(Action.parse("retruco"))
    assert repr(state) == ("State(argentino, 2 seats, hand 1, scores 0-0, seat 0 to act, "
                           "pending truco call 'truco retruco' by seat 1 for 3)")
    state.apply(Action.parse("no_quiero"))
    assert repr(state) == "State(argentino, 2 seats, hand 2, scores 0-2, seat 1 to act)"
    over = Game("venezolano").new_state(seed=1, scores=(24, 3))
    assert repr(over) == "State(venezolano, 2 seats, hand 1, scores 24-3, over: team 0 won)"


def test_repr_shows_no_card() -> None:
    state = Game("uruguayo").new_state(seed=8)
    rng = random.Random(8)
    while not state.is_terminal():
        text = repr(state)
        assert not any(str(card) in text.split() for card in state.unplayed(0) + state.unplayed(1))
        state.apply(rng.choice(state.legal_actions()))


def test_the_package_exports_what_a_user_needs() -> None:
    import arena.engine as engine

    for name in ("Game", "State", "Options", "make_options", "Observation", "PendingCall", "Outcome",
                 "Termination", "Card", "Action", "Kind", "Event", "HandStarted", "Dealt", "Acted", "TrickWon",
                 "PointsAnnounced", "Scored", "Shown", "HandEnded", "GameEnded", "OptionsError", "Variant"):
        assert name in engine.__all__ and hasattr(engine, name), name
    assert all(hasattr(engine, name) for name in engine.__all__)


def test_events_scores_and_event_log_are_read_only_views() -> None:
    state = Game("argentino").new_state(seed=6)
    state.apply(Action.parse("truco"))
    state.apply(Action.parse("no_quiero"))
    events, (texts, private) = state.events, state.event_log()
    count = len(events)
    assert state.scores == (1, 0) and isinstance(state.scores, tuple)
    for view in (events, texts, private):
        with pytest.raises(AttributeError):
            view.append(view[0])  # type: ignore[union-attr]
        with pytest.raises(TypeError):
            view[0] = view[-1]  # type: ignore[index]
        assert isinstance(view[0:2], tuple)
    with pytest.raises(AttributeError):
        state.scores = (29, 0)  # type: ignore[misc]
    assert len(state.events) == count and list(texts) == [str(e) for e in events]
    # A view follows the game as it goes on; a slice taken before does not.
    before = events[:]
    state.apply(next(a for a in state.legal_actions() if a.kind is Kind.PLAY))
    assert len(events) == count + 1 and len(before) == count


def test_game_is_immutable() -> None:
    game = Game("uruguayo")
    with pytest.raises(AttributeError, match="immutable"):
        game.options = make_options("argentino")
    assert game.options.variant == "uruguayo"
    assert copy.deepcopy(game) is game
    assert pickle.loads(pickle.dumps(game)).options == game.options
