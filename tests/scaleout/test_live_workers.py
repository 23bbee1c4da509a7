"""The live page of a run on local workers shows their games in progress as
it shows the games of its own arena: ``tournament run --workers 2 --http``
(real gRPC, bot processes, the page's JSON), with only what the public may
see (each view checked against the stored game, as ``test_live_public``)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from web.live_run import LiveRun, live_tournament
from web.test_live_public import cards_in, public_by_step

from arena.engine import Game
from arena.games.store import ResultsStore
from arena.replay import options_of

pytestmark = pytest.mark.integration


def watch(run: LiveRun) -> tuple[int, list[dict[str, Any]]]:
    """Poll the run's live page until the run ends: the most games seen in
    progress at once, and every view of a game in progress it served."""
    served: list[dict[str, Any]] = []
    most = 0
    while run.process.poll() is None:
        try:
            _, live = run.get_json("api/live.json")
            going = [g for g in live["games"] if g["step"] > 0]
            most = max(most, len(going))
            for game in going:
                status, view = run.get_json(f"api/game/{game['id']}.json")
                if status == 200 and "view" in view:
                    served.append(view)
        except OSError:  # the run ended and took the page with it
            break
        time.sleep(0.1)
    return most, served


def check_views(db: Path, served: list[dict[str, Any]], games: int) -> None:
    """Each view served was of a recorded game, at a step it reached, with
    only what was public at that step."""
    with ResultsStore.open_existing(db) as store:
        rows, secret = list(store.games()), store.secret()
        game = Game(options_of(store.get_meta("config")))
    assert secret is not None and len(rows) == games
    by_id = {secret.game_id(row.game_key): row for row in rows}
    for view in served:
        row = by_id[view["id"]]
        assert view["bots"] == [row.bot0, row.bot1]
        assert 0 < view["step"] <= len(row.actions)
        leaked = cards_in(view["view"]) - public_by_step(row, game)[view["step"]]
        assert not leaked, f"game {row.game_key} step {view['step']}: {sorted(leaked)} not yet public"
        assert all(c is None for c in view["view"]["cards"])  # every unplayed card face down


def test_the_live_page_shows_games_in_progress_on_both_workers(tmp_path: Path) -> None:
    # Both bots are launched, so the coordinator's arena plays none, and each
    # worker plays one game at a time: two games in progress at once are one on each.
    # Moves 0.15 s apart: a game lasts seconds, several of the workers' 0.5 s reports,
    # so the two workers' games overlap on the page even on a loaded machine.
    with live_tournament(tmp_path, 8, 0.15, "--workers", "2", "--concurrency", "1") as run:
        most, served = watch(run)
    assert most == 2, f"at most {most} game(s) in progress at once"
    assert len({view["id"] for view in served}) >= 2, "views of too few games"
    check_views(run.db, served, 8)
