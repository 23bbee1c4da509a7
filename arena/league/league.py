"""The league loop: keep scheduling games among the connected bots until the
arena stops. Each round (every ``tick`` seconds, and whenever a match ends) asks the matchmaker which
pairs to start, given the streams the league is not using yet; each match
runs as its own task and is recorded when it ends."""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import sys
import time
from collections import Counter
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from pathlib import Path

from .. import interrupt
from ..games.game_record import GameRecord
from ..games.playing import ArenaHook, PlaySettings
from ..games.private_files import RunLock
from ..games.schedule import Pairing, ScheduledGame
from ..games.settings import clear_text_warning
from ..games.store import ResultsStore, StoreError
from ..ratings.bradley_terry import fit_wins
from ..ratings.rating_fit import anchored
from ..server import Arena, PlayedGame, TokenStore
from .config import LeagueConfig
from .database import LeagueDatabase
from .keys import MatchGame, match_games
from .matchmaker import Entrant, Pair, pair_of, pick
from .pairs import MatchResult, play_match
from .status import BotLine, GameLine, LeagueStatus

log = logging.getLogger("arena.league")
UNRATED = 1500.0
STATUS_PERIOD = 1.0  # seconds between two status records
PACE_WEIGHT = 0.3  # of the latest game in a bot's pace
OWNERS_META = "league_owners"  # {bot: owner} of every bot seen connected, for the standings


def _stored_owners(value: object) -> dict[str, str]:
    if not isinstance(value, dict):
        return {}
    return {str(k): str(v) for k, v in value.items()}


def ratings_of(wins: Counter[tuple[str, str]]) -> dict[str, float]:
    """Elo of every bot with a decided game: the standings' joint fit, from
    the games each bot won against each other (``wins[winner, loser]``)."""
    if not wins:
        return {}
    names = sorted({bot for pair in wins for bot in pair})
    matrix = [[wins[a, b] for b in names] for a in names]
    fit = anchored(fit_wins(names, matrix))
    return {bot: fit.rating(bot) for bot in fit.bots}


def _wins(records: Iterable[GameRecord]) -> Counter[tuple[str, str]]:
    """Decided games by (winner, loser): all a fit needs, bots squared in size however many games."""
    return Counter((r.winner, r.loser) for r in records if r.winner is not None and r.loser is not None)


@dataclass
class _Running:
    pair: Pair
    game: ScheduledGame | None
    """The game being played now (None before the first starts)"""
    since: float
    """Unix time the current game started."""


class League:
    def __init__(self, arena: Arena, db: LeagueDatabase, config: LeagueConfig, *, tick: float = 0.1) -> None:
        self.arena, self.db, self.config, self.tick = arena, db, config, tick
        self.games_per_match = 2 if config.pairing is Pairing.DUPLICATE else 1
        # A league bot may seat a team's partners from one process (many streams of one connection).
        self.settings = PlaySettings(config.options, config.time_control, distinct_peers=False)
        # A game with a person: every seat on the person's clock, so neither side is hurried by the other's.
        self.person_settings = PlaySettings(config.options, config.person_time_control, distinct_peers=False)
        # What the league keeps of its games is the size of its bots, not of its
        # history (a league runs for months): games per pair, and wins per pair for the fits.
        results = db.results()
        self.played: Counter[Pair] = Counter(pair_of(r.bot0, r.bot1) for r in results)  # games per pair
        self.wins = _wins(results)  # (winner, loser) -> decided games
        del results
        self.ratings = ratings_of(self.wins)
        self.since_fit = 0
        self.owners = _stored_owners(db.store.get_meta(OWNERS_META))  # bot -> owner, as recorded
        self.paces: dict[str, float] = {}  # seconds per move, a moving average over each bot's games
        self.in_use: Counter[str] = Counter()  # streams each bot has in league games
        # Monotonic time each bot was last seen connected: within
        # ``attendance_seconds`` of it, an absent bot is still paired.
        self.last_seen: dict[str, float] = {}
        self.running: dict[int, _Running] = {}  # by match number
        self.tasks: set[asyncio.Task[None]] = set()
        self.recorded = 0  # games recorded by this run
        self._last_status = 0.0
        self._match_ended = asyncio.Event()  # wakes the loop: freed streams can start a game at once
        self.failure: StoreError | None = None  # the database failed a write: the league stops

    async def run(self) -> int:
        """Schedule until the arena closes; return the games this run recorded.
        StoreError, after every running match has ended, if the database
        failed a write or is no longer the file at its path: nothing more
        can be recorded, so the league stops at the first such write."""
        try:
            while not self.arena.closing and self.failure is None:
                self._guarded(self._schedule)
                self._guarded(self._maybe_write_status)
                self._match_ended.clear()
                try:  # bots connecting are seen within a tick; a game ending, at once
                    await asyncio.wait_for(self._match_ended.wait(), self.tick)
                except TimeoutError:
                    pass
        finally:
            if self.failure is not None:
                await self.arena.stop(grace=0)  # running games end now; none of them can be kept
            # The arena is stopping: running games end as interrupted and are recorded so.
            if self.tasks:
                await asyncio.gather(*self.tasks, return_exceptions=True)
            if self.failure is None:
                self._guarded(lambda: self._write_status(stopped=True))
        if self.failure is not None:
            raise self.failure
        return self.recorded

    def _guarded(self, write: Callable[[], None]) -> None:
        """Run ``write``; a database failure is kept (the first one) and stops the league."""
        if self.failure is not None:
            return
        try:
            write()
        except StoreError as exc:
            self._failed(exc)
        except sqlite3.Error as exc:  # a read of a file gone bad
            self._failed(StoreError(f"{self.db.store.path}: cannot read: {exc}"))

    def _failed(self, exc: StoreError) -> None:
        if self.failure is None:
            self.failure = exc
            log.info("the league stops: %s", exc)
            self._match_ended.set()

    # -------------------------------------------------------------- scheduling

    def _schedule(self) -> None:
        capacity = self.config.concurrency - len(self.running)  # a match plays one game at a time
        if capacity <= 0:
            return
        waits = self._waits()
        connected = {name: status for name, status in self.arena.bots().items() if status.streams > 0}
        entrants = [
            Entrant(name, status.streams - self.in_use[name], self.ratings.get(name, UNRATED),
                    self._pace(name), waits.get(name, 0.0), self.arena.tokens.owner_of(name))
            for name, status in connected.items()
        ] + self._absentees(connected)
        counts = Counter(self.played)
        for match in self.running.values():
            counts[match.pair] += self.games_per_match
        chosen = pick(entrants, counts, streams_per_game=self.config.streams_per_game,
                      capacity=capacity, max_gap=self.config.matchmaking.max_gap)
        for pair in chosen.start:
            self._start(pair, counts[pair])
            counts[pair] += self.games_per_match

    def _absentees(self, connected: Collection[str]) -> list[Entrant]:
        """The bots away now that the league still counts as attending: seen
        connected within ``attendance_seconds``, their token still valid. Each
        is paired as if it had one game's streams free; the game waits
        ``forfeit_seconds`` for it and is its forfeit if it stays away. So a
        bot that leaves while an opponent it would rather not meet is there
        loses those games anyway: choosing when to play does not pay."""
        window = self.config.attendance_seconds
        if window <= 0:
            return []
        now = time.monotonic()
        for name in connected:
            self.last_seen[name] = now
        away = []
        for name, seen in list(self.last_seen.items()):
            if name in connected:
                continue
            if now - seen > window or not self.arena.tokens.verifiers(name)[0]:
                del self.last_seen[name]  # gone for good (or its token revoked): no longer charged
                continue
            away.append(Entrant(name, self.config.streams_per_game - self.in_use[name],
                                self.ratings.get(name, UNRATED), self._pace(name), 0.0,
                                self.arena.tokens.owner_of(name), present=False))
        return away

    def _pace(self, name: str) -> float:
        """Seconds per move ``name`` took lately; a bot not seen playing yet
        counts as slow as the clock allows, so nobody waits for it."""
        return self.paces.get(name, self.config.time_control.move_time)

    def _waits(self) -> dict[str, float]:
        """Per busy bot, the pace of its soonest-ending running game: the
        slower of that game's two bots."""
        waits: dict[str, float] = {}
        for match in self.running.values():
            pace = max(self._pace(match.pair[0]), self._pace(match.pair[1]))
            for name in match.pair:
                waits[name] = min(waits.get(name, pace), pace)
        return waits

    def _learn_paces(self, rec: PlayedGame) -> None:
        """Fold each bot's mean seconds per move in ``rec`` into its pace."""
        spent: dict[str, list[float]] = {}
        for action, took in zip(rec.actions, rec.move_times, strict=False):
            seat = int(action.split(" ", 1)[0])
            spent.setdefault(rec.bots[seat], []).append(took)
        for name, times in spent.items():
            mean = sum(times) / len(times)
            old = self.paces.get(name)
            self.paces[name] = mean if old is None else old + PACE_WEIGHT * (mean - old)

    def _start(self, pair: Pair, games_so_far: int) -> None:
        number = self.db.take_match_number()
        games = match_games(number, pair, self.config.pairing is Pairing.DUPLICATE,
                            swap_first=games_so_far % 2 == 1)
        for name in pair:
            self.in_use[name] += self.config.streams_per_game
        self.running[number] = _Running(pair, None, time.time())
        task = asyncio.get_running_loop().create_task(self._play(number, games), name=f"league-match-{number}")
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _play(self, number: int, games: tuple[MatchGame, ...]) -> None:
        running = self.running[number]

        def started(game: ScheduledGame) -> None:
            running.game, running.since = game, time.time()
            log.info("game start %s: %s vs %s", game.key, game.bot0, game.bot1)

        try:
            settings = self.person_settings if self.config.persons.intersection(running.pair) else self.settings
            result = await play_match(self.arena, games, self.db.secret, settings,
                                      self.config.forfeit_seconds, started, self._learn_paces)
            self._guarded(lambda: self._record(result))
        except Exception:  # a bug must not stop the league; the match is lost, not half-recorded
            log.exception("match %d failed", number)
        finally:
            del self.running[number]
            for name in running.pair:
                self.in_use[name] -= self.config.streams_per_game
            self._match_ended.set()

    def _record(self, result: MatchResult) -> None:
        if result.interrupted:
            self.db.record_interrupted(result.interrupted, result.reason)
            for key in result.interrupted:
                log.info("game end %s: interrupted (%s)", key, result.reason)
        if not result.rows:
            return
        self.wins.update(_wins(self.db.record(result.rows)))
        for row in result.rows:
            log.info("game end %s: %s vs %s, winner %s (%s) %d-%d", row.game_key, row.bot0, row.bot1,
                     row.winner, row.termination, row.score0, row.score1)
            self.played[pair_of(row.bot0, row.bot1)] += 1
        self.recorded += len(result.rows)
        self.since_fit += len(result.rows)
        if self.since_fit >= self.config.matchmaking.refit_every:
            self.since_fit = 0
            self.ratings = ratings_of(self.wins)

    # ------------------------------------------------------------------ status

    def _maybe_write_status(self) -> None:
        now = time.monotonic()
        if now - self._last_status >= STATUS_PERIOD:
            self._last_status = now
            self._write_status(stopped=False)

    def _write_status(self, stopped: bool) -> None:
        bots = () if stopped else tuple(
            BotLine(name, s.version, s.streams, self.in_use[name]) for name, s in self.arena.bots().items()
        )
        games = () if stopped else tuple(
            GameLine(r.game.key, r.game.bot0, r.game.bot1, r.since)
            for r in self.running.values() if r.game is not None
        )
        status = LeagueStatus(time.time(), os.getpid(), stopped, bots, games)
        self.db.write_status(status.to_json())
        self._record_owners()

    def _record_owners(self) -> None:
        """Keep each connected bot's owner in ``meta.league_owners`` for the
        standings (only when one changed: most status records change nothing)."""
        owners = dict(self.owners)
        for name in self.arena.bots():
            owners[name] = self.arena.tokens.owner_of(name)
        if owners != self.owners:
            self.owners = owners
            self.db.store.set_meta(OWNERS_META, owners)


def _announce(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


async def serve_league(
    address: str,
    tokens_path: Path,
    db_path: Path,
    config: LeagueConfig,
    *,
    tls_cert: Path | None = None,
    tls_key: Path | None = None,
    on_arena: ArenaHook | None = None,
) -> int:
    """Run a league until SIGINT/SIGTERM: bind the address, open (or
    continue) the league's database, and schedule games among whoever
    connects; return the games this run recorded. The address is bound
    before the database is touched, so a wrong address or TLS file leaves
    no file behind. ``on_arena`` is called once the arena is up (the CLI starts the live
    page there), and what it returns once the league has stopped.
    Raises ListenError if the address or TLS files cannot be used,
    then RunLockError, StoreError, LeagueDatabaseError for the database."""
    # The handlers go in before anything is announced: a SIGTERM sent as soon
    # as the "listening" line appears must stop the league cleanly, not kill it.
    # A second signal ends the process at once (``arena.interrupt``).
    stop = asyncio.Event()
    with interrupt.clean_stop(asyncio.get_running_loop(), lambda signum: stop.set()):
        return await _serve(address, tokens_path, db_path, config, stop, tls_cert, tls_key, on_arena)


async def _serve(address: str, tokens_path: Path, db_path: Path, config: LeagueConfig, stop: asyncio.Event,
                 tls_cert: Path | None, tls_key: Path | None, on_arena: ArenaHook | None) -> int:
    arena = Arena(TokenStore(tokens_path))
    port = await arena.start(address, tls_cert=tls_cert, tls_key=tls_key)
    try:
        with RunLock(db_path), ResultsStore.create_or_open(db_path) as store:
            for notice in store.notices:  # a migration: the secret moved out to the key file
                _announce(notice)
            db = LeagueDatabase(store, config)
            host = address.rsplit(":", 1)[0]
            _announce(f"arena listening on {host}:{port}{' (TLS)' if tls_cert is not None else ''}")
            if (warning := clear_text_warning(address, tls_cert is not None)) is not None:
                _announce(f"warning: {warning}")
            _announce(f"league {config.name}: {store.count()} game(s) recorded so far in {db_path}")
            stop_hook = await on_arena(arena) if on_arena is not None else None
            try:
                return await _until_signal(arena, League(arena, db, config), stop)
            finally:
                if stop_hook is not None:
                    await stop_hook()
    finally:
        await arena.stop(grace=0, restarting=True)


async def _until_signal(arena: Arena, league: League, stop: asyncio.Event) -> int:
    job = asyncio.ensure_future(league.run())
    stopper = asyncio.ensure_future(stop.wait())
    await asyncio.wait({job, stopper}, return_when=asyncio.FIRST_COMPLETED)
    stopper.cancel()
    # Stop the arena first: running games end as interrupted and the league records them so.
    # A league is expected back: its bots keep trying to reconnect.
    await arena.stop(grace=0, restarting=True)
    return await job
