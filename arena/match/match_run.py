"""Run a match or gauntlet: the tournament runner with the monitor's hooks,
the live line on stderr, and the verdicts at the end.

Used by ``truco-arena match`` and by ``truco-arena tournament run|resume``
for a config with ``format = "match"`` or ``"gauntlet"``. A resumed run
recomputes every SPRT from the complete pairs in the store and plays only
while some opponent is undecided; with nothing left to decide it plays none.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ..games.store import ResultsStore
from ..ratings.sprt import format_sprt_header
from ..tournament.config import TournamentConfig
from ..tournament.runner import RunSummary, run_tournament
from ..tournament.stopping import StopRequest
from .live_line import LiveLine
from .monitor import MatchMonitor, status_line, summary_line


async def run_match(
    config: TournamentConfig,
    store: ResultsStore,
    *,
    log_dir: Path,
    stop_request: StopRequest | None = None,
    say: Callable[[str], None] = lambda line: None,
) -> RunSummary:
    """Play ``config`` (which must have a match plan) until every opponent is
    decided; ``say`` gets the runner's notices and, at the end, one summary
    line per opponent."""
    plan = config.match
    if plan is None:
        raise ValueError(f"{config.name}: not a match or gauntlet config")
    line = LiveLine()
    monitor = MatchMonitor(plan, store.games(), line.show)
    if plan.bounds is not None:
        line.print(format_sprt_header(plan.bounds) + f"  max_games {plan.games}")
    else:
        line.print(f"{plan.games} games per opponent in duplicate pairs")
    if store.count():  # resumed: where each SPRT stands, from the complete pairs stored
        for status in monitor.statuses():
            line.print(status_line(status))
    if monitor.all_decided:
        summary = RunSummary(0)
    else:
        try:
            summary = await run_tournament(config, store, log_dir=log_dir, progress=False,
                                           stop_request=stop_request, announce=say,
                                           should_play=monitor.should_play, on_record=monitor.on_record)
        finally:
            line.end()
    for status in MatchMonitor(plan, store.games(), line.show).statuses(run_over=True):
        say(summary_line(status))
    return summary
