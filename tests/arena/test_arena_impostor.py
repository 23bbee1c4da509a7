"""A process that holds the arena's port while the arena is down (an
impostor) sees every bot that reconnects. With the challenge-response Hello
it learns nothing it can log in with: the token never travels, a captured
Proof answers only the impostor's own Challenge, and the bot refuses a
Welcome that does not carry the real arena's signature."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import grpc
import pytest

from arena.protocol import arena_pb2 as pb
from arena.protocol import arena_pb2_grpc as pb_grpc
from arena.server import Arena

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]
TOKEN = "0123456789abcdef0123456789abcdef"


class Impostor(pb_grpc.ArenaServiceServicer):
    """Plays the arena's part of the handshake with its own nonce, keeps
    every byte the bot sends, and welcomes it with a signature it has to guess."""

    def __init__(self) -> None:
        self.raw: list[bytes] = []
        self.hellos: list[pb.Hello] = []
        self.proofs: list[pb.Proof] = []
        self.got_proof = asyncio.Event()

    async def Play(self, request_iterator, context):  # type: ignore[no-untyped-def]  # noqa: N802
        async for req in request_iterator:
            self.raw.append(req.SerializeToString())
            if req.HasField("hello"):
                self.hellos.append(req.hello)
                yield pb.PlayResponse(challenge=pb.Challenge(server_nonce=b"\x07" * 32))
            elif req.HasField("proof"):
                self.proofs.append(req.proof)
                self.got_proof.set()
                yield pb.PlayResponse(welcome=pb.Welcome(protocol_version=2, bot_name=self.hellos[-1].bot_name,
                                                         server_signature=os.urandom(32)))


async def impersonate() -> tuple[Impostor, str]:
    impostor = Impostor()
    server = grpc.aio.server()
    pb_grpc.add_ArenaServiceServicer_to_server(impostor, server)  # type: ignore[no-untyped-call]
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    env = dict(os.environ, TRUCO_ARENA_TOKEN=TOKEN, PYTHONPATH=str(REPO))
    bot = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "sample_bots.random_bot", "--address", f"127.0.0.1:{port}", "--name", "victim",
        env=env, cwd=REPO, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
    try:
        await asyncio.wait_for(impostor.got_proof.wait(), 30)
        await asyncio.sleep(1.0)  # the bot's answer to the fake Welcome
        assert bot.returncode is None, "the bot should keep trying for the real arena"
    finally:
        bot.kill()
        _, err = await bot.communicate()
        await server.stop(0)
    return impostor, err.decode()


async def replay(impostor: Impostor) -> list[pb.PlayResponse]:
    """Log in to the real arena with what the impostor captured."""
    arena = Arena()
    arena.add_token("victim", TOKEN)
    port = await arena.start("127.0.0.1:0")
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            call = pb_grpc.ArenaServiceStub(channel).Play()  # type: ignore[no-untyped-call]
            await call.write(pb.PlayRequest(hello=impostor.hellos[0]))
            challenge = await call.read()
            await call.write(pb.PlayRequest(proof=impostor.proofs[0]))
            verdict = await call.read()
            call.cancel()
            assert isinstance(challenge, pb.PlayResponse) and isinstance(verdict, pb.PlayResponse)
            assert not arena.bots()
            return [challenge, verdict]
    finally:
        await arena.stop(grace=0)


def test_an_impostor_on_the_port_learns_nothing_it_can_log_in_with() -> None:
    impostor, bot_err = asyncio.run(impersonate())
    captured = b"".join(impostor.raw)
    assert impostor.hellos and impostor.proofs
    for form in (TOKEN.encode(), bytes.fromhex(TOKEN), TOKEN.upper().encode()):
        assert form not in captured  # the token never travels, in any form
    assert "not the arena" in bot_err  # the bot saw through the fake Welcome
    challenge, verdict = asyncio.run(replay(impostor))
    assert challenge.challenge.server_nonce != b"\x07" * 32  # a fresh nonce: the captured Proof is for another
    assert verdict.status.code == pb.STATUS_CODE_UNAUTHENTICATED and verdict.status.closing
    assert "the proof matches no token of bot 'victim'" in verdict.status.message
