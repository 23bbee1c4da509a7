"""Golden game transcripts: full referee logs of seeded games, kept as text.

A change of any rule's behaviour shows up here as a diff. After an intended
change, rewrite them with ``TRUCO_UPDATE_GOLDEN=1 python -m pytest tests/test_golden_transcripts.py``
and review the diff.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from arena.engine import Game, Kind

# Game-ending shortcuts are left out so the transcripts cover many hands.
_SKIP = (Kind.MAZO, Kind.FALTA_ENVIDO, Kind.CONTRAFLOR_AL_RESTO)

GOLDEN = Path(__file__).parent / "golden"
CASES = [("argentino", 2, 1), ("argentino", 4, 2), ("argentino", 6, 3), ("uruguayo", 2, 4), ("venezolano", 2, 10)]


def transcript(variant: str, seats: int, seed: int) -> str:
    state = Game(variant, seats=seats).new_state(seed=seed)
    rng = random.Random(seed)  # the policy's own generator, separate from the deal's
    while not state.is_terminal():
        acts = state.legal_actions()
        state.apply(rng.choice([a for a in acts if a.kind not in _SKIP] or acts))
    return "\n".join(str(e) for e in state.events) + "\n"


@pytest.mark.parametrize("variant,seats,seed", CASES, ids=[f"{v}-{s}" for v, s, _ in CASES])
def test_transcript_matches_golden(variant: str, seats: int, seed: int) -> None:
    path = GOLDEN / f"{variant}-{seats}-seed{seed}.txt"
    text = transcript(variant, seats, seed)
    if os.environ.get("TRUCO_UPDATE_GOLDEN"):
        path.write_text(text)
    assert path.exists(), f"missing {path.name}: run with TRUCO_UPDATE_GOLDEN=1"
    assert text == path.read_text()
