"""Several games in a row: the stream goes back to the pool after each
GameEnd and must take the next GameStart (seq keeps counting across games)."""

from __future__ import annotations

from arena.engine.options import VARIANTS

from ..check import COMPLETE_GAME, Check, Finding, failed, judge_game, passed
from ..context import CannotPlayError, CheckContext
from ..result import CheckVerdict

NAME = "series"


async def _run(ctx: CheckContext) -> Finding:
    n = ctx.settings.games
    for k in range(n):
        variant = VARIANTS[k % len(VARIANTS)]
        try:
            record = await ctx.play(NAME, ctx.seats_for(2, k % 2), variant)
        except CannotPlayError as exc:
            return failed(f"{n} complete games in a row", f"game {k + 1} of {n} could not start: {exc}")
        finding = judge_game(ctx, record)
        if finding.verdict is CheckVerdict.FAIL:
            return failed(f"{n} games in a row, each {COMPLETE_GAME}", f"game {k + 1} of {n}: {finding.actual}")
    return passed(f"{n} games")


SERIES = Check(NAME, "plays several games in a row on its streams (--games)", _run)
