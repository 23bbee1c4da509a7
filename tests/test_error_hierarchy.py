"""One error hierarchy: every exception class the arena defines for people
derives from ``ArenaError`` and carries its exit code, and the CLI turns any
of them into one line and that code in one place."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from arena.cli import ArenaGroup
from arena.errors import ArenaError, DomainError, UsageError

ARENA = Path(__file__).resolve().parents[1] / "arena"
# Raised and caught inside one module as control flow, never shown to anyone.
PRIVATE_CONTROL_FLOW = {"_InterruptedError", "_GameOverError"}
ROOT = {"ArenaError", "UsageError", "DomainError"}  # the hierarchy itself (arena/errors.py)


def _exception_classes() -> list[type]:
    found = []
    for path in ARENA.rglob("*.py"):
        if path.name.endswith("_pb2.py") or path.name.endswith("_pb2_grpc.py"):
            continue
        names = [n.name for n in ast.parse(path.read_text()).body
                 if isinstance(n, ast.ClassDef) and n.name.endswith("Error")
                 and n.name not in PRIVATE_CONTROL_FLOW | ROOT]
        if not names:
            continue
        module = importlib.import_module(".".join(path.relative_to(ARENA.parent).with_suffix("").parts))
        found += [getattr(module, name) for name in names]
    return found


def test_every_arena_error_class_has_the_common_root() -> None:
    classes = _exception_classes()
    assert len(classes) >= 30
    strays = [c.__qualname__ for c in classes if not issubclass(c, ArenaError)]
    assert strays == []
    for c in classes:
        assert issubclass(c, UsageError) or issubclass(c, DomainError) or c.__name__ == "TournamentInterruptedError", c


@pytest.mark.parametrize(("error", "code"), [(UsageError("bad key x"), 2), (DomainError("cannot do y"), 1)])
def test_the_cli_turns_an_arena_error_into_one_line_and_its_exit_code(error: ArenaError, code: int) -> None:
    @click.group(cls=ArenaGroup)
    def cli() -> None:
        pass

    @cli.command()
    def boom() -> None:
        raise error

    result = CliRunner().invoke(cli, ["boom"], standalone_mode=True)
    assert result.exit_code == code
    assert result.stderr == f"error: {error}\n" and "Traceback" not in result.output
