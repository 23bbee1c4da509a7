"""``truco-arena games``, ``replay`` and ``report`` on a real tournament's file."""

from __future__ import annotations

import dataclasses
import json
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from arena.cli import main
from arena.games.game_record import GameRecord
from arena.games.store import ResultsStore
from arena.replay import from_json


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def _game_script(path: Path) -> dict[str, object]:
    """The JSON a report's games/*.js hands to the viewer: ``trucoGame({...});``."""
    text = path.read_text()
    assert text.startswith("trucoGame(") and text.endswith(");\n"), text[:80]
    data = json.loads(text[len("trucoGame("):-len(");\n")])
    assert isinstance(data, dict)
    return data


def _rows(db: Path) -> list[GameRecord]:
    with ResultsStore.open_existing(db) as store:
        return list(store.games())


def test_games_lists_and_filters(small_db: Path) -> None:
    rows = _rows(small_db)
    code, out, _ = _run("games", str(small_db), "--json")
    assert code == 0
    listed = json.loads(out)["games"]["rows"]
    assert [r["game"] for r in listed] == [r.game_id for r in rows]
    code, out, _ = _run("games", str(small_db), "--bot", "heuristic", "--result", "win", "--json")
    assert code == 0
    wins = json.loads(out)["games"]["rows"]
    assert {r["game"] for r in wins} == {r.game_id for r in rows if r.winner == "heuristic"}
    code, out, _ = _run("games", str(small_db), "--bot", "random", "--result", "loss", "--csv")
    assert code == 0
    losses = {r.game_key for r in rows if "random" in (r.bot0, r.bot1) and r.winner not in (None, "random")}
    assert len(out.strip().splitlines()) == 1 + len(losses)
    code, out, _ = _run("games", str(small_db), "--termination", "illegal_action", "--json")
    assert code == 0
    failed = json.loads(out)["games"]["rows"]
    assert failed and all(r["termination"] == "illegal_action" for r in failed)


def test_replay_prints_every_hand_and_the_final_score(small_db: Path) -> None:
    row = _rows(small_db)[0]
    code, out, _ = _run("replay", str(small_db), row.game_key)
    assert code == 0
    assert len(re.findall(r"^Hand \d+ ", out, flags=re.M)) == row.hands
    assert f"final score {row.score0}-{row.score1}" in out
    assert "points: flor" in out and "deal: seat 0" in out
    code, out, _ = _run("replay", str(small_db), row.game_key, "--json")
    assert code == 0
    record = from_json(json.loads(out))
    assert record.info.scores == (row.score0, row.score1)
    code, out, _ = _run("replay", str(small_db), row.game_key, "--seat", "1", "--json")
    assert code == 0
    mine = from_json(json.loads(out))
    assert mine.viewer == 1 and all(h.deal[0] is None for h in mine.hands)
    code, out, _ = _run("replay", str(small_db), row.game_key, "--seat", "0")
    assert code == 0 and "deal: seat 0" in out and "? ? ?" in out


def test_bad_input_is_one_line_and_an_exit_code(small_db: Path, tmp_path: Path) -> None:
    row = _rows(small_db)[0]
    foreign = tmp_path / "foreign.sqlite"
    with sqlite3.connect(foreign) as db:
        db.execute("CREATE TABLE notes (x TEXT)")
    cases = [
        (("replay", str(small_db), "no-such-game"), 1, "no game 'no-such-game'"),
        (("replay", str(foreign), "x"), 1, "not a truco-arena results database"),
        (("replay", str(tmp_path / "missing.sqlite"), "x"), 1, "no results database here"),
        (("replay", str(small_db), row.game_key, "--seat", "5"), 2, "no seat 5"),
        (("games", str(small_db), "--result", "win"), 2, "--result needs --bot"),
        (("games", str(small_db), "--bot", "nobody"), 2, "no bot named 'nobody'"),
        (("games", str(foreign)), 1, "not a truco-arena results database"),
        (("report", str(foreign), "-o", str(tmp_path / "r")), 1, "not a truco-arena results database"),
        (("report", str(small_db), "-o", str(foreign)), 2, "is not a directory"),
    ]
    for args, expected, message in cases:
        code, _out, err = _run(*args)
        assert code == expected, (args, err)
        assert err.count("\n") == 1 and err.startswith("error: ") and message in err, (args, err)


def test_report_writes_pages_that_need_no_network(small_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "report"
    code, stdout, _ = _run("report", str(small_db), "-o", str(out))
    assert code == 0 and stdout.strip() == str(out / "index.html")
    rows = _rows(small_db)
    index = (out / "index.html").read_text()
    links = re.findall(r'href="viewer\.html#([^"]+)"', index)
    assert len(set(links)) == len(rows)
    # One viewer page; each game's export in a script of its own, loaded when its game is opened.
    assert sorted(p.name for p in (out / "games").iterdir()) == sorted(f"{link}.js" for link in set(links))
    assert not list(out.glob("games/*.html"))
    for link in links:
        data = _game_script(out / "games" / f"{link}.js")
        assert from_json(data).info.game_id in {r.game_id for r in rows}
    assert (out / "plotly.min.js").stat().st_size > 1_000_000
    for page in [out / "index.html", out / "viewer.html"]:
        html = page.read_text()
        # Every script and stylesheet is a file of the report itself.
        for ref in re.findall(r'(?:src|href)="([^"#]+)"', html):
            assert "://" not in ref and (page.parent / ref).exists(), (page, ref)
    for section in ("standings", "cross", "history", "failures", "games"):
        assert f'id="{section}"' in index
    assert "cheater" in index and "illegal_action" in index


# The CLI in a fresh interpreter where importing Plotly fails as if it were not installed.
WITHOUT_PLOTLY = "import sys; sys.modules['plotly'] = None; from arena.cli import main; main()"


def test_the_report_without_plotly_has_everything_but_the_charts_and_says_so_once(
        small_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "r"
    done = subprocess.run([sys.executable, "-c", WITHOUT_PLOTLY, "report", str(small_db), "-o", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stderr == "note: charts need Plotly: pip install 'truco-arena[report]'\n"
    index = (out / "index.html").read_text()
    assert index.count("charts need Plotly: pip install") == 1
    assert not (out / "plotly.min.js").exists() and "plotly.min.js" not in index
    assert 'id="chart-' not in index
    assert "heuristic" in index and 'class="game-link"' in index  # the standings and the games are there


def test_report_escapes_what_bots_and_configs_wrote(small_db: Path, tmp_path: Path) -> None:
    from arena.report import build_report

    with ResultsStore.open_existing(small_db) as store:
        config = store.get_meta("config")
        rows = list(store.games())
    attack = "</script><script>alert(1)</script><b>&"
    rows[0] = dataclasses.replace(rows[0], reason=attack)

    def renamed(name: str) -> str:
        return attack if name == "random" else name

    rows = [dataclasses.replace(r, bot0=renamed(r.bot0), bot1=renamed(r.bot1),
                                winner=None if r.winner is None else renamed(r.winner),
                                faulty_bot=None if r.faulty_bot is None else renamed(r.faulty_bot)) for r in rows]
    build_report(rows, {**config, "name": attack}, tmp_path / "r")
    for page in (tmp_path / "r").rglob("*.html"):
        html = page.read_text()
        assert "<script>alert(1)" not in html and "<b>&" not in html, page
    # In a game's script the names are JSON strings: data the viewer writes as text, never markup.
    for script in (tmp_path / "r" / "games").glob("*.js"):
        text = script.read_text()
        assert "</script>" not in text and "<b>" not in text
        bots = _game_script(script)["info"]
        assert isinstance(bots, dict) and (attack in bots["bots"] or "random" not in str(bots))


def test_a_game_that_does_not_replay_gets_a_page_saying_why(small_db: Path, tmp_path: Path) -> None:
    from arena.report import build_report

    with ResultsStore.open_existing(small_db) as store:
        config = store.get_meta("config")
        rows = list(store.games())
    rows[1] = dataclasses.replace(rows[1], actions=("1 mazo",))  # seat 0 is to act first
    index = build_report(rows, config, tmp_path / "r")
    scripts = sorted((tmp_path / "r" / "games").glob("*.js"))
    assert len(scripts) == len(rows) and index.exists()
    broken = _game_script(scripts[1])
    assert broken == {"error": f"game {rows[1].game_id}: seat 1 acted but seat 0 was to act"} or \
        "seat 1 acted but seat 0 was to act" in str(broken["error"])
    assert all("info" in _game_script(script) for i, script in enumerate(scripts) if i != 1)


def test_max_games_keeps_the_failures_and_the_latest_games_and_lists_every_game(small_db: Path,
                                                                                tmp_path: Path) -> None:
    rows = _rows(small_db)
    failed = [r for r in rows if r.faulty_bot is not None]
    assert failed and len(rows) > len(failed) + 1
    out = tmp_path / "r"
    code, _, err = _run("report", str(small_db), "-o", str(out), "--max-games", str(len(failed) + 1))
    assert code == 0, err
    carried = {str(_game_script(p)["info"]["game_id"]) for p in (out / "games").glob("*.js")}  # type: ignore[index]
    latest = next(r for r in reversed(rows) if r.faulty_bot is None)
    assert carried == {r.game_id for r in failed} | {latest.game_id}
    index = (out / "index.html").read_text()
    assert all(r.game_id in index for r in rows)  # every game stays in the list
    assert len(re.findall(r'class="game-link"', index)) == len(carried)
    assert f"{len(rows) - len(carried)} of the {len(rows)} games have no replay in this report" in index
