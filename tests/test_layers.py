"""The layering rule of docs/architecture.md, as import-linter contracts in
pyproject.toml: they hold for the code as it is, and an import that points
up breaks them (run on a copy of the packages with one such import added)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[1]
LINT = [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command as c; sys.exit(c())"]


def lint(root: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(root))
    return subprocess.run([*LINT, "--no-cache"], cwd=root, env=env, capture_output=True, text=True, timeout=120)


def test_the_packages_keep_their_layers() -> None:
    result = lint(REPO)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Contracts: 3 kept, 0 broken." in result.stdout


def test_an_import_that_points_up_breaks_the_contract(tmp_path: Path) -> None:
    for name in ("arena", "sdk"):
        shutil.copytree(REPO / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / "pyproject.toml", tmp_path)
    store = tmp_path / "arena" / "games" / "store.py"
    store.write_text(store.read_text() + "\nfrom ..league import config as _upward  # noqa\n")
    result = lint(tmp_path)
    assert result.returncode != 0
    assert "arena.games is not allowed to import arena.league" in result.stdout
