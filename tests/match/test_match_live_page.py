"""``tournament run --http`` serves the live page for a match config too
(it was started by the round robin's path alone, so a match ran without it)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

CLI = Path(sys.executable).parent / "truco-arena"


def test_a_match_run_serves_its_live_page(tmp_path: Path) -> None:
    config = tmp_path / "m.toml"
    config.write_text("\n".join([
        'name = "m"', 'format = "match"', "games = 4", "seed = 3", 'sandbox = "none"', "[options]", "target = 9",
        *(line for name in ("a", "b")
          for line in ("[[bots]]", f'name = "{name}"', 'command = "python -m sample_bots.random_bot"')),
    ]) + "\n")
    run = subprocess.run([str(CLI), "tournament", "run", str(config), "--no-progress", "--http", "127.0.0.1:0",
                          "--http-linger", "0"], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "live page on http://127.0.0.1:" in run.stderr, run.stderr
