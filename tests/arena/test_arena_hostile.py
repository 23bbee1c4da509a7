"""Hostile bots lose exactly the game they spoil, with the right reason, and
the arena keeps serving everybody else."""

from __future__ import annotations

import pytest
from arena_harness import Harness

from arena.engine.outcome import Termination
from arena.server import TimeControl

TIGHT = TimeControl(move_time=0.3, bank=0.3)

# mode -> (decision at which it misbehaves, expected termination; None: the game is clean)
CASES: dict[str, tuple[int, Termination | None]] = {
    "sleep": (1, Termination.TIMEOUT),
    "exit": (3, Termination.DISCONNECT),
    "illegal": (1, Termination.ILLEGAL_ACTION),
    "garbage": (1, Termination.PROTOCOL_ERROR),
    "empty": (1, Termination.PROTOCOL_ERROR),
    "blank": (1, Termination.PROTOCOL_ERROR),
    "second_hello": (1, Termination.PROTOCOL_ERROR),
    "wrong_seq": (1, Termination.PROTOCOL_ERROR),
    "other_game": (1, Termination.PROTOCOL_ERROR),
    "slow": (1, None),  # over its move time but within the bank: charged, not punished
    "duplicate": (1, None),  # late repeats of old Moves are dropped silently
}


@pytest.mark.parametrize("mode", list(CASES))
def test_hostile_bot_loses_only_its_game(harness: Harness, mode: str) -> None:
    at, expected = CASES[mode]
    name = f"hostile-{mode.replace('_', '-')}"
    proc = harness.spawn("sample_bots.misbehaving", name, "--mode", mode, "--at", str(at), "--seed", "3")
    harness.wait_for([name], [proc])
    # The hostile bot is seat 0, mano of hand 1, so its first decision comes
    # first. A game may end before decision ``at``: then the next one gets it.
    for game in range(6):
        r = harness.play(name, "good-b", "argentino", seed=game, tc=TIGHT)
        if expected is None or r.termination is not Termination.TARGET_REACHED:
            break
    assert r.termination is (expected or Termination.TARGET_REACHED), r.reason
    if expected is not None:
        assert r.faulty_seat == 0 and r.faulty_bot == name
        assert r.winner_seat == 1 and r.winner_bot == "good-b"
        assert r.reason.startswith(f"seat 0 ({name})")
    else:
        assert r.faulty_seat is None
    harness.assert_serving()
    if mode == "exit":
        assert proc.wait() == 3
    else:
        assert proc.alive(), proc.stderr()


def test_a_timed_out_bot_keeps_its_stream(harness: Harness) -> None:
    """After a timeout the stream stays in the pool: its late Move is dropped
    and the next game on it is clean."""
    name = "hostile-sleeper"
    proc = harness.spawn("sample_bots.misbehaving", name, "--mode", "sleep", "--at", "1")
    harness.wait_for([name], [proc])
    r = harness.play(name, "good-a", "uruguayo", seed=1, tc=TIGHT)
    assert r.termination is Termination.TIMEOUT
    r = harness.play("good-a", name, "uruguayo", seed=2, target=9)
    assert r.termination is Termination.TARGET_REACHED, r.reason
    assert "PROTOCOL_ERROR" not in proc.stderr()
