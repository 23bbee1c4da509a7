"""The bot keeps reading its stream between games. The arena does not wait
for each message to reach a bot; a write that stays blocked by HTTP/2 flow
control (the bot stopped reading) for the write timeout closes the stream.
This check sends more than the transport buffers unread (several MiB of
non-closing Status messages) to each idle stream, and requires all of it to
be delivered within ``--timeout``."""

from __future__ import annotations

from arena.protocol import arena_pb2 as pb
from arena.server.connection import ConnectionLostError
from arena.server.convert import status_pb

from ..check import Check, Finding, failed, passed
from ..context import CheckContext

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


async def _run(ctx: CheckContext) -> Finding:
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


KEEPS_READING = Check("keeps-reading", "keeps reading its stream between games", _run)
