"""The sample bots are compliant: every check passes, the optional one too."""

from __future__ import annotations

from pathlib import Path

import pytest
from compliance_runner import FAST, check_bot, check_bot_json

pytestmark = pytest.mark.integration


@pytest.mark.parametrize("module", ["sample_bots.random_bot", "sample_bots.heuristic"])
def test_a_sample_bot_passes_every_check(module: str, tmp_path: Path) -> None:
    run = check_bot_json(tmp_path / "logs", *FAST, command=["python", "-m", module])
    verdicts = run.verdicts()
    assert run.code == 0, run.stdout + run.stderr
    assert set(verdicts.values()) == {"pass"}, verdicts
    assert run.report["passed"] is True
    for name in ("hello", "game-argentino", "game-uruguayo", "game-venezolano", "game-argentino-4",
                 "game-argentino-6", "series", "opponent-fault", "message-kinds", "in-time", "legal-actions",
                 "echo-ids", "well-formed", "stays-connected", "no-fallbacks", "keeps-reading", "reconnect"):
        assert name in verdicts
    assert run.check("reconnect")["optional"] is True
    log = Path(run.report["log"])
    assert log.parent == tmp_path / "logs" and log.exists()


def test_text_output_has_one_line_per_check_and_a_summary(tmp_path: Path) -> None:

    run = check_bot(*FAST, "--log-dir", str(tmp_path), "--", "python", "-m", "sample_bots.random_bot")
    assert run.code == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    checks = [ln for ln in lines if ln.startswith(("PASS ", "FAIL ", "SKIP "))]
    assert len(checks) == 17 and all(ln.startswith("PASS ") for ln in checks)
    assert any("reconnect (optional)" in ln for ln in checks)
    assert lines[-2].startswith("COMPLIANT: 17 passed, 0 failed")
    assert lines[-1] == f"bot log: {tmp_path / 'random_bot.log'}"
