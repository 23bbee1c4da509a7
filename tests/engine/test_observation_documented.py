"""Every field of the Python Observation is documented: a docstring under it
in the class, and a row in docs/protocol.md's SDK section."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

from arena.engine.observation import Observation

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "protocol.md"
# Read from the source file, not inspect.getsource: the compiled build's
# classes carry no source (and this is about the source's docstrings).
SOURCE = ROOT / "arena" / "engine" / "observation.py"


def test_every_observation_field_has_a_docstring_and_a_row_in_the_protocol_doc() -> None:
    names = [f.name for f in dataclasses.fields(Observation)]
    body = next(node for node in ast.parse(SOURCE.read_text()).body
                if isinstance(node, ast.ClassDef) and node.name == "Observation")
    documented = []
    for field, after in zip(body.body, body.body[1:], strict=False):
        if isinstance(field, ast.AnnAssign) and isinstance(field.target, ast.Name):
            if isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant) and after.value.value:
                documented.append(field.target.id)
    assert documented == names
    text = DOC.read_text()
    sdk = text[text.index("## For Python: the SDK"):]
    assert [n for n in names if f"| `{n}` | `" not in sdk] == []
