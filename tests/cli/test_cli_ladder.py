"""``truco-arena ladder``: a real bot process against the reference bots over
gRPC, placed in the shipped ladder; and its one-line errors."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.match.reference_ladder import reference_ladder

EXE = [sys.executable, "-c", "from arena.cli import main; main()"]
FORFEITS = '''"""Answers every decision with an action that does not parse: it forfeits every game."""
from sdk import Bot, main


class Forfeits(Bot):
    name = "forfeits"

    def choose(self, obs):
        return "fold the cards"


main(Forfeits)
'''


def _ladder(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*EXE, "ladder", *args], cwd=cwd, capture_output=True, text=True, timeout=600)


@pytest.mark.integration
def test_a_bot_is_played_against_every_ladder_bot_and_placed(tmp_path: Path) -> None:
    db = tmp_path / "ladder.sqlite"
    done = _ladder("--games", "2", "--seed", "5", "--db", str(db), "--json", "--", "python", "-m",
                   "sample_bots.random_bot", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)["ladder"]["rows"]
    reference = reference_ladder("uruguayo")
    names = [b.name for b in reference.bots]
    new = [r for r in rows if r["entry"] == "new"]
    assert len(new) == 1 and new[0]["bot"] == "random_bot" and new[0]["games vs new"] == 2 * len(names)
    assert [r["bot"] for r in rows if r["entry"] == "reference"] == names  # in the shipped order
    assert [r["elo"] for r in rows if r["entry"] == "reference"] == [round(b.elo, 1) for b in reference.bots]
    assert [r["rank"] for r in rows] == list(range(1, len(names) + 2))
    elos = [r["elo"] for r in rows]
    assert elos == sorted(elos, reverse=True)
    assert new[0]["elo 95% low"] < new[0]["elo"] < new[0]["elo 95% high"]
    assert all(r["games vs new"] == 2 for r in rows if r["entry"] == "reference")
    line = next(ln for ln in done.stderr.splitlines() if " lands " in ln)
    assert line.startswith(f"ladder: random_bot lands {new[0]['rank']} of {len(names) + 1}, Elo ")
    assert "predictable" in done.stderr  # --seed fixes the deals, and it says what that costs
    with sqlite3.connect(db) as con:  # every game is kept, the newcomer in each
        games = con.execute("SELECT bot0, bot1 FROM games").fetchall()
    assert len(games) == 2 * len(names) and all("random_bot" in g for g in games)


@pytest.mark.integration
def test_a_bot_that_forfeits_every_game_is_not_placed(tmp_path: Path) -> None:
    (tmp_path / "forfeits").mkdir()
    (tmp_path / "forfeits" / "bot.py").write_text(FORFEITS)
    done = _ladder("--games", "2", "--", "python", "forfeits/bot.py", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    error = done.stderr.splitlines()[-1]
    games = 2 * len(reference_ladder("uruguayo").bots)  # two against each ladder bot
    assert error.startswith(f"error: bot lost all {games} games by its own failure") and "not placed" in error
    assert done.stdout == ""


@pytest.mark.integration
def test_a_command_that_does_not_start_is_one_line_and_exit_1(tmp_path: Path) -> None:
    done = _ladder("--games", "2", "--", "python", "-c", "raise SystemExit('no model here')", cwd=tmp_path)
    assert done.returncode == 1
    last = done.stderr.splitlines()[-1]
    assert last.startswith("error: bot ") and " exited before saying hello (exit code 1): no model here" in last and "Traceback" not in done.stderr and done.stdout == ""


@pytest.mark.integration
def test_a_script_that_is_not_there_is_named_as_written(tmp_path: Path) -> None:
    done = _ladder("--games", "2", "--", "python", "missing.py", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == (f"error: bots[0].command: no script 'missing.py' in {tmp_path} (no dir given) "
                                   f"(bot missing)")
    assert "/tmp/missing.py" not in done.stderr.replace(str(tmp_path), "") and done.stdout == ""


@pytest.mark.parametrize(("args", "says"), [
    (["--gmaes", "2", "--", "python", "-m", "sample_bots.random_bot"], "No such option '--gmaes'. Did you mean '--games'?"),
    (["--games", "3", "--", "python", "-m", "sample_bots.random_bot"], "--games: must be even"),
    (["--games", "0", "python", "bot.py"], "'--games': 0 is not in the range x>=2"),
    (["--variant", "chinchon", "--", "python", "bot.py"], "'--variant'"),
    ([], "Missing argument 'COMMAND...'"),
    (["--", "python 'unclosed"], "COMMAND: cannot split the command"),
    (["--json", "--csv", "--", "python", "bot.py"], "choose one of --json and --csv"),
])
def test_bad_arguments_are_one_line_and_exit_2_before_any_bot_starts(args: list[str], says: str) -> None:
    result = CliRunner().invoke(main, ["ladder", *args])
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0], result.stderr
    assert result.stdout == ""


def test_options_after_the_command_belong_to_the_bot() -> None:
    # Everything after the first word of COMMAND is the bot's: a --json there is not the ladder's.
    result = CliRunner().invoke(main, ["ladder", "--games", "3", "python", "bot.py", "--json", "--csv"])
    assert result.exit_code == 2 and "--games: must be even" in result.stderr
