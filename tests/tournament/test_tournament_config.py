"""Tournament configuration: valid files load, typos name the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.tournament.config import ConfigError, load_config, parse_config
from arena.tournament.schedule import round_robin

GOOD = """
name = "weekly"
variant = "uruguayo"
games_per_pairing = 4
seed = 7
concurrency = 2

[options]
target = 15

[time_control]
move_seconds = 1.5
bank_seconds = 10

[[bots]]
name = "random"
command = "python -m sample_bots.random_bot"

[[bots]]
name = "external"
"""


def test_good_config_loads(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text(GOOD)
    cfg = load_config(path)
    assert cfg.name == "weekly" and cfg.options.target == 15 and cfg.options.variant == "uruguayo"
    assert cfg.bots[0].command == ("python", "-m", "sample_bots.random_bot")
    assert cfg.bots[1].command is None
    assert cfg.time_control.move_seconds == 1.5 and cfg.concurrency == 2


@pytest.mark.parametrize(
    "change,key",
    [
        (("games_per_pairing = 4", "game_per_pairing = 4"), "game_per_pairing"),
        (("target = 15", "targt = 15"), "options.targt"),
        (("move_seconds = 1.5", "move_second = 1.5"), "time_control.move_second"),
        (('name = "external"', 'nme = "external"'), "bots[1].nme"),
        (("games_per_pairing = 4", "games_per_pairing = 3"), "games_per_pairing"),
        (('variant = "uruguayo"', 'variant = "uruguyo"'), "variant"),
        (("concurrency = 2", 'concurrency = "two"'), "concurrency"),
        (('name = "external"', 'name = "random"'), "bots[1].name"),
    ],
)
def test_config_errors_name_the_key(change: tuple[str, str], key: str) -> None:
    import tomllib

    text = GOOD.replace(*change)
    assert text != GOOD
    with pytest.raises(ConfigError) as err:
        parse_config(tomllib.loads(text))
    assert str(err.value).startswith(key), str(err.value)


def test_bad_toml_is_one_line_error(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text("name = ")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(path)


def test_round_robin_pairs_share_deal_seeds_and_swap_seats() -> None:
    games = round_robin(["a", "b", "c"], 4, master_seed=1)
    assert len(games) == 3 * 4
    assert len({g.key for g in games}) == len(games)
    first, second = games[0], games[1]
    assert first.seed == second.seed and (first.bot0, first.bot1) == (second.bot1, second.bot0)
    assert games[2].seed != first.seed
    assert round_robin(["a", "b", "c"], 4, master_seed=1) == games
    assert round_robin(["a", "b", "c"], 4, master_seed=2)[0].seed != first.seed
