"""False time losses under a saturated CPU: do instant bots ever lose on time?

    python benchmarks/clock_fairness.py [--decisions 10000] [--busy 3] [--lanes 4] [--bots raw|sdk]

This process hosts the arena; two bots run in their own processes and answer
every Decision at once (``raw``: a random legal text straight from the
Decision, at the protocol level; ``sdk``: ``sample_bots.random_bot``).
Meanwhile ``--busy`` other processes spin on the CPU, so the arena and the
bots fight for the cores as on a loaded tournament machine. The clock is
tight: 100 ms per move, a 1 s bank per game. Games are played ``--lanes`` at
a time until ``--decisions`` Decisions have been answered.

Every timeout here is false: the bots never think. Printed: decisions,
games, false time losses, moves that dipped into the bank, the distribution
of the time the arena charged per move (p50/p99/max, what ``move_times``
records), and the arena's event-loop lag (how late a 10 ms timer fires in
this process), which tells how much of a slow move the arena's own process
caused. Goal: 0 false time losses in 10,000 decisions.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # rawbot: the protocol-level bot of the tests

import rawbot  # noqa: E402

from arena.engine.options import make_options  # noqa: E402
from arena.engine.outcome import Termination  # noqa: E402
from arena.server import Arena, PlayedGame, TimeControl  # noqa: E402

CLOCK = TimeControl(move_time=0.100, bank=1.0)
VARIANT = "argentino"
BUSY_LOOP = (
    "import os\n"
    "parent = os.getppid()\n"
    "while os.getppid() == parent:\n"  # ends on its own if the benchmark dies
    "    for _ in range(1_000_000): pass\n"
)


@dataclass
class Tally:
    games: int = 0
    decisions: int = 0
    timeouts: list[PlayedGame] = field(default_factory=list)
    other_faults: list[PlayedGame] = field(default_factory=list)
    move_times: list[float] = field(default_factory=list)
    loop_lags: list[float] = field(default_factory=list)
    playing: float = 0.0  # seconds spent playing (bots connected, busy processes running)

    def add(self, r: PlayedGame) -> None:
        self.games += 1
        self.decisions += len(r.actions)
        self.move_times.extend(r.move_times)
        if r.termination is Termination.TIMEOUT:
            self.timeouts.append(r)
        elif r.termination is not Termination.TARGET_REACHED:
            self.other_faults.append(r)


def pct(values: list[float], q: float) -> float:
    xs = sorted(values)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else 0.0


# ------------------------------------------------------------------ the bots


async def raw_bot(address: str, name: str, token: str, streams: int, seed: int) -> None:
    """A bot at the protocol level, without the SDK: it answers a random legal
    action text straight from the Decision."""
    await rawbot.run_bot(address, name, token, streams, rawbot.random_legal(seed))


def spawn(args: list[str]) -> subprocess.Popen[bytes]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen(
        [sys.executable, *args], cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL
    )


def start_bot(kind: str, address: str, name: str, token: str, streams: int, seed: int) -> subprocess.Popen[bytes]:
    if kind == "sdk":
        return spawn([
            "-m", "sample_bots.random_bot", "--address", address, f"--token={token}", "--name", name,
            "--streams", str(streams), "--seed", str(seed),
        ])
    return spawn([str(Path(__file__).resolve()), "--child", address, name, token, str(streams), str(seed)])


def stop(procs: list[subprocess.Popen[bytes]]) -> None:
    """Kill the processes this benchmark started (by their own pids only)."""
    for p in procs:
        if p.poll() is None:
            p.send_signal(signal.SIGKILL)
    for p in procs:
        p.wait(10)


# ------------------------------------------------------------------ the run


async def loop_lag(tally: Tally, done: asyncio.Event) -> None:
    """How late a 10 ms sleep wakes up on the arena's loop: the arena's own
    share of any slow move."""
    loop = asyncio.get_running_loop()
    while not done.is_set():
        t = loop.time()
        await asyncio.sleep(0.010)
        tally.loop_lags.append(loop.time() - t - 0.010)


async def run(decisions: int, busy: int, lanes: int, bots: str, max_seconds: float) -> Tally:
    procs: list[subprocess.Popen[bytes]] = []
    arena = Arena()
    tally = Tally()
    try:
        port = await arena.start("127.0.0.1:0")
        address = f"127.0.0.1:{port}"
        for i, name in enumerate(("instant-a", "instant-b")):
            procs.append(start_bot(bots, address, name, arena.add_token(name), lanes, i + 1))
        await arena.wait_for_bots({"instant-a": lanes, "instant-b": lanes}, 60.0)
        procs.extend(spawn(["-c", BUSY_LOOP]) for _ in range(busy))
        options = make_options(VARIANT, {})
        seeds = iter(range(1, 1_000_000))
        deadline = time.monotonic() + max_seconds
        done = asyncio.Event()

        async def lane(k: int) -> None:
            while tally.decisions < decisions and time.monotonic() < deadline:
                seed = next(seeds)
                a, b = ("instant-a", "instant-b") if seed % 2 else ("instant-b", "instant-a")
                tally.add(await arena.play_game(a, b, options, seed, CLOCK, acquire_timeout=30.0))

        lag = asyncio.create_task(loop_lag(tally, done))
        started = time.monotonic()
        await asyncio.gather(*(lane(k) for k in range(lanes)))
        tally.playing = time.monotonic() - started
        done.set()
        await lag
    finally:
        stop(procs)
        await arena.stop(grace=0.5)
    return tally


def report(t: Tally, seconds: float, busy: int, lanes: int, bots: str) -> None:
    ms = [x * 1000 for x in t.move_times]
    over = sum(1 for x in t.move_times if x > CLOCK.move_time)
    print(f"{bots} bots, {lanes} games at a time, {busy} busy processes, {os.cpu_count()} CPUs, "
          f"clock {CLOCK.move_time * 1000:.0f} ms/move + {CLOCK.bank:g} s bank; "
          f"{t.playing:.0f} s of play ({seconds:.0f} s in all)")
    print(f"decisions answered      {t.decisions} ({t.decisions / max(t.playing, 1e-9):.0f}/s)")
    print(f"games                   {t.games}")
    print(f"false time losses       {len(t.timeouts)}")
    print(f"other faults            {len(t.other_faults)}")
    print(f"moves over move time    {over}")
    if ms:
        print(f"move time ms            p50 {pct(ms, 0.5):.2f}  p99 {pct(ms, 0.99):.2f}  max {max(ms):.2f}  "
              f"mean {statistics.fmean(ms):.2f}")
    lag = [x * 1000 for x in t.loop_lags]
    if lag:
        print(f"arena loop lag ms       p50 {pct(lag, 0.5):.2f}  p99 {pct(lag, 0.99):.2f}  max {max(lag):.2f}")
    for r in t.timeouts + t.other_faults:
        print(f"  {r.game_id} {r.termination.value}: {r.reason}; last moves (ms): "
              f"{[round(x * 1000, 1) for x in r.move_times[-5:]]}")


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        address, name, token, streams, seed = sys.argv[2:7]
        asyncio.run(raw_bot(address, name, token, int(streams), int(seed)))
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--decisions", type=int, default=10_000)
    ap.add_argument("--busy", type=int, default=3, help="busy-loop processes to run alongside")
    ap.add_argument("--lanes", type=int, default=4, help="games played at a time")
    ap.add_argument("--bots", choices=("raw", "sdk"), default="raw")
    ap.add_argument("--max-seconds", type=float, default=150.0, help="stop playing new games after this")
    args = ap.parse_args()
    start = time.monotonic()
    tally = asyncio.run(run(args.decisions, args.busy, args.lanes, args.bots, args.max_seconds))
    report(tally, time.monotonic() - start, args.busy, args.lanes, args.bots)


if __name__ == "__main__":
    main()
