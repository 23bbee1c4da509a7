"""Each misbehaviour of sample_bots/misbehaving.py fails the check that owns
it, with the arena's explanation, and the rest of the suite still runs."""

from __future__ import annotations

from pathlib import Path

import pytest
from compliance_runner import FAST, check_bot_json

pytestmark = pytest.mark.integration

# The bot misbehaves at its first Decision, i.e. in the first game (argentino).
FIRST_GAME = "game-argentino"


@pytest.mark.parametrize(
    "mode, check, phrase",
    [
        ("sleep", "in-time", "ran out of time"),
        ("illegal", "legal-actions", "which is not legal"),
        ("garbage", "legal-actions", "malformed action"),
        ("empty", "legal-actions", "empty action"),
        ("wrong_seq", "echo-ids", "Move with seq"),
        ("other_game", "echo-ids", "unknown game id 'no-such-game'"),
        ("blank", "well-formed", "empty PlayRequest"),
        ("second_hello", "well-formed", "second Hello"),
    ],
)
def test_a_misbehaviour_fails_its_check_and_only_that(tmp_path: Path, mode: str, check: str, phrase: str) -> None:
    run = check_bot_json(tmp_path / "logs", *FAST, command=["python", "-m", "sample_bots.misbehaving", "--mode", mode])
    assert run.code == 1, run.stdout + run.stderr
    failed = {name for name, verdict in run.verdicts().items() if verdict == "fail"}
    assert failed == {FIRST_GAME, check}, run.stdout
    found = run.check(check)
    assert phrase in found["actual"] and "misbehaving" in found["actual"], found
    assert found["expected"]
    assert phrase in run.check(FIRST_GAME)["actual"]


def test_a_bot_that_exits_fails_stays_connected(tmp_path: Path) -> None:
    run = check_bot_json(tmp_path / "logs", *FAST, command=["python", "-m", "sample_bots.misbehaving", "--mode", "exit"])
    assert run.code == 1
    stays = run.check("stays-connected")
    assert stays["verdict"] == "fail"
    assert "disconnected" in stays["actual"] and "exited with code 3" in stays["actual"], stays
    # The games after the crash cannot be played, and say so.
    assert "exited with code 3" in run.check("game-venezolano")["actual"]
    assert run.check("hello")["verdict"] == "pass"


def test_a_bad_protocol_version_fails_hello_and_skips_the_rest(tmp_path: Path) -> None:
    run = check_bot_json(tmp_path / "logs", *FAST, command=["python", "-m", "sample_bots.misbehaving", "--mode", "bad_version"])
    assert run.code == 1
    hello = run.check("hello")
    assert hello["verdict"] == "fail"
    assert "protocol version 99 is not supported" in hello["actual"], hello
    rest = {v for name, v in run.verdicts().items() if name != "hello"}
    assert rest == {"skip"}


def test_late_duplicate_moves_are_not_a_fault(tmp_path: Path) -> None:
    # One stream: the bot repeats its previous Move (late, dropped silently by
    # the arena) before each answer. With one stream it cannot fill the seats
    # of a 4- or 6-seat team: those checks are skipped, which is not a failure.
    run = check_bot_json(tmp_path / "logs", *FAST, "--streams", "1",
                        command=["python", "-m", "sample_bots.misbehaving", "--mode", "duplicate"])
    verdicts = run.verdicts()
    assert run.code == 0, run.stdout
    assert {n for n, v in verdicts.items() if v == "skip"} == {"game-argentino-4", "game-argentino-6"}
    assert "needs 2" in run.check("game-argentino-4")["actual"]
    # The mode repeats its previous Move process-wide: after the reconnect
    # check ends its stream, it sends the closed stream's last Move on the new
    # one, a Move for a game that stream never had. A real protocol error, in
    # an optional check, so the run still passes.
    reconnect = run.check("reconnect")
    assert reconnect["verdict"] == "fail" and reconnect["optional"] is True
    assert "unknown game id" in reconnect["actual"]
    assert run.report["passed"] is True
    others = {v for n, v in verdicts.items() if not n.startswith("game-argentino-") and n != "reconnect"}
    assert others == {"pass"}, run.stdout
