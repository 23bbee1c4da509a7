"""Check every game of a results database: each row must be the game its
schedule put on that deal, and its result the one its replay gives.

Without this, a row edited in the file (a winner swapped, a score changed)
would be counted as if it had been played. ``verify.check_row`` replays the
row; here each row is also held against what the tournament itself says it
is: a key of its schedule, the two bots in the seats that schedule gave them
(swapping ``bot0`` and ``bot1`` with the winner would otherwise replay fine),
and the deal seed the tournament secret gives that game. A league has no
schedule: its rows are checked for the seed their match number gives.

Reads only (``ResultsStore.open_existing``, or a store the caller holds).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..engine import Game
from ..games.schedule import ScheduledGame
from ..games.seeds import SECRET_META, TournamentSecret
from ..games.settings import ConfigError
from ..games.store import GameRow, ResultsStore, StoreError
from ..league.config import LEAGUE_KIND
from ..tournament.config import parse_config
from ..tournament.runner import schedule_of
from .replay import ReplayError
from .stored import options_of
from .verify import TamperedError, check_row

_LEAGUE_KEY = re.compile(r"#m(\d+)[ab]?\Z")  # arena/league/keys.py: LABEL#mN, LABEL#mNa, LABEL#mNb


@dataclass(frozen=True)
class Verified:
    games: int
    seconds: float

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")


def verify_store(store: ResultsStore) -> Verified:
    """Check every stored game of ``store`` in the order they are read;
    ``TamperedError`` names the first that does not hold. A config or secret
    that cannot be read is a ``StoreError`` (nothing can be checked against it).

    One process: split over two helper processes, a file of 3,000 or 10,000
    games was checked more slowly on a loaded 2-core machine, not faster
    (benchmarks/verify.py), and one process already replays hundreds of games
    a second."""
    started = time.perf_counter()
    raw = store.get_meta("config")
    try:
        game = Game(options_of(raw))
    except ReplayError as exc:
        raise StoreError(f"{store.path}: {exc}") from None
    secret = _secret_of(store)
    expect = _league_expectation(secret) if isinstance(raw, dict) and raw.get("kind") == LEAGUE_KIND \
        else _tournament_expectation(store, raw, secret)
    checked = 0
    for row in store.games():
        problem = expect(row)
        if problem is not None:
            raise TamperedError(f"game {row.game_key}: {problem}")
        check_row(row, game)
        checked += 1
    return Verified(checked, time.perf_counter() - started)


def _secret_of(store: ResultsStore) -> TournamentSecret | None:
    """The stored secret; None for a file written before secrets were kept."""
    stored = store.get_meta(SECRET_META)
    if stored is None:
        return None
    try:
        return TournamentSecret.from_hex(stored if isinstance(stored, str) else "")
    except ValueError:
        raise StoreError(f"{store.path}: the stored tournament secret is damaged") from None


def _tournament_expectation(store: ResultsStore, raw: Any,
                            secret: TournamentSecret | None) -> Callable[[GameRow], str | None]:
    try:
        config = parse_config(raw, default_name=store.path.stem)
    except ConfigError as exc:
        raise StoreError(f"{store.path}: stored config is invalid: {exc}") from None
    scheduled = {g.key: (seq, g) for seq, g in enumerate(schedule_of(config, secret, store.winners()))}

    def expect(row: GameRow) -> str | None:
        found = scheduled.get(row.game_key)
        if found is None:
            return "is not a game of this tournament's schedule"
        seq, game = found
        return _differs(row, seq, game, secret)

    return expect


def _differs(row: GameRow, seq: int, game: ScheduledGame, secret: TournamentSecret | None) -> str | None:
    stored = (row.seq, row.matchup, row.pair_index, row.bot0, row.bot1, row.mano)
    scheduled = (seq, game.matchup, game.pair_index, game.bot0, game.bot1, 0)
    names = ("seq", "pairing", "pair_index", "bot0", "bot1", "mano")
    for name, have, want in zip(names, stored, scheduled, strict=True):
        if have != want:
            return f"stored {name} {have!r}, the schedule says {want!r}"
    if secret is not None and row.seed != secret.deal_seed(game.deal):
        return "its seed is not the deal the tournament secret gives this game"
    return None


def _league_expectation(secret: TournamentSecret | None) -> Callable[[GameRow], str | None]:
    def expect(row: GameRow) -> str | None:
        match = _LEAGUE_KEY.search(row.game_key)
        if match is None:
            return "is not a league game's key"
        if secret is not None and row.seed != secret.deal_seed(f"league#{int(match.group(1))}"):
            return "its seed is not the deal the league secret gives this match"
        return None

    return expect


__all__ = ["TamperedError", "Verified", "verify_store"]
