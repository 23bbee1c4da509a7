"""A bot whose message is too large, or not a PlayRequest, is told why: the
call ends with a non-OK gRPC status carrying the reason the arena records,
not with OK as if the arena had simply hung up."""

from __future__ import annotations

import asyncio

import grpc
from arena_harness import Harness
from rawbot import open_stream

from arena.protocol import PROTOCOL_VERSION
from arena.protocol import arena_pb2 as pb
from arena.protocol.handshake import auth_message, client_proof, new_nonce


async def _call(address: str, first: bytes, at_decision: bytes | None = None, token: str | None = None
                ) -> tuple[grpc.StatusCode, str, list[pb.PlayResponse]]:
    """Write ``first`` (a Hello when ``token`` is given: the handshake then
    answers the arena's Challenge); at the first Decision write
    ``at_decision``; return how the call ended."""
    got: list[pb.PlayResponse] = []
    async with open_stream(address) as call:
        await call.write_bytes(first)
        try:
            async with asyncio.timeout(30):
                while (msg := await call.read()) is not None:
                    got.append(msg)
                    if msg.HasField("challenge") and token is not None:
                        hello = pb.PlayRequest.FromString(first).hello
                        auth = auth_message(hello.bot_name, hello.client_nonce, msg.challenge.server_nonce)
                        await call.write(pb.PlayRequest(proof=pb.Proof(client_proof=client_proof(token, auth))))
                    if msg.HasField("decision") and at_decision is not None:
                        await call.write_bytes(at_decision)
        except grpc.aio.AioRpcError as exc:
            return exc.code(), exc.details() or "", got
        return await call.code(), await call.details(), got


def _hello(name: str, version: str = "") -> bytes:
    data: bytes = pb.PlayRequest(hello=pb.Hello(bot_name=name, protocol_version=PROTOCOL_VERSION,
                                                client_nonce=new_nonce(), bot_version=version)).SerializeToString()
    return data


def test_a_70_kib_hello_ends_the_call_resource_exhausted_with_the_reason(harness: Harness) -> None:
    code, details, got = harness.submit(_call(harness.address, _hello("big", "v" * 70_000))
                                        ).result(60)
    assert code is grpc.StatusCode.RESOURCE_EXHAUSTED, (code, details)
    assert details.startswith("sent a message over 64 KiB (700"), details
    assert not any(m.HasField("welcome") for m in got)
    harness.assert_serving()


def test_a_100_kib_move_ends_the_call_resource_exhausted_with_the_reason(harness: Harness) -> None:
    name = "big-move"
    token = harness.token(name)

    async def bot() -> tuple[grpc.StatusCode, str, list[pb.PlayResponse]]:
        move = pb.PlayRequest(move=pb.Move(game_id="", seq=0, action="x" * 100_000)).SerializeToString()
        return await _call(harness.address, _hello(name), move, token=token)

    future = harness.submit(bot())
    harness.wait_for([name])
    record = harness.play(name, "good-b", "argentino", seed=3)
    code, details, got = future.result(60)
    assert "sent a message over 64 KiB (100" in record.reason
    assert code is grpc.StatusCode.RESOURCE_EXHAUSTED, (code, details)
    assert details.startswith("sent a message over 64 KiB (100"), details
    assert any(m.HasField("decision") for m in got)


def test_bytes_that_are_not_a_play_request_end_the_call_invalid_argument(harness: Harness) -> None:
    code, details, _ = harness.submit(_call(harness.address, b"\xff\xff\xff\xff")).result(60)
    assert code is grpc.StatusCode.INVALID_ARGUMENT, (code, details)
    assert details == "sent 4 bytes that are not a PlayRequest"
