"""Frames between the arena and its live page's process: a 4-byte big-endian
length, then that many bytes of UTF-8 JSON holding one object. JSON, never
pickle: what crosses the pipe is data, and reading it runs no code. Every
frame is bounded (``MAX_FRAME``), on both sides."""

from __future__ import annotations

import json
import struct
from typing import IO, Any

from ..errors import DomainError

MAX_FRAME = 8 << 20  # bytes; a snapshot is a few KiB to a few hundred
_LENGTH = struct.Struct(">I")


class FrameError(DomainError):
    """A frame too long, cut short, or not a JSON object."""


def encode_frame(value: dict[str, Any]) -> bytes:
    body = json.dumps(value, separators=(",", ":"), allow_nan=False).encode()
    if len(body) > MAX_FRAME:
        raise FrameError(f"a frame of {len(body)} bytes is over the {MAX_FRAME}-byte limit")
    return _LENGTH.pack(len(body)) + body


def read_frame(stream: IO[bytes]) -> dict[str, Any] | None:
    """The next frame's object; None at a clean end of the stream (between two frames)."""
    head = _read_exactly(stream, _LENGTH.size)
    if not head:
        return None
    if len(head) < _LENGTH.size:
        raise FrameError("the stream ended inside a frame's length")
    (length,) = _LENGTH.unpack(head)
    if length > MAX_FRAME:
        raise FrameError(f"a frame of {length} bytes announced, over the {MAX_FRAME}-byte limit")
    body = _read_exactly(stream, length)
    if len(body) < length:
        raise FrameError("the stream ended inside a frame")
    try:
        value = json.loads(body)
    except (UnicodeDecodeError, ValueError) as exc:
        raise FrameError(f"a frame that is not JSON: {exc}") from None
    if not isinstance(value, dict):
        raise FrameError("a frame that is not a JSON object")
    return value


def _read_exactly(stream: IO[bytes], size: int) -> bytes:
    """Up to ``size`` bytes: fewer only where the stream ended."""
    chunks, left = [], size
    while left > 0:
        chunk = stream.read(left)
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)
