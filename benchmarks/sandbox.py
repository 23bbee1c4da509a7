"""What the sandbox costs: tournament games per second and bot start-up time,
with ``sandbox = "bwrap"`` (the default) and ``sandbox = "none"``, side by
side in one run, at the containment level this user gets (printed first).

    python benchmarks/sandbox.py [--runs 5] [--games 20] [--concurrency 1,4] [--starts 10]
                                 [--user-python PYTHON [--uid 4242]]

Run as root with ``--user-python`` (an interpreter any user can execute,
with the arena installed, e.g. Debian's python3.11 in a venv outside /root),
it then runs itself again as the ordinary ``--uid``: once with a cgroup v1
subtree delegated to it (made and chowned here, as an administrator would)
and once with nothing delegated (``containment = "best-effort"``), so every
mode's figures come out of one run.

Games/s: a round robin of 2 sample random bots (``--games`` games per
pairing, duplicate pairs, uruguayo to 30) on this process's arena (one
worker, so both arms run the same number of processes), a fresh results file
per run; the figure counts from the first game's start to the last game's
end, as ``benchmarks/tournament.py`` does. The arms alternate run by run, so
the machine's noise is shared; medians are printed with the ratio.

Start-up: from launching one random bot to its Hello being admitted by the
arena, ``--starts`` times per arm, alternating; median and p90, and the
difference between the arms. Goal (docs/sandbox.md): under 5% fewer games/s
and under 100 ms more start-up per bot.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from arena.games.store import ResultsStore
from arena.sandbox import Containment, Sandbox, probe
from arena.server import Arena
from arena.tournament.config import parse_config, stored_form
from arena.tournament.launcher import LaunchSpec, launch, stop
from arena.tournament.runner import run_tournament
from arena.tournament.scale import ScaleOut

RANDOM = ("python", "-m", "sample_bots.random_bot")


def _config(sandbox: str, games: int, concurrency: int) -> dict[str, object]:
    return {
        "name": "bench", "variant": "uruguayo", "games_per_pairing": games, "seed": 1,
        "concurrency": concurrency, "sandbox": sandbox, "workers": 1, "containment": "best-effort",
        "time_control": {"move_seconds": 5.0, "bank_seconds": 60.0},
        "bots": [{"name": f"random{i}", "command": " ".join(RANDOM)} for i in range(2)],
    }


def games_per_second(sandbox: str, games: int, concurrency: int) -> float:
    config = parse_config(_config(sandbox, games, concurrency))
    ends: list[tuple[float, float]] = []  # (when the game ended, how long it took)
    with tempfile.TemporaryDirectory() as tmp:
        with ResultsStore.create_or_open(Path(tmp) / "bench.sqlite") as store:
            store.set_meta("config", stored_form(config))
            asyncio.run(run_tournament(config, store, log_dir=Path(tmp) / "logs", progress=False,
                                       on_record=lambda row: ends.append((time.monotonic(), row.duration)),
                                       scale=ScaleOut(workers=1)))
    first_start = min(end - took for end, took in ends)
    last_end = max(end for end, _ in ends)
    return len(ends) / (last_end - first_start)


async def _start_once(sandboxed: bool, log_dir: Path) -> float:
    arena = Arena(None)
    sandbox = Sandbox.open(Containment.BEST_EFFORT) if sandboxed else None
    port = await arena.start("127.0.0.1:0", unix_socket=sandbox.socket if sandbox is not None else None)
    if sandbox is not None:
        sandbox.socket_ready()
    token = arena.add_token("bench")
    try:
        t0 = time.perf_counter()
        bot = await launch(LaunchSpec("bench", RANDOM), f"127.0.0.1:{port}", token, 1, log_dir, sandbox=sandbox)
        await arena.wait_for_bots(["bench"], timeout=30)
        elapsed = time.perf_counter() - t0
        await stop(bot)
    finally:
        await arena.stop(grace=0)
        if sandbox is not None:
            sandbox.close()
    return elapsed


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--concurrency", default="1,4")
    p.add_argument("--starts", type=int, default=10)
    p.add_argument("--user-python", help="as root: also run as an ordinary uid with this interpreter")
    p.add_argument("--uid", type=int, default=4242)
    args = p.parse_args()
    print(f"uid {os.geteuid()}: {probe(Containment.BEST_EFFORT)}")
    levels = [int(x) for x in args.concurrency.split(",")]
    rates: dict[tuple[str, int], list[float]] = {}
    for run in range(args.runs):
        for level in levels:
            for arm in (("none", "bwrap") if run % 2 == 0 else ("bwrap", "none")):
                rates.setdefault((arm, level), []).append(games_per_second(arm, args.games, level))
        print(f"run {run + 1}/{args.runs} done", file=sys.stderr)
    print(f"games/s, 2 random bots, {args.games} games per run, medians of {args.runs} runs")
    print("| games at once | no sandbox | sandbox | change |")
    print("|---|---|---|---|")
    for level in levels:
        plain, boxed = statistics.median(rates[("none", level)]), statistics.median(rates[("bwrap", level)])
        print(f"| {level} | {plain:.1f} | {boxed:.1f} | {100 * (boxed / plain - 1):+.1f}% |")
    starts: dict[bool, list[float]] = {False: [], True: []}
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.starts):
            for sandboxed in ((False, True) if i % 2 == 0 else (True, False)):
                starts[sandboxed].append(asyncio.run(_start_once(sandboxed, Path(tmp) / "logs")))
    print(f"\nbot start-up (launch to admitted Hello), {args.starts} starts per arm")
    print("| arm | median ms | p90 ms |")
    print("|---|---|---|")
    for sandboxed, label in ((False, "no sandbox"), (True, "sandbox")):
        times = sorted(starts[sandboxed])
        p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
        print(f"| {label} | {1000 * statistics.median(times):.0f} | {1000 * p90:.0f} |")
    extra = statistics.median(starts[True]) - statistics.median(starts[False])
    print(f"\nsandbox start-up cost: {1000 * extra:+.0f} ms per bot process (median difference)")
    if args.user_python and os.geteuid() == 0:
        own = [a for a in sys.argv[1:] if a not in ("--user-python", args.user_python)]
        for delegated in (True, False):
            print(f"\n## as uid {args.uid}, {'a delegated cgroup' if delegated else 'nothing delegated'}", flush=True)
            with _delegated(args.uid) if delegated else contextlib.nullcontext() as path:
                env = {"PATH": "/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8"}
                if path:
                    env["TRUCO_ARENA_CGROUP"] = path
                subprocess.run(["setpriv", f"--reuid={args.uid}", f"--regid={args.uid}", "--clear-groups", "--",
                                args.user_python, os.path.abspath(__file__), *own], env=env, cwd="/tmp", check=False)


@contextlib.contextmanager
def _delegated(uid: int) -> Iterator[str]:
    name = f"truco-bench-{os.getpid()}"
    made = []
    try:
        for c in ("memory", "pids", "cpu", "cpuacct"):
            folder = Path("/sys/fs/cgroup") / c / name
            folder.mkdir()
            made.append(folder)
            for path in [folder, *folder.iterdir()]:
                os.chown(path, uid, uid)
        yield name
    finally:
        for folder in made:
            for child in folder.iterdir():
                if child.is_dir():
                    with contextlib.suppress(OSError):
                        child.rmdir()
            with contextlib.suppress(OSError):
                folder.rmdir()


if __name__ == "__main__":
    main()
