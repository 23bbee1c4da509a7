"""A move's clock starts when its Decision has been written to the stream,
not when the arena queued it: a backlog of messages ahead of the Decision is
not the bot's time (docs/protocol.md, "What the clock measures").

The bot here speaks the raw protocol over real gRPC on loopback and offers a
one-byte HTTP/2 receive window, so each of the arena's writes completes only
as the bot reads: while it pauses before reading its GameStart (or a
HandEnd), everything queued behind that message, the next Decision too,
waits in the arena. A pause of twice the whole clock (move time + bank) must
not cost it the game, as it did when the clock started at queueing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

import pytest
from rawbot import ONE_BYTE_WINDOW, converse, first_legal, hello, never, open_stream

from arena.engine.options import make_options
from arena.engine.outcome import Termination
from arena.protocol import arena_pb2 as pb
from arena.server import Arena, PlayedGame, TimeControl

CLOCK = TimeControl(move_time=1.0, bank=1.0)
PAUSE = 2 * (CLOCK.move_time + CLOCK.bank)


async def raw_bot(
    address: str, name: str, token: str, asked: asyncio.Event, pause_before: frozenset[str], window: bool,
    protocol: int | None = None,
) -> None:
    """Answers every Decision at once with its first legal action. With
    "game_start" in ``pause_before`` it sleeps ``PAUSE`` once the game has
    been asked for (``asked``) before its first read, so the GameStart and
    the first Decision wait in the arena; with "hand_end", it sleeps after
    reading its first HandEnd, so the next hand's first Decision waits
    (protocol 2 only: in 3 the HandEnd comes in one Batch with that Decision,
    whose clock then runs)."""
    paused_on_hand_end = "hand_end" not in pause_before

    async def after(msg: pb.PlayResponse) -> None:
        nonlocal paused_on_hand_end
        if msg.HasField("hand_end") and not paused_on_hand_end:
            paused_on_hand_end = True
            await asyncio.sleep(PAUSE)

    async with open_stream(address, ONE_BYTE_WINDOW if window else ()) as call:
        await hello(call, name, token, protocol=protocol)
        if "game_start" in pause_before:
            await asked.wait()
            await asyncio.sleep(PAUSE)
        await converse(call, first_legal, after=after)


async def silent_bot(address: str, name: str, token: str) -> None:
    """Reads everything, answers nothing."""
    async with open_stream(address) as call:
        await hello(call, name, token)
        await converse(call, None, stop=never)


async def trickling_bot(address: str, name: str, token: str, pause: float) -> None:
    """One-byte receive window, and a pause before every read: each single
    write of the arena completes within ``pause``, yet a Decision behind a
    GameStart waits about twice as long. Protocol 2, where the two are
    separate writes (in 3 they are one Batch)."""

    async def wait() -> None:
        await asyncio.sleep(pause)

    async with open_stream(address, ONE_BYTE_WINDOW) as call:
        await hello(call, name, token, protocol=2)
        await converse(call, first_legal, stop=never, before_read=wait)


async def play(
    seat0: Callable[[str, str, str, asyncio.Event], Coroutine[Any, Any, None]], write_timeout: float = 10.0
) -> PlayedGame:
    """One game between ``seat0`` (mano of the first hand: the first to act)
    and a prompt raw bot."""
    asked = asyncio.Event()
    arena = Arena(write_timeout=write_timeout)
    port = await arena.start("127.0.0.1:0")
    address = f"127.0.0.1:{port}"
    bots = [
        asyncio.create_task(seat0(address, "first", arena.add_token("first"), asked)),
        asyncio.create_task(raw_bot(address, "prompt", arena.add_token("prompt"), asked, frozenset(), False)),
    ]
    try:
        await arena.wait_for_bots(["first", "prompt"], 20.0)
        game = asyncio.create_task(
            arena.play_game("first", "prompt", make_options("argentino", {"target": 9}), 4, CLOCK)
        )
        asked.set()
        return await game
    finally:
        await arena.stop(grace=0.5)
        await asyncio.wait_for(asyncio.gather(*bots, return_exceptions=True), 20.0)


@pytest.mark.parametrize("protocol", [2, 3])
def test_a_backlog_ahead_of_the_decision_is_not_the_bots_time(protocol: int) -> None:
    """Version 2: the GameStart and a HandEnd are separate writes ahead of a
    Decision; version 3: the first Decision's Batch waits unread."""
    pauses = frozenset({"game_start", "hand_end"} if protocol == 2 else {"game_start"})

    async def pausing(address: str, name: str, token: str, asked: asyncio.Event) -> None:
        await raw_bot(address, name, token, asked, pauses, window=True, protocol=protocol)

    r = asyncio.run(play(pausing))
    assert r.termination is Termination.TARGET_REACHED, r.reason
    assert r.hands >= 2  # so the pause after the first HandEnd happened inside the game


def test_a_bot_that_sits_on_its_decision_still_runs_out_of_time() -> None:
    """Once the Decision is written the clock runs: a bot that reads it and
    never answers loses on time."""

    async def silent(address: str, name: str, token: str, asked: asyncio.Event) -> None:
        await silent_bot(address, name, token)

    r = asyncio.run(play(silent))
    assert r.termination is Termination.TIMEOUT and r.faulty_seat == 0, r.reason


def test_a_bot_that_holds_its_decision_back_by_reading_slowly_is_dropped() -> None:
    """Reading just fast enough for each write to beat the write watchdog
    must not stall a game off the clock: a Decision not written within the
    write timeout of being posted closes the stream, and the game is lost."""
    write_timeout = 1.0

    async def trickling(address: str, name: str, token: str, asked: asyncio.Event) -> None:
        await trickling_bot(address, name, token, pause=0.6 * write_timeout)

    r = asyncio.run(play(trickling, write_timeout=write_timeout))
    assert r.termination is Termination.DISCONNECT and r.faulty_seat == 0, r.reason
