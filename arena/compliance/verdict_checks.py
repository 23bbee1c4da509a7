"""The verdicts over every game played so far: one per kind of fault, and the
Moves the bot marked as a fallback."""

from __future__ import annotations

from pathlib import Path

from .context import CheckContext, FaultKind
from .result import Check, Finding, failed, passed, skipped

# Verdicts over every game played so far, one per kind of fault: did the
# bot answer every Decision in time, legally, echoing game_id and seq, with
# nothing but Moves, and stay connected?

def _fault_check(name: str, kind: FaultKind, summary: str, expected: str) -> Check:
    async def run(ctx: CheckContext) -> Finding:
        games = [r for r in ctx.games if ctx.name in r.bots]
        if not games:
            return skipped("no game was played")
        faults = [f for f in ctx.faults() if f.kind is kind]
        # A process that died is a disconnect, whether or not a game was on.
        exit_note = ctx.exit_note() if kind is FaultKind.DISCONNECT else None
        if faults:
            more = f" (and {len(faults) - 1} more game(s))" if len(faults) > 1 else ""
            return failed(expected, faults[0].describe() + more + (f"; {exit_note}" if exit_note else ""))
        if exit_note is not None:
            return failed(expected, exit_note)
        note = f"{ctx.decisions_answered()} decisions over {len(games)} games"
        if kind is FaultKind.TIMEOUT:
            # How close the bot came: a bot near the limit here will time out on a busy machine.
            note += f"; slowest answer {ctx.slowest_answer():.3f} s of {ctx.settings.move_seconds:g} s"
        return passed(note)

    return Check(name, summary, run)


FAULT_CHECKS = (
    _fault_check(
        "in-time", FaultKind.TIMEOUT, "answers every Decision within its move time and bank",
        "a Move for every Decision before move_time_ms + bank_ms run out",
    ),
    _fault_check(
        "legal-actions", FaultKind.ACTION, "answers with one of the Decision's legal_actions",
        "Move.action copied verbatim from Decision.legal_actions",
    ),
    _fault_check(
        "echo-ids", FaultKind.ECHO, "echoes the Decision's game_id and seq in every Move",
        "Move.game_id and Move.seq equal to those of the Decision it answers",
    ),
    _fault_check(
        "well-formed", FaultKind.MESSAGE, "sends nothing but Moves after its Hello",
        "one Move per Decision; no second Hello, no empty PlayRequest",
    ),
    _fault_check(
        "stays-connected", FaultKind.DISCONNECT, "keeps its streams open and its process running through every game",
        "every stream open until the arena ends it, and the bot process running",
    ),
)


# A verdict over every game played so far: the bot chose each of its moves
# itself. A Move marked ``fallback`` (the Python SDK: ``choose()`` raised and
# the SDK played the first legal action) costs no game, but it is a bug, and
# one that tournaments would otherwise hide; the first traceback in the bot's
# log is shown beside the verdict.

NAME = "no-fallbacks"
# The SDK's line before the traceback of a choose() that raised.
RAISED = "choose() raised in game"
TRACEBACK = "Traceback (most recent call last):"
# Bounds on what is read of a hostile bot's log, and shown of it.
_READ_BYTES = 1 << 20
_SHOWN_LINES = 40


def fallbacks_of(ctx: CheckContext) -> int:
    """Moves of the bot marked as a fallback, over every game played so far."""
    return sum(n for r in ctx.games for seat, n in enumerate(r.fallbacks) if r.bots[seat] == ctx.name)


def first_traceback(log: Path) -> str:
    """The SDK's report of the first choose() that raised, traceback included;
    '' when the log has none (a bot in another language marks fallbacks too)."""
    try:
        with open(log, "rb") as f:
            text = f.read(_READ_BYTES).decode("utf-8", errors="replace")
    except OSError:
        return ""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if RAISED in line), None)
    if start is None:
        return ""
    begin = next((i for i in range(start, len(lines)) if lines[i].startswith(TRACEBACK)), None)
    if begin is None:
        return lines[start]
    end = begin + 1
    while end < len(lines) and lines[end].startswith((" ", "\t")):
        end += 1  # the frames; the next unindented line is the exception itself
    shown = [lines[start], *lines[begin:end + 1]]
    if len(shown) > _SHOWN_LINES:
        shown = [*shown[:2], "  ...", *shown[-(_SHOWN_LINES - 3):]]
    return "\n".join(shown)


async def _run(ctx: CheckContext) -> Finding:
    games = [r for r in ctx.games if ctx.name in r.bots]
    if not games:
        return skipped("no game was played")
    count = fallbacks_of(ctx)
    trace = first_traceback(ctx.bot.log_path) if ctx.bot is not None else ""
    if count == 0 and not trace:
        return passed(f"{ctx.decisions_answered()} decisions over {len(games)} games")
    where = f"see {ctx.bot.log_path}" if ctx.bot is not None else "see the bot's log"
    got = (f"{count} Move(s) marked as a fallback: the bot's code failed and it played a legal action instead; "
           f"{where}" if count else f"its log reports a choose() that raised; {where}")
    return failed("every Move chosen by the bot itself (no Move.fallback, no exception in choose())", got,
                  detail=trace)


NO_FALLBACKS = Check(NAME, "chooses every move itself: its code never failed into a fallback move", _run)
