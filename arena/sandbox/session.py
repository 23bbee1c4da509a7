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

from .bwrap import SOCKET_IN_SANDBOX, SandboxSpec, bwrap_argv, find_bwrap, python_paths
from .cgroups import Box, Cgroups, join_command
from .limits import Limits
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


class Sandbox:
    def __init__(self, bwrap: str, folder: Path, cgroups: Cgroups | None, cores: list[int]) -> None:
        self.bwrap = bwrap
        self.folder = folder
        self.socket = folder / "arena.sock"
        self.cgroups = cgroups
        self.cores = CoreAllocator(cores)
        self._as_root = os.geteuid() == 0
        self._uid_base = _UID_LOW + secrets.randbelow((_UID_HIGH - _UID_LOW) // _UIDS_PER_RUN) * _UIDS_PER_RUN
        self._next_uid = 0
        self._python_path = python_paths()[1]

    @classmethod
    def open(cls) -> Sandbox:
        bwrap = find_bwrap()
        # The socket's folder: fresh, owner-only but crossable (the bots' own
        # users reach the socket through it; its name is random, so it cannot
        # be listed or guessed).
        folder = Path(tempfile.mkdtemp(prefix="truco-arena-"))
        folder.chmod(0o711)
        try:
            cores = sorted(os.sched_getaffinity(0))
        except (AttributeError, OSError):
            cores = list(range(os.cpu_count() or 1))
        return cls(bwrap, folder, Cgroups.detect(), cores)

    @property
    def contains_cpu(self) -> bool:
        return self.cgroups is not None

    def socket_ready(self) -> None:
        """Called once the arena listens on ``self.socket``: every bot's user may connect."""
        self.socket.chmod(0o666)

    def _uid(self) -> int | None:
        if not self._as_root:
            return None
        uid = self._uid_base + self._next_uid % _UIDS_PER_RUN
        self._next_uid += 1
        return uid

    def wrap(self, name: str, command: list[str], env: dict[str, str], bot_dir: Path | None,
             limits: Limits) -> Wrapped:
        """``command`` contained: its own namespaces, user, groups and limits.
        ``env`` is everything the bot gets besides PATH, LANG and HOME."""
        full_env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": "/tmp",
                    "PYTHONDONTWRITEBYTECODE": "1"}
        if self._python_path:
            full_env["PYTHONPATH"] = os.pathsep.join(self._python_path)
        full_env.update(env)
        box = None
        if self.cgroups is not None:
            box = self.cgroups.box(name, limits, self.cores.take(limits.cpus))
        spec = SandboxSpec(bot_dir, self.socket, full_env, limits.scratch_mb, self._uid())
        inner = bwrap_argv(self.bwrap, spec, command)
        argv = prlimit_command(limits, contained=box is not None) + inner
        if box is not None:
            argv = join_command(box) + argv
        return Wrapped(argv, {}, box, None)

    def release(self, box: Box | None) -> None:
        """A bot process is gone: remove its groups, free its cores."""
        if box is not None:
            box.remove()
            self.cores.give_back(box.cores)

    def close(self) -> None:
        if self.cgroups is not None:
            self.cgroups.close()
        with contextlib.suppress(OSError):
            shutil.rmtree(self.folder)


__all__ = ["SOCKET_ADDRESS", "Sandbox", "Wrapped"]
