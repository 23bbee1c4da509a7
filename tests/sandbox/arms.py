"""The modes a sandboxed run can be in, as arms of one test: root; an
ordinary user with a delegated cgroup subtree (made by the test, as an
administrator would); an ordinary user with nothing delegated, which runs
only with ``containment = "best-effort"``. Each arm runs the CLI as a user
types it, in a folder that user owns, with the test bots where that user can
read them."""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from sandbox_runs import CLI, HERE, run_cli
from unprivileged import (
    ORGANIZER_UID,
    cli_as_user,
    delegated_cgroup,
    needs_root,
    user_argv,
    user_env,
    user_environment,
    user_folder,
    user_python,
    v1_machine,
)

ARMS = ("root", "user-delegated", "user-best-effort")


@dataclass
class Arm:
    name: str
    folder: Path  # the run's folder, the user's own
    bots: Path  # where the test bots are (readable by the user)
    env: dict[str, str] = field(default_factory=dict)
    extra: tuple[str, ...] = ()  # config lines the arm needs

    @property
    def full(self) -> bool:
        """Memory, processes and CPU are limited per bot."""
        return self.name != "user-best-effort"

    def cli(self, *args: str, timeout: float = 240) -> subprocess.CompletedProcess[str]:
        if self.name == "root":
            return run_cli(*args, cwd=self.folder, timeout=timeout)
        return cli_as_user(*args, cwd=self.folder, env=self.env, timeout=timeout)

    def cli_popen(self, *args: str) -> subprocess.Popen[str]:
        """The CLI started, not waited for."""
        if self.name == "root":
            return subprocess.Popen([*CLI, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                    cwd=self.folder)
        return subprocess.Popen(user_argv([user_python(), "-c", "from arena.cli import main; main()", *args]),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=self.folder,
                                env=user_environment(self.folder, self.env))

    def own(self, path: Path) -> Path:
        """A file the test wrote, handed to the arm's user."""
        if self.name != "root":
            os.chown(path, ORGANIZER_UID, ORGANIZER_UID)
        return path


@contextlib.contextmanager
def arm(name: str, tmp_path: Path) -> Iterator[Arm]:
    if name == "root":
        if os.geteuid() != 0:
            pytest.skip("the root arm needs root: it plays the mode where each bot process has a user id of its own")
        yield Arm(name, tmp_path, HERE)
        return
    if os.geteuid() != 0:
        pytest.skip("the ordinary-user arms need root: they drop from root to another uid")
    bots = user_env() / "bots"
    with user_folder() as folder:
        if name == "user-delegated":
            if not v1_machine():
                pytest.skip("delegating a subtree is done here for cgroup v1 only")
            with delegated_cgroup() as path:
                yield Arm(name, folder, bots, env={"TRUCO_ARENA_CGROUP": path})
        else:
            yield Arm(name, folder, bots, extra=('containment = "best-effort"',))


arm_params = pytest.mark.parametrize("arm_name", [pytest.param(a, marks=needs_root if a != "root" else ())
                                                  for a in ARMS])
