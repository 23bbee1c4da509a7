"""The league's side of the results database: the same store and schema a
tournament uses, plus a few ``meta`` rows (the config marked as a league,
the match counter, the status record); the secret is in the key file beside it.

Restarting on the same file continues the same league: same secret, the
counter where it was, every recorded game kept.
"""

from __future__ import annotations

from typing import Any

from arena.errors import DomainError

from ..games.game_record import GameRecord, checked
from ..games.seeds import TournamentSecret
from ..games.store import ResultsStore
from .config import LeagueConfig, changed_rule, is_league

NEXT_MATCH_META = "league_next_match"
STATUS_META = "league_status"


class LeagueDatabaseError(DomainError, RuntimeError):
    """The file cannot hold this league; the message is one line."""


class LeagueDatabase:
    def __init__(self, store: ResultsStore, config: LeagueConfig) -> None:
        """Adopt ``store`` (opened read-write) for ``config``: a new file
        becomes this league's, a file of this league continues it."""
        self.store = store
        self.secret = self._adopt(config)

    def _adopt(self, config: LeagueConfig) -> TournamentSecret:
        store, wanted = self.store, config.to_meta()
        stored = store.get_meta("config")
        if stored is None:
            if store.count():
                raise LeagueDatabaseError(f"{store.path}: holds games but no config; use another file")
            secret = TournamentSecret.fresh()  # a league has no seed: nobody can predict its deals
            store.set_secret(secret)
            store.set_meta(NEXT_MATCH_META, 0)
            store.set_meta("config", wanted)
            return secret
        if not is_league(stored):
            raise LeagueDatabaseError(f"{store.path}: is a tournament's results database, not a league's")
        if (changed := changed_rule(stored, wanted)) is not None:
            key, was, now = changed
            raise LeagueDatabaseError(
                f"{key}: this league was started with {was!r}, the config says {now!r}; "
                f"its games would not be comparable (use another --db)")
        if bad := store.unproven():  # a league has no resume: its restart is where forged rows are refused
            raise LeagueDatabaseError(
                f"{store.path}: {len(bad)} stored row(s) are not what its key file signed, the first: {bad[0]}; "
                f"refusing to go on with it (`truco-arena standings {store.path} --verify` names them all)")
        store.set_meta("config", wanted)  # concurrency, clock and matchmaking may change between runs
        kept = store.secret()
        if kept is None:
            raise LeagueDatabaseError(f"{store.key_file}: holds no league secret; restore the key file of this league")
        return kept

    def take_match_number(self) -> int:
        """The next match number, committed before the match starts."""
        value = self.store.get_meta(NEXT_MATCH_META)
        number = value if isinstance(value, int) and value >= 0 else 0
        self.store.set_meta(NEXT_MATCH_META, number + 1)
        return number

    def results(self) -> list[GameRecord]:
        """The rating inputs of every recorded game, read once at start; the
        league then keeps them up to date itself (``record``), so a refit
        never re-reads the whole file."""
        return checked(self.store.games())

    def record(self, rows: tuple[GameRecord, ...]) -> list[GameRecord]:
        """Write ``rows`` together; return their rating inputs."""
        self.store.record_together(rows)
        return checked(rows)

    def record_interrupted(self, keys: tuple[str, ...], reason: str) -> None:
        for key in keys:
            self.store.record_interrupted(key, reason)

    def write_status(self, status: dict[str, Any]) -> None:
        self.store.set_meta(STATUS_META, status)
