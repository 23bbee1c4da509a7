"""What a check says about the bot: a verdict, and on failure what was
expected and what happened."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class CheckVerdict(enum.Enum):
    """What one check says about the bot (a match's verdict is ``match.monitor.MatchVerdict``)."""

    PASS = "pass"
    FAIL = "fail"
    # The check could not run (e.g. the bot never connected, or it opened too
    # few streams for a 6-seat game); ``actual`` says why.
    SKIP = "skip"


@dataclass(frozen=True, slots=True)
class CheckResult:
    name: str
    summary: str  # what the check verifies, one line
    verdict: CheckVerdict
    optional: bool = False  # an optional check's failure does not fail the run
    expected: str = ""
    actual: str = ""  # what happened (for a pass: a short note, may be empty)
    detail: str = ""  # lines shown under the verdict: the first traceback in the bot's log

    @property
    def counts_as_failure(self) -> bool:
        return self.verdict is CheckVerdict.FAIL and not self.optional

    def to_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "summary": self.summary,
            "verdict": self.verdict.value,
            "optional": self.optional,
            "expected": self.expected,
            "actual": self.actual,
            "detail": self.detail,
        }


@dataclass(frozen=True, slots=True)
class Report:
    """The whole run: every check's result, in order, and where the bot's log is."""

    bot_name: str
    command: tuple[str, ...]
    log_path: str
    results: tuple[CheckResult, ...]

    @property
    def passed(self) -> bool:
        return not any(r.counts_as_failure for r in self.results)

    def count(self, verdict: CheckVerdict, optional: bool | None = None) -> int:
        return sum(1 for r in self.results if r.verdict is verdict and (optional is None or r.optional == optional))

    def result(self, name: str) -> CheckResult:
        for r in self.results:
            if r.name == name:
                return r
        raise KeyError(name)

    def to_dict(self) -> dict[str, object]:
        return {
            "bot_name": self.bot_name,
            "command": list(self.command),
            "log": self.log_path,
            "passed": self.passed,
            "counts": {v.value: self.count(v) for v in CheckVerdict},
            "checks": [r.to_dict() for r in self.results],
        }
