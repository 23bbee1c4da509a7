"""The checks that play games against the checker's opponents and judge each one:
one complete game in each variant, the team games of four and six seats,
several games in a row on one stream, and a game the opponent loses on time."""

from __future__ import annotations

from arena.engine.options import VARIANTS
from arena.engine.outcome import Termination
from arena.server import TimeControl

from .context import CannotPlayError, CheckContext
from .result import COMPLETE_GAME, Check, CheckVerdict, Finding, failed, judge_game, passed, skipped

# One complete two-seat game in each variant.

def _variant_check(variant: str, bot_team: int) -> Check:
    name = f"game-{variant}"

    async def run(ctx: CheckContext) -> Finding:
        try:
            record = await ctx.play(name, ctx.seats_for(2, bot_team), variant)
        except CannotPlayError as exc:
            return failed(COMPLETE_GAME, str(exc))
        return judge_game(ctx, record)

    return Check(name, f"plays a complete 2-seat {variant} game", run)


# The bot sits in seat 0 (mano first) in one game and seat 1 in the next.
VARIANT_CHECKS = tuple(_variant_check(v, i % 2) for i, v in enumerate(VARIANTS))


# Four- and six-seat argentino games, the bot in every seat of one team
# (2 or 3 streams at once), when it opened that many streams.

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


# Several games in a row: the stream goes back to the pool after each
# GameEnd and must take the next GameStart (seq keeps counting across games).

_SERIES_NAME = "series"


async def _series(ctx: CheckContext) -> Finding:
    n = ctx.settings.games
    for k in range(n):
        variant = VARIANTS[k % len(VARIANTS)]
        try:
            record = await ctx.play(_SERIES_NAME, ctx.seats_for(2, k % 2), variant)
        except CannotPlayError as exc:
            return failed(f"{n} complete games in a row", f"game {k + 1} of {n} could not start: {exc}")
        finding = judge_game(ctx, record)
        if finding.verdict is CheckVerdict.FAIL:
            return failed(f"{n} games in a row, each {COMPLETE_GAME}", f"game {k + 1} of {n}: {finding.actual}")
    return passed(f"{n} games")


SERIES = Check(_SERIES_NAME, "plays several games in a row on its streams (--games)", _series)


# A game the opponent loses on time while the bot waits for its turn, then
# a normal game: the bot must take a GameEnd it did not expect in stride.
# The bot is mano (seat 0), so it has acted once when the opponent stalls.

_OPPONENT_FAULT_NAME = "opponent-fault"


async def _opponent_fault(ctx: CheckContext) -> Finding:
    s = ctx.settings
    expected = "after a game that ends because the opponent ran out of time, the next game is played normally"
    # A bank as long as the move time keeps the opponent's timeout short.
    clock = TimeControl(s.move_seconds, s.move_seconds)
    try:
        record = await ctx.play(_OPPONENT_FAULT_NAME, [ctx.name, ctx.staller], "argentino", clock)
    except CannotPlayError as exc:
        return failed(expected, str(exc))
    fault = ctx.fault(record)
    if fault is not None:
        return failed(expected, f"in the game the opponent was to lose on time: {fault.describe()}")
    if record.termination is not Termination.TIMEOUT or record.faulty_bot != ctx.staller:
        return failed(expected, f"the opponent was meant to time out, but the game ended: {record.reason}")
    try:
        after = await ctx.play(_OPPONENT_FAULT_NAME, ctx.seats_for(2, 1), "argentino")
    except CannotPlayError as exc:
        return failed(expected, f"the next game could not start: {exc}")
    finding = judge_game(ctx, after)
    if finding.verdict is CheckVerdict.FAIL:
        return failed(f"then {COMPLETE_GAME}", f"the next game: {finding.actual}")
    return passed(f"opponent timed out after {record.hands} hand(s); next game: {finding.actual}")


OPPONENT_FAULT = Check(_OPPONENT_FAULT_NAME, "survives a game the opponent loses by its fault (a timeout)", _opponent_fault)
