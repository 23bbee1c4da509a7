"""A worker's session on its own: real arena, real bot processes."""

from __future__ import annotations

import asyncio
from pathlib import Path

from workers_helpers import write_config

from arena.games.game_record import GameRecord
from arena.games.orders import GameResult
from arena.games.seeds import TournamentSecret
from arena.tournament.config import load_config
from arena.tournament.runner import schedule_of
from arena.tournament.scaleout.batches import batches_of, units_of
from arena.tournament.scaleout.worker_session import WorkerSession


def test_a_second_half_whose_first_is_settled_is_played_alone(tmp_path: Path) -> None:
    """What a lost worker leaves behind: a pair's second half, its first recorded elsewhere."""
    config = load_config(write_config(tmp_path / "t.toml", "games_per_pairing = 4", "[options]", "target = 9",
                                      bots={"r0": "sample_bots.random_bot", "r1": "sample_bots.random_bot"}))
    secret = TournamentSecret.from_seed(5)
    schedule = schedule_of(config)
    (batch,) = batches_of(units_of(enumerate(schedule), secret, 2), 10)
    firsts = {g.key for g in schedule if g.after is None}
    rest = batch.only(lambda order: order.game.key not in firsts)
    assert rest is not None and sorted(rest.keys) == sorted(g.key for g in schedule if g.after is not None)

    async def play() -> list[GameResult]:
        session = WorkerSession(config, tmp_path / "logs", concurrency=2)
        outcomes: list[GameResult] = []
        await session.start()
        try:
            async with asyncio.timeout(120):
                await session.play(rest, outcomes.append)
        finally:
            await session.stop()
        return outcomes

    outcomes = asyncio.run(play())
    assert sorted(o.game_key for o in outcomes) == sorted(rest.keys)
    assert all(isinstance(o, GameRecord) and o.termination == "target_reached" for o in outcomes)
