"""Protocol 3 sends what a seat learns between two of its Decisions in one
Batch with the next one: the same messages as protocol 2, in the same order,
in one write per Decision plus one per game. Both versions play in one game."""

from __future__ import annotations

import asyncio

import grpc
from rawbot import Call, first_legal, hello, open_stream

from arena.engine.options import make_options
from arena.engine.outcome import Termination
from arena.protocol import arena_pb2 as pb
from arena.server import Arena, PlayedGame, TimeControl

CLOCK = TimeControl(move_time=5.0, bank=10.0)


async def recording_bot(address: str, name: str, token: str, protocol: int,
                        writes: list[pb.PlayResponse]) -> None:
    """Answers with the first legal action; ``writes`` gets every message as
    it came off the stream (a Batch whole), until the GameEnd."""

    async with open_stream(address) as call:
        welcome = await hello(call, name, token, protocol=protocol)
        assert welcome is not None and welcome.welcome.protocol_version == protocol, welcome
        while True:  # call.call: the stream itself, Batches unopened
            msg = await call.call.read()
            if msg is grpc.aio.EOF:
                return
            writes.append(msg)
            inner = list(msg.batch.messages) if msg.HasField("batch") else [msg]
            for m in inner:
                if m.HasField("decision"):
                    await first_legal(call, m.decision)
            if inner[-1].HasField("game_end"):
                return


async def one_game(protocols: tuple[int, int], seed: int) -> tuple[PlayedGame, list[list[pb.PlayResponse]]]:
    arena = Arena()
    port = await arena.start("127.0.0.1:0")
    address = f"127.0.0.1:{port}"
    writes: list[list[pb.PlayResponse]] = [[], []]
    names = ("zero", "one")
    bots = [asyncio.create_task(recording_bot(address, n, arena.add_token(n), p, w))
            for n, p, w in zip(names, protocols, writes, strict=True)]
    try:
        await arena.wait_for_bots(list(names), 20.0)
        r = await arena.play_game("zero", "one", make_options("uruguayo", {"target": 15}), seed, CLOCK)
        await asyncio.wait_for(asyncio.gather(*bots), 20.0)
        return r, writes
    finally:
        await arena.stop(grace=0.5)
        for b in bots:
            b.cancel()


def unpacked(writes: list[pb.PlayResponse], game_id: str) -> list[pb.PlayResponse]:
    """The messages of ``writes``, Batches opened, with the game id blanked."""
    out = []
    for w in writes:
        for m in (list(w.batch.messages) if w.HasField("batch") else [w]):
            m = pb.PlayResponse.FromString(m.SerializeToString())
            kind = m.WhichOneof("kind")
            assert kind is not None and kind != "batch"
            assert getattr(m, kind).game_id == game_id
            getattr(m, kind).game_id = ""
            out.append(m)
    return out


def test_version_3_sends_the_same_messages_in_one_write_per_decision() -> None:
    seed = 11
    old, old_writes = asyncio.run(one_game((2, 2), seed))
    new, new_writes = asyncio.run(one_game((3, 3), seed))
    assert old.termination is new.termination is Termination.TARGET_REACHED, (old.reason, new.reason)
    assert old.actions == new.actions and old.hands >= 3
    for seat in (0, 1):
        assert unpacked(old_writes[seat], old.game_id) == unpacked(new_writes[seat], new.game_id)
        assert not any(w.HasField("batch") for w in old_writes[seat])
        decisions = sum(1 for line in new.actions if line.startswith(f"{seat} "))
        # One write per Decision (alone, or last in a Batch), plus the game's end.
        assert len(new_writes[seat]) == decisions + 1, [w.WhichOneof("kind") for w in new_writes[seat]]
        for w in new_writes[seat][:-1]:
            last = w.batch.messages[-1] if w.HasField("batch") else w
            assert last.HasField("decision")
        assert new_writes[seat][-1].batch.messages[-1].HasField("game_end")


def test_versions_2_and_3_play_one_game_together() -> None:
    r, writes = asyncio.run(one_game((2, 3), 5))
    assert r.termination is Termination.TARGET_REACHED, r.reason
    assert not any(w.HasField("batch") for w in writes[0])
    assert any(w.HasField("batch") for w in writes[1])
    assert [m.WhichOneof("kind") for m in unpacked(writes[1], r.game_id)][0] == "game_start"


def test_a_fault_ends_the_game_with_status_hand_end_and_game_end_in_one_batch() -> None:
    async def run() -> tuple[PlayedGame, list[pb.PlayResponse]]:
        arena = Arena()
        port = await arena.start("127.0.0.1:0")
        address = f"127.0.0.1:{port}"
        writes: list[pb.PlayResponse] = []

        async def cheat(call: Call, d: pb.Decision) -> None:
            await call.write(pb.PlayRequest(move=pb.Move(game_id=d.game_id, seq=d.seq, action="vale_cuatro")))

        async def cheater(token: str) -> None:
            async with open_stream(address) as call:
                await hello(call, "cheater", token)
                while (msg := await call.call.read()) is not grpc.aio.EOF:
                    writes.append(msg)
                    inner = list(msg.batch.messages) if msg.HasField("batch") else [msg]
                    if inner[-1].HasField("decision"):
                        await cheat(call, inner[-1].decision)
                    if inner[-1].HasField("game_end"):
                        return

        bots = [asyncio.create_task(cheater(arena.add_token("cheater"))),
                asyncio.create_task(recording_bot(address, "fair", arena.add_token("fair"), 3, []))]
        try:
            await arena.wait_for_bots(["cheater", "fair"], 20.0)
            r = await arena.play_game("cheater", "fair", make_options("uruguayo"), 3, CLOCK)
            await asyncio.wait_for(asyncio.gather(*bots), 20.0)
            return r, writes
        finally:
            await arena.stop(grace=0.5)

    r, writes = asyncio.run(run())
    assert r.termination is Termination.ILLEGAL_ACTION and r.faulty_seat == 0, r.reason
    assert len(writes) == 2  # the first Decision (with the GameStart), then the end
    assert [m.WhichOneof("kind") for m in writes[0].batch.messages] == ["game_start", "decision"]
    assert [m.WhichOneof("kind") for m in writes[1].batch.messages] == ["status", "hand_end", "game_end"]
    assert writes[1].batch.messages[0].status.code == pb.STATUS_CODE_ILLEGAL_ACTION
