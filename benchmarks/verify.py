"""Verification speed: stored games checked per second by ``standings --verify``
and the start of ``tournament resume`` (``arena.replay.audit.verify_store``).

    python benchmarks/verify.py [--games 3000] [--runs 3] [--full-replays 100] [--variant all]

Builds, once per variant, a results database the way a tournament writes it
(the schedule's keys, deal seeds from the tournament secret, the engine's
result of each game), with games of uniformly random legal actions (the mazo
only when it is the sole one), then times ``verify_store`` on it: opening the
file read-only, reading every row, checking it against the schedule and
replaying it. Printed: median games/s over the runs (min..max) and actions
per game. For scale, the same rows through the full ``replay_row`` (what
``replay`` and the report build: every seat's view at every step), on the
first ``--full-replays`` games. Rows: uruguayo 1v1 to 30, argentino 2v2 to 30.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from arena.engine import Game, Kind
from arena.engine import events as ev
from arena.games.seeds import SECRET_META, TournamentSecret
from arena.games.store import GameRow, ResultsStore
from arena.replay import options_of, replay_row
from arena.replay.audit import verify_store
from arena.tournament.config import parse_config
from arena.tournament.runner import schedule_of

VARIANTS: tuple[tuple[str, str, dict[str, Any]], ...] = (("uruguayo 1v1 to 30", "uruguayo", {}), ("argentino 2v2 to 30", "argentino", {"seats": 4}))


def raw_config(variant: str, options: dict[str, Any], games: int) -> dict[str, Any]:
    bots = 4
    per_pairing = max(2, -(-games // (bots * (bots - 1) // 2)) // 2 * 2)
    return {"name": "bench", "variant": variant, "options": {"target": 30, **options}, "seed": 1,
            "games_per_pairing": per_pairing,
            "bots": [{"name": f"b{i}", "command": "python -m sample_bots.random_bot"} for i in range(bots)]}


def build(path: Path, raw: dict[str, Any], games: int) -> int:
    """Write ``games`` random games of ``raw``'s schedule into ``path``; the actions written."""
    config = parse_config(raw)
    secret = TournamentSecret.from_seed(1)
    engine = Game(config.options)
    rng = random.Random(0)
    actions_written = 0
    with ResultsStore.create_or_open(path) as store:
        store.set_meta("config", raw)
        store.set_meta(SECRET_META, secret.hex)
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
            rows.append(GameRow(
                game_key=game.key, seq=seq, pairing=game.pairing, pair_index=game.pair_index, bot0=game.bot0,
                bot1=game.bot1, mano=0, seed=seed, score0=out.scores[0], score1=out.scores[1],
                winner=(game.bot0, game.bot1)[out.winner], winner_seat=out.winner, termination=out.termination,
                faulty_bot=None, hands=len({e.hand for e in state.events if isinstance(e, ev.HandStarted)}), duration=0.0, actions=tuple(actions),
                reason=f"team {out.winner} reached 30", finished_at=1.0))
            actions_written += len(actions)
        store.record_together(tuple(rows))
    return actions_written


def time_verify(path: Path) -> tuple[int, float]:
    with ResultsStore.open_existing(path) as store:
        started = time.perf_counter()
        verified = verify_store(store)
        return verified.games, time.perf_counter() - started


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
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--full-replays", type=int, default=100)
    parser.add_argument("--variant", choices=("all", *(v for _, v, _ in VARIANTS)), default="all")
    args = parser.parse_args()
    print(f"{'variant':<22} {'games':>6} {'actions/game':>13} {'verify games/s (min..max)':>28} "
          f"{'full replay games/s':>20}")
    with tempfile.TemporaryDirectory(prefix="truco-verify-bench-") as tmp:
        for label, variant, options in VARIANTS:
            if args.variant not in ("all", variant):
                continue
            path = Path(tmp) / f"{variant}.sqlite"
            actions = build(path, raw_config(variant, options, args.games), args.games)
            rates: list[float] = []
            games = 0
            for _ in range(args.runs):
                games, seconds = time_verify(path)
                rates.append(games / seconds)
            full = time_full_replays(path, args.full_replays)
            spread = f"{statistics.median(rates):,.0f} ({min(rates):,.0f}..{max(rates):,.0f})"
            print(f"{label:<22} {games:>6} {actions / games:>13.1f} {spread:>28} {full:>20,.0f}")


if __name__ == "__main__":
    main()
