"""Neutral stand-ins for the machine-wide counters of /proc, bound read-only
over them in every sandbox.

The host's counters (free and shared memory, CPU time of every core, load,
uptime, page and disk statistics, open files, pressure) move with what
every process does. Two partners in different sandboxes could signal
through them: one fills and empties its /tmp, the other watches the
``Shmem`` line. In the sandbox each of these files says the same thing all
the time: the bot's own memory limit as the machine's memory, its own
``cpus`` as the machine's cores (so ``os.cpu_count()`` and thread pools size
themselves to the bot's share), and nothing that moves. /sys is never shown,
and /proc/net belongs to the sandbox's own network namespace."""

from __future__ import annotations

import os
from pathlib import Path

# Files that are bound only where the host has them (a kernel without PSI has no /proc/pressure).
_STATIC: dict[str, str] = {
    "loadavg": "0.00 0.00 0.00 1/1 1\n",
    "uptime": "0.00 0.00\n",
    "vmstat": "".join(f"{k} 0\n" for k in (
        "nr_free_pages", "nr_inactive_anon", "nr_active_anon", "nr_inactive_file", "nr_active_file",
        "nr_shmem", "nr_dirty", "nr_writeback", "pgpgin", "pgpgout", "pswpin", "pswpout", "pgfault",
        "pgmajfault")),
    "diskstats": "",
    "partitions": "major minor  #blocks  name\n\n",
    "swaps": "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n",
    "buddyinfo": "",
    "zoneinfo": "",
    "pagetypeinfo": "",
    "interrupts": "",
    "softirqs": "",
    "schedstat": "",
    "locks": "",
    "key-users": "",
    "cgroups": "",
    "sys/fs/file-nr": "0\t0\t0\n",
    "sys/fs/inode-nr": "0\t0\n",
    "sys/fs/inode-state": "0\t0\t0\t0\t0\t0\t0\n",
    "sys/fs/dentry-state": "0\t0\t45\t0\t0\t0\n",
    "sys/fs/aio-nr": "0\n",
    "sys/kernel/random/entropy_avail": "256\n",
    "sys/kernel/pty/nr": "0\n",
}
# Folders shown empty.
_EMPTY_DIRS = ("pressure",)

_MEMINFO_KEYS = ("MemTotal", "MemFree", "MemAvailable", "Buffers", "Cached", "SwapCached", "Active", "Inactive",
                 "Shmem", "SwapTotal", "SwapFree", "Dirty", "Writeback", "AnonPages", "Mapped", "Slab",
                 "CommitLimit", "Committed_AS")


def meminfo(memory_mb: int) -> str:
    total = memory_mb * 1024
    values = {"MemTotal": total, "MemFree": total, "MemAvailable": total, "CommitLimit": total}
    return "".join(f"{k + ':':<16}{values.get(k, 0):>8} kB\n" for k in _MEMINFO_KEYS)


def stat(cpus: int) -> str:
    zeros = " 0 0 0 0 0 0 0 0 0 0"
    return (f"cpu {zeros}\n" + "".join(f"cpu{i}{zeros}\n" for i in range(cpus))
            + "intr 0\nctxt 0\nbtime 0\nprocesses 1\nprocs_running 1\nprocs_blocked 0\nsoftirq 0\n")


def _cpuinfo() -> str:
    """The host's, with the clock speed (which moves with load) frozen."""
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return ""
    return "".join("cpu MHz\t\t: 1000.000\n" if line.startswith("cpu MHz") else line + "\n"
                   for line in text.splitlines())


class NeutralProc:
    """The stand-in files of one run, in ``folder`` (the run's private folder),
    made once per (memory, cpus) pair a bot uses."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.folder.mkdir(mode=0o755)
        shared = folder / "shared"
        shared.mkdir(mode=0o755)
        self._shared: list[tuple[Path, str]] = []
        for name, text in {**_STATIC, "cpuinfo": _cpuinfo()}.items():
            if os.path.exists(f"/proc/{name}"):
                path = shared / name.replace("/", "_")
                path.write_text(text)
                path.chmod(0o444)
                self._shared.append((path, f"/proc/{name}"))
        empty = shared / "empty"
        empty.mkdir(mode=0o555)
        self._shared += [(empty, f"/proc/{name}") for name in _EMPTY_DIRS if os.path.isdir(f"/proc/{name}")]
        self._made: set[tuple[int, int]] = set()

    def binds(self, memory_mb: int, cpus: int) -> list[str]:
        """bwrap arguments that put the stand-ins over /proc (after ``--proc /proc``)."""
        own = self.folder / f"{memory_mb}-{cpus}"
        if (memory_mb, cpus) not in self._made:
            own.mkdir(mode=0o755, exist_ok=True)
            for name, text in (("meminfo", meminfo(memory_mb)), ("stat", stat(cpus))):
                (own / name).write_text(text)
                (own / name).chmod(0o444)
            self._made.add((memory_mb, cpus))
        argv: list[str] = []
        for source, target in [(own / "meminfo", "/proc/meminfo"), (own / "stat", "/proc/stat"), *self._shared]:
            argv += ["--ro-bind", str(source), target]
        return argv
