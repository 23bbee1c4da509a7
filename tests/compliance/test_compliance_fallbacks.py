"""check-bot fails a bot whose choose() raised, even though the SDK's
fallback kept every game going, and shows the first traceback of its log.
A real bot process on the SDK, over real gRPC."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from compliance_runner import FAST, check_bot, check_bot_json

pytestmark = pytest.mark.integration

# Raises on every fifth decision of the process; plays randomly otherwise.
FLAKY = '''
from sample_bots.random_bot import RandomBot
from sdk import main


class Flaky(RandomBot):
    name = "flaky"
    calls = 0

    def choose(self, obs):
        Flaky.calls += 1
        if Flaky.calls % 5 == 0:
            return self.divide(obs)
        return super().choose(obs)

    def divide(self, obs):
        return len(obs.legal) / 0


main(Flaky)
'''


def test_a_bot_whose_choose_raises_is_not_compliant_and_its_first_traceback_is_shown(tmp_path: Path) -> None:
    script = tmp_path / "flaky.py"
    script.write_text(FLAKY)
    run = check_bot(*FAST, "--log-dir", str(tmp_path / "logs"), "--", "python", str(script))
    assert run.code == 1, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    (verdict,) = [ln for ln in lines if "no-fallbacks" in ln]
    assert verdict.startswith("FAIL ") and "Move(s) marked as a fallback" in verdict, verdict
    shown = lines[lines.index(verdict) + 1:]
    trace = [ln for ln in shown if ln.startswith("      | ")]
    assert "choose() raised in game" in trace[0]
    assert trace[1] == "      | Traceback (most recent call last):"
    assert any("return self.divide(obs)" in ln for ln in trace)
    assert trace[-1] == "      | ZeroDivisionError: division by zero"
    # Only the first traceback, though the bot raised many times.
    assert sum("Traceback" in ln for ln in run.stdout.splitlines()) == 1
    # The games themselves went on: the protocol checks pass.
    for name in ("series", "legal-actions", "in-time", "stays-connected"):
        (line,) = [ln for ln in lines if ln.split()[1:2] == [name]]
        assert line.startswith("PASS "), line
    assert any(ln.startswith("NOT COMPLIANT: ") for ln in lines)


def test_the_json_report_carries_the_count_and_the_traceback(tmp_path: Path) -> None:
    script = tmp_path / "flaky.py"
    script.write_text(FLAKY)
    run = check_bot_json(tmp_path / "logs", *FAST, command=["python", str(script)])
    assert run.code == 1
    check = run.check("no-fallbacks")
    assert check["verdict"] == "fail" and run.report["passed"] is False
    count = int(check["actual"].split(" Move(s)")[0])
    log = Path(run.report["log"]).read_text()
    # Checks after this one (keeps-reading, reconnect) play on, so the log may hold more.
    assert 2 <= count <= log.count("choose() raised in game")
    assert re.match(r"flaky\[\d\]: choose\(\) raised in game ", check["detail"]), check["detail"]
    assert check["detail"].endswith("ZeroDivisionError: division by zero")
