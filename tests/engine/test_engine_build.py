"""Which build of the engine runs, and that the CLI says so.

CI runs the engine, rule-scenario and golden tests twice: on the editable
(pure Python) install, and on a compiled build with
``TRUCO_ARENA_EXPECT_BUILD=compiled``, where this test proves the compiled
modules were the ones imported (a stray source tree first on ``sys.path``
would otherwise make both runs test pure Python)."""

from __future__ import annotations

import os

from click.testing import CliRunner

import arena.engine as engine
from arena.cli import main


def test_the_expected_build_is_the_one_imported() -> None:
    expected = os.environ.get("TRUCO_ARENA_EXPECT_BUILD")
    assert engine.BUILD in ("compiled", "pure Python")
    if expected is not None:
        assert engine.BUILD == expected, engine.state.__file__


def test_version_names_the_build() -> None:
    result = CliRunner().invoke(main, ["--version"])
    assert result.exit_code == 0
    assert result.output.strip().endswith(f"(engine: {engine.BUILD})")
