"""A real small tournament, run once for the replay tests: the CLI, the arena
over loopback gRPC, sample bot subprocesses and a SQLite file."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main

BOTS = (
    ("random", "python -m sample_bots.random_bot"),
    ("heuristic", "python -m sample_bots.heuristic"),
    # plays an illegal card at its 3rd decision (counted per process): a game
    # or two end by a failure, cut short. Not later: which games each of its
    # processes plays depends on timing, and on a busy machine a process
    # once had too few decisions to reach its 7th, so no game ended by it.
    ("cheater", "python -m sample_bots.misbehaving --mode illegal --at 3"),
)


def run_tournament(directory: Path, bots: tuple[tuple[str, str], ...], games: int = 2, target: int = 12) -> Path:
    lines = ['name = "small"', 'variant = "uruguayo"', f"games_per_pairing = {games}", "seed = 11",
             "concurrency = 2", "[options]", f"target = {target}",
             "[time_control]", "move_seconds = 5.0", "bank_seconds = 30.0"]
    for name, command in bots:
        lines += ["[[bots]]", f'name = "{name}"', f'command = "{command}"']
    config = directory / "small.toml"
    config.write_text("\n".join(lines) + "\n")
    result = CliRunner().invoke(main, ["tournament", "run", str(config), "--no-progress"])
    assert result.exit_code == 0, result.output
    return config.with_suffix(".sqlite")


@pytest.fixture(scope="session")
def small_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return run_tournament(tmp_path_factory.mktemp("replay-tournament"), BOTS)
