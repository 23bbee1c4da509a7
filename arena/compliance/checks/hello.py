"""The bot starts, dials in and says a valid Hello (its name, a version, the
protocol version) within the deadline."""

from __future__ import annotations

import asyncio

from arena.protocol import PROTOCOL_VERSION

from ..check import Check, Finding, failed, passed
from ..context import CheckContext

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


async def _run(ctx: CheckContext) -> Finding:
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
    _run,
    needs_connection=False,
)
