"""A launched bot that goes over one of its sandbox's limits on its
``--at``-th decision, in its own process, and so dies of it:

    python hog_bot.py --what memory|processes|shm-fork|threads [--at N] (plus the SDK's options)

``memory`` touches more memory than any limit a test sets; ``processes``
starts processes until refused, then exits as a bot whose worker pool could
not start would. ``shm-fork`` writes up to a GiB into /dev/shm, then starts
four children that each touch 40% of ``--memory-mb`` and wait: together
they go over the limit; it reports (one JSON line on stderr) how much
/dev/shm took and how the children ended, and exits as a bot whose worker
died would if one was killed. ``threads`` starts ``--threads`` threads at
its first decision and holds them while it plays on."""

from __future__ import annotations

import json
import mmap
import os
import shutil
import signal
import subprocess
import sys
import threading
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


def _arguments(p: Any) -> None:
    p.add_argument("--what", choices=("memory", "processes", "shm-fork", "threads"), required=True)
    p.add_argument("--at", type=int, default=3)
    p.add_argument("--memory-mb", type=int, default=256, help="shm-fork: the bot's memory_mb")
    p.add_argument("--threads", type=int, default=400, help="threads: how many to hold")


if __name__ == "__main__":
    main(lambda args: HogBot(args.what, args.at, args.memory_mb, args.threads), add_arguments=_arguments)
