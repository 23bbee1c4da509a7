"""Decisions per second and latency through the arena, next to a bare
grpc.aio bidi echo that moves messages of the same sizes.

    python benchmarks/protocol.py [--runs 5] [--seconds 2] [--in-process] [--games 1,8] [--cases sdk,raw] [--profile FILE]

By default the bots run as separate processes, as deployed: this process
hosts the arena (and the echo server), and child processes dial in. The arena
plays uruguayo games between two SDK random bots (``sample_bots.random_bot``,
the full client path: Observation, Bot.choose), between two stdio bots
behind the SDK's bridge (``sdk.stdio`` running ``stdio_random_bot.py``: JSON
lines over pipes, a random action id; always processes, even with
``--in-process``) and between two raw protocol bots (a random legal text
straight from the Decision: the arena's own cost). The CPU column is this
(the server's) process only: a stdio bot's bridge and program spend theirs
in their own processes.
The echo is a raw-bytes stream_stream service, server-driven like the arena:
the server sends a Decision-sized message and the client (its own process)
answers with a Move-sized one; that is the arena's message pattern without
the engine, protobuf, GameStart/HandEnd/GameEnd messages or bots.
``--in-process`` runs every bot and the echo client in this process too, on
the one event loop (both sides' costs then add up on one core).

A server's CPU per message grows when its peers are slow: each message then
wakes an idle loop (gRPC's poller thread, a futex, epoll, a context switch)
instead of being picked up by a busy one. The "paced echo" row is the bare
echo with its client waiting, before each answer, as long as it takes to
bring the echo down to the decisions/s of the arena with SDK bots in the
same run: the gRPC cost per decision at the pace SDK bots set. The arena's
"vs paced" column compares its CPU per decision with that row.

The "loop" column is the part of the CPU column spent on the event loop's
thread (the rest is gRPC's own threads: its poller and event engine), the
"kernel" column the part spent in the kernel by all threads (syscalls,
wake-ups, context switches). The first line says the run's
GRPC_EXPERIMENTS (gRPC's transport: importing the arena sets it unless it
is set; ``GRPC_EXPERIMENTS=`` measures gRPC's default). The last row, "refereeing and messages alone", is the arena's own work per
decision with no gRPC, stream or bot (the referee, each Decision and HandEnd
built, padded and serialized), timed on this thread in the same run: the
arena's loop CPU minus the echo's minus this row is what the streams, tasks,
clocks and wake-ups of a game cost.

``--games`` and ``--cases`` pick the row groups and rows (the bare echo is
always measured); ``--profile FILE`` writes a cProfile (CPU time of the loop's
thread) of the server during the SDK bots' runs to FILE and during the bare
echo's to FILE.echo. The build (compiled or pure Python) is the first word
printed: a compiled build first on ``PYTHONPATH`` (``PYTHONPATH=.build-compiled
python -P benchmarks/protocol.py``) is used here and by the bots.

Each figure is the median of ``--runs`` interleaved runs; latency is the
server-side time from sending a Decision to receiving its answer.
Goals: the arena reaches >= 60% of the echo's decisions/s; the arena's server
CPU per decision with SDK bots at 8 concurrent games is at most 2x the bare
echo's (issue 33).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from collections import deque
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Appended, not put first: a compiled build on PYTHONPATH
# (``PYTHONPATH=.build-compiled python -P benchmarks/protocol.py``) wins, here and in the children.
sys.path.append(str(ROOT))
sys.path.append(str(ROOT / "tests"))  # rawbot: the protocol-level bot of the tests

# The arena first: importing it picks gRPC's listener, which must happen
# before anything imports grpc (arena/__init__.py).
from arena.engine import BUILD  # noqa: E402

# isort: split
import grpc  # noqa: E402
import rawbot  # noqa: E402

from arena.engine.options import make_options  # noqa: E402
from arena.protocol import arena_pb2 as pb  # noqa: E402
from arena.server import Arena, TimeControl  # noqa: E402

VARIANT = "uruguayo"
CLOCK = TimeControl(move_time=5.0, bank=60.0)
STREAMS = 8  # per bot: enough for 8 concurrent games
PAIRS = ("sdk", "stdio", "raw")
STDIO_BOT = Path(__file__).resolve().with_name("stdio_random_bot.py")


@dataclass
class Sample:
    decisions: int
    seconds: float
    latencies: list[float]
    cpu: float = 0.0  # CPU seconds of this (the server's) process, all threads
    loop_cpu: float = 0.0  # of which the event loop's thread (the rest: gRPC's threads)
    kernel_cpu: float = 0.0  # of ``cpu``, the part spent in the kernel (all threads): syscalls, wake-ups

    @property
    def kernel_cpu_per_decision(self) -> float:
        return self.kernel_cpu / max(1, self.decisions)

    @property
    def cpu_per_decision(self) -> float:
        return self.cpu / max(1, self.decisions)

    @property
    def loop_cpu_per_decision(self) -> float:
        return self.loop_cpu / max(1, self.decisions)

    @property
    def rate(self) -> float:
        return self.decisions / self.seconds


def kernel_time() -> float:
    """CPU seconds this process (all its threads) has spent in the kernel."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_stime


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


# ----------------------------------------------------------------- the arena


async def arena_run(arena: Arena, games: int, seconds: float, seed0: int, pair: str) -> Sample:
    """Keep ``games`` games going for about ``seconds``; count decisions."""
    options = make_options(VARIANT)
    stop_at = time.perf_counter() + seconds
    decisions = 0
    latencies: list[float] = []
    seed = seed0

    async def lane() -> None:
        nonlocal decisions, seed
        while time.perf_counter() < stop_at:
            seed += 1
            a, b = (f"{pair}-a", f"{pair}-b") if seed % 2 else (f"{pair}-b", f"{pair}-a")
            r = await arena.play_game(a, b, options, seed, CLOCK)
            if r.termination.value != "target_reached":
                raise RuntimeError(f"benchmark game failed: {r.reason}")
            decisions += len(r.actions)
            latencies.extend(r.move_times)

    start, cpu0, loop0, kernel0 = time.perf_counter(), time.process_time(), time.thread_time(), kernel_time()
    await asyncio.gather(*(lane() for _ in range(games)))
    return Sample(decisions, time.perf_counter() - start, latencies, time.process_time() - cpu0,
                  time.thread_time() - loop0, kernel_time() - kernel0)


def game_work(seconds: float, seed0: int) -> Sample:
    """The arena's own work per decision without gRPC, streams or bots, on
    this thread: the referee (observation, legal actions, apply, hand
    summaries) and the protocol messages (each Decision and HandEnd built,
    padded and serialized), a seeded random legal action for each answer."""
    from arena.referee import Referee
    from arena.server.convert import decision_pb, hand_end_pb

    options = make_options(VARIANT)
    rng = random.Random(seed0)
    decisions, seed = 0, seed0
    start, cpu0 = time.perf_counter(), time.thread_time()
    while time.perf_counter() < start + seconds:
        seed += 1
        referee = Referee(options, seed)
        while (d := referee.decision()) is not None:
            decision_pb("g", decisions, d.observation, d.legal_texts, 5.0, 60.0, options).SerializeToString()
            for h in referee.play(referee.resolve(rng.choice(d.legal_texts))):
                hand_end_pb("g", h).SerializeToString()
            decisions += 1
    cpu = time.thread_time() - cpu0
    return Sample(decisions, time.perf_counter() - start, [0.0], cpu, cpu)


async def message_sizes(arena: Arena) -> tuple[int, int]:
    """Mean serialized sizes of a Decision and of a Move in a real game."""
    from arena.engine import Action, Game
    from arena.server.convert import decision_pb

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
    await rawbot.run_bot(address, name, token, streams, rawbot.random_legal(seed))


# ------------------------------------------------------------------ the echo

_METHOD = "/bench.Echo/Play"


class EchoServer:
    """Server-driven echo: while a run is on, each of its streams sends a
    Decision-sized message and waits for the Move-sized answer, like a game.

    The first ``STREAMS`` streams to connect echo plainly (write, then read,
    on the handler's own task). The next ``STREAMS`` do it through the same
    plumbing as an arena stream, with no game: a reader task feeding a queue,
    a writer task draining an outbox, a timer per round. That row shows what
    the required stream structure costs before any Truco happens."""

    MODES = ("plain", "tasks", "paced")

    def __init__(self, decision: bytes) -> None:
        self.decision = decision
        self.pace = 0.0  # the paced streams' client waits this long (s) before each answer
        self.waiting: dict[str, asyncio.Queue[asyncio.Future[int]]] = {m: asyncio.Queue() for m in self.MODES}
        self.done: asyncio.Queue[int] = asyncio.Queue()
        self.connected = 0
        self.stop_at = 0.0
        self.latencies: list[float] = []

    def handler(self) -> grpc.GenericRpcHandler:
        async def play(requests: AsyncIterator[bytes], context: grpc.aio.ServicerContext) -> None:
            if await context.read() is grpc.aio.EOF:  # the client's opening message
                return
            mode = self.MODES[min(len(self.MODES) - 1, self.connected // STREAMS)]
            self.connected += 1
            if mode != "tasks":
                await self._plain(context, mode)
            else:
                await self._tasks(context)

        handler = grpc.stream_stream_rpc_method_handler(play)  # raw bytes both ways
        return grpc.method_handlers_generic_handler("bench.Echo", {"Play": handler})

    async def _plain(self, context: grpc.aio.ServicerContext, mode: str) -> None:
        loop = asyncio.get_running_loop()
        while True:
            go: asyncio.Future[int] = loop.create_future()
            await self.waiting[mode].put(go)
            await go  # a run picked this stream
            n = 0
            # The paced client reads its wait, in microseconds, off the message's first bytes.
            decision = self.decision if mode == "plain" else b"%08d" % int(self.pace * 1e6) + self.decision[8:]
            while time.perf_counter() < self.stop_at:
                t0 = time.perf_counter()
                await context.write(decision)
                if await context.read() is grpc.aio.EOF:
                    return
                self.latencies.append(time.perf_counter() - t0)
                n += 1
            self.done.put_nowait(n)

    async def _tasks(self, context: grpc.aio.ServicerContext) -> None:
        loop = asyncio.get_running_loop()
        inbox: asyncio.Queue[object] = asyncio.Queue()
        outbox: deque[bytes] = deque()
        wakeup: list[asyncio.Future[None] | None] = [None]

        async def reader() -> None:
            while True:
                msg = await context.read()
                if msg is grpc.aio.EOF:
                    return
                inbox.put_nowait(msg)

        async def writer() -> None:
            while True:
                if not outbox:
                    w: asyncio.Future[None] = loop.create_future()
                    wakeup[0] = w
                    await w
                    continue
                await context.write(outbox.popleft())

        tasks = [loop.create_task(reader()), loop.create_task(writer())]
        try:
            while True:
                go: asyncio.Future[int] = loop.create_future()
                await self.waiting["tasks"].put(go)
                await go
                n = 0
                while time.perf_counter() < self.stop_at:
                    t0 = time.perf_counter()
                    outbox.append(self.decision)
                    w = wakeup[0]
                    if w is not None and not w.done():
                        w.set_result(None)
                    timer = loop.call_at(loop.time() + 60, inbox.put_nowait, None)
                    await inbox.get()
                    timer.cancel()
                    self.latencies.append(time.perf_counter() - t0)
                    n += 1
                self.done.put_nowait(n)
        finally:
            for t in tasks:
                t.cancel()

    async def run(self, mode: str, streams: int, seconds: float) -> Sample:
        self.latencies = []
        gos = [await self.waiting[mode].get() for _ in range(streams)]
        start, cpu0, loop0, kernel0 = time.perf_counter(), time.process_time(), time.thread_time(), kernel_time()
        self.stop_at = start + seconds
        for go in gos:
            go.set_result(0)
        total = sum([await self.done.get() for _ in range(streams)])
        return Sample(total, time.perf_counter() - start, list(self.latencies), time.process_time() - cpu0,
                      time.thread_time() - loop0, kernel_time() - kernel0)


async def echo_client(address: str, streams: int, move_size: int) -> None:
    """The echo's bot side: answer every message with a Move-sized one."""
    move = b"y" * move_size

    async def stream(channel: grpc.aio.Channel) -> None:
        call = channel.stream_stream(_METHOD)()
        await call.write(b"hello")
        while True:
            msg = await call.read()
            if msg is grpc.aio.EOF:
                return
            if msg[:1].isdigit():  # paced: wait as told first
                await asyncio.sleep(int(msg[:8]) / 1e6)
            await call.write(move)

    async with grpc.aio.insecure_channel(address) as channel:
        # One set of streams per echo mode; the server tells them apart by order.
        await asyncio.gather(*(stream(channel) for _ in range(len(EchoServer.MODES) * streams)),
                             return_exceptions=True)


# ------------------------------------------------------------------ children


def spawn(args: list[str], **extra_env: str) -> subprocess.Popen[bytes]:
    path = os.pathsep.join(p for p in (os.environ.get("PYTHONPATH", ""), str(ROOT)) if p)
    env = dict(os.environ, PYTHONPATH=path, TRUCO_ARENA_PARENT_PID=str(os.getpid()), **extra_env)
    # -P: the working directory is not put before PYTHONPATH (a compiled build there wins).
    return subprocess.Popen([sys.executable, "-P", *args], cwd=ROOT, env=env, stdin=subprocess.DEVNULL)


def child(argv: list[str]) -> None:
    """Entry point of the child processes (``--child raw|echo ...``)."""
    role, address = argv[0], argv[1]
    if role == "raw":
        name, token, seed = argv[2], argv[3], int(argv[4])
        asyncio.run(raw_bot(address, name, token, STREAMS, seed))
    elif role == "echo":
        asyncio.run(echo_client(address, STREAMS, int(argv[2])))
    else:
        raise SystemExit(f"unknown child role {role!r}")


# ---------------------------------------------------------------------- main


def summary(samples: list[Sample]) -> tuple[float, float, float]:
    rate = statistics.median(s.rate for s in samples)
    p50 = statistics.median(pct(s.latencies, 0.50) for s in samples) * 1000
    p99 = statistics.median(pct(s.latencies, 0.99) for s in samples) * 1000
    return rate, p50, p99


async def main(runs: int, seconds: float, in_process: bool, game_counts: tuple[int, ...] = (1, 8),
               cases: frozenset[str] | None = None, profile: str | None = None) -> None:
    from sample_bots.random_bot import RandomBot
    from sdk.client import run_async

    arena = Arena()
    port = await arena.start("127.0.0.1:0")
    address = f"127.0.0.1:{port}"
    names = [f"{p}-{s}" for p in PAIRS for s in "ab"]
    tokens = {n: arena.add_token(n) for n in names}
    tasks: list[asyncio.Future[None]] = []
    procs: list[subprocess.Popen[bytes]] = []
    for i, n in enumerate(names):
        if n.startswith("stdio"):
            procs.append(spawn(["-m", "sdk.stdio", "--run", f"python {STDIO_BOT} {i}", "--address", address,
                                "--name", n, "--streams", str(STREAMS)], TRUCO_ARENA_TOKEN=tokens[n]))
        elif in_process:
            bot = run_async(RandomBot(i), address, tokens[n], streams=STREAMS, name=n, threaded=False) \
                if n.startswith("sdk") else raw_bot(address, n, tokens[n], STREAMS, i)
            tasks.append(asyncio.ensure_future(bot))
        elif n.startswith("sdk"):
            procs.append(spawn(["-m", "sample_bots.random_bot", "--address", address, "--token", tokens[n],
                                "--name", n, "--streams", str(STREAMS), "--inline", "--seed", str(i)]))
        else:
            procs.append(spawn([__file__, "--child", "raw", address, n, tokens[n], str(i)]))
    try:
        await arena.wait_for_bots({n: STREAMS for n in names})
        dec_size, move_size = await message_sizes(arena)

        echo = EchoServer(b"x" * dec_size)
        server = grpc.aio.server()
        server.add_generic_rpc_handlers((echo.handler(),))
        echo_address = f"127.0.0.1:{server.add_insecure_port('127.0.0.1:0')}"
        await server.start()
        if in_process:
            tasks.append(asyncio.ensure_future(echo_client(echo_address, STREAMS, move_size)))
        else:
            procs.append(spawn([__file__, "--child", "echo", echo_address, str(move_size)]))

        where = "in this one process" if in_process else "bots and echo client in their own processes"
        print(f"{BUILD} build; {VARIANT} games, {where}; Decision ~{dec_size} B, Move ~{move_size} B; "
              f"median of {runs} runs of ~{seconds:g} s; GRPC_EXPERIMENTS={os.environ.get('GRPC_EXPERIMENTS')!r}")
        print(f"{'case':<60}{'decisions/s':>12}{'p50 ms':>8}{'p99 ms':>8}{'CPU us/dec':>11}{'loop':>6}{'kernel':>7}"
              f"{'vs echo':>8}{'CPU vs echo':>12}{'CPU vs paced':>13}")
        rows = (
            ("sdk", "arena + SDK bots"),
            ("stdio", "arena + stdio bots through the bridge"),
            ("raw", "arena + raw protocol bots"),
            ("tasks", "echo through arena stream plumbing"),
            ("plain", "bare grpc.aio echo"),
            ("paced", "bare grpc.aio echo, paced to the SDK bots' rate"),
            ("work", "refereeing and messages alone (no gRPC, no bots)"),
        )
        profiler = cProfile.Profile(time.thread_time) if profile else None
        echo_profiler = cProfile.Profile(time.thread_time) if profile else None
        wanted = [(key, title) for key, title in rows if cases is None or key in cases or key == "plain"]
        for games in game_counts:
            samples: dict[str, list[Sample]] = {key: [] for key, _ in rows}
            correction = 1.0
            for run in range(runs):  # interleaved, so drift in machine load hits all alike
                seed = 1000 * run + 10 * games
                for pair in PAIRS:
                    if cases is not None and pair not in cases:
                        continue
                    gc.collect()
                    if profiler is not None and pair == "sdk" and games == max(game_counts):
                        profiler.enable()
                    samples[pair].append(await arena_run(arena, games, seconds, seed, pair))
                    if profiler is not None:
                        profiler.disable()
                for mode in ("plain", "tasks"):
                    if mode == "tasks" and cases is not None and mode not in cases:
                        continue
                    gc.collect()
                    if echo_profiler is not None and mode == "plain" and games == max(game_counts):
                        echo_profiler.enable()
                    samples[mode].append(await echo.run(mode, games, seconds))
                    if echo_profiler is not None:
                        echo_profiler.disable()
                if cases is None or "work" in cases:
                    gc.collect()
                    samples["work"].append(game_work(seconds / 2, seed))
                if "sdk" not in samples or not samples["sdk"] or (cases is not None and "paced" not in cases):
                    continue
                # Each paced stream's round takes games / rate: the client waits what the bare echo does not
                # take, times a correction learnt run by run (a sleep costs more than it says).
                sdk_rate, plain_rate = samples["sdk"][-1].rate, samples["plain"][-1].rate
                echo.pace = max(0.0, correction * (games / sdk_rate - games / plain_rate))
                gc.collect()
                samples["paced"].append(await echo.run("paced", games, seconds))
                correction = min(2.0, max(0.1, correction * samples["paced"][-1].rate / sdk_rate))
            label = "1 game" if games == 1 else f"{games} concurrent games"
            echo_rate = summary(samples["plain"])[0]
            echo_cpu, paced_cpu = (statistics.median(s.cpu_per_decision for s in samples[k]) * 1e6
                                   if samples[k] else float("nan") for k in ("plain", "paced"))
            for key, title in wanted:
                if not samples[key]:
                    continue
                rate, p50, p99 = summary(samples[key])
                cpu = statistics.median(s.cpu_per_decision for s in samples[key]) * 1e6
                loop_cpu = statistics.median(s.loop_cpu_per_decision for s in samples[key]) * 1e6
                kernel_cpu = statistics.median(s.kernel_cpu_per_decision for s in samples[key]) * 1e6
                print(f"{title + ', ' + label:<60}{rate:>12.0f}{p50:>8.3f}{p99:>8.3f}{cpu:>11.0f}{loop_cpu:>6.0f}"
                      f"{kernel_cpu:>7.0f}"
                      f"{rate / echo_rate:>8.0%}"
                      f"{cpu / echo_cpu:>11.2f}x{cpu / paced_cpu:>12.2f}x")
        if profiler is not None and echo_profiler is not None and profile:
            profiler.dump_stats(profile)
            echo_profiler.dump_stats(profile + ".echo")
            print(f"profiles of the server process at {max(game_counts)} games: {profile} (arena + SDK bots), "
                  f"{profile}.echo (bare echo)")
        await server.stop(0)
        await arena.stop(grace=0)
    finally:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(5)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        child(sys.argv[2:])
        sys.exit(0)
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--seconds", type=float, default=2.0)
    p.add_argument("--in-process", action="store_true", help="bots and echo client in this process")
    p.add_argument("--games", default="1,8", help="concurrent games per row group, comma-separated (default 1,8)")
    p.add_argument("--cases", default="", help="only these rows (comma-separated keys: sdk, stdio, raw, tasks, paced, "
                                                "work; "
                                                "the bare echo is always measured); default all")
    p.add_argument("--profile", metavar="FILE", help="write a cProfile of the server process during the SDK bots' "
                                                      "runs at the largest --games to FILE and during the bare echo's to FILE.echo "
                                                      "(pstats format)")
    args = p.parse_args()
    counts = tuple(int(g) for g in args.games.split(","))
    wanted = frozenset(c for c in args.cases.split(",") if c) or None
    asyncio.run(main(args.runs, args.seconds, args.in_process, counts, wanted, args.profile))
