"""A launched bot that goes over one of its sandbox's limits on its
``--at``-th decision, in its own process, and so dies of it:

    python hog_bot.py --what memory|processes [--at N] (plus the SDK's options)

``memory`` touches more memory than any limit a test sets; ``processes``
starts processes until refused, then exits as a bot whose worker pool could
not start would."""

from __future__ import annotations

import mmap
import os
import shutil
import sys
from typing import Any

from sdk import Action, Bot, Observation, main

_decisions = 0


class HogBot(Bot):
    name = "hog"

    def __init__(self, what: str, at: int) -> None:
        self.what, self.at = what, at

    def choose(self, obs: Observation) -> Action:
        global _decisions
        _decisions += 1
        if _decisions == self.at:
            if self.what == "memory":
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


def _arguments(p: Any) -> None:
    p.add_argument("--what", choices=("memory", "processes"), required=True)
    p.add_argument("--at", type=int, default=3)


if __name__ == "__main__":
    main(lambda args: HogBot(args.what, args.at), add_arguments=_arguments)
