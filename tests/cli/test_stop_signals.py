"""Stop signals at any moment of a run, as an operator or a service manager
sends them: from the command's first line (its imports included) to its
last, with workers starting or playing (``arena/interrupt.py``)."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from arena.tournament.scaleout.local import CLOSE_GRACE

pytestmark = pytest.mark.integration

HERE = Path(__file__).resolve().parent
COMMAND = [sys.executable, "-m", "arena.command"]
RANDOM = "python -m sample_bots.random_bot"
sys.path.insert(0, str(HERE))
from stop_runs import armed  # noqa: E402

# The longest a stop may take: the workers get CLOSE_GRACE to end their games
# and are then killed, and the rest is the exit itself. A deadline the run
# keeps, not a speed: how fast a stop is on a quiet machine is no test's
# business (on a loaded one a stop that took 2 s alone has taken over 6 s).
STOP_DEADLINE = CLOSE_GRACE + 5.0


def test_ctrl_c_while_the_cli_imports_is_one_line_and_130(tmp_path: Path) -> None:
    rng = random.Random(5)
    for signum in (signal.SIGINT, signal.SIGINT, signal.SIGINT, signal.SIGTERM):
        # A command that, once its imports are done, fails at once with another code (1).
        proc = subprocess.Popen([*COMMAND, "standings", str(tmp_path / "none.sqlite")],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        armed(proc)
        time.sleep(rng.uniform(0.0, 0.05))  # well inside the CLI's imports, which take a quarter second or more
        proc.send_signal(signum)
        out, err = proc.communicate(timeout=30)
        assert (proc.returncode, out, err) == (128 + signum, "", f"error: interrupted by {signum.name}\n")


def _config(tmp_path: Path) -> Path:
    path = tmp_path / "t.toml"
    # Far more games than the runs last: each is stopped by its signal.
    path.write_text('variant = "uruguayo"\ngames_per_pairing = 400\nconcurrency = 2\nworkers = 2\n'
                    '[options]\ntarget = 30\n'
                    + "".join(f'[[bots]]\nname = "r{i}"\ncommand = "{RANDOM}"\n' for i in range(2)))
    return path


def _runs(tmp_path: Path, runs: int, seconds: float, seed: int, mode: str) -> list[dict[str, Any]]:
    # Under a subreaper of its own: what a run leaves behind is found there.
    res = subprocess.run([sys.executable, str(HERE / "stop_runs.py"), str(_config(tmp_path)), str(runs),
                          str(seconds), str(seed), mode], capture_output=True, text=True, timeout=runs * 60,
                         check=True)
    return [json.loads(line) for line in res.stdout.splitlines()]


@pytest.mark.slow
def test_a_signal_at_any_moment_of_the_start_stops_the_run(tmp_path: Path) -> None:
    for run in _runs(tmp_path, 20, 2.0, 20261202, "stop"):
        name = signal.Signals(run["signal"]).name
        assert run["code"] == 128 + run["signal"], run
        assert run["seconds"] < STOP_DEADLINE, run
        lines = run["stderr"].splitlines()
        assert len(lines) == 1 and name in lines[0] and "Traceback" not in run["stderr"], run
        assert len(run["keys"]) == len(set(run["keys"])), run
        assert run["left"] == [], run  # every worker and bot gone soon after the exit (stop_runs.LEFTOVER_GRACE)


@pytest.mark.slow
def test_a_second_signal_or_a_kill_leaves_nothing_running(tmp_path: Path) -> None:
    # A second signal ends the run at once, as a kill -9 does; the workers,
    # their coordinator gone, then stop by themselves, started or not.
    for run in _runs(tmp_path, 4, 2.0, 7, "twice") + _runs(tmp_path, 6, 2.5, 9, "kill"):
        if run["signal"] != signal.SIGKILL:
            # 128 + the signal, or killed by it outright when it came as the interpreter was exiting.
            assert run["code"] in (128 + run["signal"], -run["signal"]), run
            assert "Traceback" not in run["stderr"] and len(run["stderr"].splitlines()) <= 2, run
        assert run["seconds"] < STOP_DEADLINE, run
        assert len(run["keys"]) == len(set(run["keys"])), run
        assert run["left"] == [], run
