"""A gauntlet end to end: the challenger meets every opponent (and only
them), each with its own SPRT that stops that opponent's games alone."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.games.game_record import checked
from arena.games.store import ResultsStore
from arena.ratings import PairCounts, SprtBounds, SprtVerdict, sprt_status

pytestmark = pytest.mark.integration

RANDOM = "python -m sample_bots.random_bot"


def _gauntlet(tmp_path: Path, *lines: str) -> Path:
    path = tmp_path / "g.toml"
    text = ['format = "gauntlet"', 'challenger = "heuristic"', 'variant = "uruguayo"', "concurrency = 2", *lines]
    for name, command in (("r1", RANDOM), ("heuristic", "python -m sample_bots.heuristic"), ("r2", RANDOM)):
        text += ["[[bots]]", f'name = "{name}"', f'command = "{command}"']
    path.write_text("\n".join(text) + "\n")
    return path


def test_a_gauntlet_with_an_sprt_per_opponent(tmp_path: Path) -> None:
    cfg = _gauntlet(tmp_path, "sprt = { elo0 = 0, elo1 = 100 }", "max_games = 200")
    res = CliRunner().invoke(main, ["tournament", "run", str(cfg), "--no-progress", "--json"])
    assert res.exit_code == 0, res.stderr
    with ResultsStore.open_existing(cfg.with_suffix(".sqlite")) as store:
        rows = list(store.games())
    assert all("heuristic" in (r.bot0, r.bot1) for r in rows)  # r1 never meets r2
    lines = res.stderr.strip().splitlines()
    for opponent in ("r1", "r2"):
        counts = PairCounts.from_records(checked(rows), "heuristic", opponent)
        assert sprt_status(counts, SprtBounds(0, 100)).verdict is SprtVerdict.H1_ACCEPTED
        verdict = f"heuristic vs {opponent}: H1 accepted after {counts.games} games ({counts.pairs} pairs)"
        against = [r for r in rows if opponent in (r.bot0, r.bot1)]
        # The verdict says how many recorded games it leaves out (halves of pairs).
        left_out = len(against) - counts.games
        assert (verdict if not left_out else
                f"{verdict}; {left_out} more recorded game(s) not counted (half of a pair)") in lines
        # Once decided, an opponent gets no new pair: at most the open window's halves beyond it.
        assert len(against) <= counts.games + 4
    assert '"pairs"' in res.stdout


def test_a_gauntlet_of_fixed_games(tmp_path: Path) -> None:
    cfg = _gauntlet(tmp_path, "games = 4")
    res = CliRunner().invoke(main, ["tournament", "run", str(cfg), "--no-progress"])
    assert res.exit_code == 0, res.stderr
    with ResultsStore.open_existing(cfg.with_suffix(".sqlite")) as store:
        rows = list(store.games())
    assert sorted(r.matchup for r in rows) == ["heuristic|r2"] * 4 + ["r1|heuristic"] * 4
    for opponent in ("r1", "r2"):
        assert PairCounts.from_records(checked(rows), "heuristic", opponent).pairs == 2
        assert f"heuristic vs {opponent}: 4 games played (2 complete pairs)" in res.stderr
