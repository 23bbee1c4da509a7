"""Resource limits (setrlimit) for a sandboxed bot, through util-linux's
``prlimit`` in front of bubblewrap, inherited by every process the bot starts.

Open files and the size of any file the bot writes (its log included) are
limited this way always. Memory and processes are limited by control groups
where the arena can make them; where it cannot (``contained=False``, only
with ``containment = "best-effort"``), each process's address space is
limited here instead: coarser (an address space is not resident memory, and
each child gets its own). Never ``RLIMIT_NPROC``: the kernel counts it over
every process and thread of the organizer's user, so the organizer's own
programs, or one bot, would use up every other bot's share."""

from __future__ import annotations

import shutil

from .limits import Limits

# Address space a Python bot reserves beyond what it uses (thread stacks, gRPC's arenas).
_ADDRESS_SPACE_SLACK_MB = 2048


def prlimit_command(limits: Limits, contained: bool) -> list[str]:
    prlimit = shutil.which("prlimit") or "prlimit"
    argv = [prlimit, f"--nofile={limits.open_files}", f"--fsize={limits.log_mb * 1024 * 1024}", "--core=0"]
    if not contained:
        address_space = (limits.memory_mb + _ADDRESS_SPACE_SLACK_MB) * 1024 * 1024
        argv.append(f"--as={address_space}")
    return argv + ["--"]
