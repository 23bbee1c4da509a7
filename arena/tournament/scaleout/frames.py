"""Messages between the coordinator and its workers: JSON (``codec.py``),
each frame preceded by its length (4 bytes, big-endian), over a local
worker's stdin and stdout; a Ray task's results are the same JSON bytes.

Both ends read the other's frames as untrusted input. A worker runs bots,
and a bot may find a way to write into its worker's pipes, so what a
worker sends is bounded (``MAX_REPORT``), parsed as data only (no pickle:
nothing read can run code) and checked against the message's fields. A
frame that fails any check is a ``FrameError``: the coordinator counts the
worker lost, as if it had died, and its unreported games are played again.
"""

from __future__ import annotations

import asyncio
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.errors import DomainError

from ...games.game_record import GameRecord
from ...games.orders import Unplayed
from ..config import TournamentConfig
from .batches import Batch
from .codec import DecodeError, dumps, from_plain, loads

_HEADER = struct.Struct(">I")
# To a worker: a batch of thousands of games is a few MB; the bound keeps a
# forged length from making the worker wait for, or hold, gigabytes.
MAX_ORDER = 256 * 1024 * 1024
# From a worker: one game's result (its action log is a few KB).
MAX_REPORT = 4 * 1024 * 1024


class FrameError(DomainError):
    """The other end sent something that is not a frame of this protocol; one line."""


# ------------------------------------------------------- coordinator -> worker

@dataclass(frozen=True)
class Setup:
    """The first message to a worker: what it plays and with what."""

    config: TournamentConfig
    log_dir: Path
    concurrency: int  # games at once in this worker
    given_up: tuple[tuple[str, str], ...] = ()  # bots the coordinator gave up already, and why


@dataclass(frozen=True)
class CrashAnswer:
    """The coordinator's answer to a ``Crash``: restart the bot, or give it up."""

    ask: int
    give_up: str | None  # None: start it again; else why it is given up


@dataclass(frozen=True)
class GiveUp:
    """A bot crashed too often across the whole run: it forfeits its games here too."""

    bot: str
    why: str


# ------------------------------------------------------- worker -> coordinator

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


@dataclass(frozen=True)
class Crash:
    """A launched bot's process died here; may it be started again? (``CrashAnswer``)"""

    ask: int
    bot: str
    code: int | None  # its exit code
    last_line: str  # of its log


TO_WORKER: dict[str, type] = {"setup": Setup, "batch": Batch, "crash_answer": CrashAnswer, "give_up": GiveUp}
FROM_WORKER: dict[str, type] = {"ready": Ready, "game": GameRecord, "unplayed": Unplayed, "batch_done": BatchDone,
                                "failed": Failed, "crash": Crash}
_KIND = {cls: kind for table in (TO_WORKER, FROM_WORKER) for kind, cls in table.items()}


def payload(obj: object) -> bytes:
    """``obj`` (a message of either table) as JSON: ``{"kind": ..., "body": {...}}``."""
    return dumps({"kind": _KIND[type(obj)], "body": obj})


def parse(data: bytes, table: dict[str, type]) -> Any:
    """The message in ``data``, one of the classes of ``table``; FrameError otherwise."""
    try:
        doc = loads(data)
        if not isinstance(doc, dict) or set(doc) != {"kind", "body"}:
            raise DecodeError('expected an object with "kind" and "body"')
        kind = doc["kind"]
        if not isinstance(kind, str) or kind not in table:
            raise DecodeError(f"unknown kind {str(kind)[:40]!r}")
        return from_plain(doc["body"], table[kind], kind)
    except DecodeError as exc:
        raise FrameError(f"malformed frame: {printable(str(exc))}") from None


def encode(obj: object) -> bytes:
    data = payload(obj)
    return _HEADER.pack(len(data)) + data


async def read_frame(reader: asyncio.StreamReader, table: dict[str, type], limit: int) -> Any:
    """The next message; ``EOFError`` when the stream ends (between frames or
    inside one), ``FrameError`` for a frame over ``limit`` bytes or malformed."""
    try:
        header = await reader.readexactly(_HEADER.size)
        (size,) = _HEADER.unpack(header)
        if size > limit:
            raise FrameError(f"a frame of {size} bytes (at most {limit} expected)")
        data = await reader.readexactly(size)
    except asyncio.IncompleteReadError:
        raise EOFError from None
    return parse(data, table)


def printable(text: str, limit: int = 200) -> str:
    """A line safe to print: what a worker sends must not move the cursor or forge lines."""
    return "".join(c if c.isprintable() else "?" for c in text)[:limit]
