"""``format = "challengers"``, the format added as one file
(arena/tournament/formats/challengers.py): its keys are checked naming the
key, every challenger meets every bot of the field and no other challenger,
and a run through the CLI records exactly those games."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.games.schedule import NO_PAIR
from arena.games.settings import ConfigError
from arena.games.store import ResultsStore
from arena.tournament.config import parse_config
from arena.tournament.formats.challengers import Challengers
from arena.tournament.runner import schedule_of

RANDOM = "python -m sample_bots.random_bot"


def _raw(**keys: object) -> dict[str, object]:
    return {"format": "challengers", "bots": [{"name": n, "command": RANDOM} for n in ("a", "b", "c", "d")],
            **keys}


@pytest.mark.parametrize("keys,key", [
    ({}, "challengers"),
    ({"challengers": []}, "challengers"),
    ({"challengers": "a"}, "challengers"),
    ({"challengers": ["nobody"]}, "challengers"),
    ({"challengers": ["a", "a"]}, "challengers"),
    ({"challengers": ["a", "b", "c", "d"]}, "challengers"),
    ({"challengers": ["a"], "games": 10}, "games"),
    ({"challengers": ["a"], "rounds": 2}, "rounds"),
    ({"challengers": ["a"], "challenger": "a"}, "challenger"),
])
def test_a_bad_key_is_named(keys: dict[str, object], key: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(_raw(**keys))
    assert str(caught.value).startswith(f"{key}:"), caught.value


def test_only_challengers_take_it_as_a_key() -> None:
    with pytest.raises(ConfigError, match='^challengers: only for format = "challengers"$'):
        parse_config({**_raw(challengers=["a"]), "format": "round_robin"})


@pytest.mark.parametrize("pairing,games", [("duplicate", 4), ("independent", 3)])
def test_each_challenger_meets_the_field_and_no_other_challenger(pairing: str, games: int) -> None:
    config = parse_config(_raw(challengers=["d", "b"], pairing=pairing, games_per_pairing=games))
    assert config.format == Challengers(challengers=("d", "b")) and config.match is None
    schedule = schedule_of(config)
    assert {g.matchup for g in schedule} == {"a|b", "b|c", "a|d", "c|d"}  # names in config order
    assert len(schedule) == 4 * games and len({g.key for g in schedule}) == len(schedule)
    for game in schedule:
        assert (game.pair_index == NO_PAIR) == (pairing == "independent")


@pytest.mark.integration
def test_a_run_records_the_games_of_the_format(tmp_path: Path) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text('format = "challengers"\nchallengers = ["new"]\ngames_per_pairing = 2\nseed = 5\n'
                   'workers = 1\nsandbox = "none"\n[options]\ntarget = 9\n'
                   + "".join(f'[[bots]]\nname = "{n}"\ncommand = "{RANDOM}"\n' for n in ("old1", "new", "old2")))
    res = CliRunner().invoke(main, ["tournament", "run", str(cfg), "--no-progress"])
    assert res.exit_code == 0, res.output + (res.stderr or "")
    with ResultsStore.open_existing(cfg.with_suffix(".sqlite")) as store:
        rows = list(store.games())
    assert sorted(r.game_key for r in rows) == sorted(g.key for g in schedule_of(parse_config(
        {"format": "challengers", "challengers": ["new"], "games_per_pairing": 2,
         "bots": [{"name": n, "command": RANDOM} for n in ("old1", "new", "old2")]})))
    assert {frozenset((r.bot0, r.bot1)) for r in rows} == {frozenset(("old1", "new")), frozenset(("new", "old2"))}
