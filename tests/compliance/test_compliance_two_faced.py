"""A two-faced bot (two_faced_bot.py) looks for any sign of the checker in
what a game shows it (its own name, the opponents' names, the game id, the
seeds, the clock, the first deal, the opponent's first-hand play) and plays
legally only once it has seen one. check-bot fails it: nothing in its games
gives the check away. The control: told the name check-bot used to give
every bot, the same bot sees the sign and passes, so its detector works."""

from __future__ import annotations

from pathlib import Path

import pytest
from compliance_runner import check_bot_json

pytestmark = pytest.mark.integration

BOT = str(Path(__file__).with_name("two_faced_bot.py"))
OPTIONS = ["--games", "2", "--timeout", "20"]


def test_a_two_faced_bot_fails_check_bot(tmp_path: Path) -> None:
    run = check_bot_json(tmp_path / "logs", *OPTIONS, command=["python", BOT])
    log = Path(run.report["log"]).read_text()
    assert run.code == 1, run.stdout + run.stderr
    verdicts = run.verdicts()
    # Every game it played looked like a tournament's: it played a card it
    # does not hold in each, from the first.
    assert verdicts["game-argentino"] == "fail" and verdicts["legal-actions"] == "fail", verdicts
    assert "a check, by" not in log.split("two-faced: a tournament", 1)[0], log[:2000]
    assert "two-faced: a tournament" in log, log[:2000]


def test_the_control_a_sign_of_the_check_and_it_passes(tmp_path: Path) -> None:
    run = check_bot_json(tmp_path / "logs", *OPTIONS, "--name", "checked-bot", command=["python", BOT])
    log = Path(run.report["log"]).read_text()
    assert "two-faced: a check, by my name" in log, log[:2000]
    assert "two-faced: a tournament" not in log, log[:2000]
    failed = {n for n, v in run.verdicts().items() if v == "fail"}
    assert not failed, run.stdout
