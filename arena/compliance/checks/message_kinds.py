"""Every kind of message the arena sends in play is handled: GameStart,
Decision, HandEnd and GameEnd (seen in the complete games so far), and a
non-closing Status between games, after which the bot plays on."""

from __future__ import annotations

import asyncio

from arena.engine.outcome import Termination
from arena.protocol import arena_pb2 as pb
from arena.server.connection import ConnectionLostError
from arena.server.convert import status_pb

from ..check import Check, Finding, failed, judge_game, passed, skipped
from ..context import CannotPlayError, CheckContext
from ..result import CheckVerdict

NAME = "message-kinds"
# The non-closing Status the arena really sends between games (to a Move
# that came outside a game): the bot must ignore it or log it, and go on.
_NOTICE = "ignored: a compliance check sends this Status between games (no game in progress)"
_SETTLE = 0.3  # seconds for a bot that chokes on the Status to close its stream


async def _run(ctx: CheckContext) -> Finding:
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
        record = await ctx.play(NAME, ctx.seats_for(2, 0), "uruguayo")
    except CannotPlayError as exc:
        return failed(expected, str(exc))
    finding = judge_game(ctx, record)
    if finding.verdict is CheckVerdict.FAIL:
        return failed(expected, f"the game after the Status: {finding.actual}")
    hands = sum(r.hands for r in complete)
    return passed(f"GameStart, Decision, HandEnd ({hands}), GameEnd ({len(complete)}), Status between games")


MESSAGE_KINDS = Check(
    NAME, "handles every message kind: GameStart, Decision, HandEnd, GameEnd, a Status between games", _run
)
