"""The README's sample tournament config: as written, mybot has no command
and the config no tokens, so it could never log in; the run is refused at
once with the reason instead of waiting absent_wait_seconds."""

from __future__ import annotations

import subprocess
import time
import tomllib
from pathlib import Path

import pytest
from doc_commands import CLI, README, blocks, section

from arena.games.settings import ConfigError
from arena.tournament.config import check_environment, parse_config


def _sample() -> str:
    (config,) = blocks(section(README.read_text(), "Tournament configuration"), "toml")
    return config


def test_the_readme_sample_config_is_refused_at_once_with_the_reason(tmp_path: Path) -> None:
    path = tmp_path / "weekly.toml"
    path.write_text(_sample())
    (tmp_path / "bots" / "student7").mkdir(parents=True)  # the folder the sample names for a bot
    (tmp_path / "bots" / "student7" / "bot.py").touch()  # and its script
    started = time.monotonic()
    done = subprocess.run([*CLI, "tournament", "run", str(path), "--no-progress"], capture_output=True, text=True,
                          timeout=60, cwd=tmp_path)
    assert time.monotonic() - started < 30  # not the 60 s of absent_wait_seconds
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1, done.stderr
    assert "bots[2]: mybot has no command and the config no tokens file, so it can never connect" in done.stderr
    assert "truco-arena token mint mybot --tokens FILE" in done.stderr
    assert not path.with_suffix(".sqlite").exists()  # nothing was started


def test_the_sample_config_with_the_keys_the_readme_names_passes_the_check(tmp_path: Path) -> None:
    tokens = tmp_path / "tokens.txt"
    minted = subprocess.run([*CLI, "token", "mint", "mybot", "--tokens", str(tokens)], capture_output=True,
                            text=True, timeout=60)
    assert minted.returncode == 0, minted.stderr
    data = tomllib.loads(f'tokens = "{tokens}"\naddress = "0.0.0.0:50051"\n' + _sample())
    (tmp_path / "bots" / "student7").mkdir(parents=True)
    (tmp_path / "bots" / "student7" / "bot.py").touch()
    check_environment(parse_config(data, base=tmp_path))


def test_a_bot_without_command_needs_a_tokens_file() -> None:
    bots = [{"name": "x", "command": "python -m sample_bots.random_bot"}, {"name": "y"}]
    with pytest.raises(ConfigError, match=r"^bots\[1\]: y has no command and the config no tokens file"):
        check_environment(parse_config({"bots": bots}))
