"""The checker's opponent in process, over the same gRPC arena the bot under
test dials into: it stops answering at a chosen Decision so that the bot
under test sees a game end by the other side's fault (a timeout). (The
ordinary opponent is a launched sample bot: suite.py.)"""

from __future__ import annotations

import asyncio
import random

import grpc

from arena.engine.actions import Action
from arena.engine.observation import Observation
from arena.protocol import arena_pb2 as pb
from sdk.bot import Bot
from sdk.client import StreamSession, run_async


class RandomOpponent(Bot):
    name = "opponent"  # each connection announces the name it is given
    version = "1.0"

    def __init__(self) -> None:
        self.rng = random.Random(0)  # the SDK reseeds it from each GameStart's rng_seed

    def choose(self, obs: Observation) -> Action:
        return self.rng.choice(obs.legal)


class QuietSession(StreamSession):
    """Keeps the arena's non-closing Status messages (e.g. the notice of its
    own timeout) off the checker's output, where the SDK would print them."""

    async def handle(self, msg: pb.PlayResponse, call: grpc.aio.StreamStreamCall) -> str | None:
        if msg.WhichOneof("kind") == "status" and not msg.status.closing:
            return None
        return await super().handle(msg, call)


class StallingSession(QuietSession):
    """Plays like its bot, except that it never answers its ``STALL_AT``-th
    Decision of each game (counted per game, from 1). The first: a later one
    may never come, as when an accepted falta envido ends the game at once."""

    STALL_AT = 1
    _count = 0

    async def handle(self, msg: pb.PlayResponse, call: grpc.aio.StreamStreamCall) -> str | None:
        if msg.WhichOneof("kind") == "game_start":
            self._count = 0
        return await super().handle(msg, call)

    async def reply(self, d: pb.Decision) -> pb.PlayRequest | list[pb.PlayRequest] | None:
        self._count += 1
        if self._count == self.STALL_AT:
            return None  # the arena's clock runs out: a timeout of this seat
        return await super().reply(d)


def start_opponent(address: str, name: str, token: str, streams: int, stalling: bool = False) -> asyncio.Task[None]:
    """Connect an opponent with ``streams`` streams, as a task of the running
    loop; it ends when the arena shuts down (or when cancelled)."""
    coro = run_async(
        RandomOpponent, address, token, streams, name=name, threaded=False, retry_for=5.0,
        session_cls=StallingSession if stalling else QuietSession,
    )
    return asyncio.get_running_loop().create_task(coro, name=f"opponent-{name}")
