"""The suite's spread over workers (tests/parallel.py), on a small suite of
its own run by a real pytest on xdist workers, given ``-n`` or by default:
every test runs, the tests spread over the workers, the two tests of one
``xdist_group`` run on one worker one after the other, and each ``serial``
test runs after all the others, with nothing beside it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

HERE = Path(__file__).resolve().parent

SUITE = '''
import os, time
import pytest

def _log(name, seconds):
    start = time.monotonic()
    time.sleep(seconds)
    with open(os.environ["SPREAD_LOG"], "a") as log:
        log.write(f"{name} {start} {time.monotonic()} {os.environ['PYTEST_XDIST_WORKER_COUNT']} "
                  f"{os.environ['PYTEST_XDIST_WORKER']}\\n")

@pytest.mark.parametrize("n", range(12))
def test_plain(n):
    _log(f"plain{n}", 0.2 + 0.05 * (n % 3))

@pytest.mark.serial
@pytest.mark.parametrize("n", range(3))
def test_alone(n):
    _log(f"serial{n}", 0.3)

@pytest.mark.xdist_group("pair")
@pytest.mark.parametrize("n", range(2))
def test_grouped(n):
    _log(f"grouped{n}", 0.2)
'''


def _spans(log: Path) -> tuple[dict[str, tuple[float, float]], set[str], dict[str, str]]:
    """Each test's start and end, the worker counts the tests saw, and each test's worker."""
    spans, counts, workers = {}, set(), {}
    for line in log.read_text().splitlines():
        name, start, end, count, worker = line.split()
        spans[name] = float(start), float(end)
        counts.add(count)
        workers[name] = worker
    return spans, counts, workers


def _apart(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return a[1] <= b[0] or b[1] <= a[0]


@pytest.mark.parametrize(("args", "workers"), [(["-n", "3"], "3"), ([], "4")], ids=["given -n", "whole suite by default"])
def test_serial_tests_run_last_and_alone(tmp_path: Path, args: list[str], workers: str) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_spread.py").write_text(SUITE)
    (tmp_path / "pytest.ini").write_text("[pytest]\ntestpaths = tests\nmarkers =\n    serial: alone\n")
    log = tmp_path / "spans.log"
    env = {**os.environ, "SPREAD_LOG": str(log),
           "PYTHONPATH": os.pathsep.join(filter(None, [str(HERE), os.environ.get("PYTHONPATH")]))}
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "parallel", *args],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    spans, counts, worker_of = _spans(log)
    assert counts == {workers}
    assert len({worker_of[f"plain{n}"] for n in range(12)}) > 1  # spread
    # One group: one worker, one test after the other.
    assert worker_of["grouped0"] == worker_of["grouped1"] and _apart(spans["grouped0"], spans["grouped1"])
    assert len(spans) == 17, sorted(spans)
    serial = {name: span for name, span in spans.items() if name.startswith("serial")}
    others = {name: span for name, span in spans.items() if name not in serial}
    last_other = max(end for _, end in others.values())
    for name, (start, end) in serial.items():
        assert start >= last_other, (name, start, last_other)
        assert all(other == name or _apart((start, end), span) for other, span in serial.items()), name
