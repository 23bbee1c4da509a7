"""Team games (4 and 6 seats) in tournaments, end to end through the CLI:
real arena over loopback, real bot subprocesses, a real SQLite file.

One of the bots logs, from inside its processes, which process sat in which
seat of which game: the partners of a team game must be different processes,
or they could share their hands."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.engine import Game
from arena.engine.actions import Action
from arena.games.store import ResultsStore
from arena.tournament.config import load_config
from arena.tournament.runner import schedule_of

pytestmark = pytest.mark.integration

# A random bot that appends "GAME_ID SEAT" to a file named after its process id.
SEAT_LOGGER = '''
import os
from sample_bots.random_bot import RandomBot
from sdk import main

LOG_DIR = {log_dir!r}


class SeatLogger(RandomBot):
    name = "logger"

    def on_game_start(self, game_id: str, seat: int, variant: str) -> None:
        with open(os.path.join(LOG_DIR, f"{{os.getpid()}}.txt"), "a") as out:
            out.write(f"{{game_id}} {{seat}}\\n")


main(SeatLogger)
'''


def _team_config(tmp_path: Path, seats: int) -> tuple[Path, Path]:
    seat_log = tmp_path / "seats"
    seat_log.mkdir()
    script = tmp_path / "seat_logger.py"
    script.write_text(SEAT_LOGGER.format(log_dir=str(seat_log)))
    path = tmp_path / f"teams{seats}.toml"
    path.write_text("\n".join([
        f'name = "teams{seats}"', 'variant = "argentino"', "games_per_pairing = 2", 'pairing = "duplicate"',
        # The logger writes its pid into the test's folder, which a sandbox
        # would hide; tests/sandbox shows partners apart in their sandboxes.
        "seed = 11", "concurrency = 2", 'sandbox = "none"',
        "[options]", f"seats = {seats}", "target = 9",
        "[time_control]", "move_seconds = 5.0", "bank_seconds = 30.0",
        "[[bots]]", 'name = "heuristic"', 'command = "python -m sample_bots.heuristic"',
        "[[bots]]", 'name = "random"', 'command = "python -m sample_bots.random_bot"',
        "[[bots]]", 'name = "logger"', f'command = ["python", "{script}"]',
    ]) + "\n")
    return path, seat_log


@pytest.mark.parametrize("seats", [4, 6])
def test_a_team_tournament_runs_through_the_cli_in_duplicate_pairs(tmp_path: Path, seats: int) -> None:
    path, seat_log = _team_config(tmp_path, seats)
    res = CliRunner().invoke(main, ["tournament", "run", str(path), "--no-progress"])
    assert res.exit_code == 0, res.output + res.stderr
    # The standings are printed, one line per bot.
    assert all(name in res.stdout for name in ("heuristic", "random", "logger")), res.stdout
    config = load_config(path)
    assert config.options.seats == seats and config.options.pico_a_pico == (seats == 6)
    with ResultsStore.open_existing(path.with_suffix(".sqlite")) as store:
        rows = list(store.games())
    assert {r.game_key for r in rows} == {g.key for g in schedule_of(config)} and len(rows) == 6
    by_key = {r.game_key: r for r in rows}
    for g in schedule_of(config):
        row = by_key[g.key]
        assert row.termination == "target_reached" and row.winner in (row.bot0, row.bot1)
        assert (row.winner == row.bot0) == (row.score0 > row.score1) and max(row.score0, row.score1) >= 9
        # The actions replay from the seed to the recorded result.
        state = Game(config.options).new_state(seed=row.seed)
        for line in row.actions:
            seat, _, text = line.partition(" ")
            assert state.current_player() == int(seat) < seats
            state.apply(Action.parse(text))
        assert state.is_terminal() and tuple(state.scores) == (row.score0, row.score1)
        if g.after is not None:  # duplicate: same deal as its twin, teams swapped
            twin = by_key[g.after]
            assert row.seed == twin.seed and (row.bot0, row.bot1) == (twin.bot1, twin.bot0)
    # Each seat the logger played in a game came from a different process.
    seats_by_game: dict[str, dict[int, str]] = defaultdict(dict)
    for log in seat_log.iterdir():
        for line in log.read_text().splitlines():
            game_id, seat = line.split()
            assert int(seat) not in seats_by_game[game_id]
            seats_by_game[game_id][int(seat)] = log.stem
    assert len(seats_by_game) == 4  # the logger played 4 of the 6 games
    for seat_pids in seats_by_game.values():
        assert len(seat_pids) == seats // 2
        assert len(set(seat_pids.values())) == seats // 2, seat_pids  # one process per seat
        assert len({s % 2 for s in seat_pids}) == 1  # all of one team
    # Ratings and views take team games as games between two bots.
    table = json.loads(CliRunner().invoke(main, ["standings", str(path.with_suffix(".sqlite")), "--json"]).stdout)
    assert {"heuristic", "random", "logger"} <= set(json.dumps(table).split('"'))
