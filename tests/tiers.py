"""The test tiers, loaded as a plugin for every run (pyproject: ``-p tiers``).

``python -m pytest -m "not slow and not integration"`` is the everyday tier:
everything that runs inside the test process (the engine, the referee, the
arena's protocol in memory and over loopback gRPC with in-process bots, the
store, the loaders, the matchmaker, the ratings, the CLI's errors). The whole
suite (plain ``python -m pytest``) is what CI runs.

A test is ``integration`` when it starts processes (bots, servers, the CLI as
a subprocess, a browser, a Ray cluster) or plays a real tournament. That is
decided here for a whole directory or for any test that uses a fixture which
does so, and by an explicit mark in the test file otherwise. ``slow`` is
always explicit: a long strength, statistics or load run.

So that the everyday tier stays fast, a test of it that starts a process
fails, saying which mark it lacks; ``brief_processes`` lets a test start
processes that end at once (a command that is not a program) and stay in
the everyday tier.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

TESTS = Path(__file__).resolve().parent

# Every test under these directories starts processes or plays tournaments.
INTEGRATION_DIRS = frozenset({
    "docs",  # runs the commands of the README and docs/
    "sandbox",  # launched bots under bubblewrap
    "scaleout",  # workers as processes and a Ray cluster
    "web",  # live pages of real runs, a headless browser
})
# Fixtures that start bot processes, servers or a browser, or run a tournament.
INTEGRATION_FIXTURES = frozenset({
    "harness", "fresh_harness", "fuzz_harness",  # tests/arena: an arena with bot processes
    "small_db",  # tests/replay: a tournament through the CLI
    "played",  # tests/replay/test_verify_results.py: a tournament through the CLI
    "league",  # tests/league: a league server process
})


@pytest.hookimpl(tryfirst=True)  # before -m selects on the marks
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        path = Path(item.path).resolve()
        top = path.relative_to(TESTS).parts[0] if path.is_relative_to(TESTS) else ""
        if top in INTEGRATION_DIRS or INTEGRATION_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.integration)


class StartsAProcessError(AssertionError):
    pass


@pytest.fixture(autouse=True)
def _no_process_outside_integration(request: pytest.FixtureRequest) -> Iterator[None]:
    """In a test not marked ``integration``, starting a process fails (and
    the test fails at teardown too, in case the code under test caught it)."""
    node = request.node
    if node.get_closest_marker("integration") is not None or node.get_closest_marker("brief_processes") is not None:
        yield
        return
    real = subprocess.Popen._execute_child  # type: ignore[attr-defined]
    started: list[str] = []

    def refuse(self: subprocess.Popen[Any], args: Any, *rest: Any, **kwargs: Any) -> None:
        started.append(f"{args!r:.200}")
        raise StartsAProcessError(f"this test is not marked integration, yet starts a process: {started[-1]}")

    subprocess.Popen._execute_child = refuse  # type: ignore[attr-defined]
    try:
        yield
    finally:
        subprocess.Popen._execute_child = real  # type: ignore[attr-defined]
    if started:
        pytest.fail(f"{request.node.nodeid} starts processes ({'; '.join(started)}): mark it integration "
                    "(tests/tiers.py says how), or keep it inside the test process", pytrace=False)
