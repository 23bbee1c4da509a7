"""``Tournament.run``: a tournament as one library call, without the CLI. It
records every game, says what a person should read through its hook and
prints nothing, refuses a second fresh start on the same file, and a resume
of a finished file plays nothing more."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.games.store import ResultsStore
from arena.run import AlreadyPlayedError, Hooks, Tournament
from arena.tournament.config import parse_config
from arena.tournament.runner import schedule_of

pytestmark = pytest.mark.integration

RANDOM = "python -m sample_bots.random_bot"


def test_a_run_is_one_call(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = parse_config({"games_per_pairing": 2, "seed": 3, "workers": 1, "sandbox": "none",
                           "options": {"target": 9},
                           "bots": [{"name": n, "command": RANDOM} for n in ("a", "b", "c")]})
    db = tmp_path / "t.sqlite"
    heard: list[str] = []
    recorded: list[str] = []
    finished = Tournament.run(config, db, new=True,
                              hooks=Hooks(say=heard.append, on_record=lambda row: recorded.append(row.game_key)))
    expected = sorted(g.key for g in schedule_of(config))
    assert finished.summary.played == len(expected) == 6
    assert sorted(r.game_key for r in finished.rows) == sorted(recorded) == expected
    with ResultsStore.open_existing(db) as store:
        assert sorted(r.game_key for r in store.games()) == expected
    assert capsys.readouterr().out == ""  # the caller prints, not the library
    with pytest.raises(AlreadyPlayedError, match="already holds 6 games"):
        Tournament.run(config, db, new=True)
    again = Tournament.run(config, db)  # a resume: checked, nothing missing
    assert again.summary.played == 0 and len(again.rows) == 6
