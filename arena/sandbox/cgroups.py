"""Control groups for sandboxed bots: memory, process and CPU limits per bot
process, its CPU time, and which limit it hit.

One group per bot process, created below the groups the arena itself is
in (so a container's own limits still apply): on cgroup v2 inside a group of
the run (a group that holds processes may not also hold groups with
controllers); on cgroup v1 directly beside the arena's own processes, named
after the run. Every level a bot sits below costs the scheduler and the
memory and CPU counters work at each of its wake-ups and charges, and on v1
the run's group bought nothing: a bot's group there weighs what its
processes would weigh outside it by itself.
cgroup v1 (one hierarchy per controller: memory, pids, cpu, cpuacct, cpuset)
and cgroup v2 (one unified hierarchy) are both handled; where neither can be
written (not root, no delegation), ``Cgroups.detect`` returns None and the
launcher falls back to resource limits (``rlimits.py``).

A process joins its groups before it runs anything (``join_command``), so
every process it ever forks is counted and limited."""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path

from .limits import Limits

V1_CONTROLLERS = ("memory", "pids", "cpu", "cpuacct", "cpuset")
CFS_PERIOD_US = 100_000
_RUN_PREFIX = "truco-arena-"
_ROOT = Path("/sys/fs/cgroup")


def _mount_points() -> dict[str, tuple[Path, str]]:
    """cgroup v1 controller (or "unified" for v2) -> (mount point, mount root)."""
    found: dict[str, tuple[Path, str]] = {}
    try:
        lines = Path("/proc/self/mountinfo").read_text().splitlines()
    except OSError:
        return found
    for line in lines:
        left, _, right = line.partition(" - ")
        parts, rest = left.split(), right.split()
        if len(parts) < 5 or len(rest) < 3:
            continue
        fstype, options = rest[0], rest[2].split(",")
        if fstype == "cgroup2":
            found.setdefault("unified", (Path(parts[4]), parts[3]))
        elif fstype == "cgroup":
            for c in V1_CONTROLLERS:
                if c in options:
                    found.setdefault(c, (Path(parts[4]), parts[3]))
    return found


def _own_groups() -> dict[str, str]:
    """Controller (or "unified") -> this process's group path, from /proc/self/cgroup."""
    own: dict[str, str] = {}
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return own
    for line in lines:
        _, controllers, path = line.split(":", 2)
        if controllers == "":
            own["unified"] = path
        for c in controllers.split(","):
            if c in V1_CONTROLLERS:
                own[c] = path
    return own


def _below(mount: Path, root: str, path: str) -> Path:
    rel = os.path.relpath(path, root) if path.startswith(root) else path.lstrip("/")
    return mount if rel == "." else mount / rel.lstrip("/")


def _write(path: Path, value: str) -> None:
    path.write_text(value)


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def _counter(text: str, key: str) -> int:
    for line in text.splitlines():
        name, _, value = line.partition(" ")
        if name == key and value.strip().isdigit():
            return int(value)
    return 0


@dataclass
class Box:
    """The groups of one bot process."""

    version: int
    """1 or 2."""
    dirs: dict[str, Path]
    """Controller (v1) or "unified" (v2) -> the group's folder."""
    limits: Limits
    cores: tuple[int, ...] | None
    _removed: bool = field(default=False, repr=False)
    _usage_fd: int | None = field(default=None, repr=False)

    @property
    def limits_memory(self) -> bool:
        return self.version == 2 or "memory" in self.dirs

    def procs_files(self) -> list[Path]:
        """The files a process writes its pid to, to join every group of the box."""
        return [d / "cgroup.procs" for d in dict.fromkeys(self.dirs.values())]

    def cpu_seconds(self) -> float | None:
        """CPU time used by every process of the box so far (user + system)."""
        if self.version == 1:
            d = self.dirs.get("cpuacct")
            text = self._usage(d / "cpuacct.usage").strip() if d is not None else ""
            return int(text) / 1e9 if text.isdigit() else None
        text = self._usage(self.dirs["unified"] / "cpu.stat")
        return _counter(text, "usage_usec") / 1e6 if text else None

    def _usage(self, path: Path) -> str:
        # Kept open: the arena reads it at every start and end of each of the
        # bot's games, and one pread is a twentieth of an open, read and close.
        try:
            if self._usage_fd is None:
                if self._removed:
                    return ""
                self._usage_fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
            return os.pread(self._usage_fd, 4096, 0).decode()
        except OSError:
            return ""

    def _close_usage(self) -> None:
        if self._usage_fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._usage_fd)
            self._usage_fd = None

    def limit_hit(self) -> str | None:
        """Which limit stopped the box, if one did: the reason a game is lost for."""
        if self.version == 1:
            memory, pids = self.dirs.get("memory"), self.dirs.get("pids")
            oom = _counter(_read(memory / "memory.oom_control"), "oom_kill") if memory else 0
            over = _counter(_read(pids / "pids.events"), "max") if pids else 0
        else:
            oom = _counter(_read(self.dirs["unified"] / "memory.events"), "oom_kill")
            over = _counter(_read(self.dirs["unified"] / "pids.events"), "max")
        if oom:
            return f"out of memory (limit {self.limits.memory_mb} MiB)"
        if over:
            return f"too many processes (limit {self.limits.processes}, threads included)"
        return None

    def pids(self) -> list[int]:
        for d in self.dirs.values():
            text = _read(d / "cgroup.procs")
            return [int(p) for p in text.split() if p.isdigit()]
        return []

    def remove(self) -> None:
        """Kill what is left in the box and delete its groups. Never waits: a
        group whose last process is still exiting is deleted by ``Cgroups.close``."""
        if self._removed:
            return
        self._close_usage()
        for pid in self.pids():
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        self._removed = all(_rmdir(d) for d in self.dirs.values())

    def remove_waiting(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while not self._removed and time.monotonic() < deadline:
            self._removed = False
            self.remove()
            if not self._removed:
                time.sleep(0.02)


def _rmdir(d: Path) -> bool:
    try:
        d.rmdir()
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return True


class Cgroups:
    """Where the run's boxes go in each hierarchy; makes one ``Box`` per bot process."""

    def __init__(self, version: int, run_dirs: dict[str, Path], prefix: str = "",
                 layered: bool | None = None) -> None:
        self.version = version
        self.run_dirs = run_dirs
        """Controller (v1) or "unified" (v2) -> the folder the boxes go in: the
        run's own group (``layered``), else the arena's own group (v1)."""
        self.prefix = prefix
        """What every box's name starts with: the run's name where the boxes
        sit beside other groups."""
        self.layered = version == 2 if layered is None else layered
        """The boxes sit in groups of the run's own, which the run weighs and removes."""
        self._boxes: list[Box] = []

    @classmethod
    def detect(cls, delegated: str | None = None) -> Cgroups | None:
        """Where the run's boxes go (v2: the run's group, created now); None
        where no group can be made there.

        They go below the groups this process is in or, with ``delegated``
        (``$TRUCO_ARENA_CGROUP``), below that path of every hierarchy: a
        subtree an administrator handed to this user (docs/sandbox.md)."""
        mounts, own = _mount_points(), _own_groups()
        if delegated is not None:
            own = {c: "/" + delegated.strip("/") for c in mounts}
            mounts = {c: (m, "/") for c, (m, _) in mounts.items()}
        tag = f"{_RUN_PREFIX}{os.getpid()}-{secrets.token_hex(3)}"
        if all(c in mounts and c in own for c in ("memory", "pids")):
            parents: dict[str, Path] = {}
            for c in V1_CONTROLLERS:
                if c in mounts and c in own:
                    mount, root = mounts[c]
                    parent = _below(mount, root, own[c])
                    _remove_stale(parent)
                    if _can_make(parent / tag, c == "cpuset"):
                        parents[c] = parent
            if "memory" in parents and "pids" in parents:
                return cls(1, parents, prefix=f"{tag}-")
        if "unified" in mounts and "unified" in own:
            mount, root = mounts["unified"]
            parent = _below(mount, root, own["unified"])
            wanted = {"memory", "pids", "cpu"}
            if wanted <= set(_read(parent / "cgroup.controllers").split()):
                unified = cls._make({"unified": parent / tag})
                if unified is not None:
                    try:
                        _write(unified["unified"] / "cgroup.subtree_control", "+memory +pids +cpu +cpuset")
                    except OSError:
                        try:
                            _write(unified["unified"] / "cgroup.subtree_control", "+memory +pids +cpu")
                        except OSError:
                            _rmdir(unified["unified"])
                            return None
                    return cls(2, unified)
        return None

    def holds(self) -> dict[str, bool]:
        """Which per-bot guarantees these groups give: memory, processes, CPU, CPU accounting."""
        if self.version == 2:
            return {"memory": True, "processes": True, "CPU": True, "CPU accounting": True}
        return {"memory": "memory" in self.run_dirs, "processes": "pids" in self.run_dirs,
                "CPU": "cpu" in self.run_dirs, "CPU accounting": "cpuacct" in self.run_dirs}

    @staticmethod
    def _make(dirs: dict[str, Path]) -> dict[str, Path] | None:
        made: dict[str, Path] = {}
        try:
            for c, d in dirs.items():
                d.mkdir(mode=0o755)
                made[c] = d
        except OSError:
            for d in made.values():
                with contextlib.suppress(OSError):
                    d.rmdir()
            return None
        return made

    def box(self, name: str, limits: Limits, cores: tuple[int, ...] | None) -> Box:
        """Groups for one bot process, limits set; ``cores`` pins it, else a CPU quota."""
        tag = f"{self.prefix}{name}-{secrets.token_hex(3)}"
        # A cpuset group only to pin: one that copies its parent's cores limits
        # nothing, and these groups cost games/s (benchmarks/sandbox.py, four
        # games at once on two cores: -9.5% with them, -5.2% without).
        dirs = {c: d / tag for c, d in self.run_dirs.items() if c != "cpuset" or cores is not None}
        for d in dict.fromkeys(dirs.values()):  # once each: cpu and cpuacct often share a hierarchy
            d.mkdir(mode=0o755)
        box = Box(self.version, dirs, limits, cores)
        self._boxes.append(box)
        self.reweigh()
        memory = limits.memory_mb * 1024 * 1024
        quota = str(limits.cpus * CFS_PERIOD_US)
        if self.version == 1:
            _write(dirs["memory"] / "memory.limit_in_bytes", str(memory))
            with contextlib.suppress(OSError):  # absent without swap accounting
                _write(dirs["memory"] / "memory.memsw.limit_in_bytes", str(memory))
            _write(dirs["pids"] / "pids.max", str(limits.processes))
            if "cpu" in dirs:
                _write(dirs["cpu"] / "cpu.cfs_period_us", str(CFS_PERIOD_US))
                _write(dirs["cpu"] / "cpu.shares", str(1024 * limits.cpus))
                if cores is None:
                    _write(dirs["cpu"] / "cpu.cfs_quota_us", quota)
            if "cpuset" in dirs and cores is not None:
                _write(dirs["cpuset"] / "cpuset.cpus", ",".join(map(str, cores)))
                _write(dirs["cpuset"] / "cpuset.mems", _read(self.run_dirs["cpuset"] / "cpuset.mems").strip())
        else:
            d = dirs["unified"]
            _write(d / "memory.max", str(memory))
            with contextlib.suppress(OSError):
                _write(d / "memory.swap.max", "0")
            _write(d / "pids.max", str(limits.processes))
            _write(d / "cpu.max", f"{'max' if cores is not None else quota} {CFS_PERIOD_US}")
            if cores is not None:
                with contextlib.suppress(OSError):
                    _write(d / "cpuset.cpus", ",".join(map(str, cores)))
        return box

    def reweigh(self) -> None:
        """The run's group weighs what its live bot processes would weigh
        outside it (each its ``cpus`` of ordinary processes): nested in one
        group, the bots would otherwise share one process's share of a busy
        machine between them, and run slower than without a sandbox. Boxes
        beside the arena's processes (v1) weigh that each by themselves."""
        self._boxes = [b for b in self._boxes if not b._removed]
        if not self.layered:
            return
        cpus = max(1, sum(b.limits.cpus for b in self._boxes))
        with contextlib.suppress(OSError):  # a weight is an optimization, never a reason to fail
            if self.version == 1 and "cpu" in self.run_dirs:
                _write(self.run_dirs["cpu"] / "cpu.shares", str(1024 * cpus))
            elif self.version == 2:
                _write(self.run_dirs["unified"] / "cpu.weight", str(min(10_000, 100 * cpus)))

    def close(self) -> None:
        """Remove every box left (waiting a moment for processes still
        exiting), then the run's groups (never the arena's own)."""
        for box in self._boxes:
            box.remove_waiting(2.0)
        self._boxes.clear()
        if self.layered:
            for d in self.run_dirs.values():
                _rmdir(d)


def _can_make(d: Path, cpuset: bool) -> bool:
    """Whether a group can be made at ``d`` (made and removed again); a cpuset
    group must also take its parent's cores and memory nodes, as a pinned
    bot's group takes its cores."""
    try:
        d.mkdir(mode=0o755)
    except OSError:
        return False
    try:
        if cpuset:
            for knob in ("cpuset.cpus", "cpuset.mems"):
                _write(d / knob, _read(d.parent / knob).strip())
    except OSError:
        return False
    finally:
        _rmdir(d)
    return True


def _remove_stale(parent: Path) -> None:
    """Empty groups left by a run that was killed (its pid is gone): a run's
    group with its boxes, or boxes named after the run."""
    try:
        entries = [e for e in parent.iterdir() if e.name.startswith(_RUN_PREFIX)]
    except OSError:
        return
    for run in entries:
        pid = run.name[len(_RUN_PREFIX):].split("-", 1)[0]
        if not pid.isdigit() or Path(f"/proc/{pid}").exists():
            continue
        with contextlib.suppress(OSError):
            for box in run.iterdir():
                if box.is_dir():
                    _rmdir(box)
        _rmdir(run)


def join_command(box: Box) -> list[str]:
    """A shell prefix that puts itself into ``box`` and then execs the rest of
    the command line, so nothing runs outside the box even for an instant."""
    script = 'while [ "$1" != -- ]; do echo $$ > "$1" || exit 125; shift; done; shift; exec "$@"'
    return ["/bin/sh", "-c", script, "sh", *map(str, box.procs_files()), "--"]
