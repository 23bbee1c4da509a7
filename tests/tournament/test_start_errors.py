"""What a run says when a bot cannot start: the user's own path, the real
error alone (no worker noise before it), and never a path cut short."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main

LONG = "/very/long/path/to/some/model/weights/" + "deeper/" * 30 + "weights.bin"
RAISER = f"raise RuntimeError('model file missing: {LONG}')"


def _config(tmp_path: Path, bot: list[str], extra: str = "") -> Path:
    config = tmp_path / "start.toml"
    command = "[" + ", ".join(f"'{w}'" if "'" not in w else f'"{w}"' for w in bot) + "]"
    config.write_text("\n".join([
        'name = "start"', 'variant = "uruguayo"', "games_per_pairing = 4", extra,
        "[[bots]]", 'name = "mybot"', f"command = {command}",
        "[[bots]]", 'name = "random"', 'command = "python -m sample_bots.random_bot"',
    ]) + "\n")
    return config


def test_a_missing_script_is_named_as_written_with_its_folder(tmp_path: Path) -> None:
    (tmp_path / "mybot").mkdir()
    config = _config(tmp_path, ["python", "mybot.py"], 'sandbox = "bwrap"')
    config.write_text(config.read_text().replace('name = "mybot"', 'name = "mybot"\ndir = "mybot"'))
    result = CliRunner().invoke(main, ["tournament", "run", str(config), "--no-progress"])
    assert result.exit_code == 2
    line = result.output.strip()
    assert line == f"error: bots[0].command: no script 'mybot.py' in its dir {tmp_path / 'mybot'} (bot mybot)"
    assert "/tmp/mybot.py" not in line


@pytest.mark.integration
def test_a_bot_that_raises_at_start_gives_its_error_alone_and_whole(tmp_path: Path) -> None:
    config = _config(tmp_path, ["python", "-c", RAISER], 'sandbox = "none"')
    result = CliRunner().invoke(main, ["tournament", "run", str(config), "--no-progress", "--workers", "2"])
    assert result.exit_code == 1, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, lines  # no "worker 1 lost ... will be played again" before it
    assert lines[0].startswith("error: a worker cannot start: bot mybot exited before saying hello (exit code 1): "
                               "RuntimeError: model file missing: /very/long/")
    assert lines[0].endswith("...") is False and lines[0].endswith("mybot.log)")  # the log path is whole
    log = lines[0].rsplit("(log: ", 1)[1].rstrip(")")
    assert Path(log).name == "mybot.log" and Path(log).is_file()
