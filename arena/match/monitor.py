"""Where a match or gauntlet stands, for each opponent, while it runs.

The runner asks ``should_play`` before each game (an opponent whose SPRT
has decided gets no more games) and calls ``on_record`` after each stored
game (the live line is redrawn when a pair completes). Everything is a
function of the complete pairs in the store, so a resumed run starts from
exactly the state the killed one had reached.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from ..games.game_record import GameRecord
from ..games.playing import ArenaHook
from ..games.schedule import ScheduledGame
from ..games.store import ResultsStore
from ..ratings.sprt import PairCounts, SprtState, elo_text, format_sprt_header, format_sprt_line, sprt_status
from ..tournament.config import TournamentConfig
from ..tournament.formats.match_plan import MatchPlan
from ..tournament.runner import RunSummary, StopRequest, run_tournament
from ..tournament.scale import ScaleOut
from .live_line import LiveLine
from .tally import PairTally, opponent_of, tally_rows


class MatchVerdict(StrEnum):
    """Where a match against one opponent stands: still running, decided by the
    SPRT (``ratings.SprtVerdict``), or ended by its game count."""

    RUNNING = "running"
    H0_ACCEPTED = "H0 accepted"
    H1_ACCEPTED = "H1 accepted"
    CAP_REACHED = "no verdict: max_games reached"
    GAMES_PLAYED = "all games played"


@dataclass(frozen=True)
class OpponentStatus:
    challenger: str
    opponent: str
    counts: PairCounts
    sprt: SprtState | None
    """None: a fixed number of games."""
    verdict: MatchVerdict
    recorded: int = 0
    """Games stored between the two, in complete pairs or not."""

    @property
    def decided(self) -> bool:
        return self.verdict in (MatchVerdict.H0_ACCEPTED, MatchVerdict.H1_ACCEPTED)


def counts_line(counts: PairCounts) -> str:
    """The live line of a fixed-games match: the SPRT line's fields without the LLR."""
    elo = elo_text(counts.elo())
    nelo = "nElo n/a" if counts.nelo is None else f"nElo {counts.nelo:+.1f}"
    return (f"games {counts.games}  W-L {counts.wins}-{counts.losses}  pairs {counts.ww}/{counts.dd}/{counts.ll}"
            f"  {elo}  {nelo}")


def status_of(plan: MatchPlan, tally: PairTally, run_over: bool = False) -> OpponentStatus:
    """The status from ``tally``; ``run_over``: the run ended with nothing left
    to play (what ends a fixed-games match whose last pairs stayed incomplete)."""
    counts = tally.counts
    if plan.bounds is None:
        verdict = MatchVerdict.GAMES_PLAYED if counts.pairs >= plan.pairs or run_over else MatchVerdict.RUNNING
        return OpponentStatus(plan.challenger, tally.opponent, counts, None, verdict, tally.recorded)
    state = sprt_status(counts, plan.bounds)
    if state.finished:
        verdict = MatchVerdict(state.verdict.value)
    else:
        # A run that ends normally has recorded or skipped every game, and skips
        # only after a decision: undecided with pairs left means games running at
        # the decision took the LLR back between the bounds, and a resume goes on.
        verdict = MatchVerdict.CAP_REACHED if counts.pairs >= plan.pairs else MatchVerdict.RUNNING
    return OpponentStatus(plan.challenger, tally.opponent, counts, state, verdict, tally.recorded)


def status_line(status: OpponentStatus) -> str:
    body = counts_line(status.counts) if status.sprt is None else format_sprt_line(status.sprt)
    return f"{status.challenger} vs {status.opponent}: {body}"


def summary_line(status: OpponentStatus) -> str:
    """The final word on one opponent, e.g. ``a vs b: H1 accepted after 64 games (32 pairs)``,
    and how many stored games the verdict leaves out."""
    c = status.counts
    if status.verdict is MatchVerdict.CAP_REACHED:
        what = f"no verdict after {c.games} games in complete pairs (the max_games cap)"
    elif status.verdict is MatchVerdict.RUNNING:
        what = f"no verdict yet after {c.games} games in complete pairs (resume to go on)"
    elif status.verdict is MatchVerdict.GAMES_PLAYED:
        what = f"{c.games} games played ({c.pairs} complete pairs)"
    else:
        what = f"{status.verdict.value} after {c.games} games ({c.pairs} pairs)"
    if status.recorded > c.games:
        what += f"; {status.recorded - c.games} more recorded game(s) not counted (half of a pair)"
    return f"{status.challenger} vs {status.opponent}: {what}"


class MatchMonitor:
    def __init__(self, plan: MatchPlan, stored: Iterable[GameRecord], show: Callable[[str], None]) -> None:
        self.plan = plan
        self._show = show
        self._tallies = tally_rows(plan.challenger, plan.opponents, stored)

    def status(self, opponent: str, run_over: bool = False) -> OpponentStatus:
        return status_of(self.plan, self._tallies[opponent], run_over)

    def statuses(self, run_over: bool = False) -> list[OpponentStatus]:
        return [self.status(o, run_over) for o in self.plan.opponents]

    @property
    def all_decided(self) -> bool:
        return all(s.verdict is not MatchVerdict.RUNNING for s in self.statuses())

    def should_play(self, game: ScheduledGame) -> bool:
        opponent = game.bot1 if game.bot0 == self.plan.challenger else game.bot0
        return opponent in self._tallies and self.status(opponent).verdict is MatchVerdict.RUNNING

    def on_record(self, row: GameRecord) -> None:
        opponent = opponent_of(row, self.plan.challenger)
        if opponent is None or opponent not in self._tallies:
            return
        if self._tallies[opponent].add(row):
            self._show(status_line(self.status(opponent)))


async def run_match(
    config: TournamentConfig,
    store: ResultsStore,
    *,
    log_dir: Path,
    stop_request: StopRequest | None = None,
    say: Callable[[str], None] = lambda line: None,
    on_arena: ArenaHook | None = None,
    scale: ScaleOut | None = None,
) -> RunSummary:
    """Play ``config`` (which must have a match plan) until every opponent is
    decided: the tournament runner with the monitor's hooks, the live line on
    stderr, and the verdicts at the end; ``say`` gets the runner's notices
    and, at the end, one summary line per opponent; ``on_arena`` and
    ``scale`` as for ``run_tournament`` (the live page; workers or a Ray cluster).

    Used by ``truco-arena match`` and by ``truco-arena tournament run|resume``
    for a config with ``format = "match"`` or ``"gauntlet"``. A resumed run
    recomputes every SPRT from the complete pairs in the store and plays only
    while some opponent is undecided; with nothing left to decide it plays none."""
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
                                           should_play=monitor.should_play, on_record=monitor.on_record,
                                           on_arena=on_arena, scale=scale)
        finally:
            line.end()
    for status in MatchMonitor(plan, store.games(), line.show).statuses(run_over=True):
        say(summary_line(status))
    return summary
