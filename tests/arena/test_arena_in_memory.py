"""The arena's servicer, streams and game loop in one process, over the
in-memory transport (tests/memory_transport.py): a game between
protocol-level bots, the clock, and the reason each fault is recorded with.
The same faults over real gRPC on loopback: test_arena_reasons.py and
test_arena_oversize_told.py; the clock against HTTP/2 flow control:
test_arena_clock.py."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import grpc
from memory_transport import MemoryArena, MemoryCall
from rawbot import Call, OnDecision, converse, hello, never, random_legal

from arena.engine import Game
from arena.engine.options import make_options
from arena.engine.outcome import Termination
from arena.protocol import arena_pb2 as pb
from arena.server import PlayedGame, TimeControl

CLOCK = TimeControl(move_time=1.0, bank=1.0)


async def _bot(call: MemoryCall, name: str, token: str, act: OnDecision | None, got: list[pb.PlayResponse],
               stop: Callable[[pb.PlayResponse], bool] = never) -> None:
    reply = await hello(call, name, token)
    assert reply is not None and reply.HasField("welcome"), reply
    try:
        await converse(call, act, stop=stop, keep=got)
    except ConnectionError:
        pass  # the arena ended the stream while the bot was writing: what it recorded is the point


async def _game(act: OnDecision | None, variant: str = "argentino", seed: int = 3, target: int = 9,
                stop: Callable[[pb.PlayResponse], bool] = never, told: bool = False, clock: TimeControl = CLOCK,
                ) -> tuple[PlayedGame, list[pb.PlayResponse], tuple[grpc.StatusCode, str] | None]:
    """One game: a bot that does ``act`` at each Decision in seat 0, a random
    legal bot in seat 1. The record, what seat 0 read, and (``told``: the
    arena ends seat 0's call) the status code and details it ended with."""
    async with MemoryArena(write_timeout=5.0) as m:
        arena = m.arena
        first, other = m.connect(), m.connect()
        got: list[pb.PlayResponse] = []
        bots = [asyncio.create_task(_bot(first, "first", arena.add_token("first"), act, got, stop)),
                asyncio.create_task(_bot(other, "other", arena.add_token("other"), random_legal(seed), []))]
        await arena.wait_for_bots(["first", "other"], 10.0)
        record = await arena.play_game("first", "other", make_options(variant, {"target": target}), seed, clock)
        ended = await asyncio.wait_for(first.ended(), 10.0) if told else None
        first.cancel()
        other.cancel()
        await asyncio.wait_for(asyncio.gather(*bots, return_exceptions=True), 10.0)
        return record, got, ended


def _assert_lost(record: PlayedGame, termination: Termination, reason: str) -> None:
    assert record.termination is termination, record.reason
    assert record.faulty_bot == "first" and record.faulty_seat == 0
    assert record.reason.startswith("seat 0 (first) "), record.reason
    assert reason in record.reason, record.reason


def test_two_protocol_bots_play_a_whole_game_that_replays() -> None:
    record, got, _ = asyncio.run(_game(random_legal(1), "uruguayo", seed=4))
    assert record.termination is Termination.TARGET_REACHED, record.reason
    assert max(record.scores) >= 9 and record.hands >= 1
    assert len(record.move_times) == len(record.actions)
    # The action log replays through the engine to the recorded score.
    state = Game(record.options).new_state(seed=record.seed)
    for line in record.actions:
        seat, text = line.split(" ", 1)
        assert state.current_player() == int(seat)
        state.apply(next(a for a in state.legal_actions() if str(a) == text))
    assert state.is_terminal() and tuple(state.scores) == tuple(record.scores)
    kinds = [m.WhichOneof("kind") for m in got]
    assert kinds[0] == "game_start" and "decision" in kinds and kinds[-1] == "game_end"


def test_a_bot_that_sits_on_its_decision_runs_out_of_time() -> None:
    clock = TimeControl(move_time=0.3, bank=0.3)  # the clock runs out whatever the load: a short one will do
    record, _, _ = asyncio.run(_game(None, clock=clock))
    _assert_lost(record, Termination.TIMEOUT, "")
    assert record.actions == ()  # seat 0 is mano: its first Decision was the game's first
    assert record.duration >= clock.move_time + clock.bank - 0.05  # its move time, then its whole bank


def test_a_message_over_64_kib_is_named_and_told() -> None:
    async def oversized(call: Call, d: pb.Decision) -> None:
        await call.write(pb.PlayRequest(move=pb.Move(game_id=d.game_id, seq=d.seq, action="x" * 100_000)))

    record, _, ended = asyncio.run(_game(oversized, told=True))
    _assert_lost(record, Termination.DISCONNECT, "sent a message over 64 KiB (100")
    assert ended is not None
    code, details = ended
    assert code is grpc.StatusCode.RESOURCE_EXHAUSTED and details.startswith("sent a message over 64 KiB (100")


def test_bytes_that_are_not_a_play_request_are_named_and_told() -> None:
    async def garbled(call: Call, d: pb.Decision) -> None:
        await call.write_bytes(b"\xff\xff\xff\xff")

    record, _, ended = asyncio.run(_game(garbled, told=True))
    _assert_lost(record, Termination.DISCONNECT, "sent 4 bytes that are not a PlayRequest")
    assert ended is not None
    code, details = ended
    assert code is grpc.StatusCode.INVALID_ARGUMENT and details == "sent 4 bytes that are not a PlayRequest"


def test_a_cancelled_call_is_named() -> None:
    async def cancel(call: Call, d: pb.Decision) -> None:
        call.cancel()

    record, _, _ = asyncio.run(_game(cancel))
    _assert_lost(record, Termination.DISCONNECT, "disconnected (the stream was cancelled: by the bot")


def test_a_half_close_is_named() -> None:
    async def half_close(call: Call, d: pb.Decision) -> None:
        await call.done_writing()

    record, _, _ = asyncio.run(_game(half_close))
    _assert_lost(record, Termination.DISCONNECT, "disconnected (the bot closed its side of the stream)")


def test_a_move_for_another_game_is_a_protocol_error_cut_to_200_characters_for_the_seats() -> None:
    async def long_id(call: Call, d: pb.Decision) -> None:
        await call.write(pb.PlayRequest(move=pb.Move(game_id="\u00e9" * 5000, seq=d.seq, action="mazo")))

    record, got, _ = asyncio.run(_game(long_id, stop=lambda m: m.HasField("game_end")))
    _assert_lost(record, Termination.PROTOCOL_ERROR, "Move for unknown game id")
    assert len(record.reason) > 5000  # the record keeps it; only what goes back to seats is cut
    status = next(m.status for m in got if m.HasField("status"))
    end = next(m.game_end for m in got if m.HasField("game_end"))
    assert status.code == pb.STATUS_CODE_PROTOCOL_ERROR
    assert len(status.message) == 200 and status.message.endswith("...")
    assert len(end.reason) == 200 and end.reason.startswith("seat 0 (first) sent a bad message")


def test_a_wrong_seq_an_illegal_action_and_a_malformed_one_each_lose_the_game() -> None:
    def answer(seq_offset: int, text: str | None) -> OnDecision:
        async def act(call: Call, d: pb.Decision) -> None:
            action = d.legal_actions[0] if text is None else text
            await call.write(pb.PlayRequest(move=pb.Move(game_id=d.game_id, seq=d.seq + seq_offset, action=action)))

        return act

    record, _, _ = asyncio.run(_game(answer(5, None)))
    _assert_lost(record, Termination.PROTOCOL_ERROR, "Move with seq")
    record, _, _ = asyncio.run(_game(answer(0, "vale_cuatro")))  # well formed, not legal before a truco
    _assert_lost(record, Termination.ILLEGAL_ACTION, "")
    record, _, _ = asyncio.run(_game(answer(0, "nonsense")))
    _assert_lost(record, Termination.PROTOCOL_ERROR, "")
