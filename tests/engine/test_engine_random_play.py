"""Random-play invariants over many seeded games per variant and seat count.

Every state until the end has legal actions, scores only grow, the game ends
exactly when a side reaches the target, and no observation ever carries a card
that another seat has not shown (docs/rules.md 9).
"""

from __future__ import annotations

import random
import re
from dataclasses import fields, is_dataclass
from typing import Any

import pytest

from arena.engine import Card, Game, Kind, State
from arena.engine import events as ev

CONFIGS = [
    ("argentino", 2),
    ("argentino", 4),
    ("argentino", 6),
    ("uruguayo", 2),
    ("venezolano", 2),
]
GAMES = 5000  # per configuration
LEAK_GAMES = 150  # games per configuration whose every observation is inspected
# The first of those games run in the fast tier too; the slow tier plays the
# rest (so the whole suite plays GAMES and LEAK_GAMES, as it always did).
FAST_GAMES, FAST_LEAK_GAMES = 200, 10
_CARD_TEXT = re.compile(r"(?<![0-9])(1[0-2]|[1-7])([EBOC])(?![A-Za-z0-9])")


def _play(state: State, rng: random.Random, on_step: Any = None) -> None:
    target = state.options.target
    prev = list(state.scores)
    while not state.is_terminal():
        acts = state.legal_actions()
        assert acts, "a running game must offer legal actions"
        # Mazo rarely, so games are long enough to reach every rule.
        choices = [a for a in acts if a.kind is not Kind.MAZO] or acts
        action = rng.choice(acts if rng.random() < 0.02 else choices)
        state.apply(action)
        assert state.scores[0] >= prev[0] and state.scores[1] >= prev[1], "scores only grow"
        if max(prev) < target and not state.is_terminal():
            assert max(state.scores) < target, "reaching the target ends the game at once"
        prev = list(state.scores)
        if on_step:
            on_step(state)
    assert state.winner is not None
    assert state.scores[state.winner] >= target
    assert state.scores[1 - state.winner] < target
    assert state.legal_actions() == () and state.current_player() is None
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == state.winner
    assert state.returns()[0] == (1.0 if state.winner == 0 else -1.0)


@pytest.mark.parametrize("variant,seats", CONFIGS, ids=[f"{v}-{s}" for v, s in CONFIGS])
def test_random_games_finish_with_invariants(variant: str, seats: int) -> None:
    game = Game(variant, seats=seats)
    rng = random.Random(f"{variant}{seats}")
    for seed in range(FAST_GAMES):
        _play(game.new_state(seed=seed), rng)


@pytest.mark.slow
@pytest.mark.parametrize("variant,seats", CONFIGS, ids=[f"{v}-{s}" for v, s in CONFIGS])
def test_many_more_random_games_finish_with_invariants(variant: str, seats: int) -> None:
    game = Game(variant, seats=seats)
    rng = random.Random(f"{variant}{seats}:{FAST_GAMES}")
    for seed in range(FAST_GAMES, GAMES):
        _play(game.new_state(seed=seed), rng)


_CARD, _TEXT, _RECORD, _SEQUENCE, _OTHER = range(5)
_KINDS: dict[type, tuple[int, tuple[str, ...]]] = {}  # per type: what it is, and its fields if a record


def _kind(t: type) -> tuple[int, tuple[str, ...]]:
    """How ``_cards_in`` looks inside a value of type ``t`` (worked out once
    per type: asking ``dataclasses`` for every value of every observation of
    every step was most of this file's time)."""
    known = _KINDS.get(t)
    if known is None:
        if issubclass(t, Card):
            known = (_CARD, ())
        elif issubclass(t, str):
            known = (_TEXT, ())
        elif is_dataclass(t):
            known = (_RECORD, tuple(f.name for f in fields(t)))
        elif issubclass(t, (tuple, list)):
            known = (_SEQUENCE, ())
        else:
            known = (_OTHER, ())
        _KINDS[t] = known
    return known


def _cards_in(value: Any) -> set[Card]:
    """Every card an observation mentions, typed or inside text."""
    found: set[Card] = set()
    todo = [value]
    while todo:
        item = todo.pop()
        kind, names = _kind(type(item))
        if kind == _CARD:
            found.add(item)
        elif kind == _TEXT:
            found.update(Card.parse(m.group(0)) for m in _CARD_TEXT.finditer(item))
        elif kind == _RECORD:
            todo.extend(getattr(item, name) for name in names)
        elif kind == _SEQUENCE:
            todo.extend(item)
    return found


def _check_no_leak(state: State) -> None:
    events = state.events
    hand_start = next(i for i in range(len(events) - 1, -1, -1) if isinstance(events[i], ev.HandStarted))
    shown = {c for e in events[hand_start:] if isinstance(e, ev.Shown) for c in e.cards}
    for seat in range(state.options.seats):
        seen = _cards_in(state.observation(seat))
        for other in range(state.options.seats):
            if other == seat:
                continue
            hidden = set(state.unplayed(other)) - shown
            leaked = seen & hidden
            assert not leaked, f"seat {seat} sees {sorted(map(str, leaked))} of seat {other}"


@pytest.mark.parametrize("variant,seats", CONFIGS, ids=[f"{v}-{s}" for v, s in CONFIGS])
def test_no_observation_shows_unplayed_cards_of_another_seat(variant: str, seats: int) -> None:
    game = Game(variant, seats=seats)
    rng = random.Random(seats)
    for seed in range(FAST_LEAK_GAMES):
        _play(game.new_state(seed=seed), rng, _check_no_leak)


@pytest.mark.slow
@pytest.mark.parametrize("variant,seats", CONFIGS, ids=[f"{v}-{s}" for v, s in CONFIGS])
def test_no_observation_shows_unplayed_cards_of_another_seat_in_many_more_games(variant: str, seats: int) -> None:
    game = Game(variant, seats=seats)
    rng = random.Random(f"{seats}:{FAST_LEAK_GAMES}")
    for seed in range(FAST_LEAK_GAMES, LEAK_GAMES):
        _play(game.new_state(seed=seed), rng, _check_no_leak)


def test_observation_mentions_own_cards_and_public_plays() -> None:
    state = Game("uruguayo").new_state(seed=3)
    obs = state.observation(0)
    assert set(obs.hand) == set(state.unplayed(0)) and len(obs.dealt) == 3
    assert obs.up_card is not None and obs.to_act == 0 and obs.legal
    assert state.observation(1).legal == ()
    card = next(a for a in state.legal_actions() if a.kind is Kind.PLAY)
    state.apply(card)
    assert card.card in _cards_in(state.observation(1).tricks)


def test_same_seed_same_game() -> None:
    def transcript(seed: int) -> list[str]:
        state = Game("venezolano").new_state(seed=seed)
        rng = random.Random(0)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
        return [str(e) for e in state.events]

    assert transcript(11) == transcript(11)
    assert transcript(11) != transcript(12)
