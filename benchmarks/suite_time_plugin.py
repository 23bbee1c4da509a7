"""A pytest plugin for ``suite_time.py``: each test's CPU seconds (its
process, and the processes it started and reaped while it ran) and wall
seconds, and whether it failed, written to ``$SUITE_TIME_OUT/<worker>.tsv`` at the end."""

from __future__ import annotations

import os
import resource
import time
from collections.abc import Generator
from pathlib import Path

import pytest

_rows: list[tuple[float, float, str]] = []
_failed: set[str] = set()


def _cpu() -> float:
    own, reaped = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + reaped.ru_utime + reaped.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, None, None]:
    cpu, wall = _cpu(), time.monotonic()
    yield
    _rows.append((_cpu() - cpu, time.monotonic() - wall, item.nodeid))


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.failed:  # in its setup, call or teardown
        _failed.add(report.nodeid)


def pytest_sessionfinish(session: pytest.Session) -> None:
    out = os.environ.get("SUITE_TIME_OUT")
    if out:
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        lines = "".join(f"{cpu:.3f}\t{wall:.3f}\t{'failed' if nodeid in _failed else 'ok'}\t{nodeid}\n"
                        for cpu, wall, nodeid in _rows)
        (Path(out) / f"{worker}.tsv").write_text(lines)
