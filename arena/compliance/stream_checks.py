"""The checks of the bot's streams: its Hello, every kind of message the arena
sends, reading between games, and dialing in again after a stream ends."""

from __future__ import annotations

import asyncio

from arena.engine.outcome import Termination
from arena.protocol import PROTOCOL_VERSION
from arena.protocol import arena_pb2 as pb
from arena.server.connection import ConnectionLostError
from arena.server.convert import status_pb

from .context import CannotPlayError, CheckContext
from .result import COMPLETE_GAME, Check, CheckVerdict, Finding, failed, judge_game, passed, skipped

# The bot starts, dials in and says a valid Hello (its name, a version, the
# protocol version) within the deadline.

_POLL = 0.05
# The arena refuses a stream that sends no Hello after the same timeout:
# wait a little beyond it so that its reason is the one reported.
_GRACE = 1.0


_TAIL = 4096  # bytes of the log read for its last line


def _last_line(ctx: CheckContext) -> str:
    """"; its last line on stderr: ..." from the bot's log (its end only: it may be huge)."""
    if ctx.bot is None:
        return ""
    try:
        with open(ctx.bot.log_path, "rb") as f:
            f.seek(0, 2)
            f.seek(max(0, f.tell() - _TAIL))
            lines = f.read().decode(errors="replace").strip().splitlines()
    except OSError:
        return ""
    return f"; its last line on stderr: {lines[-1][:300]!r}" if lines else "; it wrote nothing on stderr"


async def _hello(ctx: CheckContext) -> Finding:
    s = ctx.settings
    expected = (
        f"a Play stream whose first message is a Hello with bot_name {ctx.name!r}, a bot_version, "
        f"protocol_version {PROTOCOL_VERSION} and a client_nonce, then a Proof of the token given (the token "
        f"itself is never sent), within {s.timeout:g} s"
    )
    loop = asyncio.get_running_loop()
    deadline = loop.time() + s.timeout + _GRACE
    while not ctx.streams():
        if ctx.rejections.reasons:
            return failed(expected, f"the arena refused the Hello: {ctx.rejections.reasons[0]}")
        note = ctx.exit_note()
        if note is not None:
            return failed(expected, f"{note} before saying Hello{_last_line(ctx)}")
        if loop.time() > deadline:
            return failed(expected, f"no stream said Hello within {s.timeout:g} s")
        await asyncio.sleep(_POLL)
    ctx.connected = True
    streams = ctx.streams()
    version = streams[0].version
    if not version.strip():
        return failed(expected, "bot_version is empty: say which version of the bot this is")
    return passed(f"{len(streams)} stream(s), bot_version {version[:80]!r}")


HELLO = Check(
    "hello",
    "connects and sends a valid Hello (name, version, protocol version) within the deadline",
    _hello,
    needs_connection=False,
)


# Every kind of message the arena sends in play is handled: GameStart,
# Decision, HandEnd and GameEnd (seen in the complete games so far), and a
# non-closing Status between games, after which the bot plays on.

_MESSAGE_KINDS_NAME = "message-kinds"
# The non-closing Status the arena really sends between games (to a Move
# that came outside a game): the bot must ignore it or log it, and go on.
_NOTICE = "ignored: a compliance check sends this Status between games (no game in progress)"
_SETTLE = 0.3  # seconds for a bot that chokes on the Status to close its stream


async def _message_kinds(ctx: CheckContext) -> Finding:
    complete = [
        r for r in ctx.games if r.termination is Termination.TARGET_REACHED and ctx.name in r.bots
    ]
    if not complete:
        return skipped("no complete game was played yet, so GameStart, Decision, HandEnd and GameEnd are untested")
    expected = "to carry on after a non-closing Status between games, and play the next game"
    streams = ctx.streams()
    before = len(streams)
    for conn in streams:
        try:
            await conn.send(status_pb(pb.STATUS_CODE_PROTOCOL_ERROR, _NOTICE))
        except ConnectionLostError as exc:
            return failed(expected, f"the Status could not be delivered: {exc}")
    await asyncio.sleep(_SETTLE)
    after = len(ctx.streams())
    if after < before:
        return failed(expected, f"{before - after} of {before} stream(s) closed after the Status"
                      + (f"; {ctx.exit_note()}" if ctx.exit_note() else ""))
    try:
        record = await ctx.play(_MESSAGE_KINDS_NAME, ctx.seats_for(2, 0), "uruguayo")
    except CannotPlayError as exc:
        return failed(expected, str(exc))
    finding = judge_game(ctx, record)
    if finding.verdict is CheckVerdict.FAIL:
        return failed(expected, f"the game after the Status: {finding.actual}")
    hands = sum(r.hands for r in complete)
    return passed(f"GameStart, Decision, HandEnd ({hands}), GameEnd ({len(complete)}), Status between games")


MESSAGE_KINDS = Check(
    _MESSAGE_KINDS_NAME, "handles every message kind: GameStart, Decision, HandEnd, GameEnd, a Status between games", _message_kinds
)


# The bot keeps reading its stream between games. The arena does not wait
# for each message to reach a bot; a write that stays blocked by HTTP/2 flow
# control (the bot stopped reading) for the write timeout closes the stream.
# This check sends more than the transport buffers unread (several MiB of
# non-closing Status messages) to each idle stream, and requires all of it to
# be delivered within ``--timeout``.

_MESSAGES = 128
# Padding goes into game_id, not into the human-readable message, so a bot
# that logs Status messages does not fill its log with it. 128 x 64 KiB =
# 8 MiB, twice what gRPC buffers for a client that does not read (~4 MiB).
_PADDING = 64 * 1024
_MIB = _MESSAGES * _PADDING / 2**20


def _burst(stream: int) -> list[pb.PlayResponse]:
    pad = "x" * _PADDING
    return [
        status_pb(
            pb.STATUS_CODE_PROTOCOL_ERROR,
            f"ignored: compliance check, reading test {i + 1}/{_MESSAGES} on stream {stream} (no game in progress)",
            game_id=pad,
        )
        for i in range(_MESSAGES)
    ]


async def _keeps_reading(ctx: CheckContext) -> Finding:
    timeout = ctx.settings.timeout
    expected = f"every stream reads {_MIB:g} MiB of Status messages sent between games within {timeout:g} s"
    streams = ctx.streams()
    if not streams:
        return failed(expected, "the bot has no stream open" + (f"; {ctx.exit_note()}" if ctx.exit_note() else ""))
    for i, conn in enumerate(streams):
        *rest, last = _burst(i)
        try:
            for msg in rest:
                conn.post(msg)
            await conn.send(last)  # waits until the whole burst is written, at most the write timeout
        except ConnectionLostError as exc:
            return failed(expected, f"stream {i + 1} of {len(streams)} stopped reading: the arena closed it ({exc})")
    return passed(f"{len(streams)} stream(s) x {_MIB:g} MiB")


KEEPS_READING = Check("keeps-reading", "keeps reading its stream between games", _keeps_reading)


# Optional: after the arena ends one of its streams without a closing
# Status (as when the network blinks), the bot dials in again, says Hello and
# plays. The protocol asks for it; a bot that does not merely has fewer
# streams until it is restarted.

_RECONNECT_NAME = "reconnect"


async def _reconnect(ctx: CheckContext) -> Finding:
    timeout = ctx.settings.timeout
    expected = f"a new stream with a fresh Hello within {timeout:g} s after the arena ended one, then {COMPLETE_GAME}"
    streams = ctx.streams()
    if not streams:
        return failed(expected, "the bot has no stream open" + (f"; {ctx.exit_note()}" if ctx.exit_note() else ""))
    before = len(streams)
    streams[0].drop("compliance check: the arena ends this stream to see the bot reconnect")
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while len(ctx.streams()) < before:
        note = ctx.exit_note()
        if note is not None:
            return failed(expected, f"{note} after its stream was ended")
        if loop.time() > deadline:
            return failed(expected, f"{len(ctx.streams())} of {before} stream(s) open {timeout:g} s after one was ended")
        await asyncio.sleep(_POLL)
    try:
        record = await ctx.play(_RECONNECT_NAME, ctx.seats_for(2, 0), "venezolano")
    except CannotPlayError as exc:
        return failed(expected, str(exc))
    return judge_game(ctx, record)


RECONNECT = Check(_RECONNECT_NAME, "reconnects after the arena drops its stream", _reconnect, optional=True)
