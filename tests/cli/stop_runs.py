"""Runs of ``truco-arena tournament run`` stopped by a signal at a random
moment, under a child subreaper (this process), so that whatever the run
started and left behind shows up as this process's descendant:

    python tests/cli/stop_runs.py CONFIG RUNS SECONDS SEED MODE

For each run: a fresh database, then at a random moment of the first
SECONDS seconds after the command's first line (when it catches SIGTERM:
before, the interpreter itself is starting), by MODE: ``stop``, SIGINT or SIGTERM (chosen at random);
``twice``, that signal twice, 0.1 s apart; ``kill``, SIGKILL. Then one JSON line:
the signal, when it was sent, the exit code, seconds from the signal to the
exit and from the exit to the end of the last process the run started, stderr, the recorded game keys, and the processes still running LEFTOVER_GRACE s
after the exit (which are then killed). Never imported by the tests: a
subreaper is a property of the whole process."""

from __future__ import annotations

import ctypes
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

PR_SET_CHILD_SUBREAPER = 36
# Seconds the workers have to notice their coordinator is gone. A worker reads
# its closed stdin (and stops) once its imports are done: one killed with its
# coordinator while still importing lingered past 2 s with four test workers
# on two cores (CI). How long the last one lingered is in each run's figures.
LEFTOVER_GRACE = 10.0
EXIT_DEADLINE = 30.0  # a run not stopped by then counts as not stopping (and is killed)


def descendants() -> list[tuple[int, str]]:
    """This process's descendants (with the subreaper set: also the orphans), with their command lines."""
    found, todo = [], [os.getpid()]
    while todo:
        pid = todo.pop()
        try:
            children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        except OSError:
            continue
        for child in map(int, children):
            try:
                cmd = Path(f"/proc/{child}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                state = next(line.split()[1] for line in Path(f"/proc/{child}/status").read_text().splitlines()
                             if line.startswith("State:"))
            except (OSError, StopIteration):
                continue
            if state != "Z":
                found.append((child, cmd.strip()))
            todo.append(child)
    return found


def armed(proc: subprocess.Popen[Any]) -> None:
    """Wait until ``proc`` catches SIGTERM (``arena.interrupt.arm``, the command's first line)."""
    bit = 1 << (signal.SIGTERM - 1)
    while proc.poll() is None:
        try:
            status = Path(f"/proc/{proc.pid}/status").read_text()
        except OSError:
            return
        caught = next(int(line.split()[1], 16) for line in status.splitlines() if line.startswith("SigCgt:"))
        if caught & bit:
            return
        time.sleep(0.001)


def reap() -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def keys(db: Path) -> list[str]:
    if not db.exists():
        return []
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10) as con:
            return [k for (k,) in con.execute("SELECT game_key FROM games")]
    except sqlite3.Error:  # created, not yet holding the schema
        return []


def one_run(config: Path, index: int, seconds: float, rng: random.Random, mode: str) -> dict[str, object]:
    db = config.parent / f"run{index}.sqlite"
    for stale in (db, Path(f"{db}.lock")):
        stale.unlink(missing_ok=True)
    signum = signal.SIGKILL if mode == "kill" else rng.choice([signal.SIGINT, signal.SIGTERM])
    at = rng.uniform(0.0, seconds)
    proc = subprocess.Popen([sys.executable, "-m", "arena.command", "tournament", "run", str(config),
                             "--db", str(db), "--no-progress", "--standings-every", "0"],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    armed(proc)
    time.sleep(at)
    sent = time.monotonic()
    proc.send_signal(signum)
    if mode == "twice":
        time.sleep(0.1)
        if proc.poll() is None:
            proc.send_signal(signum)
    try:
        _, err = proc.communicate(timeout=EXIT_DEADLINE)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate()
    took = time.monotonic() - sent
    exited = time.monotonic()
    while (left := descendants()) and time.monotonic() < exited + LEFTOVER_GRACE:
        time.sleep(0.05)
    lingered = time.monotonic() - exited  # until the last process the run started was gone
    for pid, _ in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    time.sleep(0.2)
    reap()
    return {"signal": int(signum), "at": round(at, 3), "code": proc.returncode, "seconds": round(took, 2), "lingered": round(lingered, 2),
            "stderr": err.decode(errors="replace"), "keys": keys(db), "left": left}


def main() -> None:
    config, runs, seconds, seed = Path(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
    mode = sys.argv[5]
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER)")
    rng = random.Random(seed)
    for index in range(runs):
        print(json.dumps(one_run(config, index, seconds, rng, mode)), flush=True)


if __name__ == "__main__":
    main()
