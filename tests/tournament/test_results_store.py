"""The SQLite results store and the tables rendered from it."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from arena.ratings import GameRecord
from arena.results.tables import render, to_records, views
from arena.tournament.store import GameRow, ResultsStore, StoreError


def _row(key: str, seq: int, bot0: str, bot1: str, winner: str, termination: str = "target_reached",
         faulty: str | None = None) -> GameRow:
    pairing = "|".join(sorted((bot0, bot1)))
    return GameRow(key, seq, pairing, seq // 2, bot0, bot1, 0, 1000 + seq // 2, 30, 12, winner,
                   0 if winner == bot0 else 1, termination, faulty, 7, 1.25, ("0 play 1E", "1 mazo"))


def test_rows_round_trip_in_schedule_order_and_never_twice(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite"
    with ResultsStore(path) as store:
        store.set_meta("config", {"name": "x"})
        store.record(_row("g2", 2, "a", "b", "a"))
        store.record(_row("g0", 0, "a", "b", "b"))
        with pytest.raises(StoreError, match="already recorded"):
            store.record(_row("g0", 0, "a", "b", "b"))
    with ResultsStore.open_existing(path) as store:
        rows = list(store.games())
        assert [r.game_key for r in rows] == ["g0", "g2"]
        assert rows[0].actions == ("0 play 1E", "1 mazo") and rows[0].duration == 1.25
        assert store.recorded_keys() == {"g0", "g2"} and store.get_meta("config") == {"name": "x"}


def test_open_existing_rejects_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no results database"):
        ResultsStore.open_existing(tmp_path / "nope.sqlite")


def _records() -> list[GameRecord]:
    rows = [
        _row("1", 0, "a", "b", "a"), _row("2", 1, "b", "a", "a"),
        _row("3", 2, "a", "c", "a"), _row("4", 3, "c", "a", "c"),
        _row("5", 4, "b", "c", "c", "timeout", "b"), _row("6", 5, "c", "b", "b"),
    ]
    return to_records(rows)


def test_every_format_renders_the_same_numbers() -> None:
    tables = views(_records())
    assert [t.name for t in tables] == ["standings", "cross", "pairs", "failures", "ladder"]
    standings = tables[0]
    assert [r[1] for r in standings.rows][0] == "a"  # a won 3 of 4
    payload = json.loads(render(tables, "json"))
    assert payload["standings"]["rows"][0]["bot"] == "a"
    assert payload["failures"]["rows"] == [
        {"bot": "a", "timeouts": 0, "disconnects": 0, "illegal actions": 0, "protocol errors": 0, "total": 0},
        {"bot": "b", "timeouts": 1, "disconnects": 0, "illegal actions": 0, "protocol errors": 0, "total": 1},
        {"bot": "c", "timeouts": 0, "disconnects": 0, "illegal actions": 0, "protocol errors": 0, "total": 0},
    ]
    ladder = {r["bot"]: r["points"] for r in payload["ladder"]["rows"]}
    # a: +30 +30 +30 -20 = 70; b: -20 (floor 0) -20 (0) -20 (0) +30 = 30; c: -20 (0) +30 +30 -20 = 40
    assert ladder == {"a": 70, "b": 30, "c": 40}
    text = render(tables[:1], "csv")
    parsed = list(csv.reader(io.StringIO(text)))
    assert parsed[0][:2] == ["rank", "bot"] and parsed[1][1] == "a"
    lines = render(tables[:1], "github").splitlines()
    assert lines[0] == "Standings" and lines[1].split("|")[1].strip() == "rank"
    assert lines[3].split("|")[2].strip() == "a" and lines[3].split("|")[6].strip() == "75.0"
