"""Graceful shutdown: a game in flight is recorded as INTERRUPTED (no
winner), every stream gets a SHUTDOWN Status, and the bots exit cleanly."""

from __future__ import annotations

import json
import time
from pathlib import Path

from arena_harness import Harness

from arena.engine.options import make_options
from arena.engine.outcome import Termination
from arena.server import ArenaClosedError, TimeControl


def test_shutdown_interrupts_games_and_closes_streams(fresh_harness: Harness, tmp_path: Path) -> None:
    h = fresh_harness
    record = tmp_path / "calm.jsonl"
    calm = h.spawn("sample_bots.random_bot", "calm", "--record", str(record))
    # "slow" sits on its first decision for move time + half the bank: 1.5 s here.
    slow = h.spawn("sample_bots.misbehaving", "slowpoke", "--mode", "slow", "--at", "1")
    h.wait_for(["calm", "slowpoke"], [calm, slow])
    game = h.submit(h.arena.play_game("slowpoke", "calm", make_options("argentino"), 1, TimeControl(1.0, 1.0)))
    time.sleep(0.4)
    h.call(h.arena.stop(grace=0.1))
    r = game.result(10)
    assert r.termination is Termination.INTERRUPTED
    assert r.winner_seat is None and r.winner_bot is None and r.faulty_seat is None
    assert r.reason == "the arena shut down"
    assert calm.wait() == 0 and slow.wait() == 0, calm.stderr() + slow.stderr()
    kinds = [next(iter(json.loads(line)["message"])) for line in record.read_text().splitlines()]
    assert kinds[:2] == ["challenge", "welcome"] and kinds[-2:] == ["game_end", "status"]
    last = [json.loads(line)["message"] for line in record.read_text().splitlines()][-2:]
    assert last[0]["game_end"]["termination"] == "TERMINATION_INTERRUPTED"
    assert last[1]["status"]["code"] == "STATUS_CODE_SHUTDOWN" and last[1]["status"]["closing"]
    try:
        h.call(h.arena.play_game("calm", "slowpoke", make_options("argentino"), 2))
    except ArenaClosedError:
        pass
    else:
        raise AssertionError("play_game after stop must raise ArenaClosedError")
