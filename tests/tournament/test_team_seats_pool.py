"""The pool seats the partners of a team game from different connections:
real arena over loopback, real bot processes. A bot with one process and
many streams cannot fill two seats of one game when ``distinct_peers`` is on."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from arena.engine import make_options
from arena.server import Arena, BotUnavailableError, TimeControl

pytestmark = pytest.mark.integration


def _spawn(address: str, name: str, token: str, streams: int, log: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "sample_bots.random_bot", "--address", address, "--name", name,
         "--streams", str(streams)],
        env=dict(os.environ, TRUCO_ARENA_TOKEN=token), stdout=subprocess.DEVNULL, stderr=log.open("ab"))


async def _scenario(log: Path) -> None:
    arena = Arena()
    port = await arena.start("127.0.0.1:0")
    address = f"127.0.0.1:{port}"
    tokens = {n: arena.add_token(n) for n in ("solo", "pair")}
    procs = [_spawn(address, "solo", tokens["solo"], 4, log)]  # one process, four streams
    procs += [_spawn(address, "pair", tokens["pair"], 2, log) for _ in range(2)]  # two processes
    try:
        await arena.wait_for_bots({"solo": 4, "pair": 4}, timeout=30)
        assert arena.pool.peers_of("solo") == 1 and arena.pool.peers_of("pair") == 2
        options = make_options("argentino", {"seats": 4, "target": 5})
        tc = TimeControl(move_time=5.0, bank=30.0)
        # Enough idle streams, but all from one process: it may not fill both seats of its team.
        with pytest.raises(BotUnavailableError, match="from different peers"):
            await arena.play_seats(("solo", "pair", "solo", "pair"), options, 3, tc,
                                   acquire_timeout=0.5, distinct_peers=True)
        # Without the rule (a library caller's choice) it can.
        rec = await arena.play_seats(("solo", "pair", "solo", "pair"), options, 3, tc, acquire_timeout=5)
        assert rec.winner_seat is not None
        # Two processes: the game is played, each of pair's seats on its own connection.
        seen: list[list[str]] = []
        original = arena.pool.acquire

        async def spy(names: list[str], timeout: float, *, distinct_peers: bool = False) -> list[object]:
            conns = await original(names, timeout, distinct_peers=distinct_peers)
            seen.append([c.peer for c in conns])
            return list(conns)

        arena.pool.acquire = spy  # type: ignore[method-assign,assignment]
        procs.append(_spawn(address, "solo", tokens["solo"], 1, log))  # a second process for solo
        await arena.wait_for_bots({"solo": 5}, timeout=30)
        for seed in range(4):  # several games: the pick must hold whatever streams are idle
            rec = await arena.play_seats(("pair", "solo", "pair", "solo"), options, seed, tc,
                                         acquire_timeout=5, distinct_peers=True)
            assert rec.winner_seat is not None
        for peers in seen:
            assert peers[0] != peers[2] and peers[1] != peers[3]  # partners on different connections
    finally:
        await arena.stop(grace=0)
        for p in procs:
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


def test_team_partners_come_from_different_processes(tmp_path: Path) -> None:
    asyncio.run(_scenario(tmp_path / "bots.log"))
