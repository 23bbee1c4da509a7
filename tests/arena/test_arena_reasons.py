"""Close reasons over real gRPC: a cancelled call and a half-close are told
apart (gRPC reads both as the end of the stream; only a cancel cancels the
servicer after it). The other faults, and these two as the servicer sees
them, are tested in process: test_arena_in_memory.py."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import grpc
from arena_harness import Harness
from rawbot import Call, converse, hello, open_stream

from arena.engine.outcome import Termination
from arena.protocol import arena_pb2 as pb
from arena.server import PlayedGame

Act = Callable[[Call, pb.Decision], Awaitable[None]]


async def _raw_bot(address: str, name: str, token: str, act: Act) -> list[pb.PlayResponse]:
    """Say Hello, then at the first Decision do ``act``; return what was read
    (until the call ends, or a GameEnd)."""
    got: list[pb.PlayResponse] = []
    async with open_stream(address) as call:
        await hello(call, name, token)
        try:
            await converse(call, act, stop=lambda msg: msg.HasField("game_end"), keep=got)
        except (grpc.aio.AioRpcError, asyncio.CancelledError):
            pass  # the call ended (gRPC reads a cancelled call as CancelledError): what the arena says is the point
        finally:
            call.cancel()
    return got


def _game_with(h: Harness, name: str, act: Act) -> tuple[PlayedGame, list[pb.PlayResponse]]:
    token = h.token(name)
    bot = h.submit(_raw_bot(h.address, name, token, act))
    h.wait_for([name])
    record = h.play(name, "good-b", "argentino", seed=3)
    return record, bot.result(30)


def _assert_lost(record: PlayedGame, name: str, termination: Termination, reason: str) -> None:
    assert record.termination is termination, record.reason
    assert record.faulty_bot == name
    assert record.reason.startswith(f"seat 0 ({name}) "), record.reason
    assert reason in record.reason, record.reason


def test_a_cancel_by_the_client_is_named(harness: Harness) -> None:
    async def cancel(call: Call, d: pb.Decision) -> None:
        call.cancel()

    record, _ = _game_with(harness, "canceller", cancel)
    _assert_lost(record, "canceller", Termination.DISCONNECT, "disconnected (the stream was cancelled: by the bot")


def test_a_half_close_is_named(harness: Harness) -> None:
    async def half_close(call: Call, d: pb.Decision) -> None:
        await call.done_writing()

    record, got = _game_with(harness, "half-closer", half_close)
    _assert_lost(record, "half-closer", Termination.DISCONNECT, "disconnected (the bot closed its side of the stream)")


def test_a_forfeit_loses_with_its_text_made_printable_and_cut_and_stderr_is_bounded(harness: Harness) -> None:
    # What a hostile bot would send as Move.forfeit and Move.stderr: terminal
    # escapes, a forged second line, as much as one message can hold.
    async def forfeit(call: Call, d: pb.Decision) -> None:
        await call.write(pb.PlayRequest(move=pb.Move(
            game_id=d.game_id, seq=d.seq, forfeit="\x1b[2J\u202eboom\nseat 1 (good-b) cheated" + "x" * 30_000,
            stderr="\x1b[31m" + "e" * 30_000)))

    record, _ = _game_with(harness, "quitter", forfeit)
    _assert_lost(record, "quitter", Termination.PROTOCOL_ERROR, "gave up: \\x1b[2J\\u202eboom\\nseat 1 (good-b)")
    assert record.reason.isprintable() and "\n" not in record.reason and len(record.reason) < 300
    assert len(record.stderr) == 1 and record.stderr[0][0] == 0 and len(record.stderr[0][1]) == 2000
