"""Four- and six-seat argentino games, the bot in every seat of one team
(2 or 3 streams at once), when it opened that many streams."""

from __future__ import annotations

from ..check import COMPLETE_GAME, Check, Finding, failed, judge_game, skipped
from ..context import CannotPlayError, CheckContext


def _multi_seat_check(seats: int, bot_team: int) -> Check:
    name = f"game-argentino-{seats}"
    need = seats // 2

    async def run(ctx: CheckContext) -> Finding:
        have = len(ctx.streams())
        if have < need and ctx.exit_note() is None:
            return skipped(
                f"the bot has {have} stream(s) open and a {seats}-seat game needs {need} "
                f"(it was started with --streams {ctx.settings.streams})"
            )
        try:
            record = await ctx.play(name, ctx.seats_for(seats, bot_team), "argentino")
        except CannotPlayError as exc:
            return failed(COMPLETE_GAME, str(exc))
        return judge_game(ctx, record)

    return Check(name, f"plays a complete {seats}-seat argentino game in all {need} seats of a team", run)


MULTI_SEAT_CHECKS = (_multi_seat_check(4, 1), _multi_seat_check(6, 0))
