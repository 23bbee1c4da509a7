"""A protocol compliance suite for one bot: ``run_checks`` starts a real arena
on loopback, launches the bot's command the way tournaments do, plays games
against in-process opponents and reports one ``CheckResult`` per check
(``truco-arena check-bot`` is its command line).

    report = await run_checks(CheckSettings(("python", "-m", "mybot"), Path("logs")))
    print(report.passed, [r.name for r in report.results if r.verdict is CheckVerdict.FAIL])
"""

from .check_settings import CheckSettings
from .result import CheckResult, CheckVerdict, Report
from .suite import CHECKS, CheckerError, LaunchError, run_checks

__all__ = [
    "CHECKS", "CheckResult", "CheckSettings", "CheckerError", "LaunchError", "Report", "CheckVerdict", "run_checks",
]
