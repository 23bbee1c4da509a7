"""Every sample bot (sample_bots.SAMPLE_BOTS) plays by the protocol: it
connects, is welcomed, and finishes games in every variant with only legal
actions in time. A listed module that is missing or does not import is
skipped with the reason."""

from __future__ import annotations

import importlib
import os

import pytest
from arena_harness import Harness

from arena.engine.outcome import Termination
from arena.server import TimeControl
from sample_bots import SAMPLE_BOTS

GAMES_PER_VARIANT = int(os.environ.get("TRUCO_COMPLIANCE_GAMES", "2"))
CLOCK = TimeControl(move_time=2.0, bank=20.0)


@pytest.mark.parametrize("key", sorted(SAMPLE_BOTS))
def test_sample_bot_complies(harness: Harness, key: str) -> None:
    module = SAMPLE_BOTS[key]
    try:
        importlib.import_module(module)
    except ImportError as exc:
        pytest.skip(f"sample bot {key!r}: module {module} does not import ({exc})")
    name = f"compliance-{key}"
    proc = harness.spawn(module, name, "--seed", "1") if key == "random" else harness.spawn(module, name)
    harness.wait_for([name], [proc])
    for variant in ("argentino", "uruguayo", "venezolano"):
        for g in range(GAMES_PER_VARIANT):
            seats = (name, "good-a") if g % 2 == 0 else ("good-a", name)
            r = harness.play(*seats, variant, seed=300 + g, tc=CLOCK, target=12)
            assert r.termination is Termination.TARGET_REACHED, f"{variant} game {g}: {r.reason}\n{proc.stderr()}"
    assert proc.alive(), proc.stderr()
    assert "arena:" not in proc.stderr(), proc.stderr()  # no Status warnings were sent to it
