"""A match process killed with SIGKILL and resumed: the SPRT picks up from
exactly the complete pairs in the store, a half pair is counted only once its
twin is in, and no game is played or counted twice."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.games.game_record import GameRecord, checked
from arena.games.store import ResultsStore
from arena.match.tally import tally_rows
from arena.ratings import PairCounts, SprtBounds, SprtVerdict, format_sprt_line, sprt_status

pytestmark = pytest.mark.integration

CLI = [sys.executable, "-c", "from arena.cli import main; main()"]
BOUNDS = SprtBounds(0, 50)  # heuristic sweeps random: about 24 pairs to H1, time enough to kill it


def _config(tmp_path: Path) -> Path:
    path = tmp_path / "m.toml"
    path.write_text("\n".join([
        'format = "match"', 'variant = "uruguayo"', "concurrency = 2",
        f"sprt = {{ elo0 = {BOUNDS.elo0:g}, elo1 = {BOUNDS.elo1:g} }}", "max_games = 400",
        "[[bots]]", 'name = "heuristic"', 'command = "python -m sample_bots.heuristic"',
        "[[bots]]", 'name = "random"', 'command = "python -m sample_bots.random_bot"',
    ]) + "\n")
    return path


def _count(db: Path) -> int:
    try:
        with sqlite3.connect(db, timeout=5) as con:
            return int(con.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    except sqlite3.Error:
        return 0


def _rows(db: Path) -> list[GameRecord]:
    with ResultsStore.open_existing(db) as store:
        return list(store.games())


def _complete_pairs(rows: list[GameRecord]) -> int:
    per_pair = Counter(r.pair_id for r in rows)
    assert max(per_pair.values()) <= 2  # never a third game for one deal
    return sum(1 for n in per_pair.values() if n == 2)


def test_a_killed_match_resumes_with_the_exact_sprt_state(tmp_path: Path) -> None:
    cfg = _config(tmp_path)
    db = cfg.with_suffix(".sqlite")
    proc = subprocess.Popen([*CLI, "tournament", "run", str(cfg), "--no-progress"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while _count(db) < 7 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert proc.poll() is None, "the match ended before the test could kill it"
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()

    before = _rows(db)
    counts = PairCounts.from_records(checked(before), "heuristic", "random")
    assert tally_rows("heuristic", ["random"], before)["random"].counts == counts
    assert counts.pairs == _complete_pairs(before)  # half pairs are not counted
    assert not sprt_status(counts, BOUNDS).finished

    res = CliRunner().invoke(main, ["tournament", "resume", str(db), "--no-progress"])
    assert res.exit_code == 0, res.stderr
    lines = res.stderr.strip().splitlines()
    # The resumed run states where it stood: the state recomputed from the store.
    resumed_at = f"heuristic vs random: {format_sprt_line(sprt_status(counts, BOUNDS))}"
    assert lines[1] == resumed_at, lines[:3]

    after = _rows(db)
    assert {r.game_key for r in before} <= {r.game_key for r in after}
    assert len({r.game_key for r in after}) == len(after)
    final = PairCounts.from_records(checked(after), "heuristic", "random")
    assert final.pairs == _complete_pairs(after)
    state = sprt_status(final, BOUNDS)
    assert state.verdict is SprtVerdict.H1_ACCEPTED
    assert f"heuristic vs random: {format_sprt_line(state)}" in lines
    assert lines[-1].split(";")[0] == f"heuristic vs random: H1 accepted after {final.games} games ({final.pairs} pairs)"
    # Each resumed pair added one step: the live lines count up one pair at a time from the resumed state.
    live = [line for line in lines if line.startswith("heuristic vs random: games ")]
    assert [int(line.split()[4]) for line in live] == list(range(counts.games, final.games + 1, 2))

    # Resuming a decided match plays nothing and says the same verdict.
    again = CliRunner().invoke(main, ["tournament", "resume", str(db), "--no-progress"])
    assert again.exit_code == 0, again.stderr
    assert len(_rows(db)) == len(after)
    assert again.stderr.strip().splitlines()[-1] == lines[-1]
    status = CliRunner().invoke(main, ["tournament", "status", str(db), "--json"])
    assert status.exit_code == 0, status.stderr
    info = json.loads(status.stdout)
    assert info["complete"] is True and info["verdicts"] == [lines[-1]]
