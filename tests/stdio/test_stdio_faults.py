"""A stdio bot's bad output loses that game, with a reason that quotes it,
and nothing else breaks: the bridge starts a fresh program for the next game
(every game of the run is recorded), the arena goes on. One tournament per
kind of bad output: the CLI, a real arena over loopback, the bridge and the
stdio program as subprocesses, a real SQLite file."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.engine.outcome import Termination
from arena.games.game_record import GameRecord
from arena.games.store import ResultsStore

pytestmark = pytest.mark.integration

BOT = Path(__file__).with_name("stdio_misbehaving.py")

CASES = {
    # mode: (termination, what the reason must say)
    "garbage": (Termination.PROTOCOL_ERROR,
                'answered "play the ace\\x1b[31m please", which is not an action id'),
    "unknown": (Termination.PROTOCOL_ERROR, 'answered "99", which is not an action id of this decision'),
    "negative": (Termination.PROTOCOL_ERROR, 'answered "-1", which is not an action id'),
    "long": (Termination.PROTOCOL_ERROR, 'wrote a line over 4096 bytes: "7777777777'),
    "early": (Termination.PROTOCOL_ERROR, 'wrote "0" before it was asked'),
    "exit": (Termination.PROTOCOL_ERROR, "closed its stdout (exited with code 3)"),
    "crash": (Termination.PROTOCOL_ERROR, "closed its stdout (exited with code 1)"),
    "silent": (Termination.TIMEOUT, "ran out of time"),
}


def run(tmp_path: Path, mode: str) -> tuple[list[GameRecord], str, str]:
    config = tmp_path / "faults.toml"
    config.write_text("\n".join([
        'name = "faults"', 'variant = "uruguayo"', "games_per_pairing = 2", "seed = 5", 'sandbox = "none"',
        # A short clock only where running out of it is the fault: elsewhere a
        # busy machine must not make either program time out first.
        "[time_control]", *(("move_seconds = 0.5", "bank_seconds = 0.5") if mode == "silent"
                            else ("move_seconds = 3.0", "bank_seconds = 3.0")),
        "[[bots]]", 'name = "bad"', f'command = ["{sys.executable}", "{BOT}", "{mode}"]', 'protocol = "stdio"',
        "[[bots]]", 'name = "random"', 'command = "python -m sample_bots.random_bot"',
    ]) + "\n")
    result = CliRunner().invoke(main, ["tournament", "run", str(config), "--no-progress", "--workers", "1"])
    assert result.exit_code == 0, result.output
    with ResultsStore.open_existing(config.with_suffix(".sqlite")) as store:
        rows = list(store.games())
    log = (tmp_path / "faults-logs" / "bad.log").read_text(errors="replace")
    return rows, log, result.output


@pytest.mark.parametrize("mode", sorted(CASES))
def test_bad_output_loses_the_game_with_its_reason(tmp_path: Path, mode: str) -> None:
    termination, said = CASES[mode]
    rows, log, output = run(tmp_path, mode)
    assert len(rows) == 2  # both games played: the second by a fresh program
    for row in rows:
        assert row.faulty_bot == "bad" and row.winner == "random", row
        assert row.termination is termination, row
        assert said in row.reason, row.reason
        assert row.reason.isprintable()
    # The program's stderr is in the bot's log, and each program answered
    # two decisions before it misbehaved: it was restarted for the second game.
    assert log.count("deciding 2") == 2 and "deciding 1" in log
    # The run's own lines name each lost game by the id people type (bad:random:0a).
    lost = [line for line in output.splitlines() if line.startswith("game ")]
    assert len(lost) == 2 and all(line.startswith(("game bad:random:", "game random:bad:")) for line in lost), lost

