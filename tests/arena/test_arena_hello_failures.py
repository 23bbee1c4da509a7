"""Failed Hellos: each is logged at WARNING with the peer's address, and
repeated failures from one host are refused more and more slowly."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import grpc
import pytest
from arena_harness import Harness
from rawbot import hello, open_stream

from arena.protocol import arena_pb2 as pb
from arena.protocol import arena_pb2_grpc as pb_grpc
from arena.protocol.handshake import say_hello
from arena.server.admission import AdmissionCaps
from arena.server.throttle import HelloThrottle, ThrottlePolicy, peer_host


async def _hello(address: str, name: str, token: str) -> pb.PlayResponse:
    async with open_stream(address) as call:
        reply = await hello(call, name, token)
        call.cancel()
        assert reply is not None
        return reply


def test_failed_hellos_are_logged_with_the_peer_and_slowed(log_dir: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="arena.server")
    policy = ThrottlePolicy(free=2, base=0.05, cap=0.1)
    h = Harness(log_dir, throttle_policy=policy)
    try:
        good = h.token("honest")
        for _ in range(4):
            reply = asyncio.run(_hello(h.address, "guesser", "not-a-token"))
            assert reply.status.code == pb.STATUS_CODE_UNAUTHENTICATED and reply.status.closing
        failed = [r for r in caplog.records if r.getMessage().startswith("hello failed from ipv4:127.0.0.1:")]
        assert len(failed) == 4 and all(r.levelno == logging.WARNING for r in failed)
        messages = [r.getMessage() for r in failed]
        assert all("UNAUTHENTICATED: no token is issued for bot 'guesser'" in m for m in messages)
        # The first two are refused at once; then the delay grows, up to the cap.
        assert ["refused after" in m for m in messages] == [False, False, True, True]
        assert "(refused after 0.05 s: repeated failures)" in messages[2]
        assert "(refused after 0.1 s: repeated failures)" in messages[3]

        async def failures() -> int:
            return h.arena.hello_throttle.failures("ipv4:127.0.0.1")

        assert h.call(failures()) == 4
        # A good Hello from the host starts its count again.
        assert asyncio.run(_hello(h.address, "honest", good)).HasField("welcome")
        assert h.call(failures()) == 0
    finally:
        h.close()


def test_a_missing_hello_is_logged(log_dir: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="arena.server")
    h = Harness(log_dir, hello_timeout=0.2)
    try:
        async def silent() -> None:
            async with grpc.aio.insecure_channel(h.address) as channel:
                call = pb_grpc.ArenaServiceStub(channel).Play()  # type: ignore[no-untyped-call]
                assert [m.status.code async for m in call] == [pb.STATUS_CODE_BAD_HELLO]

        asyncio.run(silent())
        assert any(
            r.getMessage().startswith("hello failed from ipv4:127.0.0.1:") and "no Hello within 0.2 s" in r.getMessage()
            for r in caplog.records
        )
    finally:
        h.close()


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_throttle_grows_caps_forgets_and_stays_bounded() -> None:
    clock = _Clock()
    t = HelloThrottle(ThrottlePolicy(free=1, base=1.0, cap=4.0, forget_after=60.0, max_hosts=3), clock)
    assert [t.record_failure("a") for _ in range(5)] == [0.0, 1.0, 2.0, 4.0, 4.0]
    assert t.record_failure("b") == 0.0
    clock.now = 61.0  # "a" and "b" have been quiet for longer than forget_after
    assert t.failures("a") == 0
    assert t.record_failure("a") == 0.0
    assert len(t) == 1  # the stale entries went
    for host in ("c", "d", "e", "f"):
        t.record_failure(host)
    assert len(t) == 3  # at most max_hosts, the least recent forgotten first
    assert t.failures("a") == 0 and t.failures("f") == 1


def test_peer_host_drops_the_port() -> None:
    assert peer_host("ipv4:10.1.2.3:5555") == "ipv4:10.1.2.3"
    assert peer_host("ipv6:[::1]:5555") == "ipv6:[::1]"
    assert peer_host("unix:/tmp/sock") == "unix:/tmp/sock"


def test_past_the_waiting_cap_the_oldest_silent_stream_makes_room(log_dir: Path) -> None:
    caps = AdmissionCaps(per_connection=2, per_host=3, total=3)
    # The two silent streams left end at their Hello deadline; the good bot's
    # Hello, in the same process, takes milliseconds of it.
    h = Harness(log_dir, hello_timeout=2.0, admission_caps=caps)
    try:
        good = h.token("good")

        async def ending(call: grpc.aio.StreamStreamCall) -> str:
            try:
                msg = await call.read()
                return str(pb.StatusCode.Name(msg.status.code))
            except grpc.aio.AioRpcError as exc:
                return f"{exc.code().name}: {exc.details()}"

        async def flood() -> tuple[str, list[str], int]:
            # The silent streams on their own connection, the bot on another.
            silent = grpc.aio.insecure_channel(h.address, options=[("grpc.use_local_subchannel_pool", 1)])
            async with silent, grpc.aio.insecure_channel(h.address) as channel:
                stub = pb_grpc.ArenaServiceStub(silent)  # type: ignore[no-untyped-call]
                waiting = [stub.Play() for _ in range(3)]
                for c in waiting:
                    try:
                        await c.wait_for_connection()
                    except grpc.aio.AioRpcError:
                        pass  # already evicted by the third (a slow test process): ending() reads why
                while h.evictions < 1:  # the arena runs on its own loop
                    await asyncio.sleep(0.01)
                call = pb_grpc.ArenaServiceStub(channel).Play()  # type: ignore[no-untyped-call]
                welcome = await say_hello(call, "good", good)
                assert isinstance(welcome, pb.PlayResponse)
                call.cancel()
                # One silent stream made room for the third (two per connection);
                # the two left still get their Hello deadline.
                endings = sorted(await asyncio.gather(*(ending(c) for c in waiting)))
                return welcome.WhichOneof("kind") or "", endings, h.evictions

        kind, endings, evictions = asyncio.run(flood())
        assert kind == "welcome"
        assert endings[:2] == ["STATUS_CODE_BAD_HELLO", "STATUS_CODE_BAD_HELLO"]
        assert endings[2].startswith("UNAVAILABLE: evicted before its Hello"), endings
        assert evictions == 1
    finally:
        h.close()
