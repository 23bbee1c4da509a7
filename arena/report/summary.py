"""What the report's front page shows, computed from the stored games: pure,
no I/O, no HTML."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..games.game_record import GameRecord, checked
from ..ratings import CrossTable, FailureCounts, StandingsRow, cross_table, failure_counts, fit_ratings
from ..ratings import standings as standings_of
from ..ratings.failures import FailedGame, failed_games

# The Elo history refits the ratings after every game up to this many games;
# past it, at this many evenly spaced points (each refit is a full fit).
HISTORY_POINTS = 60


@dataclass(frozen=True)
class GameLink:
    row: GameRecord
    page: str | None
    """The game's viewer, relative to the front page; None: a game the report leaves out."""


@dataclass(frozen=True)
class RatingHistory:
    games: tuple[int, ...]
    """Decided games counted at each point."""
    elo: tuple[tuple[str, tuple[float | None, ...]], ...]
    """Per bot, its Elo at each point (None: not yet rated)"""


@dataclass(frozen=True)
class Summary:
    title: str
    variant: str
    games: tuple[GameLink, ...]
    standings: tuple[StandingsRow, ...]
    cross: CrossTable
    history: RatingHistory
    failures: tuple[FailureCounts, ...]
    failed: tuple[FailedGame, ...]

    def page_of(self, game_id: str | None) -> str | None:
        """The viewer page of a game, None for an id not in the report."""
        return next((g.page for g in self.games if g.row.game_id == game_id), None)


def game_stem(row: GameRecord) -> str:
    """A file name (without its suffix) for the game: the schedule position
    keeps it unique, the key (made file-safe) keeps it readable."""
    return f"{row.seq:05d}-{re.sub(r'[^A-Za-z0-9_.-]+', '_', row.game_key)}"


def page_name(row: GameRecord) -> str:
    """The game's own viewer page, as the live page serves it."""
    return f"games/{game_stem(row)}.html"


def viewer_link(row: GameRecord) -> str:
    """The static report's one viewer page, told which game to load."""
    return f"viewer.html#{game_stem(row)}"


def data_name(row: GameRecord) -> str:
    """The script holding the game's JSON export, which viewer.html loads on demand."""
    return f"games/{game_stem(row)}.js"


def summarize(rows: Sequence[GameRecord], title: str, variant: str,
              link: Callable[[GameRecord], str | None] = page_name) -> Summary:
    """What the front page shows; ``link(row)`` is where each game's viewer is
    (None: the game is listed without one)."""
    records = checked(rows)
    rated = [r for r in records if r.winner is not None]
    standings = standings_of(records) if rated else ()
    order = [s.bot for s in standings]
    return Summary(
        title=title,
        variant=variant,
        games=tuple(GameLink(row, link(row)) for row in rows),
        standings=standings,
        cross=cross_table(records, order=order or None),
        history=rating_history(rated),
        failures=tuple(f for f in failure_counts(records) if f.total or f.fallbacks),
        failed=failed_games(records),
    )


def rating_history(decided: Sequence[GameRecord]) -> RatingHistory:
    """Elo refitted on the first k decided games, for k along the tournament."""
    n = len(decided)
    if n == 0:
        return RatingHistory((), ())
    points = sorted({max(1, round(n * i / HISTORY_POINTS)) for i in range(1, HISTORY_POINTS + 1)}) \
        if n > HISTORY_POINTS else list(range(1, n + 1))
    bots = sorted({r.bot0 for r in decided} | {r.bot1 for r in decided})
    series: dict[str, list[float | None]] = {b: [] for b in bots}
    for k in points:
        fit = fit_ratings(decided[:k])
        for b in bots:
            series[b].append(fit.rating(b) if b in fit.bots else None)
    return RatingHistory(tuple(points), tuple((b, tuple(series[b])) for b in bots))
