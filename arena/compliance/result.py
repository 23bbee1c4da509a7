"""What a check is and what it says about the bot: a check (a name, one line
saying what it verifies, and a coroutine that looks at the bot through
``CheckContext`` and returns a ``Finding``), its verdict and, on failure,
what was expected and what happened; and the report of a run: for people
(one line per check, then a summary) and for programs (a JSON object)."""

from __future__ import annotations

import enum
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from arena.server import PlayedGame

from .context import CheckContext

# What a check says about the bot: a verdict, and on failure what was
# expected and what happened.

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
    summary: str
    """What the check verifies, one line."""
    verdict: CheckVerdict
    optional: bool = False
    """An optional check's failure does not fail the run."""
    expected: str = ""
    actual: str = ""
    """What happened (for a pass: a short note, may be empty)"""
    detail: str = ""
    """Lines shown under the verdict: the first traceback in the bot's log."""

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


# The report for people (one line per check, then a summary) and for
# programs (a JSON object).

_WIDTH = 22  # columns for the name, so the texts line up: "reconnect (optional)" is 20


def line(r: CheckResult) -> str:
    """One line: verdict, name (labelled when optional), and what happened;
    then the result's detail, if any, as indented lines."""
    label = f"{r.name} (optional)" if r.optional else r.name
    head = f"{r.verdict.name:<4}  {label:<{_WIDTH}}"
    if r.verdict is CheckVerdict.FAIL:
        text = f"{head}  expected: {r.expected}; got: {r.actual}"
    elif r.verdict is CheckVerdict.SKIP:
        text = f"{head}  skipped: {r.actual}"
    else:
        text = f"{head}  {r.summary}" + (f" ({r.actual})" if r.actual else "")
    # The detail (a traceback) goes under the line, each of its lines indented and made printable.
    return "\n".join([_printable(text), *(f"      | {_printable(d)}" for d in r.detail.splitlines())])


def _printable(text: str) -> str:
    # What the bot sent (its version, an action) may hold newlines or
    # terminal escapes: show them escaped, so one check stays one line.
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def summary(report: Report) -> str:
    passed, failed, skipped = (report.count(v) for v in (CheckVerdict.PASS, CheckVerdict.FAIL, CheckVerdict.SKIP))
    optional = report.count(CheckVerdict.FAIL, optional=True)
    parts = [f"{passed} passed", f"{failed} failed" + (f" ({optional} optional)" if optional else "")]
    if skipped:
        parts.append(f"{skipped} skipped")
    verdict = "COMPLIANT" if report.passed else "NOT COMPLIANT"
    return f"{verdict}: {', '.join(parts)}"


def as_json(report: Report) -> str:
    return json.dumps(report.to_dict(), indent=2)


# A check: a name, one line saying what it verifies, and a coroutine that
# looks at the bot (through ``CheckContext``) and returns a ``Finding``.

COMPLETE_GAME = "a complete game: every Decision answered in time with a legal Move echoing its game_id and seq"


@dataclass(frozen=True, slots=True)
class Finding:
    verdict: CheckVerdict
    expected: str = ""
    actual: str = ""
    detail: str = ""
    """Lines to show under the verdict (a traceback from the bot's log)"""


def passed(note: str = "") -> Finding:
    return Finding(CheckVerdict.PASS, actual=note)


def failed(expected: str, actual: str, detail: str = "") -> Finding:
    return Finding(CheckVerdict.FAIL, expected, actual, detail)


def skipped(why: str) -> Finding:
    return Finding(CheckVerdict.SKIP, actual=why)


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    summary: str
    run: Callable[[CheckContext], Awaitable[Finding]]
    optional: bool = False
    needs_connection: bool = True
    """Checks that need a connected bot are skipped when the hello check failed."""


def judge_game(ctx: CheckContext, record: PlayedGame) -> Finding:
    """Pass when the game ended without a fault of the bot."""
    fault = ctx.fault(record)
    if fault is not None:
        return failed(COMPLETE_GAME, fault.describe())
    mine = [s for s, name in enumerate(record.bots) if name == ctx.name]
    won = record.winner_seat is not None and record.winner_seat == mine[0] % 2
    a, b = record.scores
    return passed(f"{record.hands} hands, {'won' if won else 'lost'} {a}-{b} (seat {', '.join(map(str, mine))})")
