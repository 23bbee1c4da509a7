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


def write_config(path: Path, bots: list[list[str]], *, games: int = 4, extra: tuple[str, ...] = (),
                 seats: int = 2, move_seconds: float = 2.0) -> Path:
    """A config of ``bots`` (each the TOML lines of one [[bots]] table)."""
    lines = ['variant = "argentino"' if seats > 2 else 'variant = "uruguayo"', f"games_per_pairing = {games}",
             "concurrency = 1", "workers = 1", *extra,
             "[options]", "target = 15", *([f"seats = {seats}"] if seats > 2 else []),
             "[time_control]", f"move_seconds = {move_seconds}", "bank_seconds = 10.0"]
    for bot in bots:
        lines += ["[[bots]]", *bot]
    path.write_text("\n".join(lines) + "\n")
    return path


def run_cli(*args: str, cwd: Path, env: dict[str, str] | None = None, timeout: float = 180
            ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=timeout, cwd=cwd,
                          env=env if env is not None else dict(os.environ))
