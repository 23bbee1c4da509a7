"""Helpers of the sandbox tests: tournament configs and runs as a user types them."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
CLI = [sys.executable, "-c", "from arena.cli import main; main()"]
RANDOM = "python -m sample_bots.random_bot"

# CI installs bubblewrap (.ci/run); there a missing one is a failure, not a skip.
needs_bwrap = pytest.mark.skipif(shutil.which("bwrap") is None and not os.environ.get("CI"),
                                 reason="needs bubblewrap (apt-get install bubblewrap)")


def _refusal() -> str | None:
    """Why this user's runs are refused by default (no writable control group), or None."""
    from arena.sandbox import SandboxUnavailableError, probe
    try:
        probe()
    except SandboxUnavailableError as exc:
        return str(exc)
    return None


# A test whose bots all run without the sandbox (sandbox = "none", or no
# bubblewrap): a cgroup subtree delegated to the user is read only by the
# sandbox (arena/sandbox/session.py), so for it the two ordinary-user modes
# of test_sandbox_as_user.py are one; that test runs it in one of them.
unsandboxed = pytest.mark.unsandboxed

# Tests of what only full containment gives (memory, process and CPU limits
# per bot): run as root, or as a user with a delegated control group; for
# anyone else the run refuses, and the test says why it is skipped. CI runs
# as root: there a refusal is a failure.
_REFUSED = _refusal() if shutil.which("bwrap") is not None and os.geteuid() != 0 else None
needs_containment = pytest.mark.skipif(_REFUSED is not None,
                                       reason=f"this user's runs are refused by default: {_REFUSED}")


def write_config(path: Path, bots: list[list[str]], *, games: int = 4, extra: tuple[str, ...] = (),
                 seats: int = 2, move_seconds: float = 2.0, bank_seconds: float = 10.0) -> Path:
    """A config of ``bots`` (each the TOML lines of one [[bots]] table)."""
    lines = ['variant = "argentino"' if seats > 2 else 'variant = "uruguayo"', f"games_per_pairing = {games}",
             "concurrency = 1", "workers = 1", *extra,
             "[options]", "target = 15", *([f"seats = {seats}"] if seats > 2 else []),
             "[time_control]", f"move_seconds = {move_seconds}", f"bank_seconds = {bank_seconds}"]
    for bot in bots:
        lines += ["[[bots]]", *bot]
    path.write_text("\n".join(lines) + "\n")
    return path


def run_cli(*args: str, cwd: Path, env: dict[str, str] | None = None, timeout: float = 180
            ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=timeout, cwd=cwd,
                          env=env if env is not None else dict(os.environ))
