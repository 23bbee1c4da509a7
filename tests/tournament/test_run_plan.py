"""A run plan apart from the config: what one run takes from the machine and
the command line (workers, Ray) is resolved at its start and
never written into the config, so the results file keeps the config as its
file said it and two configs that differ only in how games are spread are
the same tournament."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.games.store import ResultsStore
from arena.tournament.config import parse_config
from arena.tournament.scale import RunPlan, ScaleOut, default_workers

BOTS = [{"name": n, "command": "python -m sample_bots.random_bot"} for n in ("a", "b")]


def test_the_command_line_goes_over_the_config_and_the_machine_fills_in_the_rest() -> None:
    assert RunPlan.of(ScaleOut()).scale.workers == default_workers()  # counted at the start of a run
    assert RunPlan.of(ScaleOut(workers=3)).scale.workers == 3
    assert RunPlan.of(ScaleOut(workers=3), workers=2).scale.workers == 2
    ray = RunPlan.of(ScaleOut(batch_pairs=7), ray_address="10.0.0.5:6379").scale
    assert ray == ScaleOut(workers=None, ray_address="10.0.0.5:6379", batch_pairs=7)  # the cluster's CPUs
    # Whether workers were asked for (a match spreads only then), by the file or the command line.
    assert not RunPlan.of(ScaleOut()).asked
    assert RunPlan.of(ScaleOut(workers=3)).asked and RunPlan.of(ScaleOut(), workers=2).asked
    assert RunPlan.of(ScaleOut(), ray_address="auto").asked


def test_how_games_are_spread_makes_no_two_tournaments_differ() -> None:
    one = parse_config({"bots": BOTS, "workers": 2})
    assert one == parse_config({"bots": BOTS, "ray": "auto", "batch_pairs": 3})
    assert one == dataclasses.replace(one, scale=ScaleOut(workers=9))
    assert one != parse_config({"bots": BOTS, "workers": 2, "games_per_pairing": 4})


@pytest.mark.integration
def test_the_results_file_keeps_the_config_not_the_command_line(tmp_path: Path) -> None:
    cfg = tmp_path / "t.toml"
    cfg.write_text('sandbox = "none"\ngames_per_pairing = 2\n[options]\ntarget = 9\n'
                   + "".join(f'[[bots]]\nname = "{b["name"]}"\ncommand = "{b["command"]}"\n' for b in BOTS))
    res = CliRunner().invoke(main, ["tournament", "run", str(cfg), "--workers", "1", "--no-progress", "--json"])
    assert res.exit_code == 0, res.output
    with ResultsStore.open_existing(tmp_path / "t.sqlite") as store:
        stored = store.get_meta("config")
        assert store.count() == 2
    assert "workers" not in stored and stored["games_per_pairing"] == 2
