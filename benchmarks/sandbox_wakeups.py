"""Which of a bot's control groups costs the arena at each message: round
trips between this process (the arena's part) and two echo children (the
bots') over Unix socket pairs, the children in the boxes the sandbox makes
(``arena/sandbox/cgroups.py``) or in fewer groups, the arms alternating.

    python benchmarks/sandbox_wakeups.py [--rounds 50000] [--runs 9] [--arms none,groups,...]

Each round sends one message to each child and reads both answers, as the
arena does with two bots at once. Printed per arm, medians over the runs:
wall time per round, and this process's CPU time per round (the waker pays
for waking a child; ``getrusage``), each with its change from "none". The
CPU figure moves far less with the machine's load than the wall figure.
Needs control groups this user may write (root, or a delegated subtree in
``$TRUCO_ARENA_CGROUP``); cgroup v1 only (the arms drop v1 hierarchies).
"""

from __future__ import annotations

import argparse
import os
import resource
import socket
import statistics
import sys
from pathlib import Path

from sandbox import in_a_run_group  # benchmarks/sandbox.py, beside this file

from arena.sandbox import cgroups
from arena.sandbox.limits import Limits

ARMS = {
    "none": "the children in no group of their own",
    "groups": "the default: memory, pids, cpu (with its CPU quota) and cpuacct groups per child",
    "layered": "the same groups one level deeper, in a group of the run (the layout before)",
    "no-quota": "the default groups, the cpu one without its CPU quota",
    "no-cpuacct": "the default groups but cpuacct",
    "no-cpu": "memory, pids and cpuacct groups (no cpu group)",
    "memory-pids": "memory and pids groups only",
}
WORK = 200  # a child's loop iterations per message: a little work, as a bot does


def _groups(arm: str) -> cgroups.Cgroups | None:
    if arm == "none":
        return None
    found = cgroups.Cgroups.detect(os.environ.get("TRUCO_ARENA_CGROUP") or None)
    if found is None or found.version != 1:
        raise SystemExit("needs cgroup v1 groups this user may write (root, or $TRUCO_ARENA_CGROUP)")
    if arm == "layered":
        return in_a_run_group(found)
    dropped = {"no-cpuacct": ("cpuacct",), "no-cpu": ("cpu",), "memory-pids": ("cpu", "cpuacct")}.get(arm, ())
    for c in dropped:
        found.run_dirs.pop(c, None)
    return found


def _echo(sock: socket.socket, procs: list[Path]) -> None:
    for f in procs:
        f.write_text(str(os.getpid()))
    while sock.recv(64):
        x = 0
        for i in range(WORK):
            x += i
        sock.send(b"pong")
    os._exit(0)


def one_run(arm: str, rounds: int) -> tuple[float, float]:
    """(wall, CPU) microseconds per round of this process."""
    groups = _groups(arm)
    socks: list[socket.socket] = []
    pids: list[int] = []
    try:
        for i in range(2):
            ours, theirs = socket.socketpair()
            box = groups.box(f"echo{i}", Limits(), None) if groups is not None else None
            if box is not None and arm == "no-quota":
                (box.dirs["cpu"] / "cpu.cfs_quota_us").write_text("-1")
            pid = os.fork()
            if pid == 0:
                ours.close()
                _echo(theirs, box.procs_files() if box is not None else [])
            theirs.close()
            socks.append(ours)
            pids.append(pid)
        for s in socks:
            s.send(b"ping")
            s.recv(64)
        t0, u0 = os.times().elapsed, resource.getrusage(resource.RUSAGE_SELF)
        for _ in range(rounds):
            for s in socks:
                s.send(b"ping")
            for s in socks:
                s.recv(64)
        t1, u1 = os.times().elapsed, resource.getrusage(resource.RUSAGE_SELF)
    finally:
        for s in socks:
            s.close()
        for p in pids:
            os.waitpid(p, 0)
        if groups is not None:
            groups.close()
    cpu = (u1.ru_utime - u0.ru_utime) + (u1.ru_stime - u0.ru_stime)
    return 1e6 * (t1 - t0) / rounds, 1e6 * cpu / rounds


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=50_000)
    p.add_argument("--runs", type=int, default=9)
    p.add_argument("--arms", default=",".join(ARMS))
    args = p.parse_args()
    arms = ["none", *(a for a in args.arms.split(",") if a != "none")]
    unknown = set(arms) - set(ARMS)
    if unknown:
        p.error(f"--arms: unknown arm(s) {', '.join(sorted(unknown))}; arms: {', '.join(ARMS)}")
    load = Path("/proc/loadavg").read_text().split()[0]
    figures: dict[str, list[tuple[float, float]]] = {a: [] for a in arms}
    for run in range(args.runs):
        for arm in arms if run % 2 == 0 else arms[::-1]:
            figures[arm].append(one_run(arm, args.rounds))
        print(f"  run {run + 1}/{args.runs} done", file=sys.stderr, flush=True)
    wall0 = statistics.median(w for w, _ in figures["none"])
    cpu0 = statistics.median(c for _, c in figures["none"])
    print(f"\nround trips to 2 echo children, {args.rounds} per run, medians of {args.runs} runs, the arms"
          f" alternating; load average {load} at the start, {Path('/proc/loadavg').read_text().split()[0]}"
          f" at the end, {os.cpu_count()} cores")
    print("| arm | wall us/round | change | this process's CPU us/round | change |")
    print("|---|---|---|---|---|")
    for arm in arms:
        wall = statistics.median(w for w, _ in figures[arm])
        cpu = statistics.median(c for _, c in figures[arm])
        print(f"| {arm} | {wall:.1f} | {100 * (wall / wall0 - 1):+.1f}% | {cpu:.2f} | {100 * (cpu / cpu0 - 1):+.1f}% |")
    for arm in arms:
        print(f"  {arm}: {ARMS[arm]}")


if __name__ == "__main__":
    main()
