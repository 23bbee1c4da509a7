"""Property: whatever sequence of PlayRequests a misbehaving client sends over
real gRPC (hellos and moves with arbitrary field values: long strings, huge
seq, wrong game ids, any unicode, empty requests), the arena never fails the
call, answers only with a Welcome or Status messages (a closing Status, if
any, last), and keeps serving well-behaved bots."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from arena_harness import Harness
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.protocol import arena_pb2 as pb
from arena.protocol import arena_pb2_grpc as pb_grpc
from arena.server.throttle import ThrottlePolicy

FUZZ_NAME = "fuzz"
FUZZ_TOKEN = "fuzz-token-0123456789abcdef"

# Mostly short text, sometimes a long run of one character (cheap to make,
# and past 64 KiB it is an oversized message).
texts = st.one_of(
    st.text(max_size=40),
    st.builds(lambda c, n: c * n, st.characters(), st.sampled_from([200, 5_000, 70_000])),
)
hellos = st.builds(
    pb.Hello,
    bot_name=st.one_of(st.just(FUZZ_NAME), texts),
    bot_version=texts,
    protocol_version=st.one_of(st.sampled_from([2, 3]), st.integers(0, 2**32 - 1)),
    client_nonce=st.binary(max_size=80),
)
proofs = st.builds(pb.Proof, client_proof=st.binary(max_size=40))
moves = st.builds(
    pb.Move,
    game_id=texts,
    seq=st.one_of(st.integers(0, 3), st.integers(0, 2**64 - 1)),
    action=st.one_of(st.sampled_from(["mazo", "play 1E", "quiero", ""]), texts),
)
requests = st.one_of(
    st.builds(lambda h: pb.PlayRequest(hello=h), hellos),
    st.builds(lambda m: pb.PlayRequest(move=m), moves),
    st.builds(lambda p: pb.PlayRequest(proof=p), proofs),
    st.just(pb.PlayRequest()),
)


@pytest.fixture(scope="module")
def fuzz_harness(log_dir: Path) -> Iterator[Harness]:
    # Bad tokens come by the dozen here: no throttling, it is tested elsewhere.
    h = Harness(log_dir, throttle_policy=ThrottlePolicy(free=10**9))
    procs = [h.spawn("sample_bots.random_bot", n, "--seed", str(i)) for i, n in enumerate(("good-a", "good-b"))]
    h.wait_for(["good-a", "good-b"], procs)
    h.token(FUZZ_NAME, FUZZ_TOKEN)
    errors = _ErrorLog()
    logging.getLogger().addHandler(errors)
    try:
        yield h
        assert not errors.records, [r.getMessage() for r in errors.records]
    finally:
        logging.getLogger().removeHandler(errors)
        h.close()


class _ErrorLog(logging.Handler):
    """Collects ERROR records: gRPC logs a servicer's exception there, asyncio
    an exception no task retrieved."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


async def _misbehave(
    address: str, sequence: list[pb.PlayRequest]
) -> tuple[list[pb.PlayResponse], grpc.StatusCode, bool]:
    """Send ``sequence``, half-close, read to the end: (replies, the call's
    final code, whether a write failed because the arena had ended the call)."""
    write_failed = False
    async with grpc.aio.insecure_channel(address) as channel:
        call = pb_grpc.ArenaServiceStub(channel).Play()  # type: ignore[no-untyped-call]
        for request in sequence:
            if call.done():
                break
            try:
                await call.write(request)
            except (grpc.aio.AioRpcError, grpc.aio.UsageError, asyncio.InvalidStateError):
                write_failed = True  # the arena ended the call
                break
        try:
            await call.done_writing()
        except (grpc.aio.AioRpcError, grpc.aio.UsageError, asyncio.InvalidStateError):
            pass
        got: list[pb.PlayResponse] = []
        try:
            async with asyncio.timeout(15):
                async for msg in call:
                    got.append(msg)
        except grpc.aio.AioRpcError:
            pass  # the final code says what happened
        return got, await call.code(), write_failed


@pytest.mark.filterwarnings("ignore:Generating overly large repr")
@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                HealthCheck.too_slow, HealthCheck.data_too_large])
@given(sequence=st.lists(requests, max_size=6))
def test_arena_survives_arbitrary_requests(fuzz_harness: Harness, sequence: list[pb.PlayRequest]) -> None:
    got, code, write_failed = asyncio.run(_misbehave(fuzz_harness.address, sequence))
    # OK: the arena ended the call itself. A client write racing with the end
    # of the call fails in the client's gRPC core, which then reports INTERNAL
    # locally. A servicer that raised would show as UNKNOWN.
    # A message over the arena's own limit ends the call RESOURCE_EXHAUSTED
    # with the reason (docs/protocol.md).
    over_limit = any(r.ByteSize() > fuzz_harness.arena.max_receive_bytes for r in sequence)
    assert (
        code is grpc.StatusCode.OK
        or (write_failed and code is grpc.StatusCode.INTERNAL)
        or (over_limit and code in (grpc.StatusCode.RESOURCE_EXHAUSTED, grpc.StatusCode.CANCELLED))
    ), (code, got)
    kinds = [m.WhichOneof("kind") for m in got]
    # Random bytes never make a valid Proof: at most a Challenge, never a Welcome.
    assert set(kinds) <= {"challenge", "status"}, kinds
    assert kinds.count("challenge") <= 1 and ("challenge" not in kinds or kinds[0] == "challenge"), kinds
    closing = [i for i, m in enumerate(got) if m.HasField("status") and m.status.closing]
    assert closing in ([], [len(got) - 1]), got
    assert all(len(m.status.message) <= 200 for m in got if m.HasField("status"))


def test_arena_still_serves_after_the_fuzzing(fuzz_harness: Harness) -> None:
    fuzz_harness.assert_serving()

    async def connected() -> set[str]:
        return set(fuzz_harness.arena.bots())

    assert fuzz_harness.call(connected()) == {"good-a", "good-b"}
