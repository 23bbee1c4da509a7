"""The sandbox as an organizer meets it in a config: refused in one line
where bubblewrap is missing (with the opt-out), the demo's own fallback,
relative paths from the config's folder, and bot folders that must not hold
the arena's files."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest
from sandbox_runs import RANDOM, needs_bwrap, needs_containment, run_cli, unsandboxed, write_config

from arena.cli.demo import demo_bots
from arena.games.settings import ConfigError
from arena.games.store import ResultsStore
from arena.sandbox import Limits
from arena.tournament.config import parse_config

pytestmark = pytest.mark.integration


def _without_bwrap(tmp_path: Path) -> dict[str, str]:
    """An environment whose PATH has no bwrap (but the usual tools)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("sh", "prlimit", "setpriv"):
        os.symlink(f"/usr/bin/{tool}", bin_dir / tool)
    return dict(os.environ, PATH=str(bin_dir))


@unsandboxed
def test_without_bubblewrap_a_tournament_is_refused_in_one_line(tmp_path: Path) -> None:
    config = write_config(tmp_path / "t.toml", [['name = "a"', f'command = "{RANDOM}"'],
                                                ['name = "b"', f'command = "{RANDOM}"']])
    run = run_cli("tournament", "run", str(config), cwd=tmp_path, env=_without_bwrap(tmp_path))
    assert run.returncode == 2, run.stderr
    line, = run.stderr.strip().splitlines()
    assert "bubblewrap" in line and 'sandbox = "none"' in line and "trust" in line, line
    assert not (tmp_path / "t.sqlite").exists()


@unsandboxed
def test_without_bubblewrap_the_demo_runs_its_own_bots_unsandboxed_and_says_so(tmp_path: Path) -> None:
    run = run_cli("demo", "--games", "2", "--no-progress", cwd=tmp_path, env=_without_bwrap(tmp_path))
    assert run.returncode == 0, run.stderr
    assert "demo: running the sample bots without a sandbox" in run.stderr
    assert all(name in run.stdout for name, _ in demo_bots("uruguayo"))


@unsandboxed
def test_the_opt_out_runs_trusted_bots_in_their_folder_from_anywhere(tmp_path: Path) -> None:
    """Relative paths start from the config's folder, not the shell's."""
    work = tmp_path / "work"
    (work / "mybot").mkdir(parents=True)
    (work / "mybot" / "mybot.py").write_text("from sample_bots.random_bot import main\nmain()\n")
    write_config(work / "t.toml", [['name = "mine"', 'command = ["python", "mybot.py"]', 'dir = "mybot"'],
                                   ['name = "other"', f'command = "{RANDOM}"']], extra=('sandbox = "none"',))
    run = run_cli("tournament", "run", "work/t.toml", "--no-progress", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    with ResultsStore.open_existing(work / "t.sqlite") as store:
        rows = list(store.games())
    assert len(rows) == 4 and not [r for r in rows if r.faulty_bot is not None], [r.reason for r in rows]


@needs_bwrap
@needs_containment
def test_a_sandboxed_bot_dir_is_relative_to_the_config_and_resume_keeps_it(tmp_path: Path) -> None:
    work = tmp_path / "work"
    (work / "mybot").mkdir(parents=True)
    (work / "mybot" / "mybot.py").write_text("from sample_bots.random_bot import main\nmain()\n")
    write_config(work / "t.toml", [['name = "mine"', 'command = ["python", "mybot.py"]', 'dir = "mybot"'],
                                   ['name = "other"', f'command = "{RANDOM}"']], games=2)
    run = run_cli("tournament", "run", "work/t.toml", "--no-progress", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    (tmp_path / "elsewhere").mkdir()
    again = run_cli("tournament", "resume", str(work / "t.sqlite"), "--no-progress", cwd=tmp_path / "elsewhere")
    assert again.returncode == 0, again.stderr


def test_a_script_beside_the_config_needs_a_dir_in_the_sandbox(tmp_path: Path) -> None:
    (tmp_path / "mybot.py").write_text("")
    write_config(tmp_path / "t.toml", [['name = "mine"', 'command = "python mybot.py"'],
                                       ['name = "other"', f'command = "{RANDOM}"']])
    run = run_cli("tournament", "run", "t.toml", cwd=tmp_path)
    assert run.returncode == 2
    assert "bots[0].dir: the sandbox shows a bot only its own folder; set dir for 'mybot.py'" in run.stderr


def test_a_bot_folder_holding_the_results_is_refused(tmp_path: Path) -> None:
    # best-effort: an ordinary user's run reaches the check too, instead of being refused first
    write_config(tmp_path / "t.toml", [['name = "mine"', f'command = "{RANDOM}"', 'dir = "."'],
                                       ['name = "other"', f'command = "{RANDOM}"']],
                 extra=('containment = "best-effort"',))
    run = run_cli("tournament", "run", "t.toml", cwd=tmp_path)
    assert run.returncode == 2
    assert "bots[0].dir: the results database" in run.stderr and "bot mine can read" in run.stderr


def test_limits_and_bot_keys_are_checked_with_the_key_named() -> None:
    def bots(extra: dict[str, object]) -> dict[str, Any]:
        return {"bots": [{"name": "a", "command": "x", **extra}, {"name": "b", "command": "y"}]}

    config = parse_config({**bots({"memory_mb": 2048, "args": ["--fast"], "env": {"K": "v"}}),
                           "limits": {"cpus": 2}})
    assert config.bots[0].limits == Limits(memory_mb=2048, cpus=2) and config.bots[1].limits == Limits(cpus=2)
    assert config.bots[0].command == ("x", "--fast") and config.bots[0].env == (("K", "v"),)
    cases: list[tuple[dict[str, Any], str]] = [
        (bots({"memory_mb": 1}), r"^bots\[0\]\.memory_mb: must be from 64"),
        (bots({"memory_mb": "1G"}), r"^bots\[0\]\.memory_mb: expected a whole number"),
        ({**bots({}), "limits": {"memory": 5}}, r"^limits\.memory: unknown key"),
        ({**bots({}), "sandbox": "docker"}, r'^sandbox: expected "bwrap" or "none"'),
        (bots({"env": {"TRUCO_ARENA_TOKEN": "x"}}), r"^bots\[0\]\.env\.TRUCO_ARENA_TOKEN: the TRUCO_ARENA_"),
        (bots({"env": {"A B": "x"}}), r"^bots\[0\]\.env: 'A B' is not a variable name"),
        ({"bots": [{"name": "a", "dir": "x"}, {"name": "b", "command": "y"}]},
         r"^bots\[0\]\.dir: only for a bot the arena launches"),
        ({**bots({}), "start_seconds": 0}, r"^start_seconds: must be a finite number of seconds >= 0.1"),
    ]
    for data, message in cases:
        with pytest.raises(ConfigError, match=message):
            parse_config(data)


@needs_bwrap
def test_check_bot_runs_a_bot_inside_the_sandbox(tmp_path: Path) -> None:
    run = run_cli("check-bot", "--sandbox", "--games", "1", "--log-dir", str(tmp_path / "logs"), "--",
                  sys.executable, "-m", "sample_bots.random_bot", cwd=tmp_path, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "COMPLIANT" in run.stdout and "NOT COMPLIANT" not in run.stdout
