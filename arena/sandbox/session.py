"""The sandbox of one run: the folder of the arena's Unix socket, the control
groups, the cores handed out and the user ids of the bots.

``Sandbox.open`` checks that bubblewrap can be used and raises
``SandboxUnavailableError`` (one line, naming the package and the opt-out)
when it cannot. ``wrap`` turns one bot command into the command line that
runs it contained, and ``close`` removes everything the run made."""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .bwrap import (
    SOCKET_IN_SANDBOX,
    SandboxSpec,
    SandboxUnavailableError,
    args_data,
    bwrap_argv,
    find_bwrap,
    python_paths,
)
from .cgroups import Box, Cgroups, join_command
from .limits import Containment, Limits
from .neutral import NeutralProc
from .rlimits import prlimit_command

# Bots get user ids from a range no system hands out: random per run, so two
# runs on one machine do not share ids either.
_UID_LOW, _UID_HIGH = 1_000_000_000, 2_000_000_000
_UIDS_PER_RUN = 4096
SOCKET_ADDRESS = f"unix:{SOCKET_IN_SANDBOX}"  # what a sandboxed bot dials


@dataclass(frozen=True)
class Wrapped:
    """A bot command ready to start: the whole command line, its environment
    (None: the sandbox sets it) and the control groups it joins (if any)."""

    argv: list[str]
    env: dict[str, str] | None
    box: Box | None
    cwd: Path | None
    fds: tuple[int, ...] = ()
    """Descriptors the process inherits (bwrap's options); closed once it started."""

    def close_fds(self) -> None:
        for fd in self.fds:
            with contextlib.suppress(OSError):
                os.close(fd)


# What a sandbox can promise, in the order ``truco-arena sandbox check`` lists them.
GUARANTEES = ("no network", "own files", "own processes", "memory", "processes", "CPU", "CPU accounting",
              "no host counters", "a user id per bot process", "nothing secret on a command line")
# The guarantees that control groups give, and how each fails without them.
_CGROUP_GUARANTEES = {
    "memory": "each process's address space only, not its children's, not /tmp",
    "processes": "no limit on processes and threads",
    "CPU": "no CPU quota: a bot may use every core",
    "CPU accounting": "no CPU seconds per game",
}
CGROUP_FIX = ("a control group subtree delegated to this user: as root, mkdir and chown one in each of the "
              "memory, pids, cpu and cpuacct hierarchies (cgroup v1) or delegate one (cgroup v2, "
              "systemd-run --user --scope -p Delegate=yes), then set TRUCO_ARENA_CGROUP to its path "
              "(docs/sandbox.md); or run as root")
UID_FIX = "holds only when the arena runs as root (docs/sandbox.md: a dedicated account set up by an administrator)"


def delegated_cgroup() -> str | None:
    """The subtree an administrator handed to this user ($TRUCO_ARENA_CGROUP), if any."""
    value = os.environ.get("TRUCO_ARENA_CGROUP", "").strip()
    return value or None


def held(cgroups: Cgroups | None, as_root: bool) -> dict[str, bool]:
    """Each guarantee of ``GUARANTEES``: does it hold with these groups, as this user?"""
    by_cgroups = cgroups.holds() if cgroups is not None else dict.fromkeys(_CGROUP_GUARANTEES, False)
    return {g: by_cgroups.get(g, True) if g in _CGROUP_GUARANTEES else (as_root or g != "a user id per bot process")
            for g in GUARANTEES}


def level_line(holds: dict[str, bool], as_root: bool) -> str:
    """The one line every run prints about its containment."""
    missing = [g for g, ok in holds.items() if not ok]
    if not missing:
        return "containment: full (root: a user id and control groups of its own per bot process)"
    cgroup_missing = [g for g in missing if g in _CGROUP_GUARANTEES]
    if not cgroup_missing:
        return ("containment: full (delegated control groups: memory, processes and CPU per bot process; "
                "the bots share the organizer's user id)")
    what = "; ".join(f"{g} ({_CGROUP_GUARANTEES[g]})" for g in cgroup_missing)
    return (f"containment: best-effort (containment = \"best-effort\"): does not hold: {what}"
            + ("; a user id per bot process" if not as_root else ""))


def refusal(holds: dict[str, bool]) -> str:
    missing = ", ".join(g for g in _CGROUP_GUARANTEES if not holds[g])
    user = _user_name()
    return (f"the bot sandbox cannot limit {missing} per bot for user {user}: no control group it can write here. "
            f"Ways out: {CGROUP_FIX}; or containment = \"best-effort\" in the config to run with what holds; "
            f"or sandbox = \"none\" for bot code you trust (truco-arena sandbox check lists what holds)")


def _user_name() -> str:
    try:
        import pwd
        return pwd.getpwuid(os.geteuid()).pw_name
    except (ImportError, KeyError):
        return str(os.geteuid())


class CoreAllocator:
    """Cores of their own for each bot process when the machine has enough
    (one left over for the arena); otherwise none, and a CPU quota applies."""

    def __init__(self, cores: list[int]) -> None:
        self.cores = cores
        self.free = list(reversed(cores))  # the bots take cores from the top; the arena keeps the first
        self.enabled = False

    def plan(self, cpus_needed: int) -> None:
        """Pin only if every process of the run can have its own cores at once."""
        self.enabled = len(self.cores) >= cpus_needed + 1

    def take(self, n: int) -> tuple[int, ...] | None:
        if not self.enabled or len(self.free) - 1 < n:
            return None
        taken = tuple(sorted(self.free.pop() for _ in range(n)))
        return taken

    def give_back(self, cores: tuple[int, ...] | None) -> None:
        if cores is not None:
            self.free.extend(cores)


def probe(containment: Containment = Containment.FULL) -> str:
    """The containment line a run would print here (``level_line``), without
    keeping anything; SandboxUnavailableError as ``Sandbox.open`` raises it."""
    find_bwrap()
    cgroups = Cgroups.detect(delegated_cgroup())
    try:
        holds = held(cgroups, os.geteuid() == 0)
    finally:
        if cgroups is not None:
            cgroups.close()
    if containment is Containment.FULL and not all(holds[g] for g in _CGROUP_GUARANTEES):
        raise SandboxUnavailableError(refusal(holds))
    return level_line(holds, os.geteuid() == 0)


class Sandbox:
    def __init__(self, bwrap: str, folder: Path, cgroups: Cgroups | None, cores: list[int]) -> None:
        self.bwrap = bwrap
        self.folder = folder
        self.socket = folder / "arena.sock"
        self._family_sockets: dict[str, Path] = {}
        self.cgroups = cgroups
        self.cores = CoreAllocator(cores)
        self._as_root = os.geteuid() == 0
        self.holds = held(cgroups, self._as_root)
        self.level = level_line(self.holds, self._as_root)
        self._neutral = NeutralProc(folder / "proc")
        self._uid_base = _UID_LOW + secrets.randbelow((_UID_HIGH - _UID_LOW) // _UIDS_PER_RUN) * _UIDS_PER_RUN
        self._next_uid = 0
        self._python_path = python_paths()[1]

    @classmethod
    def open(cls, containment: Containment = Containment.FULL) -> Sandbox:
        """The run's sandbox. SandboxUnavailableError (one line) where
        bubblewrap is missing, or where memory, processes or CPU cannot be
        limited per bot and ``containment`` is not best-effort."""
        bwrap = find_bwrap()
        cgroups = Cgroups.detect(delegated_cgroup())
        holds = held(cgroups, os.geteuid() == 0)
        if containment is Containment.FULL and not all(holds[g] for g in _CGROUP_GUARANTEES):
            if cgroups is not None:
                cgroups.close()
            raise SandboxUnavailableError(refusal(holds))
        # The socket's folder: fresh and owner-only. Only the arena and the
        # sandboxes (into which the socket itself is bound) reach the socket:
        # another local user sees its path in /proc/net/unix but cannot cross
        # the folder to connect. The neutral /proc files live here too.
        folder = Path(tempfile.mkdtemp(prefix="truco-arena-"))
        try:
            cores = sorted(os.sched_getaffinity(0))
        except (AttributeError, OSError):
            cores = list(range(os.cpu_count() or 1))
        return cls(bwrap, folder, cgroups, cores)

    @property
    def contains_cpu(self) -> bool:
        return self.cgroups is not None

    def socket_ready(self) -> None:
        """Called once the arena listens on ``self.socket``: every bot's user may connect."""
        self.socket.chmod(0o666)  # the bots' own user ids; the folder keeps every other user out

    def family_socket(self, name: str) -> Path:
        """The Unix socket of bot ``name``'s processes alone (the arena listens
        on it, ``family_socket_ready`` opens it): bound into each of its
        sandboxes in place of the shared one, so that the arena tells one
        bot's streams from another's before any Hello. Numbered, not named:
        a path holds at most 107 bytes."""
        path = self._family_sockets.get(name)
        if path is None:
            path = self._family_sockets[name] = self.folder / f"bot{len(self._family_sockets)}.sock"
        return path

    def family_socket_ready(self, name: str) -> None:
        """The arena listens on ``family_socket(name)``: the bot's users may connect."""
        self.family_socket(name).chmod(0o666)

    def _uid(self) -> int | None:
        if not self._as_root:
            return None
        uid = self._uid_base + self._next_uid % _UIDS_PER_RUN
        self._next_uid += 1
        return uid

    def wrap(self, name: str, command: list[str], env: dict[str, str], bot_dir: Path | None,
             limits: Limits, socket: Path | None = None) -> Wrapped:
        """``command`` contained: its own namespaces, user, groups and limits.
        ``env`` is everything the bot gets besides PATH, LANG and HOME;
        ``socket`` the arena's socket it dials (default: the shared one)."""
        full_env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": "/tmp",
                    "PYTHONDONTWRITEBYTECODE": "1"}
        if self._python_path:
            full_env["PYTHONPATH"] = os.pathsep.join(self._python_path)
        full_env.update(env)
        box = None
        if self.cgroups is not None:
            box = self.cgroups.box(name, limits, self.cores.take(limits.cpus))
        spec = SandboxSpec(bot_dir, socket or self.socket, full_env, limits.scratch_mb, self._uid(),
                           tuple(self._neutral.binds(limits.memory_mb, limits.cpus)))
        args_fd = os.memfd_create("truco-arena-bwrap")
        os.write(args_fd, args_data(spec))
        os.lseek(args_fd, 0, os.SEEK_SET)
        argv = prlimit_command(limits, contained=box is not None and box.limits_memory)
        argv += bwrap_argv(self.bwrap, args_fd, spec.uid, command)
        if box is not None:
            argv = join_command(box) + argv
        return Wrapped(argv, {}, box, None, (args_fd,))

    def release(self, box: Box | None) -> None:
        """A bot process is gone: remove its groups, free its cores."""
        if box is not None:
            box.remove()
            self.cores.give_back(box.cores)
            if self.cgroups is not None:
                self.cgroups.reweigh()

    def close(self) -> None:
        if self.cgroups is not None:
            self.cgroups.close()
        with contextlib.suppress(OSError):
            shutil.rmtree(self.folder)


__all__ = ["GUARANTEES", "SOCKET_ADDRESS", "Sandbox", "Wrapped", "probe"]
