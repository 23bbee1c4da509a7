"""The command line: usage errors are one line with exit status 2."""

from __future__ import annotations

from pathlib import Path

import pytest
from compliance_runner import check_bot

pytestmark = pytest.mark.integration


def test_a_command_not_on_path_is_one_line_and_exit_2() -> None:
    run = check_bot("--", "no-such-bot-command-xyz", "--flag")
    assert run.code == 2
    assert run.stdout == ""
    lines = run.stderr.splitlines()
    assert len(lines) == 1 and "no-such-bot-command-xyz" in lines[0], run.stderr
    assert "Traceback" not in run.stderr


def test_an_unwritable_log_directory_is_one_line_and_exit_2(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    run = check_bot("--log-dir", str(blocker / "logs"), "--", "python", "-m", "sample_bots.random_bot")
    assert run.code == 2
    assert run.stderr.splitlines() == [f"error: bot random_bot: cannot write its log: {blocker / 'logs'}: "
                                       f"cannot create the folder: Not a directory"]


def test_no_command_is_a_usage_error() -> None:
    run = check_bot()
    assert run.code == 2 and "Traceback" not in run.stderr


def test_a_reserved_name_is_a_usage_error() -> None:
    run = check_bot("--name", "compliance-opponent", "--", "python", "-m", "sample_bots.random_bot")
    assert run.code == 2
    assert run.stderr.splitlines() == ["error: bot name 'compliance-opponent' is used by the checker's own opponents; pick another"]


def test_help_shows_an_example() -> None:
    run = check_bot("--help")
    assert run.code == 0
    assert "truco-arena check-bot -- python -m sample_bots.random_bot" in run.stdout
