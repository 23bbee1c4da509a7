"""A check: a name, one line saying what it verifies, and a coroutine that
looks at the bot (through ``CheckContext``) and returns a ``Finding``."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from arena.server import PlayedGame

from .context import CheckContext
from .result import CheckVerdict

COMPLETE_GAME = "a complete game: every Decision answered in time with a legal Move echoing its game_id and seq"


@dataclass(frozen=True, slots=True)
class Finding:
    verdict: CheckVerdict
    expected: str = ""
    actual: str = ""
    detail: str = ""  # lines to show under the verdict (a traceback from the bot's log)


def passed(note: str = "") -> Finding:
    return Finding(CheckVerdict.PASS, actual=note)


def failed(expected: str, actual: str, detail: str = "") -> Finding:
    return Finding(CheckVerdict.FAIL, expected, actual, detail)


def skipped(why: str) -> Finding:
    return Finding(CheckVerdict.SKIP, actual=why)


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    summary: str
    run: Callable[[CheckContext], Awaitable[Finding]]
    optional: bool = False
    # Checks that need a connected bot are skipped when the hello check failed.
    needs_connection: bool = True


def judge_game(ctx: CheckContext, record: PlayedGame) -> Finding:
    """Pass when the game ended without a fault of the bot."""
    fault = ctx.fault(record)
    if fault is not None:
        return failed(COMPLETE_GAME, fault.describe())
    mine = [s for s, name in enumerate(record.bots) if name == ctx.name]
    won = record.winner_seat is not None and record.winner_seat == mine[0] % 2
    a, b = record.scores
    return passed(f"{record.hands} hands, {'won' if won else 'lost'} {a}-{b} (seat {', '.join(map(str, mine))})")
