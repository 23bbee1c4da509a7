"""A flood of streams that never say Hello, against a real arena process:
20,000 streams over 200 connections from a client process. The arena caps
the streams waiting for a Hello, so its memory stays bounded, a game
played meanwhile finishes cleanly with every move inside its move time, and
a bot that connects in the middle of the flood has played a game within
5 s of its launch (the oldest silent streams make room for it).

The bound: the arena process's RSS (VmRSS) stays under its own baseline
(measured once its two bots are connected) plus 150 MB. Measured here: a
baseline of ~41 MB and a peak of ~105 MB during the flood, which took ~10 s.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, Any

import pytest

pytestmark = pytest.mark.integration

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
STREAMS, CHANNELS = 20_000, 200
RSS_MARGIN_MB = 150
HELLO_TIMEOUT = 5.0
JOIN_SECONDS = 5.0


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError(f"no VmRSS for pid {pid}")


def _read_json(stream: IO[str]) -> Any:
    line = stream.readline()
    assert line, "the arena process ended early"
    return json.loads(line)


class _PeakRss:
    """Samples a process's RSS every 50 ms in a thread until stopped."""

    def __init__(self, pid: int) -> None:
        self.pid, self.peak, self._stop = pid, 0.0, threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(0.05):
            self.peak = max(self.peak, _rss_mb(self.pid))

    def stop(self) -> float:
        self._stop.set()
        self._thread.join(5)
        return self.peak


def test_a_flood_of_silent_streams_neither_bloats_the_arena_nor_slows_a_game() -> None:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    arena = subprocess.Popen(
        [sys.executable, str(HERE / "flood_arena.py"), str(HELLO_TIMEOUT)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env, cwd=REPO,
    )
    flood: subprocess.Popen[str] | None = None
    try:
        assert arena.stdin is not None and arena.stdout is not None
        started = _read_json(arena.stdout)
        assert _read_json(arena.stdout) == {"ready": True}
        pid, address = started["pid"], f"127.0.0.1:{started['port']}"
        baseline = _rss_mb(pid)
        sampler = _PeakRss(pid)
        flood = subprocess.Popen(
            [sys.executable, str(HERE / "flood_client.py"), address, str(STREAMS), str(CHANNELS)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=REPO,
        )
        games: list[dict[str, Any]] = []
        joined: dict[str, Any] | None = None
        while flood.poll() is None or not games:  # games back to back for as long as the flood lasts
            if joined is None and len(games) >= 1 and flood.poll() is None:
                arena.stdin.write("join latecomer\n")  # in the middle of the flood
                arena.stdin.flush()
                joined = _read_json(arena.stdout)
                joined["flood_running"] = flood.poll() is None
            arena.stdin.write("play 1\n")
            arena.stdin.flush()
            games += _read_json(arena.stdout)["games"]
        out, err = flood.communicate(timeout=60)
        peak = sampler.stop()
        arena.stdin.write("stats\n")
        arena.stdin.flush()
        stats = _read_json(arena.stdout)
    finally:
        for p in (flood, arena):
            if p is not None and p.poll() is None:
                p.kill()
                p.wait(10)

    print(f"arena RSS: baseline {baseline:.0f} MB, peak {peak:.0f} MB; {len(games)} games during the flood; "
          f"streams ended: {out.strip()}; arena: {stats}; latecomer: {joined}")
    assert flood.returncode == 0, err
    endings: dict[str, int] = json.loads(out)
    assert sum(endings.values()) == STREAMS, endings  # the arena (or gRPC) ended every one
    evicted = ("UNAVAILABLE: evicted before its Hello: the arena had too many streams waiting for one from "
               "this connection or host; retry later")
    # Each silent stream waited out its Hello deadline (the only arena Status
    # it can get), was evicted to make room for newer ones, or was ended by
    # gRPC itself (a reset stream: CANCELLED, or UNAVAILABLE with gRPC's words).
    assert {e for e in endings if e.startswith("STATUS_CODE_")} <= {"STATUS_CODE_BAD_HELLO"}, endings
    assert all(e.split(":")[0] in ("STATUS_CODE_BAD_HELLO", "UNAVAILABLE", "CANCELLED") for e in endings), endings
    # Some evictions may reach a client whose connection is already being
    # torn down, which then reports them as CANCELLED.
    assert 0 < endings.get(evicted, 0) <= stats["evictions"], (endings, stats)
    assert stats["waiting"] == 0
    assert joined is not None and joined["flood_running"], "the flood ended before the latecomer joined"
    assert joined["game"]["termination"] == "target_reached", joined
    assert joined["joined"] < JOIN_SECONDS, f"the latecomer needed {joined['joined']:.1f} s to play its first game"
    assert peak < baseline + RSS_MARGIN_MB, f"RSS peak {peak:.0f} MB over baseline {baseline:.0f} + {RSS_MARGIN_MB} MB"
    for g in games:
        assert g["termination"] == "target_reached", g["reason"]
        assert g["move_times"] and max(g["move_times"]) < g["move_limit"], g["move_times"]
