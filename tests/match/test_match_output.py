"""A match tells one story in every view and format: `match --json` carries
the verdict, LLR and Elo; `standings` and `tournament status` on its
database give the same numbers, and say how many recorded games the SPRT
leaves out (half of a pair). Ctrl-C on a match without --db offers no
resume of a file that is gone. Real bots, real gRPC, a real SQLite file."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.tournament.formats.match_plan import DEFAULT_MAX_GAMES

pytestmark = pytest.mark.integration

CLI = [sys.executable, "-c", "from arena.cli import main; main()"]


def _invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_match_json_has_the_verdict_and_every_view_agrees(tmp_path: Path) -> None:
    db = tmp_path / "m.sqlite"
    code, out, err = _invoke("match", "heuristic", "random", "--sprt", "0", "100", "--seed", "5", "--db", str(db),
                             "--concurrency", "2", "--json")
    assert code == 0, err
    output = json.loads(out)
    (verdict,) = output["match"]["rows"]
    assert verdict["challenger"] == "heuristic" and verdict["opponent"] == "random"
    assert verdict["verdict"] == "H1 accepted"
    assert verdict["llr"] >= verdict["llr upper"] > 0 > verdict["llr lower"]
    assert verdict["games"] == 2 * verdict["pairs"] == 2 * (verdict["pairs 2-0"] + verdict["pairs 1-1"]
                                                            + verdict["pairs 0-2"])
    assert verdict["wins"] + verdict["losses"] == verdict["games"]
    assert any("not corrected for the stopping rule" in n for n in output["match"]["notes"])
    # The standings count every recorded game; the verdict's "not counted" is the difference.
    standings = {r["bot"]: r for r in output["standings"]["rows"]}
    assert standings["heuristic"]["games"] == verdict["games"] + verdict["not counted"]
    # stderr's verdict line says the same.
    assert f"heuristic vs random: H1 accepted after {verdict['games']} games ({verdict['pairs']} pairs)" in err
    # standings on the database: the same verdict table.
    code, out, _ = _invoke("standings", str(db), "--json")
    assert code == 0 and json.loads(out)["match"]["rows"] == [verdict]
    # tournament status: the cap is called max_games, the verdict table is there, complete means decided.
    code, out, _ = _invoke("tournament", "status", str(db), "--json")
    status = json.loads(out)
    assert code == 0 and "scheduled" not in status and "missing" not in status
    assert status["format"] == "match" and status["max_games"] == DEFAULT_MAX_GAMES and status["complete"] is True
    assert status["match"] == [verdict] and status["recorded"] == standings["heuristic"]["games"]
    code, out, _ = _invoke("tournament", "status", str(db))
    assert code == 0 and f"max games: {DEFAULT_MAX_GAMES}" in out and "scheduled" not in out
    assert f"verdicts: heuristic vs random: H1 accepted after {verdict['games']} games" in out
    # The report's front page: the same verdict table.
    code, _, err = _invoke("report", str(db), "-o", str(tmp_path / "report"))
    assert code == 0, err
    index = (tmp_path / "report" / "index.html").read_text()
    section = index[index.index('<section id="verdicts">'):index.index('<section id="cross">')]
    cells = [f"<td>{verdict[k]}</td>" for k in ("challenger", "opponent", "verdict", "games", "pairs", "llr")]
    assert all(c in section for c in cells) and "not corrected for the stopping rule" in section


def _count(db: Path) -> int:
    try:
        with sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True, timeout=5) as con:
            return int(con.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    except sqlite3.Error:
        return 0


def test_ctrl_c_on_a_match_without_db_offers_no_resume_of_a_deleted_file(tmp_path: Path) -> None:
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    proc = subprocess.Popen([*CLI, "match", "random", "random", "--games", "2000", "--variant", "argentino"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while proc.poll() is None and time.monotonic() < deadline:
        dbs = list(tmp_path.glob("truco-match-*/match.sqlite"))
        if dbs and _count(dbs[0]) >= 2:
            break
        time.sleep(0.1)
    assert proc.poll() is None, "the match ended before it could be interrupted"
    proc.send_signal(signal.SIGINT)
    _out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    last = err.strip().splitlines()[-1]
    assert last.startswith("error: interrupted") and "temporary file, now deleted" in last and "--db FILE" in last
    assert "tournament resume" not in err
    assert not list(tmp_path.glob("truco-match-*"))  # really gone, as it says
