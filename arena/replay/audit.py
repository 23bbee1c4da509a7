"""Check every game of a results database: each row must be signed with the
key file's signing key and chained to the one before it, be the game its
schedule put on that deal, and have the result its replay gives.

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

from ..engine import Game
from ..games.chain import BAD_MAC, BROKEN_CHAIN, ChainCheck
from ..games.game_record import GameRecord
from ..games.keyfile import KeyFileError, key_path, read_keys
from ..games.schedule import ScheduledGame
from ..games.seeds import TournamentSecret
from ..games.store import ResultsStore, StoreError
from ..tournament.config import TournamentConfig
from ..tournament.runner import schedule_of
from .replayer import ReplayError
from .stored import stored_config
from .verify import REPLAY, TamperedError, row_problem

_LEAGUE_KEY = re.compile(r"#m(\d+)[ab]?\Z")  # arena/league/keys.py: LABEL#mN, LABEL#mNa, LABEL#mNb


FOREIGN = "a row from another tournament"


@dataclass(frozen=True)
class Finding:
    """A stored row that does not hold: which, and every way it fails."""

    game_key: str
    problems: tuple[tuple[str, str], ...]
    """(kind, one line): kind one of ``BAD_MAC``, ``BROKEN_CHAIN``, ``FOREIGN``,
    ``verify.REPLAY``, ``verify.EVIDENCE_MISSING``, ``verify.EVIDENCE``."""

    def __str__(self) -> str:
        return f"game {self.game_key}: " + "; ".join(f"{kind}: {detail}" for kind, detail in self.problems)

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(kind for kind, _ in self.problems)


@dataclass(frozen=True)
class Verified:
    games: int
    seconds: float
    findings: tuple[Finding, ...] = ()
    """Every row that does not hold, in the order stored (empty: all hold)."""
    unsigned: str | None = None
    """Why the signatures were not checked (None: they were, every one)."""

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    @property
    def proven(self) -> bool:
        """Every row holds and every signature was checked."""
        return not self.findings and self.unsigned is None


def verify_store(store: ResultsStore) -> Verified:
    """Check every stored game of ``store`` in the order it was stored, with
    the key file beside it if there is one: each row's MAC and its link to
    the one before, the signed chain head, the schedule and deal, the replay
    and the evidence of every fault. Every row that does not hold is a
    ``Finding``. A config, secret or key file that cannot be read is a
    ``StoreError`` (nothing can be checked against it).

    Reads one snapshot: a league that keeps writing meanwhile is checked as
    it was when the check began.

    One process: split over two helper processes, a file of 3,000 or 10,000
    games was checked more slowly on a loaded 2-core machine, not faster
    (benchmarks/verify.py), and one process already replays hundreds of games
    a second."""
    started = time.perf_counter()
    with store.snapshot():
        try:
            config = stored_config(store.get_meta("config"), default_name=store.path.stem)
        except ReplayError as exc:
            raise StoreError(f"{store.path}: {exc}") from None
        game = Game(config.options)
        try:
            keys = read_keys(store.path)
        except KeyFileError as exc:
            raise StoreError(str(exc)) from None
        signing = keys.signing_key if keys is not None and store.version >= 7 else None
        checked = 0
        secret = store.secret()
        expect = _league_expectation(secret) if config.tournament is None \
            else _tournament_expectation(store, config.tournament, secret)
        findings: list[Finding] = []
        chain = ChainCheck(signing)
        for stored in store.chain():
            problems = chain.row(stored.game_key, stored.content, stored.prev_mac, stored.mac) \
                if store.version >= 7 else []
            if stored.row is None:
                problems.append((REPLAY, stored.problem or "it does not read as a game"))
            else:
                scheduled = expect(stored.row)
                if scheduled is not None:
                    problems.append(scheduled)
                elif (replayed := row_problem(stored.row, game)) is not None:
                    problems.append(replayed)
            if problems:
                findings.append(Finding(stored.game_key, tuple(problems)))
            checked += 1
        if store.version >= 7 and (end := chain.end(store.head(), store.config_text())) is not None:
            findings.append(Finding(end[0], (end[1],)))
    unsigned = None
    if store.version < 7:
        unsigned = (f"the file was written before rows were signed (schema version {store.version}); "
                    f"`truco-arena tournament resume` signs it")
    elif keys is None:
        unsigned = f"no key file {key_path(store.path)} here"
    return Verified(checked, time.perf_counter() - started, tuple(findings), unsigned)


def _tournament_expectation(store: ResultsStore, config: TournamentConfig,
                            secret: TournamentSecret | None) -> Callable[[GameRecord], tuple[str, str] | None]:
    scheduled = {g.key: (seq, g) for seq, g in enumerate(schedule_of(config, secret, store.winners()))}

    def expect(row: GameRecord) -> tuple[str, str] | None:
        found = scheduled.get(row.game_key)
        if found is None:
            return FOREIGN, "is not a game of this tournament's schedule"
        seq, game = found
        return _differs(row, seq, game, secret)

    return expect


def _differs(row: GameRecord, seq: int, game: ScheduledGame, secret: TournamentSecret | None
             ) -> tuple[str, str] | None:
    stored = (row.seq, row.matchup, row.pair_index, row.bot0, row.bot1)
    scheduled = (seq, game.matchup, game.pair_index, game.bot0, game.bot1)
    names = ("seq", "matchup", "pair_index", "bot0", "bot1")
    for name, have, want in zip(names, stored, scheduled, strict=True):
        if have != want:
            return REPLAY, f"stored {name} {have!r}, the schedule says {want!r}"
    if secret is not None and row.seed != secret.deal_seed(game.deal):
        return FOREIGN, "its seed is not the deal the tournament secret gives this game"
    return None


def _league_expectation(secret: TournamentSecret | None) -> Callable[[GameRecord], tuple[str, str] | None]:
    def expect(row: GameRecord) -> tuple[str, str] | None:
        match = _LEAGUE_KEY.search(row.game_key)
        if match is None:
            return FOREIGN, "is not a league game's key"
        if secret is not None and row.seed != secret.deal_seed(f"league#{int(match.group(1))}"):
            return FOREIGN, "its seed is not the deal the league secret gives this match"
        return None

    return expect


__all__ = ["BAD_MAC", "BROKEN_CHAIN", "FOREIGN", "Finding", "TamperedError", "Verified", "verify_store"]
