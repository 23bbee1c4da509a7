"""Close reasons say what happened: a message over 64 KiB, bytes that are not
a PlayRequest, a cancelled call and a half-close are told apart; a reason
echoed to a seat is cut to 200 characters, whatever a bot put in it."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import grpc
from arena_harness import Harness
from rawbot import RawCall, converse, hello, open_stream

from arena.engine.outcome import Termination
from arena.protocol import arena_pb2 as pb
from arena.server import PlayedGame

Act = Callable[[RawCall, pb.Decision], Awaitable[None]]


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


def test_a_message_over_64_kib_is_named(harness: Harness) -> None:
    async def oversized(call: RawCall, d: pb.Decision) -> None:
        move = pb.PlayRequest(move=pb.Move(game_id=d.game_id, seq=d.seq, action="x" * 100_000))
        await call.write(move)

    record, _ = _game_with(harness, "oversized", oversized)
    _assert_lost(record, "oversized", Termination.DISCONNECT, "sent a message over 64 KiB (100")
    harness.assert_serving()


def test_bytes_that_are_not_a_play_request_are_named(harness: Harness) -> None:
    async def garbled(call: RawCall, d: pb.Decision) -> None:
        await call.write_bytes(b"\xff\xff\xff\xff")

    record, _ = _game_with(harness, "garbled", garbled)
    _assert_lost(record, "garbled", Termination.DISCONNECT, "sent 4 bytes that are not a PlayRequest")


def test_a_cancel_by_the_client_is_named(harness: Harness) -> None:
    async def cancel(call: RawCall, d: pb.Decision) -> None:
        call.cancel()

    record, _ = _game_with(harness, "canceller", cancel)
    _assert_lost(record, "canceller", Termination.DISCONNECT, "disconnected (the stream was cancelled: by the bot")


def test_a_half_close_is_named(harness: Harness) -> None:
    async def half_close(call: RawCall, d: pb.Decision) -> None:
        await call.done_writing()

    record, got = _game_with(harness, "half-closer", half_close)
    _assert_lost(record, "half-closer", Termination.DISCONNECT, "disconnected (the bot closed its side of the stream)")


def test_reasons_to_seats_are_cut_to_200_characters(harness: Harness) -> None:
    async def long_id(call: RawCall, d: pb.Decision) -> None:
        move = pb.PlayRequest(move=pb.Move(game_id="\u00e9" * 5000, seq=d.seq, action="mazo"))
        await call.write(move)

    record, got = _game_with(harness, "long-winded", long_id)
    _assert_lost(record, "long-winded", Termination.PROTOCOL_ERROR, "Move for unknown game id")
    assert len(record.reason) > 5000  # the record keeps it; only what goes back to seats is cut
    status = next(m.status for m in got if m.HasField("status"))
    end = next(m.game_end for m in got if m.HasField("game_end"))
    assert status.code == pb.STATUS_CODE_PROTOCOL_ERROR
    assert len(status.message) == 200 and status.message.endswith("...")
    assert len(end.reason) == 200 and end.reason.startswith("seat 0 (long-winded) sent a bad message")
