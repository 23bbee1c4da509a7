"""Tournament configuration: valid files load, typos name the key."""

from __future__ import annotations

import math
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.games.schedule import NO_PAIR, Pairing
from arena.games.seeds import TournamentSecret
from arena.games.settings import MAX_BANK_SECONDS, MAX_MOVE_SECONDS, ConfigError
from arena.server import TimeControl
from arena.tournament.config import _TOP, check_environment, load_config, parse_config
from arena.tournament.formats.round_robin import round_robin
from arena.tournament.runner import schedule_of

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


def test_alternate_seats_false_keeps_the_first_bot_in_seat_0() -> None:
    external = {"bots": [{"name": "x"}, {"name": "y", "command": "python -m sample_bots.random_bot"}],
                "games_per_pairing": 4}
    assert parse_config(external).alternate_seats is True
    config = parse_config({**external, "alternate_seats": False})
    assert [g.bot0 for g in schedule_of(config)] == ["x"] * 4
    assert [g.bot0 for g in round_robin(["a", "b"], 3, Pairing.INDEPENDENT, alternate=False)] == ["a"] * 3
    with pytest.raises(ConfigError, match="^alternate_seats: expected true or false"):
        parse_config({**external, "alternate_seats": "no"})
    with pytest.raises(ConfigError, match="^alternate_seats: only with pairing"):
        parse_config({**external, "alternate_seats": False, "pairing": "duplicate"})


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


def _two_bots(first_name: str = "x") -> list[dict[str, Any]]:
    return [{"name": first_name, "command": "python -m sample_bots.random_bot"},
            {"name": "y", "command": "python -m sample_bots.random_bot"}]


@pytest.mark.parametrize("key", ["move_seconds", "bank_seconds"])
@pytest.mark.parametrize("value", [math.inf, -math.inf, math.nan, -1.0, 1e10, 10**30])
def test_absurd_clock_values_are_refused(key: str, value: float) -> None:
    with pytest.raises(ConfigError, match=f"^time_control.{key}: must be a finite number"):
        parse_config({"time_control": {key: value}, "bots": _two_bots()})


def test_clock_bounds_are_inclusive_where_documented() -> None:
    cfg = parse_config({"time_control": {"move_seconds": MAX_MOVE_SECONDS, "bank_seconds": 0},
                        "bots": _two_bots()})
    assert cfg.time_control == TimeControl(move_time=MAX_MOVE_SECONDS, bank=0.0)
    with pytest.raises(ConfigError, match="^time_control.move_seconds"):
        parse_config({"time_control": {"move_seconds": 0}, "bots": _two_bots()})
    with pytest.raises(ConfigError, match="^time_control.bank_seconds"):
        parse_config({"time_control": {"bank_seconds": MAX_BANK_SECONDS + 1}, "bots": _two_bots()})


def test_a_schedule_too_large_to_build_is_refused_before_building_it() -> None:
    many_bots = [{"name": f"b{i}", "command": "x"} for i in range(100)]  # 4950 pairings
    with pytest.raises(ConfigError, match="^games_per_pairing: .* more than the 10000000"):
        parse_config({"games_per_pairing": 2 * 10**9, "bots": _two_bots()})
    with pytest.raises(ConfigError, match="^games_per_pairing: "):
        parse_config({"games_per_pairing": 2030, "bots": many_bots})
    assert parse_config({"games_per_pairing": 2020, "bots": many_bots}).games_per_pairing == 2020


@pytest.mark.parametrize("name", ["a/b", "niño", "x" * 65, "-dash", "", "two words", "a\x00b"])
def test_bot_names_the_tokens_would_refuse_are_refused(name: str) -> None:
    with pytest.raises(ConfigError, match=r"^bots\[0\].name: "):
        parse_config({"bots": _two_bots(name)})
    assert parse_config({"bots": _two_bots("x" * 64)}).bots[0].name == "x" * 64


@pytest.mark.parametrize("address", ["localhost", "127.0.0.1:", ":50051", "127.0.0.1:70000", "127.0.0.1:-1",
                                     "::1:50051", "host:port", "127.0.0.1:5e3", "a b:1", "127.0.0.1:٣"])
def test_unparseable_addresses_are_refused(address: str) -> None:
    with pytest.raises(ConfigError, match="^address: "):
        parse_config({"address": address, "bots": _two_bots()})


@pytest.mark.parametrize("address", ["127.0.0.1:0", "0.0.0.0:50051", "[::1]:50051", "[::]:0", "arena.local:65535"])
def test_good_addresses_load(address: str) -> None:
    assert parse_config({"address": address, "bots": _two_bots()}).address == address


def test_token_file_must_be_a_file(tmp_path: Path) -> None:
    bots = [{"name": "x", "command": "python -m sample_bots.random_bot"}, {"name": "y"}]
    for path, why in ((tmp_path, "is a directory"), (tmp_path / "none.txt", "no token file")):
        cfg = parse_config({"tokens": str(path), "bots": bots})
        with pytest.raises(ConfigError, match=f"^tokens: .*{why}"):
            check_environment(cfg)
    (tmp_path / "bad.txt").write_text("only-one-field\n")
    with pytest.raises(ConfigError, match="^tokens: "):
        check_environment(parse_config({"tokens": str(tmp_path / "bad.txt"), "bots": bots}))


def test_a_bot_program_missing_from_path_is_found_before_the_run() -> None:
    cfg = parse_config({"bots": [{"name": "x", "command": "no-such-program-here --flag"},
                                 {"name": "y", "command": ["python", "-m", "sample_bots.random_bot"]}]})
    with pytest.raises(ConfigError, match=r"^bots\[0\].command: program 'no-such-program-here' not found on PATH"):
        check_environment(cfg)
    check_environment(parse_config({"bots": _two_bots()}))  # "python" is the arena's own interpreter


# ------------------------------------------------------------ property test
_scalars = (st.integers(min_value=-(2**63), max_value=2**63 - 1) | st.floats() | st.booleans()
            | st.text(max_size=70) | st.none())
_values = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=4)
                       | st.dictionaries(st.text(max_size=12), inner, max_size=4), max_leaves=12)
_keys = st.sampled_from(sorted(_TOP)) | st.text(max_size=12)
_bot = st.fixed_dictionaries({}, optional={"name": _values | st.text(max_size=70),
                                           "command": _values | st.just("python -m x"),
                                           "extra": _values})
_document = st.dictionaries(_keys, _values, max_size=8) | st.fixed_dictionaries(
    {"bots": st.lists(_bot | _values, max_size=4)},
    optional={"time_control": st.dictionaries(st.sampled_from(["move_seconds", "bank_seconds", "x"]), _values),
              "options": st.dictionaries(st.sampled_from(["target", "seats", "flor", "falta_envido", "pico_a_pico"]),
                                         _values),
              "games_per_pairing": _values, "pairing": _values, "address": _values, "tokens": _values,
              "variant": st.sampled_from(["argentino", "uruguayo", "venezolano"]) | _values,
              "seed": _values, "concurrency": _values, "name": _values})


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_document)
def test_any_document_is_a_config_or_a_config_error(data: dict[str, Any]) -> None:
    try:
        cfg = parse_config(data)
    except ConfigError as exc:
        assert str(exc).isprintable()  # one line on stderr
        return
    assert len(cfg.bots) >= 2 and cfg.games_per_pairing >= 1


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300) | st.builds(lambda a, b: GOOD[:a] + b + GOOD[a:], st.integers(0, len(GOOD)),
                                         st.text(max_size=20)))
def test_any_file_is_a_config_or_a_config_error(text: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "t.toml"
        path.write_bytes(text.encode("utf-8", "surrogatepass"))
        try:
            load_config(path)
        except ConfigError as exc:
            assert str(exc).isprintable()


@pytest.mark.parametrize("seats", [4, 6])
def test_team_games_load_with_one_bot_per_team(seats: int) -> None:
    import tomllib

    text = GOOD.replace('variant = "uruguayo"', 'variant = "argentino"').replace(
        "target = 15", f"target = 15\nseats = {seats}")
    cfg = parse_config(tomllib.loads(text))
    assert cfg.options.seats == seats and cfg.seats_per_bot == seats // 2
    assert cfg.options.pico_a_pico == (seats == 6)


def test_absent_wait_defaults_to_a_minute_and_is_bounded() -> None:
    import tomllib

    assert parse_config(tomllib.loads(GOOD)).absent_wait == 60.0
    assert parse_config(tomllib.loads("absent_wait_seconds = 0\n" + GOOD)).absent_wait == 0.0
    assert parse_config(tomllib.loads("absent_wait_seconds = 2.5\n" + GOOD)).absent_wait == 2.5
    for bad in ("-1", "inf", "nan", '"soon"', "1e9", "true"):
        with pytest.raises(ConfigError) as err:
            parse_config(tomllib.loads(f"absent_wait_seconds = {bad}\n" + GOOD))
        assert str(err.value).startswith("absent_wait_seconds"), str(err.value)
