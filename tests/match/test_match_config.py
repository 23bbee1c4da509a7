"""Match and gauntlet configs: every mistake is one line naming its key,
refused before anything runs (exit 2, no database written)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.games.settings import ConfigError
from arena.tournament.config import parse_config
from arena.tournament.formats.match_plan import DEFAULT_MAX_GAMES

RANDOM = "python -m sample_bots.random_bot"


def _raw(keys: dict[str, object] | None = None, bots: int = 2, **more: object) -> dict[str, object]:
    return {"format": "match", "bots": [{"name": f"r{i}", "command": RANDOM} for i in range(bots)],
            **(keys or {}), **more}


@pytest.mark.parametrize("keys,key", [
    ({"sprt": {"elo0": 10, "elo1": 0}}, "sprt.elo0"),
    ({"sprt": {"elo0": 0, "elo1": 10, "alpha": 0.7}}, "sprt.alpha"),
    ({"sprt": {"elo0": 0, "elo1": 10, "beta": 0}}, "sprt.beta"),
    ({"sprt": {"elo0": 0, "elo1": "ten"}}, "sprt.elo1"),
    ({"sprt": {"elo0": 0, "elo1": 2000}}, "sprt.elo1"),
    ({"sprt": {"elo0": 0, "elo1": float("nan")}}, "sprt.elo1"),
    ({"sprt": {"elo0": 0}}, "sprt.elo1"),
    ({"sprt": {"elo0": 0, "elo1": 10, "model": "bayes"}}, "sprt.model"),
    ({"sprt": {"elo0": 0, "elo1": 10, "gamma": 1}}, "sprt.gamma"),
    ({"sprt": 5}, "sprt"),
    ({"sprt": {"elo0": 0, "elo1": 10}, "games": 10}, "sprt, games"),
    ({}, "sprt, games"),
    ({"games": 7}, "games"),
    ({"games": True}, "games"),
    ({"sprt": {"elo0": 0, "elo1": 10}, "max_games": 0}, "max_games"),
    ({"games": 10, "max_games": 100}, "max_games"),
    ({"games": 10, "games_per_pairing": 10}, "games_per_pairing"),
    ({"games": 10, "challenger": "r0"}, "challenger"),
    ({"games": 10, "pairing": "independent"}, "pairing"),
    ({"format": "knockout", "games": 10}, "format"),
    ({"format": "swiss", "games": 10}, "games"),
    ({"format": "round_robin", "sprt": {"elo0": 0, "elo1": 10}}, "sprt"),
    ({"format": "gauntlet", "games": 10, "challenger": "nobody"}, "challenger"),
])
def test_a_bad_match_key_is_named(keys: dict[str, object], key: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(_raw(keys))
    assert str(caught.value).startswith(f"{key}:"), caught.value
    assert "\n" not in str(caught.value)


def test_a_match_is_two_bots() -> None:
    with pytest.raises(ConfigError, match=r"^bots: format = \"match\" needs exactly two bots, got 3$"):
        parse_config(_raw(bots=3, games=10))


def test_good_plans() -> None:
    plan = parse_config(_raw(sprt={"elo0": -5, "elo1": 5, "alpha": 0.01})).match
    assert plan is not None and plan.bounds is not None
    assert (plan.challenger, plan.opponents, plan.games) == ("r0", ("r1",), DEFAULT_MAX_GAMES)
    assert (plan.bounds.elo0, plan.bounds.elo1, plan.bounds.alpha, plan.bounds.beta) == (-5, 5, 0.01, 0.05)
    gauntlet = parse_config(_raw(bots=4, format="gauntlet", challenger="r2", games=6)).match
    assert gauntlet is not None
    assert (gauntlet.challenger, gauntlet.opponents, gauntlet.bounds, gauntlet.pairs) == ("r2", ("r0", "r1", "r3"),
                                                                                          None, 3)
    assert parse_config(_raw(format="round_robin")).match is None


def test_the_cli_refuses_a_bad_config_in_one_line(tmp_path: Path) -> None:
    cfg = tmp_path / "m.toml"
    cfg.write_text('format = "match"\nsprt = { elo0 = 0, elo1 = 10, alpha = 0.5 }\n'
                   + "".join(f'[[bots]]\nname = "r{i}"\ncommand = "{RANDOM}"\n' for i in range(2)))
    res = CliRunner().invoke(main, ["tournament", "run", str(cfg), "--no-progress"])
    assert res.exit_code == 2, res.output
    assert res.stderr.strip() == (f"error: {cfg}: sprt.alpha: alpha must be greater than 0 and less than 0.5, "
                                  "got 0.5")
    assert not cfg.with_suffix(".sqlite").exists()


@pytest.mark.parametrize("args,text", [
    (["--sprt", "10", "0"], "--sprt elo0"),
    (["--sprt", "0", "10", "--beta", "1"], "--beta"),
    (["--games", "7"], "--games"),
    (["--games", "8", "--sprt", "0", "10"], "--games N and --sprt"),
    ([], "--games N and --sprt"),
    (["--sprt", "0", "10", "--max-games", "3"], "--max-games"),
])
def test_the_match_command_refuses_bad_options_in_one_line(tmp_path: Path, args: list[str], text: str) -> None:
    res = CliRunner().invoke(main, ["match", "random", "heuristic", "--db", str(tmp_path / "m.sqlite"), *args])
    assert res.exit_code == 2, res.output
    assert len(res.stderr.strip().splitlines()) == 1 and text in res.stderr, res.stderr
    assert "Traceback" not in res.stderr and not (tmp_path / "m.sqlite").exists()
