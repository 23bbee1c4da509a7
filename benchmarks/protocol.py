"""Decisions per second and latency through the arena, next to a bare
grpc.aio bidi echo that moves messages of the same sizes.

    python benchmarks/protocol.py [--runs 5] [--seconds 2]

Everything runs in this process, over real gRPC on loopback. The arena plays
uruguayo games between two SDK random bots (the full client path:
Observation, Bot.choose) and between two raw protocol bots (a random legal
text straight from the Decision: the arena's own cost). The echo is a
raw-bytes stream_stream service where the server sends a Decision-sized
message and the client answers with a Move-sized one: the arena's message
pattern without the engine, protobuf, HandEnd/GameStart/GameEnd messages or
bots. Each figure is the median of ``--runs`` interleaved runs; latency is
the server-side time from sending a Decision to receiving its answer.
Goal: the arena reaches >= 60% of the echo's decisions/s.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import statistics
import sys
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path

import grpc

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.engine.options import make_options  # noqa: E402
from arena.server import Arena, TimeControl  # noqa: E402
from sample_bots.random_bot import RandomBot  # noqa: E402
from sdk.client import run_async  # noqa: E402

VARIANT = "uruguayo"
CLOCK = TimeControl(move_time=5.0, bank=60.0)


@dataclass
class Sample:
    decisions: int
    seconds: float
    latencies: list[float]

    @property
    def rate(self) -> float:
        return self.decisions / self.seconds


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


# ----------------------------------------------------------------- the arena


async def arena_run(arena: Arena, games: int, seconds: float, seed0: int, pair: str = "sdk") -> Sample:
    """Keep ``games`` games going for about ``seconds``; count decisions."""
    options = make_options(VARIANT)
    stop_at = time.perf_counter() + seconds
    decisions = 0
    latencies: list[float] = []
    seed = seed0

    async def lane(i: int) -> None:
        nonlocal decisions, seed
        while time.perf_counter() < stop_at:
            seed += 1
            a, b = (f"{pair}-a", f"{pair}-b") if seed % 2 else (f"{pair}-b", f"{pair}-a")
            r = await arena.play_game(a, b, options, seed, CLOCK)
            if r.termination.value != "target_reached":
                raise RuntimeError(f"benchmark game failed: {r.reason}")
            decisions += len(r.actions)
            latencies.extend(r.move_times)

    start = time.perf_counter()
    await asyncio.gather(*(lane(i) for i in range(games)))
    return Sample(decisions, time.perf_counter() - start, latencies)


async def message_sizes(arena: Arena) -> tuple[int, int]:
    """Mean serialized sizes of a Decision and of a Move in a real game."""
    from arena.engine import Action, Game

    from arena.server.convert import decision_pb
    from sdk.pb import arena_pb2 as pb

    r = await arena.play_game("raw-a", "raw-b", make_options(VARIANT), 1, CLOCK)
    state = Game(r.options).new_state(seed=r.seed)
    dec, mov = [], []
    for i, line in enumerate(r.actions):
        seat, text = line.split(" ", 1)
        obs = state.observation(int(seat))
        msg = decision_pb(r.game_id, i + 1, obs, [str(a) for a in obs.legal], 1.0, 10.0)
        dec.append(msg.ByteSize())
        mov.append(pb.PlayRequest(move=pb.Move(game_id=r.game_id, seq=i + 1, action=text)).ByteSize())
        state.apply(Action.parse(text))
    return int(statistics.mean(dec)), int(statistics.mean(mov))


async def raw_bot(address: str, name: str, token: str, streams: int, seed: int) -> None:
    """A bot at the protocol level, without the SDK: it answers a random legal
    action text straight from the Decision. Measures the arena's own cost."""
    import random

    from sdk.pb import arena_pb2 as pb
    from sdk.pb import arena_pb2_grpc as pb_grpc

    rng = random.Random(seed)

    async def stream(stub: pb_grpc.ArenaServiceStub) -> None:
        call = stub.Play()
        await call.write(pb.PlayRequest(hello=pb.Hello(bot_name=name, protocol_version=1, token=token)))
        while True:
            msg = await call.read()
            if msg is grpc.aio.EOF:
                return
            if msg.WhichOneof("kind") == "decision":
                d = msg.decision
                move = pb.Move(game_id=d.game_id, seq=d.seq, action=rng.choice(d.legal_actions))
                await call.write(pb.PlayRequest(move=move))
            elif msg.WhichOneof("kind") == "status" and msg.status.closing:
                return

    async with grpc.aio.insecure_channel(address) as channel:
        stub = pb_grpc.ArenaServiceStub(channel)  # type: ignore[no-untyped-call]
        await asyncio.gather(*(stream(stub) for _ in range(streams)), return_exceptions=True)


# ------------------------------------------------------------------ the echo

_METHOD = "/bench.Echo/Play"


def _echo_server(decision: bytes, record: Callable[[float], None]) -> grpc.GenericRpcHandler:
    async def play(requests: AsyncIterator[bytes], context: grpc.aio.ServicerContext) -> None:
        # Server-driven like the arena: send a "Decision", wait for the "Move".
        while True:
            t0 = time.perf_counter()
            await context.write(decision)
            reply = await context.read()
            if reply is grpc.aio.EOF:
                return
            record(time.perf_counter() - t0)

    handler = grpc.stream_stream_rpc_method_handler(play)  # raw bytes both ways
    return grpc.method_handlers_generic_handler("bench.Echo", {"Play": handler})


async def echo_run(port: int, streams: int, seconds: float, move: bytes, lat: list[float]) -> Sample:
    stop_at = time.perf_counter() + seconds
    counts = [0] * streams

    async def client(i: int, channel: grpc.aio.Channel) -> None:
        call = channel.stream_stream(_METHOD)()
        while time.perf_counter() < stop_at:
            msg = await call.read()
            if msg is grpc.aio.EOF:
                break
            await call.write(move)
            counts[i] += 1
        call.cancel()

    lat.clear()
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        start = time.perf_counter()
        await asyncio.gather(*(client(i, channel) for i in range(streams)))
        took = time.perf_counter() - start
    return Sample(sum(counts), took, list(lat))


# ---------------------------------------------------------------------- main


def summary(samples: list[Sample]) -> tuple[float, float, float]:
    rate = statistics.median(s.rate for s in samples)
    p50 = statistics.median(pct(s.latencies, 0.50) for s in samples) * 1000
    p99 = statistics.median(pct(s.latencies, 0.99) for s in samples) * 1000
    return rate, p50, p99


async def main(runs: int, seconds: float) -> None:
    arena = Arena()
    port = await arena.start("127.0.0.1:0")
    address = f"127.0.0.1:{port}"
    # Two pairs of bots: SDK bots (the real client path, Observation and all)
    # and raw protocol bots (the arena's own cost).
    tasks = [
        asyncio.ensure_future(run_async(RandomBot(i), address, arena.add_token(n), streams=8, name=n, threaded=False))
        for i, n in enumerate(("sdk-a", "sdk-b"))
    ] + [
        asyncio.ensure_future(raw_bot(address, n, arena.add_token(n), 8, i))
        for i, n in enumerate(("raw-a", "raw-b"))
    ]
    await arena.wait_for_bots({n: 8 for n in ("sdk-a", "sdk-b", "raw-a", "raw-b")})
    dec_size, move_size = await message_sizes(arena)

    latencies: list[float] = []
    echo = grpc.aio.server()
    echo.add_generic_rpc_handlers((_echo_server(b"x" * dec_size, latencies.append),))
    echo_port = echo.add_insecure_port("127.0.0.1:0")
    await echo.start()

    print(f"{VARIANT} games; Decision ~{dec_size} B, Move ~{move_size} B; median of {runs} runs of ~{seconds:g} s")
    print(f"{'case':<46}{'decisions/s':>12}{'p50 ms':>9}{'p99 ms':>9}{'vs echo':>9}")
    for games in (1, 8):
        samples: dict[str, list[Sample]] = {"sdk": [], "raw": [], "echo": []}
        for run in range(runs):  # interleaved, so drift in machine load hits all alike
            seed = 1000 * run + 10 * games
            for pair in ("sdk", "raw"):
                gc.collect()
                samples[pair].append(await arena_run(arena, games, seconds, seed, pair))
            gc.collect()
            samples["echo"].append(await echo_run(echo_port, games, seconds, b"y" * move_size, latencies))
        label = "1 game" if games == 1 else f"{games} concurrent games"
        echo_rate = summary(samples["echo"])[0]
        for key, title in (("sdk", "arena + SDK bots"), ("raw", "arena + raw protocol bots"), ("echo", "bare grpc.aio echo")):
            rate, p50, p99 = summary(samples[key])
            print(f"{title + ', ' + label:<46}{rate:>12.0f}{p50:>9.3f}{p99:>9.3f}{rate / echo_rate:>9.0%}")
    await echo.stop(0)
    await arena.stop(grace=0)
    await asyncio.gather(*tasks, return_exceptions=True)


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--seconds", type=float, default=2.0)
    args = p.parse_args()
    asyncio.run(main(args.runs, args.seconds))
