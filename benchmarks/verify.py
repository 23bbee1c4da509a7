"""Verification speed: stored games checked per second by ``standings --verify``
and the start of ``tournament resume`` (``arena.replay.audit.verify_store``),
and what signing costs: verification and writing side by side with the
unauthenticated path, in one run.

    python benchmarks/verify.py [--games 3000] [--runs 5] [--full-replays 100] [--variant all] [--writes 200]

Builds, once per variant, a results database the way a tournament writes it
(the schedule's keys, deal seeds from the tournament secret, the engine's
result of each game), with games of uniformly random legal actions (the mazo
only when it is the sole one), then times ``verify_store`` on it: opening the
file read-only, reading every row, checking it against the schedule and
replaying it. Printed: median games/s over the runs (min..max; CPU time of
this process, so that other load on a shared machine does not count) and
actions per game. For scale, the same rows through the full ``replay_row`` (what
``replay`` and the report build: every seat's view at every step), on the
first ``--full-replays`` games. Rows: uruguayo 1v1 to 30, argentino 2v2 to 30.

Beside it, "unsigned": the check as it was before rows were signed (read
every row, hold it against the schedule and the deal, replay it; no MAC, no
chain, no head), on the same file in the same run.

Write cost: ``--writes`` games each written in its own transaction (as a
tournament on one process records them: one commit, one disk sync, per
game) through ``ResultsStore.record`` (canonical encoding, HMAC, chain head)
and through the unsigned INSERT of the same columns with the same durability
(WAL, synchronous=FULL), alternately game by game; median ms per game of
each and of the paired difference, and the signing arithmetic alone (no
disk).
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from arena.engine import Game, Kind
from arena.engine import events as ev
from arena.games.chain import SIGNED_COLUMNS, canonical, row_mac
from arena.games.game_record import GameRecord
from arena.games.seeds import TournamentSecret
from arena.games.store import ResultsStore, _FileGuard
from arena.replay import options_of, replay_row
from arena.replay.audit import _tournament_expectation, verify_store
from arena.replay.verify import row_problem
from arena.tournament.config import parse_config
from arena.tournament.runner import schedule_of

VARIANTS: tuple[tuple[str, str, dict[str, Any]], ...] = (("uruguayo 1v1 to 30", "uruguayo", {}), ("argentino 2v2 to 30", "argentino", {"seats": 4}))


def raw_config(variant: str, options: dict[str, Any], games: int) -> dict[str, Any]:
    bots = 4
    per_pairing = max(2, -(-games // (bots * (bots - 1) // 2)) // 2 * 2)
    return {"name": "bench", "variant": variant, "options": {"target": 30, **options}, "seed": 1,
            "games_per_pairing": per_pairing,
            "bots": [{"name": f"b{i}", "command": "python -m sample_bots.random_bot"} for i in range(bots)]}


def random_rows(raw: dict[str, Any], games: int) -> list[GameRecord]:
    """``games`` random games of ``raw``'s schedule, as rows."""
    config = parse_config(raw)
    secret = TournamentSecret.from_seed(1)
    engine = Game(config.options)
    rng = random.Random(0)
    rows = []
    for seq, game in enumerate(schedule_of(config)[:games]):
        seed = secret.deal_seed(game.deal)
        state = engine.new_state(seed=seed)
        actions = []
        while (seat := state.current_player()) is not None:
            legal = state.legal_actions()
            choices = [a for a in legal if a.kind is not Kind.MAZO] or list(legal)
            action = rng.choice(choices)
            state.apply(action)
            actions.append(f"{seat} {action.text}")
        out = state.outcome()
        assert out is not None and out.winner is not None
        rows.append(GameRecord(
            game_key=game.key, seq=seq, matchup=game.matchup, pair_index=game.pair_index, bot0=game.bot0,
            bot1=game.bot1, seed=seed, score0=out.scores[0], score1=out.scores[1],
            winner=(game.bot0, game.bot1)[out.winner], winner_seat=out.winner, termination=out.termination,
            faulty_bot=None, hands=len({e.hand for e in state.events if isinstance(e, ev.HandStarted)}), duration=0.0, actions=tuple(actions),
            reason=f"team {out.winner} reached 30", finished_at=1.0))
    return rows


def build(path: Path, raw: dict[str, Any], rows: list[GameRecord]) -> int:
    """Write ``rows`` into ``path`` as a tournament of ``raw`` would; the actions written."""
    with ResultsStore.create_or_open(path) as store:
        store.set_meta("config", raw)
        store.set_secret(TournamentSecret.from_seed(1))
        store.record_together(tuple(rows))
    return sum(len(r.actions) for r in rows)


def time_verify(path: Path) -> tuple[int, float]:
    """Games checked and CPU seconds (this process's: other load on the machine does not count)."""
    with ResultsStore.open_existing(path) as store:
        started = time.process_time()
        verified = verify_store(store)
        assert verified.proven, verified.findings[:1]
        return verified.games, time.process_time() - started


def time_verify_unsigned(path: Path) -> tuple[int, float]:
    """The check before rows were signed: schedule, deal and replay of every row."""
    with ResultsStore.open_existing(path) as store:
        started = time.process_time()
        raw = store.get_meta("config")
        game = Game(options_of(raw))
        expect = _tournament_expectation(store, raw, store.secret())
        checked = 0
        for row in store.games():
            assert expect(row) is None and row_problem(row, game) is None
            checked += 1
        return checked, time.process_time() - started


def time_writes(directory: Path, raw: dict[str, Any], rows: list[GameRecord]) -> tuple[float, float, float]:
    """Medians, in seconds per game written one transaction each: signed
    (``record``), unsigned (the INSERT of the same columns, same durability),
    and the paired difference. The two are written alternately, game by game,
    so a disk or a machine busier for a moment is busier for both."""
    signed_path, unsigned_path = directory / "signed.sqlite", directory / "unsigned.sqlite"
    for path in (signed_path, unsigned_path):
        for leftover in (path, path.with_name(path.name + ".key")):
            leftover.unlink(missing_ok=True)
    ResultsStore.create_or_open(unsigned_path).close()
    columns = [c for c in SIGNED_COLUMNS if c not in ("evidence", "row_version")]
    insert = f"INSERT INTO games ({', '.join(columns)}) VALUES ({', '.join('?' for _ in columns)})"
    db = sqlite3.connect(unsigned_path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    guard = _FileGuard(unsigned_path)  # the check after every write, which the unsigned store made too
    signed: list[float] = []
    unsigned: list[float] = []
    with ResultsStore.create_or_open(signed_path) as store:
        store.set_meta("config", raw)
        for row in rows:
            started = time.perf_counter()
            store.record(row)
            middle = time.perf_counter()
            db.execute("BEGIN IMMEDIATE")
            db.execute(insert, [_value(row, c) for c in columns])
            db.execute("COMMIT")
            assert guard.trouble() is None
            signed.append(middle - started)
            unsigned.append(time.perf_counter() - middle)
    db.close()
    guard.close()
    return (statistics.median(signed), statistics.median(unsigned),
            statistics.median(a - b for a, b in zip(signed, unsigned)))


def _value(row: GameRecord, column: str) -> Any:
    value: Any = 0 if column == "mano" else getattr(row, column)
    if column == "actions":
        return json.dumps(list(value))
    return value.value if column == "termination" else value


def time_signing(rows: list[GameRecord]) -> float:
    """Seconds per row of the signing arithmetic alone: canonical encoding and HMAC."""
    key, last = bytes(32), ""
    values = [[_value(r, c) if c not in ("evidence", "row_version") else None for c in SIGNED_COLUMNS] for r in rows]
    started = time.perf_counter()
    for v in values:
        last = row_mac(key, canonical(v), last)
    return (time.perf_counter() - started) / len(rows)


def time_full_replays(path: Path, limit: int) -> float:
    with ResultsStore.open_existing(path) as store:
        options = options_of(store.get_meta("config"))
        rows = list(store.games())[:limit]
    started = time.perf_counter()
    for row in rows:
        replay_row(row, options)
    return len(rows) / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--full-replays", type=int, default=100)
    parser.add_argument("--variant", choices=("all", *(v for _, v, _ in VARIANTS)), default="all")
    parser.add_argument("--writes", type=int, default=200, help="games written one at a time for the write cost")
    args = parser.parse_args()
    print(f"{'variant':<22} {'games':>6} {'actions/game':>13} {'verify games/s (min..max)':>28} "
          f"{'unsigned games/s (min..max)':>28} {'slower':>7} {'full replay games/s':>20}")
    writes: list[str] = []
    with tempfile.TemporaryDirectory(prefix="truco-verify-bench-") as tmp:
        for label, variant, options in VARIANTS:
            if args.variant not in ("all", variant):
                continue
            path = Path(tmp) / f"{variant}.sqlite"
            raw = raw_config(variant, options, args.games)
            rows = random_rows(raw, args.games)
            actions = build(path, raw, rows)
            rates: list[float] = []
            plain: list[float] = []
            games = 0
            for _ in range(args.runs):  # alternated, so a machine busier in one half is busier for both
                games, seconds = time_verify(path)
                rates.append(games / seconds)
                checked, seconds = time_verify_unsigned(path)
                plain.append(checked / seconds)
            full = time_full_replays(path, args.full_replays)
            spread = f"{statistics.median(rates):,.0f} ({min(rates):,.0f}..{max(rates):,.0f})"
            spread_plain = f"{statistics.median(plain):,.0f} ({min(plain):,.0f}..{max(plain):,.0f})"
            slower = statistics.median(plain) / statistics.median(rates) - 1
            print(f"{label:<22} {games:>6} {actions / games:>13.1f} {spread:>28} {spread_plain:>28} "
                  f"{slower:>+7.1%} {full:>20,.0f}")
            signed, unsigned, more = time_writes(Path(tmp), raw, rows[:args.writes])
            arithmetic = time_signing(rows[:args.writes]) * 1000
            writes.append(f"{label:<22} {min(args.writes, len(rows)):>6} {signed * 1000:>12.3f} "
                          f"{unsigned * 1000:>14.3f} {more * 1000:>+10.3f} {arithmetic:>12.4f}")
    print()
    print(f"{'writes, one per commit':<22} {'games':>6} {'signed ms':>12} {'unsigned ms':>14} {'+ms paired':>10} "
          f"{'MAC ms/row':>12}")
    for line in writes:
        print(line)


if __name__ == "__main__":
    main()
