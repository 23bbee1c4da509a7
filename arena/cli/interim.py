"""Interim standings every N recorded games, on stderr, as cutechess-cli's
``-ratinginterval`` does: a long tournament shows where it stands, not only
a progress bar. stdout keeps only the final result, for scripts."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable

from ..games.game_record import GameRecord, checked
from ..results.tables import render, views

# Games between two interim tables unless --standings-every says otherwise.
DEFAULT_EVERY = 100


class InterimStandings:
    """``on_record`` hook: counts the games recorded and, every ``every``
    of them, shows the standings over all games recorded so far."""

    def __init__(self, every: int, stored: Iterable[GameRecord], show: Callable[[str], None]) -> None:
        self.every = every
        self.rows = list(stored)  # resumed: the games of earlier runs count too
        self._show = show
        self._since = 0

    def start(self, stored: Iterable[GameRecord]) -> None:
        """The games the file held when the run started (``Hooks.on_start``)."""
        self.rows = list(stored)

    def __call__(self, row: GameRecord) -> None:
        self.rows.append(row)
        self._since += 1
        if self.every <= 0 or self._since < self.every:
            return
        self._since = 0
        records = checked(self.rows)
        if not any(r.winner for r in records):
            return
        table = render(views(records, ("standings",)), "simple")
        # A progress bar may be drawn in place on a terminal: start below it.
        lead = "\n" if sys.stderr.isatty() else ""
        self._show(f"{lead}standings after {len(self.rows)} games:\n{table}")
