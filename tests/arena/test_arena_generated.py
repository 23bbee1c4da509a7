"""The committed generated code in arena/protocol/ matches proto/ (run
``python -m arena.protocol.regenerate`` after editing the .proto)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from arena.protocol import regenerate

# Lines that only say which protoc/grpcio-tools made the files: a newer
# toolchain must not fail the check, a changed .proto must.
_STAMP = re.compile(
    r"^(# Protobuf Python Version:.*|GRPC_GENERATED_VERSION = .*|\s+\d+,|\s+_runtime_version\.Domain\.PUBLIC,)$",
    re.MULTILINE,
)


def _normal(text: str) -> str:
    return _STAMP.sub("", text)


def test_generated_code_matches_the_proto(tmp_path: Path) -> None:
    pytest.importorskip("grpc_tools", reason="grpcio-tools (the [test] extra) regenerates the code")
    fresh = regenerate.generate(tmp_path)
    for name in regenerate.GENERATED:
        committed = (regenerate.PACKAGE_DIR / name).read_text()
        assert _normal(committed) == _normal(fresh[name]), (
            f"arena/protocol/{name} is stale: run `python -m arena.protocol.regenerate` and commit the result"
        )


def test_grpc_module_imports_its_sibling_relatively() -> None:
    text = (regenerate.PACKAGE_DIR / "arena_pb2_grpc.py").read_text()
    assert "from . import arena_pb2 as" in text
    assert "from truco" not in text


def test_check_sees_a_changed_proto(tmp_path: Path) -> None:
    pytest.importorskip("grpc_tools", reason="grpcio-tools (the [test] extra) regenerates the code")
    proto = tmp_path / "proto" / regenerate.PROTO_FILE
    proto.parent.mkdir(parents=True)
    source = (regenerate.PROTO_ROOT / regenerate.PROTO_FILE).read_text()
    proto.write_text(source.replace("bool closing = 5;", "bool closing = 5;\n  string hint = 99;"))
    changed = regenerate.generate(tmp_path / "out", proto_root=tmp_path / "proto")
    committed = (regenerate.PACKAGE_DIR / "arena_pb2.py").read_text()
    assert _normal(committed) != _normal(changed["arena_pb2.py"])
