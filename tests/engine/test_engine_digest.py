"""A fingerprint of 10,000 seeded random-play games: every action taken and the
scores after it, and every event's text.

The engine's speed work must not change a single result. These digests were
computed before that work and are compared after every change; a rule change
that is meant to alter games has to update them, and says so in its commit.
"""

from __future__ import annotations

import hashlib
import random

import pytest

from arena.engine import Game, Kind

CONFIGS = [
    ("argentino", 2),
    ("argentino", 4),
    ("argentino", 6),
    ("uruguayo", 2),
    ("venezolano", 2),
]
GAMES = 10_000  # in all, spread evenly over CONFIGS
EVENT_GAMES = 1_000  # of those, the games whose event log is fingerprinted too

# sha256 of the actions and scores, then of the event texts (see digests()).
ACTIONS_AND_SCORES = "b5e1163e106abc2c49b557032cd11b07505dc29b3af550cfeed0172c55117c3a"
EVENT_TEXTS = "ff45c39f898524c0fb61a131256af83e8ad32e707ad3437235b67a142d400473"
# The same fingerprint of the first 300 games (the first 100 with events),
# for the fast tier: taken with the engine whose 10,000-game digests match.
FIRST_GAMES, FIRST_EVENT_GAMES = 300, 100
FIRST_ACTIONS_AND_SCORES = "85757908d1c6cfdfe2d5bf547a068609943c61f06522f7027b47aa8d732c9a58"
FIRST_EVENT_TEXTS = "5d3fce570396bacad3981c340315c1dc0976b7b4ab01e7b1fcbc1787949eb294"


def digests(games: int = GAMES, event_games: int = EVENT_GAMES) -> tuple[str, str]:
    """Play ``games`` games round robin over CONFIGS (game i: configuration
    i % 5, dealt with seed i, actions from ``random.Random(i)``, uniformly
    among the legal actions but the mazo only 2% of the time so games reach
    every rule). Returns the hex sha256 of every action text and the scores
    after it, and that of the event texts of the first ``event_games``."""
    played = hashlib.sha256()
    logged = hashlib.sha256()
    configs = [Game(v, seats=s) for v, s in CONFIGS]
    mazo = Kind.MAZO
    for i in range(games):
        state = configs[i % len(configs)].new_state(seed=i)
        rng = random.Random(i)
        steps: list[str] = []
        while not state.is_terminal():
            acts = state.legal_actions()
            pool = acts if rng.random() < 0.02 else [a for a in acts if a.kind is not mazo] or acts
            action = rng.choice(pool)
            state.apply(action)
            a, b = state.scores
            steps.append(f"{action.text} {a}-{b}")
        played.update(f"{i}:{'|'.join(steps)}\n".encode())
        if i < event_games:
            logged.update(f"{i}:{'|'.join(str(e) for e in state.events)}\n".encode())
    return played.hexdigest(), logged.hexdigest()


def test_random_play_digest_of_the_first_games_is_unchanged() -> None:
    assert digests(FIRST_GAMES, FIRST_EVENT_GAMES) == (FIRST_ACTIONS_AND_SCORES, FIRST_EVENT_TEXTS)


@pytest.mark.slow
def test_random_play_digest_is_unchanged() -> None:
    assert digests() == (ACTIONS_AND_SCORES, EVENT_TEXTS)
