"""``play_match`` against a real arena with a real bot process: a bot that is
not there forfeits, both halves of a duplicate pair are returned together,
and a match the arena's shutdown cuts is all interrupted."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from arena.engine import make_options
from arena.games.playing import PlaySettings
from arena.games.seeds import TournamentSecret
from arena.league.keys import match_games
from arena.league.pairs import MatchResult, play_match
from arena.server import Arena, TimeControl

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]
SETTINGS = PlaySettings(make_options("argentino", {"target": 6}), TimeControl(2.0, 2.0), distinct_peers=False)
FORFEIT_SECONDS = 0.3


async def with_bot_a() -> tuple[MatchResult, MatchResult]:
    arena = Arena()
    port = await arena.start("127.0.0.1:0")
    env = dict(os.environ, TRUCO_ARENA_TOKEN=arena.add_token("a"), PYTHONPATH=str(REPO))
    bot = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "sample_bots.random_bot", "--address", f"127.0.0.1:{port}", "--name", "a",
        env=env, cwd=REPO, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
    try:
        await arena.wait_for_bots(["a"], 30)
        secret = TournamentSecret.fresh()
        pair = match_games(0, ("a", "ghost"), duplicate=True, swap_first=False)
        forfeited = await play_match(arena, pair, secret, SETTINGS, FORFEIT_SECONDS)
        await arena.stop(grace=0)
        cut = await play_match(arena, match_games(1, ("a", "ghost"), duplicate=False, swap_first=False),
                               secret, SETTINGS, FORFEIT_SECONDS)
        return forfeited, cut
    finally:
        bot.kill()
        await bot.wait()
        await arena.stop(grace=0)


def test_an_absent_bot_forfeits_and_a_shutdown_interrupts() -> None:
    forfeited, cut = asyncio.run(with_bot_a())
    assert forfeited.interrupted == ()
    first, second = forfeited.rows  # both halves, to be written together
    for row in (first, second):
        assert row.winner == "a" and row.faulty_bot == "ghost" and row.termination == "absent"
        assert row.hands == 0 and row.actions == () and "forfeit" in row.reason
    assert (first.bot0, second.bot0) == ("a", "ghost") and first.seed == second.seed
    assert (first.version0, first.version1) == ("1.0.0", "")  # as announced; the ghost never was
    assert cut.rows == () and cut.interrupted == ("a|ghost#m1",) and "shut" in cut.reason
