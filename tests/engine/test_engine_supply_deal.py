"""Dealing hand by hand: ``new_state(deals=[])``, ``needs_deal`` and ``supply_deal``."""

from __future__ import annotations

import random

import pytest

from arena.engine import DECK, Deal, Game


def _play_out(game: Game, seed: int) -> tuple[list[str], tuple[int, int], list[Deal]]:
    """Play a seeded game with random moves; return the event texts, the final
    scores and the deals it used."""
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    deals: list[Deal] = []
    seen_hand = -1
    while not state.is_terminal():
        if state.hands_played != seen_hand:
            seen_hand = state.hands_played
            deals.append(state._deal)  # type: ignore[arg-type]
        state.apply(rng.choice(state.legal_actions()))
    return [str(e) for e in state.events], state.scores, deals


@pytest.mark.parametrize(
    "variant, overrides",
    [("argentino", {}), ("uruguayo", {}), ("venezolano", {}), ("argentino", {"seats": 4}), ("argentino", {"seats": 6})],
)
def test_supplying_the_seeded_deals_one_by_one_replays_the_seeded_game(variant: str, overrides: dict[str, object]) -> None:
    game = Game(variant, **overrides)
    events, scores, deals = _play_out(game, seed=11)
    state = game.new_state(deals=[])
    assert state.needs_deal() and state.is_terminal() and state.current_player() is None
    rng = random.Random(11)
    supplied = 0
    while True:
        if state.needs_deal():
            state.supply_deal(deals[supplied])
            supplied += 1
            continue
        if state.is_terminal():
            break
        assert not state.needs_deal()
        state.apply(rng.choice(state.legal_actions()))
    assert supplied == len(deals)
    assert [str(e) for e in state.events] == events
    assert state.scores == scores and not state.needs_deal()


def test_a_copy_keeps_its_own_deals() -> None:
    game = Game("argentino", target=3)
    state = game.new_state(deals=[])
    state.supply_deal(Deal((DECK[0:3], DECK[3:6])))
    while not state.needs_deal():
        state.apply(next(a for a in state.legal_actions() if a.kind.value == "mazo"))
    other = state.copy()
    state.supply_deal(Deal((DECK[10:13], DECK[13:16])))
    other.supply_deal(Deal((DECK[20:23], DECK[23:26])))
    assert state.observation(0).hand == DECK[10:13]
    assert other.observation(0).hand == DECK[20:23]
    assert other.observation(1).hand == DECK[23:26] and other.hands_played == state.hands_played


def test_supply_deal_rejects_a_state_that_needs_none_and_bad_deals() -> None:
    seeded = Game("argentino").new_state(seed=1)
    with pytest.raises(ValueError, match="needs no deal"):
        seeded.supply_deal(Deal((DECK[0:3], DECK[3:6])))
    state = Game("argentino").new_state(deals=[])
    with pytest.raises(ValueError, match="three cards"):
        state.supply_deal(Deal((DECK[0:3],)))
    with pytest.raises(ValueError, match="distinct"):
        state.supply_deal(Deal((DECK[0:3], DECK[2:5])))
    with pytest.raises(ValueError, match="has no up card"):
        state.supply_deal(Deal((DECK[0:3], DECK[3:6]), up=DECK[6]))
    with pytest.raises(ValueError, match="needs an up card"):
        Game("uruguayo").new_state(deals=[]).supply_deal(Deal((DECK[0:3], DECK[3:6])))
    with pytest.raises(ValueError, match="distinct"):
        Game("uruguayo").new_state(deals=[]).supply_deal(Deal((DECK[0:3], DECK[3:6]), up=DECK[0]))
    assert state.needs_deal()  # nothing was dealt by the rejected calls
    state.supply_deal(Deal((DECK[0:3], DECK[3:6])))
    assert not state.needs_deal() and state.current_player() == 0


def test_a_finished_game_needs_no_deal() -> None:
    state = Game("argentino", target=1).new_state(deals=[Deal((DECK[0:3], DECK[3:6]))])
    state.apply(next(a for a in state.legal_actions() if a.kind.value == "mazo"))
    assert state.winner == 1 and state.is_terminal() and not state.needs_deal()
