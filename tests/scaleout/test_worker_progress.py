"""A worker's progress frames (the games in progress a live page shows) are
hostile input: a frame for a game the worker was not given, actions out of
order, an action out of turn, or a card its seat does not hold makes the
worker lost (nothing of it reaches the page), its games are played again,
and what is recorded is what an honest run records."""

from __future__ import annotations

import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from workers_helpers import results

from arena.games.playing import GamesInProgress
from arena.run import Hooks, Tournament
from arena.tournament.config import TournamentConfig, parse_config
from arena.tournament.scale import RunPlan
from arena.tournament.scaleout.progress import LiveGames

pytestmark = pytest.mark.integration

FORGER = Path(__file__).with_name("forging_worker.py")
BOTS = {"r0": "sample_bots.random_bot", "r1": "sample_bots.random_bot", "h": "sample_bots.heuristic"}


def _config() -> TournamentConfig:
    return parse_config({"games_per_pairing": 8, "seed": 5, "concurrency": 1, "sandbox": "none",
                         "options": {"target": 9},
                         "bots": [{"name": n, "command": f"python -m {m}"} for n, m in BOTS.items()]})


def test_forged_progress_makes_the_worker_lost_and_changes_nothing_recorded(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = _config()
    reference = tmp_path / "reference.sqlite"
    Tournament.run(config, reference, new=True, plan=RunPlan.of(config.scale, workers=1))

    marks = tmp_path / "marks"
    marks.mkdir()
    forger = tmp_path / "python-forging"  # run as `python-forging -m arena.tournament.scaleout.worker`
    forger.write_text(f"#!{sys.executable}\nimport runpy, sys\nsys.argv = [{str(FORGER)!r}, {str(marks)!r}]\n"
                      f"sys.path.insert(0, {str(FORGER.parent)!r})\nrunpy.run_path(sys.argv[0], run_name='__main__')\n")
    forger.chmod(0o755)
    monkeypatch.setattr("arena.tournament.scaleout.local.sys.executable", str(forger))
    watched: list[GamesInProgress] = []

    async def on_arena(games: GamesInProgress) -> Callable[[], Awaitable[None]]:
        watched.append(games)

        async def done() -> None:
            pass
        return done

    heard: list[str] = []
    attacked = tmp_path / "attacked.sqlite"
    Tournament.run(config, attacked, new=True, hooks=Hooks(say=heard.append, on_arena=on_arena),
                   plan=RunPlan.of(config.scale, workers=2))
    monkeypatch.undo()

    assert sorted((marks / "sent.log").read_text().split()) == sorted(
        ["unknown-game", "out-of-order", "out-of-turn", "unheld-card"])
    lost = "\n".join(line for line in heard if " lost (" in line)
    for why in ("sent the progress of game 'a-game-it-was-not-given', which it is not playing",
                "sent actions from 1 on of game", "not a legal action there"):
        assert why in lost, heard
    assert lost.count("not a legal action there") == 2, heard  # out of turn, and the card it does not hold
    assert isinstance(watched[0], LiveGames) and watched[0].running_games() == ()
    assert results(attacked) == results(reference)
    assert len(results(attacked)) == 24
