"""A game the opponent loses on time while the bot waits for its turn, then
a normal game: the bot must take a GameEnd it did not expect in stride.
The bot is mano (seat 0), so it has acted once when the opponent stalls."""

from __future__ import annotations

from arena.engine.outcome import Termination
from arena.server import TimeControl

from ..check import COMPLETE_GAME, Check, Finding, failed, judge_game, passed
from ..context import CannotPlayError, CheckContext
from ..result import CheckVerdict

NAME = "opponent-fault"


async def _run(ctx: CheckContext) -> Finding:
    s = ctx.settings
    expected = "after a game that ends because the opponent ran out of time, the next game is played normally"
    # A bank as long as the move time keeps the opponent's timeout short.
    clock = TimeControl(s.move_seconds, s.move_seconds)
    try:
        record = await ctx.play(NAME, [ctx.name, ctx.staller], "argentino", clock)
    except CannotPlayError as exc:
        return failed(expected, str(exc))
    fault = ctx.fault(record)
    if fault is not None:
        return failed(expected, f"in the game the opponent was to lose on time: {fault.describe()}")
    if record.termination is not Termination.TIMEOUT or record.faulty_bot != ctx.staller:
        return failed(expected, f"the opponent was meant to time out, but the game ended: {record.reason}")
    try:
        after = await ctx.play(NAME, ctx.seats_for(2, 1), "argentino")
    except CannotPlayError as exc:
        return failed(expected, f"the next game could not start: {exc}")
    finding = judge_game(ctx, after)
    if finding.verdict is CheckVerdict.FAIL:
        return failed(f"then {COMPLETE_GAME}", f"the next game: {finding.actual}")
    return passed(f"opponent timed out after {record.hands} hand(s); next game: {finding.actual}")


OPPONENT_FAULT = Check(NAME, "survives a game the opponent loses by its fault (a timeout)", _run)
