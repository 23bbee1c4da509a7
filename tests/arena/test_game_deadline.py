"""A game's one deadline timer (``game._Alarm``) and its inbox: the timer
left running after an answered Decision never ends a later Decision early,
is put forward to that Decision's deadline, and is armed anew for an earlier
one (a shrunk bank). Driven on a real event loop with a stand-in stream;
the end-to-end timeouts over gRPC are in test_arena_clock.py."""

from __future__ import annotations

import asyncio

from arena.protocol import arena_pb2 as pb
from arena.server.connection import Connection, Deadline, Inbox
from arena.server.game import _Alarm


class _Context:
    def peer(self) -> str:
        return "ipv4:127.0.0.1:1"

    async def write(self, msg: pb.PlayResponse) -> None:
        return None


async def _next(inbox: Inbox, within: float) -> tuple[Deadline | None, float]:
    """The next Deadline put within ``within`` s (None if none) and the loop time it came."""
    loop = asyncio.get_running_loop()
    try:
        async with asyncio.timeout(within):
            item = await inbox.get()
    except TimeoutError:
        return None, loop.time()
    assert isinstance(item, Deadline)
    return item, loop.time()


def test_an_answered_decisions_timer_does_not_end_the_next_one_early() -> None:
    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        conn = Connection(_Context(), "s1", write_timeout=30.0)
        inbox = Inbox()
        alarm = _Alarm(inbox)
        now = loop.time()
        alarm.set(loop, now + 0.05, conn, 1)
        alarm.clear(conn, 1)  # answered in time
        alarm.set(loop, now + 0.25, conn, 2)  # later deadline: the running timer is kept
        item, at = await _next(inbox, 1.0)
        assert item is not None and item.seq == 2 and item.conn is conn
        assert at >= now + 0.25
        alarm.close()

    asyncio.run(scenario())


def test_an_earlier_deadline_arms_the_timer_anew() -> None:
    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        conn = Connection(_Context(), "s1", write_timeout=30.0)
        inbox = Inbox()
        alarm = _Alarm(inbox)
        now = loop.time()
        alarm.set(loop, now + 5.0, conn, 1)
        alarm.clear(conn, 1)
        alarm.set(loop, now + 0.05, conn, 2)  # a shrunk bank: earlier than the timer
        item, at = await _next(inbox, 1.0)
        assert item is not None and item.seq == 2
        assert now + 0.05 <= at < now + 1.0
        alarm.close()

    asyncio.run(scenario())


def test_an_answered_or_closed_decision_puts_no_deadline() -> None:
    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        conn = Connection(_Context(), "s1", write_timeout=30.0)
        inbox = Inbox()
        alarm = _Alarm(inbox)
        alarm.set(loop, loop.time() + 0.05, conn, 1)
        alarm.clear(conn, 2)  # another Decision's clear leaves this one on the clock
        item, _ = await _next(inbox, 1.0)
        assert item is not None and item.seq == 1
        alarm.set(loop, loop.time() + 0.05, conn, 3)
        alarm.clear(conn, 3)
        assert (await _next(inbox, 0.2))[0] is None
        alarm.set(loop, loop.time() + 0.05, conn, 4)
        alarm.close()  # the game ended
        assert (await _next(inbox, 0.2))[0] is None

    asyncio.run(scenario())
