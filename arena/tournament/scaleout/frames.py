"""Messages between the coordinator and its workers: JSON encoded and
decoded by msgspec, each frame preceded by its length (4 bytes, big-endian),
over a local worker's stdin and stdout; a Ray task's results are the same
JSON bytes.

Both ends read the other's frames as untrusted input. A worker runs bots,
and a bot may find a way to write into its worker's pipes, so what a
worker sends is bounded (``MAX_REPORT``), parsed as data only (no pickle:
nothing read can run code) and decoded strictly into the type its ``kind``
names in the reader's table (a name in the data never chooses a class the
table lacks): a string where a ``str`` is due, a whole number where an
``int`` is, no NaN. The frames of this file are Structs that refuse unknown
fields; the records they carry (``GameRecord``, ``Batch``...) are dataclasses,
whose ``__post_init__`` checks run as they are decoded. A frame that fails
any check is a ``FrameError``: the coordinator counts the worker lost, as
if it had died, and its unreported games are played again.
"""

from __future__ import annotations

import asyncio
import struct
from pathlib import Path
from typing import Annotated, Any, TypeVar

import msgspec

from arena.errors import DomainError

from ...games.game_record import GameRecord
from ...games.orders import Unplayed
from ..config import TournamentConfig
from .batches import Batch

T = TypeVar("T")
_HEADER = struct.Struct(">I")
# To a worker: a batch of thousands of games is a few MB; the bound keeps a
# forged length from making the worker wait for, or hold, gigabytes.
MAX_ORDER = 256 * 1024 * 1024
# From a worker: one game's result (its action log is a few KB).
MAX_REPORT = 4 * 1024 * 1024
# A game in progress: actions in one Progress frame (more go in several), and
# the length of an action's text ("SEAT ACTION") and of a game id.
MAX_PROGRESS_ACTIONS = 1000
MAX_ACTION_TEXT = 64
MAX_GAME_ID = 100


class FrameError(DomainError):
    """The other end sent something that is not a frame of this protocol; one line."""


# ------------------------------------------------------- coordinator -> worker

class _Frame(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A message of this protocol: strict, no field beyond its own."""


class Setup(_Frame, frozen=True):
    """The first message to a worker: what it plays and with what."""

    config: TournamentConfig
    log_dir: Path
    concurrency: int
    """Games at once in this worker."""
    given_up: tuple[tuple[str, str], ...] = ()
    """Bots the coordinator gave up already, and why."""
    progress: bool = False
    """Report the games in progress (``Progress``): a live page watches the run."""


class CrashAnswer(_Frame, frozen=True):
    """The coordinator's answer to a ``Crash``: restart the bot, or give it up."""

    ask: int
    give_up: str | None
    """None: start it again; else why it is given up."""


class GiveUp(_Frame, frozen=True):
    """A bot crashed too often across the whole run: it forfeits its games here too."""

    bot: str
    why: str


# ------------------------------------------------------- worker -> coordinator

class Ready(_Frame, frozen=True):
    """The worker's arena is up and its bots are launched."""


class BatchDone(_Frame, frozen=True):
    """The worker played or reported every game of batch ``number``."""

    number: int


class Failed(_Frame, frozen=True):
    """The worker cannot go on; one line for people."""

    message: str


class Crash(_Frame, frozen=True):
    """A launched bot's process died here; may it be started again? (``CrashAnswer``)"""

    ask: int
    bot: str
    code: int | None
    """Its exit code."""
    last_line: str
    """The last line of its log."""


class Progress(_Frame, frozen=True):
    """A game of the batch in progress (only when ``Setup.progress`` asks):
    the actions its referee applied from the ``start``-th on, in order."""

    game: Annotated[str, msgspec.Meta(max_length=MAX_GAME_ID)]
    """Its game id (``GameOrder.game_id``)."""
    start: Annotated[int, msgspec.Meta(ge=0)]
    """How many of its actions earlier frames carried."""
    actions: Annotated[tuple[Annotated[str, msgspec.Meta(max_length=MAX_ACTION_TEXT)], ...],
                       msgspec.Meta(max_length=MAX_PROGRESS_ACTIONS)]
    """"SEAT ACTION" each, as ``Referee.actions``."""


TO_WORKER: dict[str, type] = {"setup": Setup, "batch": Batch, "crash_answer": CrashAnswer, "give_up": GiveUp}
FROM_WORKER: dict[str, type] = {"ready": Ready, "game": GameRecord, "unplayed": Unplayed, "batch_done": BatchDone,
                                "failed": Failed, "crash": Crash, "progress": Progress}
_KIND = {cls: kind for table in (TO_WORKER, FROM_WORKER) for kind, cls in table.items()}


class _Envelope(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    kind: str
    body: msgspec.Raw
    """Left undecoded until ``kind`` says which type it must have."""


def _enc_hook(obj: object) -> object:
    if isinstance(obj, Path):
        return str(obj)
    raise NotImplementedError(f"cannot send a {type(obj).__name__}")


def _dec_hook(kind: type, value: object) -> object:
    if kind is Path and isinstance(value, str) and "\0" not in value:
        return Path(value)
    raise NotImplementedError(f"expected a path, got {type(value).__name__}")


def payload(obj: object) -> bytes:
    """``obj`` (a message of either table) as JSON: ``{"kind": ..., "body": {...}}``."""
    body = msgspec.json.encode(obj, enc_hook=_enc_hook)
    return msgspec.json.encode(_Envelope(_KIND[type(obj)], msgspec.Raw(body)))


def parse(data: bytes, table: dict[str, type]) -> Any:
    """The message in ``data``, one of the classes of ``table``; FrameError otherwise."""
    envelope = _decode(data, _Envelope, "frame")
    if envelope.kind not in table:
        raise FrameError(f"malformed frame: unknown kind {printable(envelope.kind, 40)!r}")
    return _decode(envelope.body, table[envelope.kind], envelope.kind)


def _decode(data: bytes | msgspec.Raw, kind: type[T], name: str) -> T:
    try:
        return msgspec.json.decode(data, type=kind, dec_hook=_dec_hook)
    except msgspec.ValidationError as exc:  # "Expected `int`, got `str` - at `$.units[0]`"
        what, _, where = str(exc).partition(" - at `$")
        raise FrameError(f"malformed frame: {printable(name + where.rstrip('`'))}: {printable(what)}") from None
    except (msgspec.DecodeError, RecursionError) as exc:  # not JSON, NaN, invalid UTF-8, nested too deep
        raise FrameError(f"malformed frame: not JSON ({printable(str(exc))})") from None


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
