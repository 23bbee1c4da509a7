"""The report for people (one line per check, then a summary) and for
programs (a JSON object)."""

from __future__ import annotations

import json

from .result import CheckResult, Report, Verdict

_WIDTH = 22  # the longest check name, "game-argentino-6 (optional)", fits with the label below


def line(r: CheckResult) -> str:
    """One line: verdict, name (labelled when optional), and what happened."""
    label = f"{r.name} (optional)" if r.optional else r.name
    head = f"{r.verdict.name:<4}  {label:<{_WIDTH}}"
    if r.verdict is Verdict.FAIL:
        return f"{head}  expected: {r.expected}; got: {r.actual}"
    if r.verdict is Verdict.SKIP:
        return f"{head}  skipped: {r.actual}"
    return f"{head}  {r.summary}" + (f" ({r.actual})" if r.actual else "")


def summary(report: Report) -> str:
    passed, failed, skipped = (report.count(v) for v in (Verdict.PASS, Verdict.FAIL, Verdict.SKIP))
    optional = report.count(Verdict.FAIL, optional=True)
    parts = [f"{passed} passed", f"{failed} failed" + (f" ({optional} optional)" if optional else "")]
    if skipped:
        parts.append(f"{skipped} skipped")
    verdict = "COMPLIANT" if report.passed else "NOT COMPLIANT"
    return f"{verdict}: {', '.join(parts)}"


def as_json(report: Report) -> str:
    return json.dumps(report.to_dict(), indent=2)
