"""A launched bot that goes over one of its sandbox's limits on its
``--at``-th decision, in its own process, and so dies of it:

    python hog_bot.py --what memory|processes|shm-fork|threads|hide-cpu [--at N] (plus the SDK's options)

``memory`` touches more memory than any limit a test sets; ``processes``
starts processes until refused, then exits as a bot whose worker pool could
not start would. ``shm-fork`` writes up to a GiB into /dev/shm, then starts
four children that each touch 40% of ``--memory-mb`` and wait: together
they go over the limit; it reports (one JSON line on stderr) how much
/dev/shm took and how the children ended, and exits as a bot whose worker
died would if one was killed. ``threads`` starts ``--threads`` threads at
its first decision and holds them while it plays on. ``hide-cpu`` burns CPU
where a count of its own process's times would not see it (``_hide_cpu``),
says how much on stderr, and plays on."""

from __future__ import annotations

import json
import mmap
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from typing import Any

from sdk import Action, Bot, Observation, main

_decisions = 0


class HogBot(Bot):
    name = "hog"

    def __init__(self, what: str, at: int, memory_mb: int, threads: int) -> None:
        self.what, self.at, self.memory_mb, self.threads = what, at, memory_mb, threads

    def choose(self, obs: Observation) -> Action:
        global _decisions
        _decisions += 1
        if self.what == "threads" and _decisions == 1:
            _hold_threads(self.threads)
        if _decisions == self.at:
            if self.what == "shm-fork":
                _shm_then_fork(self.memory_mb)
            elif self.what == "hide-cpu":
                _hide_cpu()
            elif self.what == "memory":
                size = 4096 * 1024 * 1024
                area = mmap.mmap(-1, size)
                for offset in range(0, size, mmap.PAGESIZE):
                    area[offset] = 1
            else:
                # posix_spawn, not fork: a fork runs gRPC's fork handlers, which
                # wait for gRPC threads that cannot start at the limit, and the
                # bot would then sit out its clock instead of dying of the limit.
                sleep = shutil.which("sleep") or "/bin/sleep"
                try:
                    while True:
                        os.posix_spawn(sleep, [sleep, "60"], os.environ)
                except OSError as exc:
                    print(f"cannot start a worker: {exc}", file=sys.stderr, flush=True)
                    os._exit(3)
        return obs.legal[0]


_HELD = threading.Event()


def _hold_threads(n: int) -> None:
    started = 0
    try:
        for _ in range(n):
            threading.Thread(target=_HELD.wait, daemon=True).start()
            started += 1
    except RuntimeError as exc:
        print(json.dumps({"threads": started, "refused": str(exc)}), file=sys.stderr, flush=True)
        return
    print(json.dumps({"threads": started, "refused": ""}), file=sys.stderr, flush=True)


# A child offers itself to the OOM killer first (raising one's own
# oom_score_adj needs no privilege): the parent must live to report, and
# while the children grow evenly it is the family's largest process.
_TOUCH_AND_HOLD = """
import mmap, sys, time
try:
    with open("/proc/self/oom_score_adj", "w") as fh:
        fh.write("1000")
except OSError:
    pass
size = int(sys.argv[1]) * 1024 * 1024
area = mmap.mmap(-1, size)
for offset in range(0, size, mmap.PAGESIZE):
    area[offset] = 1
time.sleep(1.5)
"""


def _shm_then_fork(memory_mb: int) -> None:
    written, error = 0, ""
    chunk = b"\1" * (1 << 20)
    try:
        with open("/dev/shm/fill", "wb") as fh:
            while written < 1024 * (1 << 20):
                fh.write(chunk)
                fh.flush()
                written += len(chunk)
    except OSError as exc:
        error = exc.strerror or str(exc)
    # Fresh interpreters, not os.fork(): a forked copy of a gRPC process may abort by itself.
    each = int(memory_mb * 0.4)
    children = [subprocess.Popen([sys.executable, "-c", _TOUCH_AND_HOLD, str(each)]) for _ in range(4)]
    ends = [child.wait() for child in children]
    print(json.dumps({"shm_mb": written >> 20, "shm_error": error, "children": ends}), file=sys.stderr, flush=True)
    if -signal.SIGKILL in ends:
        os._exit(3)


# Each burner spins until it has used this much CPU of its own, then exits.
BURN_SECONDS = 0.25
_BURN = """
import sys, time
while time.process_time() < float(sys.argv[1]):
    pass
"""


def _burn_thread() -> None:
    while time.thread_time() < BURN_SECONDS / 2:
        pass


def _hide_cpu() -> None:
    """CPU spent where the bot's own /proc times do not show it: a child
    left a zombie; threads that exit; and, with SIGCHLD ignored (the kernel
    then reaps children at once and adds their times to nobody's), two
    children and a double-forked orphan (reparented to the sandbox's pid 1,
    this process). Waits on a pipe every burner holds open until it exits."""
    read_end, write_end = os.pipe()
    os.set_inheritable(write_end, True)
    spawn = [sys.executable, "-c", _BURN, str(BURN_SECONDS)]
    zombie = subprocess.Popen(spawn, close_fds=False)
    threads = [threading.Thread(target=_burn_thread) for _ in range(4)]
    for thread in threads:
        thread.start()
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    for _ in range(2):
        subprocess.Popen(spawn, close_fds=False)
    orphan = " ".join(f"'{a}'" for a in spawn)
    subprocess.Popen(["/bin/sh", "-c", f"{orphan} & exit 0"], close_fds=False)
    os.close(write_end)
    while os.read(read_end, 1):  # every burner, the orphan's shell included, closes it by exiting
        pass
    os.close(read_end)
    for thread in threads:
        thread.join()
    burned = 4 * BURN_SECONDS + 4 * BURN_SECONDS / 2
    print(json.dumps({"hidden_cpu": burned, "zombie": zombie.pid}), file=sys.stderr, flush=True)


def _arguments(p: Any) -> None:
    p.add_argument("--what", choices=("memory", "processes", "shm-fork", "threads", "hide-cpu"), required=True)
    p.add_argument("--at", type=int, default=3)
    p.add_argument("--memory-mb", type=int, default=256, help="shm-fork: the bot's memory_mb")
    p.add_argument("--threads", type=int, default=400, help="threads: how many to hold")


if __name__ == "__main__":
    main(lambda args: HogBot(args.what, args.at, args.memory_mb, args.threads), add_arguments=_arguments)
