"""``truco-arena sandbox check`` as root and as an ordinary user;
``check-bot --sandbox`` showing a bot its own folder; the parent pipe that
tells a bot in any language that the arena is gone; the env keys a config
may not set."""

from __future__ import annotations

import asyncio
import os
import socket
import sys
from pathlib import Path

import pytest
from arms import arm, arm_params
from sandbox_runs import RANDOM, needs_bwrap, needs_containment, run_cli, unsandboxed, write_config
from unprivileged import needs_root, threads_of_the_organizer

from arena.games.settings import ConfigError
from arena.sandbox import Containment, Sandbox
from arena.tournament.config import parse_config
from arena.tournament.launcher import LaunchSpec, launch, stop

pytestmark = [pytest.mark.integration, needs_bwrap]


def _lines(out: str) -> dict[str, str]:
    """guarantee -> "holds" / "does not hold", from the check's table."""
    found = {}
    for line in out.splitlines():
        for state in ("does not hold", "holds"):
            if line.startswith(state):
                found[line[len(state):].strip().split("  ")[0]] = state
                break
    return found


@arm_params
def test_sandbox_check_says_what_holds_for_this_user(arm_name: str, tmp_path: Path) -> None:
    with arm(arm_name, tmp_path) as a:
        run = a.cli("sandbox", "check")
        found = _lines(run.stdout)
        assert len(found) == 10, run.stdout + run.stderr
        always = ("no network", "own files", "own processes", "no host counters", "nothing secret on a command line")
        assert all(found[g] == "holds" for g in always), run.stdout
        limits = ("memory", "processes", "CPU", "CPU accounting")
        if a.name == "root":
            assert run.returncode == 0 and set(found.values()) == {"holds"}, run.stdout
        elif a.name == "user-delegated":  # everything but a user id per bot process
            assert run.returncode == 1 and all(found[g] == "holds" for g in limits), run.stdout
            assert found["a user id per bot process"] == "does not hold"
        else:
            assert run.returncode == 1 and all(found[g] == "does not hold" for g in limits), run.stdout
            assert "TRUCO_ARENA_CGROUP" in run.stdout and "refused by default" in run.stdout


@needs_root
@pytest.mark.slow
def test_the_demo_runs_for_an_ordinary_user_with_1000_threads_of_its_own(tmp_path: Path) -> None:
    """Nothing delegated, and the organizer's own program holds 1,000 threads:
    the demo (sample bots only) runs, and says what does not hold."""
    with arm("user-best-effort", tmp_path) as a, threads_of_the_organizer():
        run = a.cli("demo", "--games", "2", "--no-progress", timeout=400)
        assert run.returncode == 0, run.stderr[-2000:]
        level = next(line for line in run.stderr.splitlines() if line.startswith("containment:"))
        assert level.startswith("containment: best-effort") and "does not hold: memory" in level, level


def test_check_bot_shows_a_script_its_folder(tmp_path: Path) -> None:
    (tmp_path / "mybot").mkdir()
    (tmp_path / "mybot" / "bot.py").write_text("from sample_bots.random_bot import main\nmain()\n")
    run = run_cli("check-bot", "--sandbox", "--games", "1", "--log-dir", str(tmp_path / "logs"), "--",
                  "python", "mybot/bot.py", cwd=tmp_path, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "COMPLIANT" in run.stdout and "containment:" in run.stderr


def test_check_bot_shows_a_program_its_folder(tmp_path: Path) -> None:
    (tmp_path / "build").mkdir()
    program = tmp_path / "build" / "mybot"
    program.write_text(f"#!/bin/sh\nexec {sys.executable} -m sample_bots.random_bot \"$@\"\n")
    program.chmod(0o755)
    run = run_cli("check-bot", "--sandbox", "--games", "1", "--log-dir", str(tmp_path / "logs"), "--",
                  "./build/mybot", cwd=tmp_path, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "COMPLIANT" in run.stdout


# A bot in another language (here the shell): it blocks reading the parent pipe.
_WATCHER = 'cat "/proc/self/fd/$TRUCO_ARENA_PARENT_FD"; echo "arena gone" >&2'


@pytest.mark.parametrize("sandboxed", [True, False])
def test_a_bot_in_any_language_notices_the_arena_is_gone(sandboxed: bool, tmp_path: Path) -> None:
    async def scenario() -> str:
        sandbox = Sandbox.open(Containment.BEST_EFFORT) if sandboxed else None
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        if sandbox is not None:
            listener.bind(str(sandbox.socket))  # the arena's socket, bound into the sandbox
        try:
            bot = await launch(LaunchSpec("watcher", ("/bin/sh", "-c", _WATCHER)), "127.0.0.1:1", "token", 1,
                               tmp_path / "logs", sandbox=sandbox)
            await asyncio.sleep(0.5)
            assert bot.process.returncode is None, (tmp_path / "logs" / "watcher.log").read_text()
            os.close(bot._parent_fd)  # what the kernel does when the arena dies, however it dies
            bot._parent_fd = -1
            await asyncio.wait_for(bot.process.wait(), 10)
            await stop(bot)
        finally:
            listener.close()
            if sandbox is not None:
                sandbox.close()
        return (tmp_path / "logs" / "watcher.log").read_text()

    assert "arena gone" in asyncio.run(scenario())


@pytest.mark.parametrize("key", ["PATH", "HOME", "PYTHONPATH", "PYTHONHOME", "LD_PRELOAD", "LD_LIBRARY_PATH",
                                 "LD_AUDIT", "BASH_ENV", "ENV", "IFS", "TMPDIR", "MALLOC_CONF", "GCONV_PATH"])
def test_a_bot_env_may_not_set_what_the_sandbox_starts_with(key: str) -> None:
    data = {"bots": [{"name": "mine", "command": "x", "env": {key: "/evil"}}, {"name": "b", "command": "y"}]}
    with pytest.raises(ConfigError) as refused:
        parse_config(data)
    line = str(refused.value)
    assert line.startswith(f"bots[0].env.{key}: bot mine may not set {key}") and "\n" not in line, line


def test_a_refused_env_key_is_one_line_from_the_cli(tmp_path: Path) -> None:
    config = write_config(tmp_path / "t.toml", [['name = "mine"', f'command = "{RANDOM}"',
                                                 'env = { LD_PRELOAD = "/tmp/x.so" }'],
                                                ['name = "b"', f'command = "{RANDOM}"']])
    run = run_cli("tournament", "run", str(config), cwd=tmp_path)
    assert run.returncode == 2
    line, = run.stderr.strip().splitlines()
    assert "bots[0].env.LD_PRELOAD: bot mine may not set LD_PRELOAD" in line, line


@needs_containment  # elsewhere the default refuses the run (the best-effort line: test_the_demo_runs_for_...)
def test_a_run_with_its_progress_display_says_its_containment(tmp_path: Path) -> None:
    config = write_config(tmp_path / "t.toml", [['name = "a"', f'command = "{RANDOM}"'],
                                                ['name = "b"', f'command = "{RANDOM}"']], games=2)
    run = run_cli("tournament", "run", str(config), cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    levels = [line for line in run.stderr.splitlines() if line.startswith("containment: ")]
    assert len(levels) == 1 and levels[0].startswith("containment: full ("), run.stderr


@unsandboxed
def test_a_run_without_a_sandbox_says_so_with_its_progress_display(tmp_path: Path) -> None:
    config = write_config(tmp_path / "t.toml", [['name = "a"', f'command = "{RANDOM}"'],
                                                ['name = "b"', f'command = "{RANDOM}"']], games=2,
                          extra=('sandbox = "none"',))
    run = run_cli("tournament", "run", str(config), cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    levels = [line for line in run.stderr.splitlines() if line.startswith("containment: ")]
    assert levels == ['containment: none (sandbox = "none": launched bots run unconfined, as the organizer; '
                      'only for bot code you trust)'], run.stderr
