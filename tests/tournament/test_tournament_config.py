"""Tournament configuration: valid files load, typos name the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.tournament.config import ConfigError, load_config, parse_config
from arena.tournament.schedule import NO_PAIR, Pairing, round_robin
from arena.tournament.seeds import TournamentSecret

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
    assert cfg.time_control.move_time == 1.5 and cfg.concurrency == 2


@pytest.mark.parametrize(
    "change,key",
    [
        (("games_per_pairing = 4", "game_per_pairing = 4"), "game_per_pairing"),
        (("target = 15", "targt = 15"), "options.targt"),
        (("move_seconds = 1.5", "move_second = 1.5"), "time_control.move_second"),
        (('name = "external"', 'nme = "external"'), "bots[1].nme"),
        (("games_per_pairing = 4", "games_per_pairing = 0"), "games_per_pairing"),
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


def test_duplicate_pairs_share_a_deal_swap_seats_and_run_in_order() -> None:
    games = round_robin(["a", "b", "c"], 4, Pairing.DUPLICATE)
    assert len(games) == 3 * 4
    assert len({g.key for g in games}) == len(games)
    first, second = games[0], games[1]
    assert first.deal == second.deal and (first.bot0, first.bot1) == (second.bot1, second.bot0)
    assert second.after == first.key and first.after is None
    assert first.pair_index == second.pair_index >= 0
    assert games[2].deal != first.deal
    assert round_robin(["a", "b", "c"], 4, Pairing.DUPLICATE) == games


def test_independent_games_have_their_own_deals_and_alternate_the_first_mano() -> None:
    games = round_robin(["a", "b"], 5, Pairing.INDEPENDENT)
    assert [g.bot0 for g in games] == ["a", "b", "a", "b", "a"]
    assert len({g.deal for g in games}) == 5
    assert all(g.pair_index == NO_PAIR and g.after is None for g in games)


def test_secret_derivations_are_stable_distinct_and_keyed() -> None:
    s1, s2 = TournamentSecret.from_seed(42), TournamentSecret.from_seed(43)
    assert TournamentSecret.from_seed(42) == s1 and s1 != s2
    assert s1.deal_seed("a|b#0") == TournamentSecret.from_hex(s1.hex).deal_seed("a|b#0")
    assert s1.deal_seed("a|b#0") != s2.deal_seed("a|b#0")
    # The two halves of a pair: unrelated ids and rng seeds.
    assert s1.game_id("a|b#0a")[:-1] != s1.game_id("a|b#0b")[:-1]
    assert s1.rng_seed("a|b#0a", 0) != s1.rng_seed("a|b#0b", 1)
    assert "a|b" not in s1.game_id("a|b#0a") and len(s1.game_id("a|b#0a")) == 24
    assert TournamentSecret.fresh() != TournamentSecret.fresh()
    assert s1.hex not in repr(s1)


def test_pairing_defaults_follow_who_launches_the_bots() -> None:
    launched = {"bots": [{"name": "x", "command": "python -m sample_bots.random_bot"},
                         {"name": "y", "command": "python -m sample_bots.random_bot"}]}
    assert parse_config(launched).pairing is Pairing.DUPLICATE
    external = {"bots": [{"name": "x", "command": "python -m sample_bots.random_bot"}, {"name": "y"}]}
    assert parse_config(external).pairing is Pairing.INDEPENDENT
    assert parse_config({**external, "pairing": "duplicate"}).pairing is Pairing.DUPLICATE
    assert parse_config({**launched, "pairing": "independent", "games_per_pairing": 3}).games_per_pairing == 3
    with pytest.raises(ConfigError, match="^pairing: "):
        parse_config({**launched, "pairing": "twins"})
    with pytest.raises(ConfigError, match="^games_per_pairing: must be even"):
        parse_config({**launched, "games_per_pairing": 3})
