"""Fixtures: one shared arena with two good bots, or a fresh arena per test."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from arena_harness import Harness


@pytest.fixture(scope="session")
def log_dir() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="arena-tests-") as d:
        yield Path(d)


@pytest.fixture(scope="session")
def harness(log_dir: Path) -> Iterator[Harness]:
    """One arena for the whole session, with two well-behaved random bots
    ("good-a", "good-b", two streams each) connected."""
    h = Harness(log_dir)
    procs = [h.spawn("sample_bots.random_bot", n, "--seed", str(i), streams=2) for i, n in enumerate(("good-a", "good-b"))]
    h.wait_for({"good-a": 2, "good-b": 2}, procs)
    try:
        yield h
    finally:
        h.close()


@pytest.fixture
def fresh_harness(log_dir: Path) -> Iterator[Harness]:
    """An arena of its own (for tests that shut it down)."""
    h = Harness(log_dir)
    try:
        yield h
    finally:
        h.close()

