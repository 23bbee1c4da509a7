"""Admission: a bad Hello is refused with a clear Status, and the bot process
exits with a one-line error and a non-zero code."""

from __future__ import annotations

import asyncio
from pathlib import Path

import grpc
from arena_harness import Harness
from rawbot import hello, open_stream

from arena.protocol import PROTOCOL_VERSION
from arena.protocol import arena_pb2 as pb
from arena.protocol import arena_pb2_grpc as pb_grpc
from arena.protocol.handshake import say_hello

# An arena that does not know a bot's token cannot sign its refusal, and an
# unsigned refusal may come from a squatter: the bot retries it for
# --retry-for seconds, then exits with the refusal.
UNSIGNED = ("--retry-for", "1.5")


def test_unknown_token_is_rejected(harness: Harness) -> None:
    proc = harness.spawn("sample_bots.random_bot", "intruder", *UNSIGNED, token="not-a-token")
    assert proc.wait() == 2
    err = proc.stderr().strip().splitlines()
    assert err[-1] == ("random_bot: rejected by the arena: no token is issued for bot 'intruder' (refused without "
                       "the arena's signature for 1.5 s: a wrong token, or not the arena)"), err


def test_token_of_another_bot_is_rejected(harness: Harness) -> None:
    token = harness.token("owner")
    harness.token("impostor")
    proc = harness.spawn("sample_bots.random_bot", "impostor", *UNSIGNED, token=token)
    assert proc.wait() == 2
    assert "the proof matches no token of bot 'impostor' (wrong token?)" in proc.stderr()


def test_wrong_protocol_version_is_rejected(harness: Harness) -> None:
    proc = harness.spawn("sample_bots.misbehaving", "old-timer", "--mode", "bad_version", *UNSIGNED)
    assert proc.wait() == 2
    err = proc.stderr().strip().splitlines()
    assert "rejected by the arena: protocol version 99 is not supported: this arena speaks 2 and 3 (3 is current)" in err[-1], err


def test_name_taken_by_another_token(harness: Harness) -> None:
    token = harness.token("popular")
    first = harness.spawn("sample_bots.random_bot", "popular", token=token)
    harness.wait_for(["popular"], [first])
    second = harness.spawn("sample_bots.random_bot", "popular", token=harness.token("popular"))
    assert second.wait() == 2  # at once: the refusal comes after the Proof, signed
    assert "bot name 'popular' is already connected with another token" in second.stderr()
    assert first.alive()
    # More streams with the first token are fine.
    third = harness.spawn("sample_bots.random_bot", "popular", token=token)
    harness.wait_for({"popular": 2}, [third])


def test_first_message_must_be_a_hello(harness: Harness) -> None:
    async def talk() -> list[pb.PlayResponse]:
        async with grpc.aio.insecure_channel(harness.address) as channel:
            call = pb_grpc.ArenaServiceStub(channel).Play()  # type: ignore[no-untyped-call]
            await call.write(pb.PlayRequest(move=pb.Move(game_id="x", seq=1, action="mazo")))
            out = []
            async for msg in call:
                out.append(msg)
            return out

    replies = asyncio.run(talk())
    assert len(replies) == 1
    s = replies[0].status
    assert s.code == pb.STATUS_CODE_BAD_HELLO and s.closing
    assert s.message == "the first message must be a Hello"


def test_unsolicited_move_outside_a_game_is_only_a_warning(harness: Harness) -> None:
    token = harness.token("chatty")

    async def talk() -> tuple[pb.PlayResponse, pb.PlayResponse]:
        async with grpc.aio.insecure_channel(harness.address) as channel:
            call = pb_grpc.ArenaServiceStub(channel).Play()  # type: ignore[no-untyped-call]
            welcome = await say_hello(call, "chatty", token)
            await call.write(pb.PlayRequest(move=pb.Move(game_id="g", seq=7, action="mazo")))
            warning = await call.read()
            call.cancel()
            return welcome, warning

    welcome, warning = asyncio.run(talk())
    assert welcome.welcome.bot_name == "chatty" and welcome.welcome.protocol_version == PROTOCOL_VERSION
    assert warning.status.code == pb.STATUS_CODE_PROTOCOL_ERROR and not warning.status.closing
    assert "no game in progress" in warning.status.message


def test_silent_stream_gets_a_bad_hello_after_the_hello_timeout(log_dir: Path) -> None:
    h = Harness(log_dir, hello_timeout=0.3)
    try:
        async def talk() -> list[pb.PlayResponse]:
            async with grpc.aio.insecure_channel(h.address) as channel:
                call = pb_grpc.ArenaServiceStub(channel).Play()  # type: ignore[no-untyped-call]
                return [msg async for msg in call]

        replies = asyncio.run(talk())
        assert [r.status.code for r in replies] == [pb.STATUS_CODE_BAD_HELLO]
        assert replies[0].status.message == "no Hello within 0.3 s" and replies[0].status.closing
    finally:
        h.close()


def _hello_reply(address: str, name: str, version: str, token: str) -> pb.PlayResponse:
    async def talk() -> pb.PlayResponse:
        async with open_stream(address) as call:
            reply = await hello(call, name, token, version)
            call.cancel()
            assert reply is not None
            return reply

    return asyncio.run(talk())


def test_names_and_versions_outside_the_limits_are_refused(harness: Harness) -> None:
    token = harness.token("capped")
    # 60 KB of terminal escapes as a version: refused, quoted short and harmless.
    reply = _hello_reply(harness.address, "capped", "\x1b[2J\x1b[31m" * 6000, token)
    assert reply.status.code == pb.STATUS_CODE_BAD_HELLO and reply.status.closing
    assert reply.status.message.startswith("bot_version '\\x1b[2J") and "at most 64" in reply.status.message
    assert len(reply.status.message) < 200 and "\x1b" not in reply.status.message
    assert _hello_reply(harness.address, "capped", "v" * 65, token).status.code == pb.STATUS_CODE_BAD_HELLO
    assert _hello_reply(harness.address, "capped", "1.0 beta", token).status.code == pb.STATUS_CODE_BAD_HELLO
    long_name = _hello_reply(harness.address, "n" * 65, "1.0", token).status
    assert long_name.code == pb.STATUS_CODE_BAD_HELLO and long_name.message.startswith("bot_name 'nnn")
    # At the limits, with every allowed character: welcome.
    assert _hello_reply(harness.address, "capped", "v1.2_3-rc+git:ab~" + "x" * 47, token).HasField("welcome")
    assert _hello_reply(harness.address, "capped", "", token).HasField("welcome")
