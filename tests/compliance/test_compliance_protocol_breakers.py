"""Bots that break the protocol below what the SDK lets a bot do: no Hello
at all, a stream that is never read, a process that never dials in."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
from compliance_runner import FAST, HERE, check_bot_json

from arena.compliance import CheckSettings, CheckVerdict, run_checks
from arena.compliance.result import line
from arena.compliance.stream_checks import HELLO, KEEPS_READING
from arena.protocol import PROTOCOL_VERSION

pytestmark = pytest.mark.integration

STUBBORN = [sys.executable, str(HERE / "stubborn_bot.py")]


def test_a_stream_without_hello_fails_hello(tmp_path: Path) -> None:
    run = check_bot_json(tmp_path / "logs", *FAST, command=[*STUBBORN, "no-hello"])
    assert run.code == 1
    hello = run.check("hello")
    assert hello["verdict"] == "fail" and "no Hello within 5 s" in hello["actual"], hello


def test_a_hello_under_another_name_fails_hello(tmp_path: Path) -> None:
    settings = CheckSettings((*STUBBORN, "misnamed"), tmp_path, timeout=2.0, streams=1)
    report = asyncio.run(run_checks(settings, checks=(HELLO,)))
    hello = report.result("hello")
    assert hello.verdict is CheckVerdict.FAIL
    assert "no token is issued for bot 'someone-else'" in hello.actual, hello


def test_a_process_that_never_dials_in_fails_hello(tmp_path: Path) -> None:
    run = check_bot_json(tmp_path / "logs", *FAST, command=[sys.executable, "-c", "import time; time.sleep(30)"])
    assert run.code == 1
    hello = run.check("hello")
    assert hello["verdict"] == "fail" and "no stream said Hello within 5 s" in hello["actual"], hello
    # What it expects is the protocol of today: version 2, the token proven, never sent.
    assert f"protocol_version {PROTOCOL_VERSION} and a client_nonce" in hello["expected"], hello
    assert "the token itself is never sent" in hello["expected"] and "token given," not in hello["expected"]


def test_a_bot_that_exits_at_once_fails_hello_with_its_last_words(tmp_path: Path) -> None:
    run = check_bot_json(tmp_path / "logs", *FAST, command=[sys.executable, "-c", "import sys; sys.exit('cannot find my model file')"])
    hello = run.check("hello")
    assert hello["verdict"] == "fail", hello
    assert "exited with code 1" in hello["actual"] and "cannot find my model file" in hello["actual"], hello


def test_a_bot_that_stops_reading_fails_keeps_reading(tmp_path: Path) -> None:
    # 5 s, not 2: the same timeout bounds the opponents' start, which a busy
    # machine (four test workers on two cores) can take over 2 s to finish.
    settings = CheckSettings((*STUBBORN, "deaf"), tmp_path, timeout=5.0, streams=1)
    report = asyncio.run(run_checks(settings, checks=(HELLO, KEEPS_READING)))
    assert report.result("hello").verdict is CheckVerdict.PASS
    reading = report.result("keeps-reading")
    assert reading.verdict is CheckVerdict.FAIL
    assert "stopped reading" in reading.actual and "a write blocked for 5 s" in reading.actual, reading


def test_what_the_bot_says_cannot_break_the_one_line_report(tmp_path: Path) -> None:
    settings = CheckSettings((*STUBBORN, "escapes"), tmp_path, timeout=2.0, streams=1)
    report = asyncio.run(run_checks(settings, checks=(HELLO,)))
    hello = report.result("hello")
    assert hello.verdict is CheckVerdict.FAIL  # such a bot_version is refused (64 characters of a small set)
    shown = line(hello)
    assert "\n" not in shown and "\x1b" not in shown
    assert "bot_version '1.0\\n\\x1b[31mred' is not allowed" in shown, shown
