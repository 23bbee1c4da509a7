"""``State.copy()``: a cheap copy for search that behaves exactly like the
original and never shares what play changes."""

from __future__ import annotations

import copy
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.engine import Game, State
from arena.engine.observation import Observation

CONFIGS = [("argentino", 2), ("argentino", 4), ("argentino", 6), ("uruguayo", 2), ("venezolano", 2)]
GAMES = {f"{v}-{s}": Game(v, seats=s) for v, s in CONFIGS}


def _snapshot(state: State) -> tuple[object, ...]:
    """Everything a caller can read from a state."""
    observations: list[Observation] = [state.observation(s) for s in range(state.options.seats)]
    return (
        tuple(observations), tuple(state.events), state.event_log()[0][:], state.outcome(),
        state.legal_actions(), state.current_player(), tuple(state.scores), state.hands_played,
        state.is_terminal(), state.returns(),
    )


def _advance(state: State, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if state.is_terminal():
            return
        state.apply(rng.choice(state.legal_actions()))


@settings(max_examples=150, deadline=None)
@given(config=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 10_000),
       before=st.integers(0, 400), policy=st.integers(0, 2**32))
def test_copy_and_original_driven_alike_stay_identical(config: str, seed: int, before: int, policy: int) -> None:
    original = GAMES[config].new_state(seed=seed)
    _advance(original, random.Random(seed), before)
    twin = original.copy()
    assert _snapshot(twin) == _snapshot(original)
    rng = random.Random(policy)
    while not original.is_terminal():
        action = rng.choice(original.legal_actions())
        original.apply(action)
        twin.apply(action)
        assert _snapshot(twin) == _snapshot(original)
    assert twin.is_terminal() and twin.outcome() == original.outcome()


@settings(max_examples=150, deadline=None)
@given(config=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 10_000),
       before=st.integers(0, 400), after=st.integers(1, 300), policy=st.integers(0, 2**32))
def test_acting_on_one_never_changes_the_other(config: str, seed: int, before: int, after: int, policy: int) -> None:
    original = GAMES[config].new_state(seed=seed)
    _advance(original, random.Random(seed), before)
    kept = _snapshot(original)
    twin = original.copy()
    _advance(twin, random.Random(policy), after)
    assert _snapshot(original) == kept
    # The other way round: the copy, frozen, while the original plays on.
    twin_kept = _snapshot(twin)
    _advance(original, random.Random(policy + 1), after)
    assert _snapshot(twin) == twin_kept


def test_copy_deals_the_next_hands_like_the_original() -> None:
    state = Game("uruguayo").new_state(seed=9)
    twin = state.copy()
    seen = []
    for s in (state, twin):
        rng = random.Random(1)
        while not s.is_terminal():
            s.apply(rng.choice(s.legal_actions()))
        seen.append([str(e) for e in s.events])
    assert seen[0] == seen[1] and sum(1 for line in seen[0] if line.startswith("hand ")) > 2


def test_copy_shares_no_container_that_play_mutates() -> None:
    """Guards copy() against a mutable field added to State or its hand later."""
    state = Game("argentino", seats=4).new_state(seed=3)
    _advance(state, random.Random(3), 7)
    twin = state.copy()
    # Never mutated once built (seat order, dealt cards, points, flor kinds),
    # hence shared on purpose.
    shared = {"nxt", "order", "dealt", "env_pts", "flor", "_deals"}
    for owner, other in ((state, twin), (state.hand, twin.hand)):
        names = list(getattr(owner, "__dict__", {})) + list(getattr(type(owner), "__slots__", ()))
        for name in names:
            mine, theirs = getattr(owner, name), getattr(other, name)
            if isinstance(mine, (list, set, dict)) and name not in shared:
                assert mine is not theirs, f"{type(owner).__name__}.{name} is shared by a copy"


def test_clone_is_the_cheap_copy_and_matches_a_deepcopy() -> None:
    state = Game("venezolano").new_state(seed=4)
    _advance(state, random.Random(4), 25)
    assert _snapshot(state.clone()) == _snapshot(copy.deepcopy(state)) == _snapshot(state)


def test_copy_sets_every_slot_of_the_state() -> None:
    """State has __slots__ and copy() lists them by hand: a slot added later
    and forgotten there would make the copy raise AttributeError on read.
    The compiled build keeps the same list as ``__mypyc_attrs__``."""
    slots = getattr(State, "__slots__", None) or State.__mypyc_attrs__  # type: ignore[attr-defined]
    assert len(slots) > 20
    state = Game("uruguayo").new_state(seed=5)
    _advance(state, random.Random(5), 9)
    twin = state.copy()
    for name in slots:
        assert hasattr(twin, name), f"State.copy() does not set {name}"
        mine, theirs = getattr(state, name), getattr(twin, name)
        assert type(mine) is type(theirs), name
