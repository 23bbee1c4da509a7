"""The result views through the CLI: failures with ids and reasons, a whole
HTML page, compare's warning on different rules, demo's announcement."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from arena.cli import main
from arena.cli.demo import demo_bots
from arena.engine.outcome import Termination
from arena.games.game_record import GameRecord
from arena.games.store import ResultsStore

RANDOM = f"{sys.executable} -m sample_bots.random_bot"


def _config(**changes: Any) -> dict[str, Any]:
    return {"name": "t", "variant": "argentino", "games_per_pairing": 2, "seed": 1,
            "bots": [{"name": "a", "command": RANDOM}, {"name": "b", "command": RANDOM}], **changes}


def _results(path: Path, config: dict[str, Any]) -> Path:
    games = [
        ("a", "b", "a", "target_reached", None, "a reached 30 points"),
        ("b", "a", "b", "timeout", "a", "seat 1 (a) overdrew its time bank at action 12"),
        ("a", "b", "b", "illegal_action", "a", "seat 0 (a) sent play 7E, which it does not hold"),
        ("b", "a", "b", "target_reached", None, "b reached 30 points"),
    ]
    with ResultsStore.create_or_open(path) as store:
        store.set_meta("config", config)
        for seq, (bot0, bot1, winner, termination, faulty, reason) in enumerate(games):
            store.record(GameRecord(game_key=f"a|b:{seq // 2}:{seq % 2}", seq=seq, matchup="a|b", pair_index=seq // 2, bot0=bot0, bot1=bot1, seed=7 + seq // 2,
                                 score0=30, score1=10, winner=winner, winner_seat=0 if winner == bot0 else 1, termination=Termination(termination), faulty_bot=faulty, hands=5, duration=1.0,
                                 actions=("0 mazo",), reason=reason))
    return path


def test_the_failures_view_lists_each_failed_game_with_its_id_and_reason(tmp_path: Path) -> None:
    db = _results(tmp_path / "r.sqlite", _config())
    result = CliRunner().invoke(main, ["standings", str(db), "--view", "failures", "--json"])
    assert result.exit_code == 0, result.stderr
    payload = json.loads(result.stdout)
    assert {r["bot"]: r["total"] for r in payload["failures"]["rows"]} == {"a": 2, "b": 0}
    assert payload["failed_games"]["rows"] == [
        {"game": "a:b:0:1", "bot": "a", "failure": "timeout",
         "reason": "seat 1 (a) overdrew its time bank at action 12"},
        {"game": "a:b:1:0", "bot": "a", "failure": "illegal_action",
         "reason": "seat 0 (a) sent play 7E, which it does not hold"},
    ]
    text = CliRunner().invoke(main, ["standings", str(db), "--view", "failures"]).stdout
    assert "a:b:1:0" in text and "which it does not hold" in text


def test_html_is_a_whole_page(tmp_path: Path) -> None:
    db = _results(tmp_path / "r.sqlite", _config())
    page = CliRunner().invoke(main, ["standings", str(db), "--view", "all", "--format", "html"]).stdout
    assert page.startswith("<!DOCTYPE html>")
    head = page[page.index("<head>"):page.index("</head>")]
    assert '<meta charset="utf-8">' in head and "<title>" in head
    assert page.count("<table>") == 8 and page.rstrip().endswith("</html>")


def test_compare_warns_once_when_the_rules_differ(tmp_path: Path) -> None:
    a = _results(tmp_path / "a.sqlite", _config())
    same = _results(tmp_path / "same.sqlite", _config(seed=2))
    other = _results(tmp_path / "other.sqlite", _config(options={"target": 15, "flor": False}))
    quiet = CliRunner().invoke(main, ["compare", str(a), str(same), "--json"])
    assert quiet.exit_code == 0 and quiet.stderr == ""
    loud = CliRunner().invoke(main, ["compare", str(a), str(other), "--json"])
    assert loud.exit_code == 0
    assert loud.stderr.splitlines() == [
        "warning: A and B were played with different rules (flor True vs False, target 30 vs 15)"]
    assert json.loads(loud.stdout)["compare"]["rows"]  # the comparison is still printed
    variant = _results(tmp_path / "uruguayo.sqlite", _config(variant="uruguayo"))
    warned = CliRunner().invoke(main, ["compare", str(a), str(variant)]).stderr
    assert warned.startswith("warning: ") and "variant argentino vs uruguayo" in warned


def test_demo_says_what_it_runs_before_it_starts(tmp_path: Path) -> None:
    # A foreign --db stops the demo right after its announcement, before any bot starts.
    db = tmp_path / "theirs.sqlite"
    db.write_text("not a database")
    result = CliRunner().invoke(main, ["demo", "--variant", "argentino", "--games", "4", "--seed", "9",
                                       "--db", str(db), "--no-progress"])
    first, bots, last = result.stderr.splitlines()
    assert first == "demo: argentino, 12 games, seed 9" and last.startswith("error: ")
    top = ", ".join(name for name, _ in demo_bots("argentino"))
    assert bots == f"demo: {top}, the reference bot and the top of the ladder (docs/bots.md)"
