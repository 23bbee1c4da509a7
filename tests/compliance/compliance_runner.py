"""Run ``truco-arena check-bot`` as a user would: a subprocess, real bots."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
# Short clocks keep the misbehaving bots' timeouts short; sample bots answer in milliseconds.
FAST = ["--games", "2", "--move-seconds", "1", "--bank-seconds", "2", "--timeout", "5"]


@dataclass(frozen=True)
class Run:
    code: int
    stdout: str
    stderr: str

    @property
    def report(self) -> dict[str, Any]:
        data = json.loads(self.stdout)
        assert isinstance(data, dict)
        return data

    def check(self, name: str) -> dict[str, Any]:
        for c in self.report["checks"]:
            if c["name"] == name:
                assert isinstance(c, dict)
                return c
        raise AssertionError(f"no check {name!r} in {self.stdout}")

    def verdicts(self) -> dict[str, str]:
        return {c["name"]: c["verdict"] for c in self.report["checks"]}


def check_bot(*args: str, timeout: float = 240) -> Run:
    cmd = [sys.executable, "-c", "from arena.cli import main; main()", "check-bot", *args]
    done = subprocess.run(cmd, check=False, capture_output=True, text=True, timeout=timeout)
    return Run(done.returncode, done.stdout, done.stderr)


def check_bot_json(log_dir: Path, *options: str, command: list[str]) -> Run:
    """The CLI with --json, the bot's log in ``log_dir``."""
    return check_bot("--json", "--log-dir", str(log_dir), *options, "--", *command)
