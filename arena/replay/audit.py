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

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..engine import Game
from ..league.config import LEAGUE_KIND
from ..tournament.config import ConfigError, parse_config
from ..tournament.runner import SECRET_META, schedule_of
from ..tournament.schedule import ScheduledGame
from ..tournament.seeds import TournamentSecret
from ..tournament.store import GameRow, ResultsStore, StoreError
from .replay import ReplayError
from .stored import options_of
from .verify import TamperedError, check_row

_LEAGUE_KEY = re.compile(r"#m(\d+)[ab]?\Z")  # arena/league/keys.py: LABEL#mN, LABEL#mNa, LABEL#mNb


# Below this many games one process checks them all: a helper process costs
# about a second to start, more than it saves on a small file.
PARALLEL_FROM = 2000
MAX_PROCESSES = 8
# A helper process that has not answered by then is stopped (every wait has a deadline).
_SECONDS_PER_GAME_LIMIT = 0.05
_SECONDS_LIMIT = 120.0


@dataclass(frozen=True)
class Verified:
    games: int
    seconds: float

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")


@dataclass(frozen=True)
class ShareResult:
    """What one share of the rows (every ``shares``-th from ``share``) gave."""

    checked: int
    bad: tuple[int, str] | None  # the first refused row of the share: (its index in seq order, the message)


def verify_store(store: ResultsStore, *, processes: int | None = None) -> Verified:
    """Check every stored game of ``store``; ``TamperedError`` names the first
    that does not hold (in the order games are read, however many processes
    check them). A config or secret that cannot be read is a ``StoreError``
    (nothing can be checked against it). A file of ``PARALLEL_FROM`` games or
    more is checked by ``processes`` helper processes (default: one per
    usable core, at most ``MAX_PROCESSES``), each reading the file itself,
    read-only."""
    started = time.perf_counter()
    wanted = processes if processes is not None else min(MAX_PROCESSES, len(os.sched_getaffinity(0)))
    games = store.count()
    shares = max(1, wanted) if games >= PARALLEL_FROM else 1
    results = [check_share(store, 0, 1)] if shares == 1 else _check_in_processes(store, shares, games)
    bad = min((r.bad for r in results if r.bad is not None), default=None)
    if bad is not None:
        raise TamperedError(bad[1])
    return Verified(sum(r.checked for r in results), time.perf_counter() - started)


def check_share(store: ResultsStore, share: int, shares: int) -> ShareResult:
    """Check the rows whose index (in seq order) is ``share`` modulo ``shares``,
    up to the first that does not hold."""
    raw = store.get_meta("config")
    try:
        game = Game(options_of(raw))
    except ReplayError as exc:
        raise StoreError(f"{store.path}: {exc}") from None
    secret = _secret_of(store)
    expect = _league_expectation(secret) if isinstance(raw, dict) and raw.get("kind") == LEAGUE_KIND \
        else _tournament_expectation(store, raw, secret)
    checked = 0
    for index, row in enumerate(store.games()):
        if index % shares != share:
            continue  # read anyway (cheap next to a replay): the rows are split without a second query
        try:
            problem = expect(row)
            if problem is not None:
                raise TamperedError(f"game {row.game_key}: {problem}")
            check_row(row, game)
        except TamperedError as exc:
            return ShareResult(checked, (index, str(exc)))
        checked += 1
    return ShareResult(checked, None)


def _check_in_processes(store: ResultsStore, shares: int, games: int) -> list[ShareResult]:
    """Run ``python -m arena.replay.audit_share DB SHARE SHARES`` for each share
    and read the one JSON line each prints (no pickle: nothing it says can run code here)."""
    argv = [sys.executable, "-m", "arena.replay.audit_share", str(store.path), str(shares)]
    children = [subprocess.Popen([*argv[:-1], str(share), argv[-1]], stdin=subprocess.DEVNULL,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                for share in range(shares)]
    deadline = time.monotonic() + _SECONDS_LIMIT + _SECONDS_PER_GAME_LIMIT * games / shares
    try:
        return [_answer_of(child, deadline, store) for child in children]
    finally:
        for child in children:
            if child.poll() is None:
                child.kill()
            child.wait()


def _answer_of(child: subprocess.Popen[bytes], deadline: float, store: ResultsStore) -> ShareResult:
    try:
        out, err = child.communicate(timeout=max(0.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        raise StoreError(f"{store.path}: verifying took too long; stopped") from None
    answer = share_answer(out)
    if isinstance(answer, str):
        raise StoreError(f"{store.path}: {answer}")
    if answer is None:
        last = err.decode(errors="replace").strip().splitlines()[-1:] or ["no output"]
        raise StoreError(f"{store.path}: a verifying process failed (exit code {child.returncode}: {last[0]})")
    return answer


def share_answer(out: bytes) -> ShareResult | str | None:
    """The answer a helper printed: a result, an error message, or None if it is not an answer."""
    try:
        data = json.loads(out)
    except ValueError:
        return None
    if isinstance(data, dict) and isinstance(data.get("error"), str):
        return str(data["error"])
    if not isinstance(data, dict) or type(data.get("checked")) is not int:
        return None
    bad = data.get("bad")
    if bad is None:
        return ShareResult(data["checked"], None)
    if isinstance(bad, list) and len(bad) == 2 and type(bad[0]) is int and isinstance(bad[1], str):
        return ShareResult(data["checked"], (bad[0], bad[1]))
    return None


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
    scheduled = {g.key: (seq, g) for seq, g in enumerate(schedule_of(config))}

    def expect(row: GameRow) -> str | None:
        found = scheduled.get(row.game_key)
        if found is None:
            return "is not a game of this tournament's schedule"
        seq, game = found
        return _differs(row, seq, game, secret)

    return expect


def _differs(row: GameRow, seq: int, game: ScheduledGame, secret: TournamentSecret | None) -> str | None:
    stored = (row.seq, row.pairing, row.pair_index, row.bot0, row.bot1, row.mano)
    scheduled = (seq, game.pairing, game.pair_index, game.bot0, game.bot1, 0)
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


__all__ = ["ShareResult", "TamperedError", "Verified", "check_share", "share_answer", "verify_store"]
