"""Golden stored games: what a fixed-seed tournament, match and league write
to their results files, kept as JSON in tests/golden/stored/.

Each run goes through the CLI with real bot subprocesses over loopback and a
real SQLite file; the dump keeps what must not depend on how the games were
run (keys, seats, seeds, scores, terminations, every action), not timings.
A refactoring of the middle layers must leave these files unchanged. After
an intended change of what is stored, rewrite them with
``TRUCO_UPDATE_GOLDEN=1 python -m pytest tests/test_golden_stored_games.py``
and review the diff.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

sys.path.insert(0, str(Path(__file__).parent / "league"))
from league_harness import League, wait_until  # noqa: E402

from arena.cli import main
from arena.games.seeds import TournamentSecret
from arena.games.store import ResultsStore

pytestmark = pytest.mark.integration

STORED = Path(__file__).parent / "golden" / "stored"
RANDOM = "python -m sample_bots.random_bot"
HEURISTIC = "python -m sample_bots.heuristic"
# The league's deals come from its secret; a fixed one makes them repeatable.
LEAGUE_SECRET = "5e" * 32
LEAGUE_GAMES = 6


def dump(db: Path, keep: int | None = None) -> list[dict[str, object]]:
    with ResultsStore.open_existing(db) as store:
        rows = sorted(store.games(), key=lambda r: r.seq)
    out: list[dict[str, object]] = []
    for r in rows[:keep]:
        out.append({
            "key": r.game_key, "seq": r.seq, "pairing": r.matchup, "pair_index": r.pair_index,
            "bot0": r.bot0, "bot1": r.bot1, "seed": r.seed, "score": [r.score0, r.score1],
            "winner": r.winner, "winner_seat": r.winner_seat, "termination": str(r.termination),
            "faulty_bot": r.faulty_bot, "hands": r.hands,
            "actions": hashlib.sha256("\n".join(r.actions).encode()).hexdigest()[:16],
        })
    return sorted(out, key=lambda d: str(d["key"]))


def check(name: str, got: list[dict[str, object]]) -> None:
    path = STORED / f"{name}.json"
    text = json.dumps(got, indent=1) + "\n"
    if os.environ.get("TRUCO_UPDATE_GOLDEN"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(text)
    assert path.exists(), f"{path} is missing: run with TRUCO_UPDATE_GOLDEN=1"
    assert json.loads(path.read_text()) == got, f"stored games of the {name} differ from {path}"


def test_tournament_stores_the_same_games(tmp_path: Path) -> None:
    cfg = tmp_path / "golden.toml"
    cfg.write_text("\n".join([
        'name = "golden"', 'variant = "uruguayo"', "games_per_pairing = 4", "seed = 11", "concurrency = 2",
        'sandbox = "none"', "[options]", "target = 9", "[time_control]", "move_seconds = 5.0",
        "bank_seconds = 30.0",
        "[[bots]]", 'name = "r0"', f'command = "{RANDOM}"',
        "[[bots]]", 'name = "h"', f'command = "{HEURISTIC}"',
        "[[bots]]", 'name = "r1"', f'command = "{RANDOM}"',
    ]) + "\n")
    result = CliRunner().invoke(main, ["tournament", "run", str(cfg), "--no-progress", "--workers", "1"])
    assert result.exit_code == 0, result.output
    check("tournament", dump(cfg.with_suffix(".sqlite")))


def test_match_stores_the_same_games(tmp_path: Path) -> None:
    db = tmp_path / "match.sqlite"
    result = CliRunner().invoke(main, ["match", "heuristic", "random", "--games", "8", "--seed", "3",
                                       "--no-sandbox", "--db", str(db)])
    assert result.exit_code == 0, result.output
    check("match", dump(db))


def test_league_stores_the_same_games(tmp_path: Path) -> None:
    league = League(tmp_path)
    try:
        tokens = {name: league.token(name) for name in ("a", "b")}
        league.start()  # creates the file: its config, counter and a fresh secret
        assert league.stop() == 0
        with ResultsStore.create_or_open(league.db) as store:
            store.set_secret(TournamentSecret.from_hex(LEAGUE_SECRET))
        league.start()
        league.bot("a", tokens["a"])
        league.bot("b", tokens["b"], module="sample_bots.heuristic")
        wait_until(lambda: len(league.rows()) >= LEAGUE_GAMES, 60, f"{LEAGUE_GAMES} league games")
        assert league.stop() == 0
    finally:
        league.close()
    check("league", dump(league.db, keep=LEAGUE_GAMES))
