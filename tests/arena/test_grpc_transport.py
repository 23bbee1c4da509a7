"""gRPC's transport (arena/__init__.py): importing the arena, or a bot's SDK,
before grpc selects iomgr's TCP server and client; an organizer's own
GRPC_EXPERIMENTS, even empty, is left as it is, and so is a process that
imported grpc first (gRPC reads the variable once, on its first import)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.brief_processes  # a Python that imports and prints

REPO = Path(__file__).resolve().parents[2]
CHOSEN = "-event_engine_listener,-event_engine_client"


def _after(code: str, **env: str) -> str:
    """GRPC_EXPERIMENTS after ``code`` runs in a fresh Python, 'unset' if it is not set."""
    base = {k: v for k, v in os.environ.items() if k != "GRPC_EXPERIMENTS"}
    base["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))
    done = subprocess.run([sys.executable, "-c", f"{code}\nimport os; print(os.environ.get('GRPC_EXPERIMENTS', 'unset'))"],
                          env={**base, **env}, capture_output=True, text=True, timeout=60, check=True)
    return done.stdout.strip()


@pytest.mark.parametrize("code", ["import arena", "import sdk", "import arena.server"])
def test_importing_the_arena_or_the_sdk_first_chooses_iomgr(code: str) -> None:
    assert _after(code) == CHOSEN


@pytest.mark.parametrize("given", ["", "-event_engine_listener", "event_engine_client"])
def test_the_organizers_own_value_wins(given: str) -> None:
    assert _after("import arena.server", GRPC_EXPERIMENTS=given) == given


def test_a_process_that_imported_grpc_first_is_left_alone() -> None:
    assert _after("import grpc\nimport arena") == "unset"
