"""The report for people (one line per check, then a summary) and for
programs (a JSON object)."""

from __future__ import annotations

import json

from .result import CheckResult, CheckVerdict, Report

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
