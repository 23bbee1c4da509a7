"""Regenerate the protobuf/gRPC code in this folder from proto/.

Run ``python -m arena.protocol.regenerate`` after editing proto/truco/arena/v1/arena.proto.
The files it writes (arena_pb2.py, arena_pb2.pyi, arena_pb2_grpc.py) are
generated: never edit them by hand. tests/arena/test_generated.py fails when
they no longer match the .proto.
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
REPO_ROOT = PACKAGE_DIR.parent.parent
PROTO_ROOT = REPO_ROOT / "proto"
PROTO_FILE = "truco/arena/v1/arena.proto"
GENERATED = ("arena_pb2.py", "arena_pb2.pyi", "arena_pb2_grpc.py")

# protoc writes an absolute import that only works with proto/'s layout on
# sys.path; inside the installed package it must be relative.
_ABSOLUTE_IMPORT = re.compile(r"^from truco\.arena\.v1 import arena_pb2 as ", re.MULTILINE)


def generate(out_dir: Path, proto_root: Path = PROTO_ROOT) -> dict[str, str]:
    """Run protoc into ``out_dir``; return {file name: text} of the generated files."""
    # grpcio-tools is only needed to regenerate: a test/dev dependency, untyped.
    import grpc_tools  # type: ignore[import-untyped,unused-ignore]
    from grpc_tools import protoc  # type: ignore[import-untyped,unused-ignore]

    include = str(Path(grpc_tools.__file__).parent / "_proto")  # google/protobuf/*.proto
    with tempfile.TemporaryDirectory() as tmp:
        args = [
            "grpc_tools.protoc",
            f"-I{proto_root}",
            f"-I{include}",
            f"--python_out={tmp}",
            f"--pyi_out={tmp}",
            f"--grpc_python_out={tmp}",
            str(proto_root / PROTO_FILE),
        ]
        if protoc.main(args) != 0:
            raise RuntimeError(f"protoc failed on {proto_root / PROTO_FILE}")
        produced = Path(tmp) / Path(PROTO_FILE).parent
        texts = {}
        for name in GENERATED:
            text = (produced / name).read_text()
            text = _ABSOLUTE_IMPORT.sub("from . import arena_pb2 as ", text)
            # protoc's output does not pass `mypy --strict`; code that uses it is checked.
            texts[name] = "# mypy: ignore-errors\n" + text
    out_dir.mkdir(parents=True, exist_ok=True)
    for name, text in texts.items():
        (out_dir / name).write_text(text)
    return texts


def main() -> int:
    generate(PACKAGE_DIR)
    print(f"regenerated {', '.join(GENERATED)} in {PACKAGE_DIR}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
