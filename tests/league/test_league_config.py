"""League config: defaults, and every mistake named by its key."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.games.schedule import Pairing
from arena.games.settings import ConfigError
from arena.league import LeagueConfig, load_league_config, parse_league_config


def test_no_file_is_a_working_default_league() -> None:
    config = load_league_config(None)
    assert config == LeagueConfig()
    assert config.pairing is Pairing.INDEPENDENT and config.options.seats == 2 and config.streams_per_game == 1


def test_a_full_config() -> None:
    config = parse_league_config({
        "name": "open", "variant": "argentino", "pairing": "duplicate", "concurrency": 3, "forfeit_seconds": 2,
        "options": {"seats": 6}, "time_control": {"move_seconds": 1.5, "bank_seconds": 0},
        "matchmaking": {"max_gap": 4, "refit_every": 7}, "persons": {"names": ["ana"], "move_seconds": 60},
    })
    assert config.pairing is Pairing.DUPLICATE and config.concurrency == 3 and config.forfeit_seconds == 2.0
    assert config.streams_per_game == 3 and config.time_control.move_time == 1.5
    assert (config.matchmaking.max_gap, config.matchmaking.refit_every) == (4, 7)
    assert config.to_meta()["kind"] == "league"
    assert config.persons == {"ana"} and config.person_time_control.move_time == 60.0
    assert config.to_meta()["persons"] == {"names": ["ana"], "move_seconds": 60.0}


@pytest.mark.parametrize(("data", "key"), [
    ({"concurency": 2}, "concurency"),
    ({"matchmaking": {"max_gapp": 2}}, "matchmaking.max_gapp"),
    ({"time_control": {"move": 2}}, "time_control.move"),
    ({"pairing": "swiss"}, "pairing"),
    ({"concurrency": 0}, "concurrency"),
    ({"concurrency": True}, "concurrency"),
    ({"forfeit_seconds": float("inf")}, "forfeit_seconds"),
    ({"forfeit_seconds": 0}, "forfeit_seconds"),
    ({"options": {"seats": 3}}, "seats"),
    ({"matchmaking": {"max_gap": 0}}, "matchmaking.max_gap"),
    ({"matchmaking": []}, "matchmaking"),
    ({"persons": ["ana"]}, "persons"),
    ({"persons": {"name": ["ana"]}}, "persons.name"),
    ({"persons": {"names": "ana"}}, "persons.names"),
    ({"persons": {"names": ["has space"]}}, "persons.names"),
    ({"persons": {"names": [3]}}, "persons.names"),
    ({"persons": {"move_seconds": 0.1}}, "persons.move_seconds"),
])
def test_mistakes_name_their_key(data: dict[str, object], key: str) -> None:
    with pytest.raises(ConfigError) as err:
        parse_league_config(data)
    assert key in str(err.value)


def test_a_file_that_is_not_toml(tmp_path: Path) -> None:
    bad = tmp_path / "league.toml"
    bad.write_text("concurrency = = 2")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_league_config(bad)
