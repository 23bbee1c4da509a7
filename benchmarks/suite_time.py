"""The test suite's time: wall time, CPU time and the machine's load average
for a tier, and the tests that cost the most CPU.

    python benchmarks/suite_time.py [--tier fast|whole|serial] [--runs 3] [--workers 2] [--top 20]

On a shared machine the wall time of a run says more about the others'
load than about the suite; the CPU time (the pytest processes and every
process they started and reaped: bots, servers, the CLI, browsers) does not.
So each run prints both, with the load average before and after, and the
tests are ranked by their own CPU (a test's process and what it reaped while
it ran, measured by ``suite_time_plugin.py`` in each pytest process). The
tests' wall times summed (worker-seconds) over the workers give the wall
time the run would take if nothing but waiting held it up; the tests that
failed are named, since a failed test's time says little.

Tiers (pyproject.toml, .ci/run): ``fast`` is the everyday tier
(``-m "not slow and not integration"``), ``whole`` the non-serial part of
CI (``-m "not serial"``), ``serial`` the tests CI runs alone afterwards
(always in one process). Goals: fast under 60 s, the whole suite (``whole``,
then ``serial``) under 8 minutes, on 2 cores.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TIERS = {
    "fast": "not slow and not integration",
    "whole": "not serial",
    "serial": "serial",
}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _load() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


def run_once(tier: str, workers: int, out: Path
             ) -> tuple[float, float, str, str, int, dict[str, tuple[float, float]], list[str]]:
    """One run: wall seconds, CPU seconds, load before, load after, pytest's exit code, each test's (CPU, wall),
    and the tests that failed."""
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "suite_time_plugin",
               "-m", TIERS[tier]]
    # The serial tier in one process, as the suite runs it once the rest is done (tests/parallel.py).
    command += ["-n", str(workers)] if workers > 1 and tier != "serial" else ["-n", "0"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(Path(__file__).parent),
                                                                      os.environ.get("PYTHONPATH")])),
           "SUITE_TIME_OUT": str(out)}
    before, cpu0, t0 = _load(), _children_cpu(), time.monotonic()
    done = subprocess.run(command, cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                          check=False)
    wall, cpu = time.monotonic() - t0, _children_cpu() - cpu0
    tests: dict[str, tuple[float, float]] = {}
    failed: list[str] = []
    for part in out.glob("*.tsv"):
        for line in part.read_text().splitlines():
            test_cpu, test_wall, outcome, nodeid = line.split("\t", 3)
            tests[nodeid] = (float(test_cpu), float(test_wall))
            if outcome == "failed":
                failed.append(nodeid)
        part.unlink()
    return wall, cpu, before, _load(), done.returncode, tests, sorted(failed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tier", choices=sorted(TIERS), default="fast")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2, help="pytest-xdist workers (1: one process)")
    parser.add_argument("--top", type=int, default=20, help="tests listed, by median CPU")
    args = parser.parse_args()
    walls, cpus = [], []
    per_test: dict[str, list[tuple[float, float]]] = {}
    with tempfile.TemporaryDirectory(prefix="suite-time-") as folder:
        print(f"tier {args.tier} ({TIERS[args.tier]!r}), {args.workers} worker(s), {os.cpu_count()} cores")
        print(f"{'run':>4} {'wall s':>8} {'CPU s':>8} {'load before':>16} {'load after':>16} {'exit':>5}")
        for n in range(args.runs):
            wall, cpu, before, after, code, tests, failed = run_once(args.tier, args.workers, Path(folder))
            walls.append(wall)
            cpus.append(cpu)
            for nodeid, figures in tests.items():
                per_test.setdefault(nodeid, []).append(figures)
            print(f"{n + 1:>4} {wall:>8.1f} {cpu:>8.1f} {before:>16} {after:>16} {code:>5}", flush=True)
            for nodeid in failed:  # a failed test's time says little: name it
                print(f"     failed: {nodeid}", flush=True)
    cpu_of = {nodeid: statistics.median(cpu for cpu, _ in figures) for nodeid, figures in per_test.items()}
    wall_of = {nodeid: statistics.median(wall for _, wall in figures) for nodeid, figures in per_test.items()}
    print(f"median {statistics.median(walls):>6.1f} {statistics.median(cpus):>8.1f}"
          f"   ({len(per_test)} tests, their own CPU {sum(cpu_of.values()):.1f} s,"
          f" {sum(wall_of.values()):.0f} worker-seconds)")
    print(f"\n{'CPU s':>8} {'wall s':>8}  test (medians)")
    for nodeid in sorted(cpu_of, key=lambda n: -cpu_of[n])[:args.top]:
        print(f"{cpu_of[nodeid]:>8.2f} {wall_of[nodeid]:>8.2f}  {nodeid}")

if __name__ == "__main__":
    main()
