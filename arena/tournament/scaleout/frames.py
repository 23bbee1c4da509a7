"""Messages between the coordinator and its local worker processes: pickled
objects, each preceded by its length (4 bytes, big-endian), over the
worker's stdin and stdout. Both ends are this program, started by the
coordinator itself; bots never see these pipes."""

from __future__ import annotations

import asyncio
import pickle
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..config import TournamentConfig

_HEADER = struct.Struct(">I")
MAX_FRAME = 256 * 1024 * 1024  # a batch of thousands of games with their logs is far below this


class FrameError(Exception):
    """The other end sent something that is not a frame."""


@dataclass(frozen=True)
class Setup:
    """The first message to a worker: what it plays and with what."""

    config: TournamentConfig
    log_dir: Path
    concurrency: int  # games at once in this worker


@dataclass(frozen=True)
class Ready:
    """The worker's arena is up and its bots are launched."""


@dataclass(frozen=True)
class BatchDone:
    number: int


@dataclass(frozen=True)
class Failed:
    """The worker cannot go on; one line for people."""

    message: str


def encode(obj: Any) -> bytes:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    return _HEADER.pack(len(data)) + data


async def read_frame(reader: asyncio.StreamReader) -> Any:
    """The next object; ``EOFError`` when the stream ends (between frames or inside one)."""
    try:
        header = await reader.readexactly(_HEADER.size)
        (size,) = _HEADER.unpack(header)
        if size > MAX_FRAME:
            raise FrameError(f"a frame of {size} bytes")
        data = await reader.readexactly(size)
    except asyncio.IncompleteReadError:
        raise EOFError from None
    try:
        return pickle.loads(data)
    except Exception as exc:  # a truncated or foreign frame
        raise FrameError(f"unreadable frame: {type(exc).__name__}") from None
