"""The command line: usage errors are one line with exit status 2."""

from __future__ import annotations

from compliance_runner import check_bot


def test_a_command_not_on_path_is_one_line_and_exit_2() -> None:
    run = check_bot("--", "no-such-bot-command-xyz", "--flag")
    assert run.code == 2
    assert run.stdout == ""
    lines = run.stderr.splitlines()
    assert len(lines) == 1 and "no-such-bot-command-xyz" in lines[0], run.stderr
    assert "Traceback" not in run.stderr


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
