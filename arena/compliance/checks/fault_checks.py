"""Verdicts over every game played so far, one per kind of fault: did the
bot answer every Decision in time, legally, echoing game_id and seq, with
nothing but Moves, and stay connected?"""

from __future__ import annotations

from ..check import Check, Finding, failed, passed, skipped
from ..context import CheckContext
from ..faults import FaultKind


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
