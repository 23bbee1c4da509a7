"""Optional: after the arena ends one of its streams without a closing
Status (as when the network blinks), the bot dials in again, says Hello and
plays. The protocol asks for it; a bot that does not merely has fewer
streams until it is restarted."""

from __future__ import annotations

import asyncio

from ..check import COMPLETE_GAME, Check, Finding, failed, judge_game
from ..context import CannotPlayError, CheckContext

NAME = "reconnect"
_POLL = 0.05


async def _run(ctx: CheckContext) -> Finding:
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
        record = await ctx.play(NAME, ctx.seats_for(2, 0), "venezolano")
    except CannotPlayError as exc:
        return failed(expected, str(exc))
    return judge_game(ctx, record)


RECONNECT = Check(NAME, "reconnects after the arena drops its stream", _run, optional=True)
