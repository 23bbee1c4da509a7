"""What one sandboxed bot process may use: the limits a config sets, with
their defaults and bounds. Pure data; ``cgroups.py`` and ``bwrap.py`` apply it."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class SandboxMode(enum.Enum):
    BWRAP = "bwrap"  # every launched process in a bubblewrap sandbox (the default)
    NONE = "none"  # no sandbox: only for bot code you trust


class Containment(enum.Enum):
    """What a run needs of the sandbox before it starts a bot (docs/sandbox.md)."""

    FULL = "full"  # memory, processes, CPU and CPU accounting per bot, or the run refuses (the default)
    BEST_EFFORT = "best-effort"  # run with what this machine gives, and say what does not hold


@dataclass(frozen=True)
class Limits:
    """Per bot process. Threads count as processes (the kernel counts tasks)."""

    memory_mb: int = 1024
    """Resident memory; over it the process is killed (out of memory)"""
    processes: int = 256
    """Processes and threads together."""
    open_files: int = 1024
    """File descriptors."""
    scratch_mb: int = 64
    """The private writable /tmp (also HOME)"""
    cpus: int = 1
    """Cores (pinned when the machine has enough, else a CPU quota)"""
    log_mb: int = 64
    """The largest a bot's log file may grow (its stdout and stderr)"""


# Bounds of each limit: (low, high). Lows are what a Python bot needs to start
# at all; highs are far beyond any bot, yet finite.
BOUNDS: dict[str, tuple[int, int]] = {
    "memory_mb": (64, 1024 * 1024),
    "processes": (8, 65536),
    "open_files": (32, 1048576),
    "scratch_mb": (1, 1024 * 1024),
    "cpus": (1, 1024),
    "log_mb": (1, 1024 * 1024),
}
LIMIT_KEYS = tuple(BOUNDS)
