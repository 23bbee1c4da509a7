"""Tournament throughput: games per second of a round robin of sample random
bots (separate processes over loopback gRPC), by number of worker processes
and games at once in each, with the CPU each game costs the arena and the bots.

    python benchmarks/tournament.py [--bots 4] [--games 12] [--runs 3] [--workers 1,2] [--levels 1,4]
                                    [--ray-cpus 2] [--baseline DIR]

Each run is a full ``run_tournament`` (arena start, bot launch, games, shutdown)
into a fresh SQLite file; the games/s figure counts only the time from the
first game to the last (start-up and shutdown are reported separately).
Workers 1 plays every game in this process; N > 1 spreads them over N worker
processes, each with its own arena and bots (docs/scaling.md). With
``--ray-cpus N`` the same tournament also runs on a one-node Ray cluster of
N CPUs started here (the ray extra), as ``ray N`` rows: one Ray task per CPU,
each playing batches of ``--batch-pairs`` pairs with its own arena and bots.

CPU per game: "arena" is this process (the coordinator, and the arena itself
with 1 worker) plus the worker processes (local workers, or Ray's worker
processes), "(coordinator)" this process's part of it (with workers, what
one process must do for every game of the tournament: the ceiling of
scaling out); "bots" is every bot process. Ray's own daemons are not counted. A
sampler reads each process's CPU time from /proc every 0.1 s, and only what
was used between the first game's start and the last game's end counts
(start-up and shutdown are left out, as they are from games/s). Medians over the runs, the settings interleaved run by
run so machine noise is shared.

``--baseline DIR``: a checkout of another commit (``git worktree add /tmp/parent
HEAD~1``), measured in the same run: each of its runs is a child process of
this script with DIR first on ``PYTHONPATH`` (so the arena, the SDK and the
bots it launches are DIR's), interleaved with this checkout's runs, and its
rows are printed under this checkout's, with the ratio of games/s and of CPU
per game. Goal (issue 33): games/s of the local 1-worker rows at least 1.5x
the parent commit's.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import arena
from arena.games.store import ResultsStore
from arena.tournament.config import parse_config
from arena.tournament.runner import run_tournament
from arena.tournament.scale import ScaleOut

_TICK = os.sysconf("SC_CLK_TCK")


def config(bots: int, games: int, concurrency: int, variant: str) -> dict[str, object]:
    return {
        "name": "bench", "variant": variant, "games_per_pairing": games, "seed": 1,
        "concurrency": concurrency, "time_control": {"move_seconds": 5.0, "bank_seconds": 60.0},
        "bots": [{"name": f"random{i}", "command": "python -m sample_bots.random_bot"} for i in range(bots)],
    }


def _stat(pid: str) -> tuple[int, float] | None:
    """(parent pid, CPU seconds so far) of a process, None if it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / _TICK


def _cmdline(pid: str) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _role(cmdline: str) -> str:
    if "sample_bots" in cmdline:
        return "bot"
    if "scaleout.worker" in cmdline or cmdline.startswith("ray::") or "default_worker.py" in cmdline:
        return "worker"  # a local worker, or a Ray worker process (it plays the batches)
    return "other"  # Ray's own daemons (GCS, raylet, dashboard): not counted


class CpuSampler:
    """CPU seconds of this process and of every descendant, by role, sampled
    over time so that a window (from the first game to the last) can be cut out."""

    def __init__(self) -> None:
        self.seen: dict[str, tuple[str, list[tuple[float, float]]]] = {}  # pid -> (role, [(time, cpu s)])
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> CpuSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        me = os.getpid()
        while not self._stop.is_set():
            self.sample(me)
            self._stop.wait(0.1)

    def sample(self, me: int) -> None:
        now = time.time()
        stats = {p: s for p in os.listdir("/proc") if p.isdigit() and (s := _stat(p)) is not None}
        family = {me}
        grew = True
        while grew:
            grew = False
            for pid, (parent, _) in stats.items():
                if parent in family and int(pid) not in family:
                    family.add(int(pid))
                    grew = True
        for pid in map(str, family):
            if pid not in stats:
                continue
            if pid not in self.seen:
                self.seen[pid] = ("coordinator" if pid == str(me) else _role(_cmdline(pid)), [])
            self.seen[pid][1].append((now, stats[pid][1]))

    def used(self, role: str, start: float, end: float) -> float:
        """CPU seconds the processes of ``role`` used between ``start`` and ``end`` (wall clock)."""
        total = 0.0
        for r, samples in self.seen.values():
            if r != role:
                continue
            before = [cpu for t, cpu in samples if t <= start]
            upto = [cpu for t, cpu in samples if t <= end]
            if upto:
                total += upto[-1] - (before[-1] if before else 0.0)
        return total


@dataclass
class Run:
    played: int
    play_s: float
    other_s: float
    coordinator_cpu: float  # this process (the whole arena, with 1 worker)
    workers_cpu: float
    bots_cpu: float


async def _tournament(raw: dict[str, object], tmp: Path, scale: ScaleOut | None
                      ) -> tuple[int, float, float, float, float]:
    cfg = parse_config(raw)
    db = tmp / f"run-{time.monotonic_ns()}.sqlite"
    with ResultsStore.create_or_open(db) as store:
        store.set_meta("config", raw)
        t0 = time.monotonic()
        summary = await run_tournament(cfg, store, log_dir=tmp / "logs", progress=False, scale=scale)
        total = time.monotonic() - t0
        rows = list(store.games())
    first = min(r.finished_at - r.duration for r in rows)
    last = max(r.finished_at for r in rows)
    return summary.played, last - first, total - (last - first), first, last


def one_run(raw: dict[str, object], tmp: Path, scale: ScaleOut | None) -> Run:
    with CpuSampler() as sampler:
        played, play_s, other_s, first, last = asyncio.run(_tournament(raw, tmp, scale))
    return Run(played, play_s, other_s, sampler.used("coordinator", first, last), sampler.used("worker", first, last),
               sampler.used("bot", first, last))


def baseline_run(root: Path, raw: dict[str, object], tmp: Path, workers: int) -> Run:
    """``one_run`` with the code of the checkout ``root``, in a child process."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep))
    if arena.GRPC_EXPERIMENTS_SET:  # this checkout's choice of gRPC listener, not the other's
        env.pop("GRPC_EXPERIMENTS")
    out = subprocess.run([sys.executable, __file__, "--child", json.dumps([raw, str(tmp), workers])], cwd=root,
                         env=env, check=True, capture_output=True, text=True)
    return Run(**json.loads(out.stdout.strip().splitlines()[-1]))


def child(arg: str) -> None:
    raw, tmp, workers = json.loads(arg)
    if not Path(arena.__file__).resolve().is_relative_to(Path.cwd().resolve()):
        raise SystemExit(f"the baseline imports {arena.__file__}, not the checkout in {Path.cwd()}")
    scale = ScaleOut(workers=workers) if workers > 1 else None
    print(json.dumps(dataclasses.asdict(one_run(raw, Path(tmp), scale))))


def main() -> None:
    if sys.argv[1:2] == ["--child"]:
        child(sys.argv[2])
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bots", type=int, default=4)
    ap.add_argument("--games", type=int, default=12, help="games per pairing (even)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--workers", default="1,2", help="worker counts, comma-separated (1: all in this process)")
    ap.add_argument("--levels", default="1,4", help="games at once in each worker, comma-separated")
    ap.add_argument("--variant", default="uruguayo")
    ap.add_argument("--ray-cpus", type=int, default=0, help="also run on a local Ray cluster of this many CPUs")
    ap.add_argument("--batch-pairs", type=int, default=6, help="duplicate pairs per Ray task")
    ap.add_argument("--baseline", type=Path, help="a checkout of another commit to measure alongside (local rows)")
    args = ap.parse_args()
    settings: list[tuple[str, int, int]] = [
        ("local", w, c) for w in (int(x) for x in args.workers.split(",")) for c in
        (int(x) for x in args.levels.split(","))]
    cluster = None
    if args.ray_cpus:
        from ray.cluster_utils import Cluster

        cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": args.ray_cpus})
        settings += [("ray", args.ray_cpus, c) for c in (int(x) for x in args.levels.split(","))]
    runs: dict[tuple[str, int, int], list[Run]] = {s: [] for s in settings}
    base: dict[tuple[str, int, int], list[Run]] = {s: [] for s in settings if s[0] == "local" and args.baseline}
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for _ in range(args.runs):
                for kind, w, c in settings:
                    if kind == "ray":
                        assert cluster is not None
                        scale: ScaleOut | None = ScaleOut(workers=w, ray_address=cluster.address,
                                                          batch_pairs=args.batch_pairs)
                    else:
                        scale = ScaleOut(workers=w) if w > 1 else None
                    raw = config(args.bots, args.games, c, args.variant)
                    if (kind, w, c) in base:  # interleaved: the baseline first, then this checkout
                        base[(kind, w, c)].append(baseline_run(args.baseline.resolve(), raw, Path(tmp), w))
                    runs[(kind, w, c)].append(one_run(raw, Path(tmp), scale))
    finally:
        if cluster is not None:
            cluster.shutdown()  # type: ignore[no-untyped-call]
    games = runs[settings[0]][0].played
    print(f"python {sys.version.split()[0]}; {os.cpu_count()} cores; {args.bots} random bots, {games} games per "
          f"run ({args.variant}, target preset), {args.runs} runs, medians")
    print(f"{'workers':>7}  {'at once':>7}  {'games/s':>8}  {'min..max':>13}  {'start+stop s':>12}  "
          f"{'CPU ms/game: arena':>18}  {'(coordinator)':>13}  {'bots':>6}")
    def row(label: str, c: int, rs: list[Run]) -> tuple[float, float]:
        rates = [r.played / r.play_s for r in rs]
        arena = statistics.median(1000 * (r.coordinator_cpu + r.workers_cpu) / r.played for r in rs)
        coordinator = statistics.median(1000 * r.coordinator_cpu / r.played for r in rs)
        bots = statistics.median(1000 * r.bots_cpu / r.played for r in rs)
        print(f"{label:>7}  {c:>7}  {statistics.median(rates):>8.1f}  {min(rates):>6.1f}..{max(rates):<6.1f}  "
              f"{statistics.median(r.other_s for r in rs):>12.2f}  {arena:>18.1f}  {coordinator:>13.1f}  {bots:>6.1f}")
        return statistics.median(rates), arena + bots

    for kind, w, c in settings:
        rate, cpu = row(f"{w}" if kind == "local" else f"ray {w}", w * c, runs[(kind, w, c)])
        if (kind, w, c) in base:
            base_rate, base_cpu = row("base", w * c, base[(kind, w, c)])
            print(f"{'':>7}  {'':>7}  {rate / base_rate:>7.2f}x  games/s of this checkout over the baseline; "
                  f"CPU per game (arena + bots) {cpu / base_cpu:.2f}x")
    if base:
        print(f"baseline: {args.baseline}")


if __name__ == "__main__":
    main()
