"""Run the checks against one bot command: a real arena on loopback with an
in-memory token, the checker's opponents (a launched sample bot, and one in
process that times out on purpose), the bot launched the way tournaments
launch bots, then every check in order.

Everything the bot sees is drawn as a tournament or league draws it, so
that a bot cannot behave for the check only (docs/protocol.md, "What a bot
can tell about check-bot"): its own name is its program's, the opponents'
names are drawn like entrants' names for each run, the ordinary opponent
is the heuristic sample bot in a process of its own (its play and timing
are a league entrant's), game ids are opaque, seeds 63-bit and fresh, and
the clock is the tournaments' default."""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from arena.errors import DomainError, UsageError
from arena.sandbox import Containment, Sandbox, SandboxUnavailableError
from arena.server import Arena, BotUnavailableError
from arena.tournament.launcher import BotStartError, LaunchSpec, launch, stop

from .check_settings import CheckSettings
from .context import CannotPlayError, CheckContext, RejectionLog
from .game_checks import MULTI_SEAT_CHECKS, OPPONENT_FAULT, SERIES, VARIANT_CHECKS
from .opponent import start_opponent
from .result import Check, CheckResult, CheckVerdict, Report
from .stream_checks import HELLO, KEEPS_READING, MESSAGE_KINDS, RECONNECT
from .verdict_checks import FAULT_CHECKS, NO_FALLBACKS

# Streams of the ordinary opponent: the other team of a 6-seat game.
_OPPONENT_STREAMS = 3
# The ordinary opponent: a sample bot, launched as a tournament launches bots.
_OPPONENT_COMMAND = ("python", "-m", "sample_bots.heuristic")
# Seconds a stream gets to half-close after the final SHUTDOWN Status: the
# verdicts are in by then, so a bot that does not half-close costs little.
_CLOSE_GRACE = 1.0
# Characters of an expected/actual text: the arena's reasons quote what the
# bot sent (an action, a game id), which may be up to 64 KiB.
_CLIP = 1000
_CLIP_DETAIL = 8000  # a traceback of at most 40 lines (verdict_checks.py)

# Games first; the verdicts over all games next; last the checks that
# disturb the streams on purpose (a reading test may close one, the
# reconnect test does).
CHECKS: tuple[Check, ...] = (
    HELLO,
    *VARIANT_CHECKS,
    *MULTI_SEAT_CHECKS,
    SERIES,
    OPPONENT_FAULT,
    MESSAGE_KINDS,
    *FAULT_CHECKS,
    NO_FALLBACKS,
    KEEPS_READING,
    RECONNECT,
)


class LaunchError(UsageError):
    """The bot's command could not be started (e.g. not on PATH)."""


class CheckerError(DomainError):
    """The checker itself could not set up (its own opponents did not connect)."""


async def run_checks(
    settings: CheckSettings,
    on_result: Callable[[CheckResult], None] = lambda result: None,
    checks: Sequence[Check] = CHECKS,
) -> Report:
    """Run ``checks`` against the bot of ``settings``; ``on_result`` hears each
    result as it comes. LaunchError when the command cannot start."""
    results: list[CheckResult] = []
    with RejectionLog() as rejections:
        arena = Arena(hello_timeout=settings.timeout, write_timeout=settings.timeout, close_grace=_CLOSE_GRACE)
        try:
            # The author's own bot on their own machine: whatever containment holds here.
            sandbox = Sandbox.open(Containment.BEST_EFFORT) if settings.sandbox else None
        except SandboxUnavailableError as exc:
            raise LaunchError(str(exc)) from None
        try:
            port = await arena.start("127.0.0.1:0", unix_socket=sandbox.socket if sandbox is not None else None)
        except OSError as exc:
            if sandbox is not None:
                sandbox.close()
            raise CheckerError(f"cannot start an arena on loopback: {exc}") from None
        if sandbox is not None:
            sandbox.socket_ready()
        address = f"127.0.0.1:{port}"
        ctx = CheckContext(settings, arena, address, rejections)
        opponent_logs = Path(tempfile.mkdtemp(prefix="truco-check-opponents-"))
        staller = start_opponent(address, ctx.staller, arena.add_token(ctx.staller), 1, stalling=True)
        opponent = None
        try:
            try:
                opponent = await launch(LaunchSpec(ctx.opponent, _OPPONENT_COMMAND), address,
                                        arena.add_token(ctx.opponent), _OPPONENT_STREAMS, opponent_logs)
            except BotStartError as exc:
                raise CheckerError(f"the checker's own opponent did not start: {exc}") from None
            try:
                await arena.wait_for_bots({ctx.opponent: _OPPONENT_STREAMS, ctx.staller: 1}, settings.timeout)
            except BotUnavailableError as exc:
                raise CheckerError(f"the checker's own opponents did not connect: {exc}") from None
            token = arena.add_token(settings.name)
            try:
                command, folder = settings.bot_folder() if sandbox is not None else (settings.command, None)
                ctx.bot = await launch(LaunchSpec(settings.name, command, dir=folder), address, token,
                                       settings.streams, settings.log_dir, sandbox=sandbox)
            except BotStartError as exc:  # cannot start, or its log cannot be written
                raise LaunchError(str(exc)) from None
            for check in checks:
                result = await _run_one(check, ctx)
                results.append(result)
                on_result(result)
        finally:
            await arena.stop(grace=0)
            if ctx.bot is not None:
                await stop(ctx.bot)
            if opponent is not None:
                await stop(opponent)
            if sandbox is not None:
                sandbox.close()
            staller.cancel()
            await asyncio.gather(staller, return_exceptions=True)
            shutil.rmtree(opponent_logs, ignore_errors=True)
    log_path = str(ctx.bot.log_path) if ctx.bot is not None else str(settings.log_dir)
    return Report(settings.name, settings.command, log_path, tuple(results))


async def _run_one(check: Check, ctx: CheckContext) -> CheckResult:
    def result(verdict: CheckVerdict, expected: str = "", actual: str = "", detail: str = "") -> CheckResult:
        return CheckResult(check.name, check.summary, verdict, check.optional, _clip(expected), _clip(actual),
                           detail[:_CLIP_DETAIL])

    if check.needs_connection and not ctx.connected:
        return result(CheckVerdict.SKIP, actual="the bot never connected (see the hello check)")
    try:
        finding = await check.run(ctx)
    except CannotPlayError as exc:
        return result(CheckVerdict.FAIL, check.summary, str(exc))
    return result(finding.verdict, finding.expected, finding.actual, finding.detail)


def _clip(text: str) -> str:
    return text if len(text) <= _CLIP else text[: _CLIP - 1] + "…"
