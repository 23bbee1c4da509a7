"""A bot whose ``choose()`` raises keeps playing: the SDK reports the error on
the bot's stderr (with the game id and the observation) and plays the first
legal action, marking its Move as a fallback, which the arena counts per bot
in the results (the failures view, the report). Real tournament through the
CLI, real bot subprocesses."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.games.store import ResultsStore

pytestmark = pytest.mark.integration

# Raises on every third decision of the process; plays randomly otherwise.
FLAKY = '''
from sample_bots.random_bot import RandomBot
from sdk import main


class Flaky(RandomBot):
    name = "flaky"
    calls = 0

    def choose(self, obs):
        Flaky.calls += 1
        if Flaky.calls % 3 == 0:
            raise ZeroDivisionError("a bug in the bot")
        return super().choose(obs)


main(Flaky)
'''


def test_a_bot_whose_choose_raises_keeps_playing(tmp_path: Path) -> None:
    (tmp_path / "bot").mkdir()
    (tmp_path / "bot" / "flaky.py").write_text(FLAKY)
    path = tmp_path / "flaky.toml"
    path.write_text("\n".join([
        'variant = "uruguayo"', "games_per_pairing = 2", "seed = 4", "concurrency = 2",
        "[options]", "target = 9",
        "[[bots]]", 'name = "flaky"', 'command = ["python", "flaky.py"]', f'dir = "{tmp_path / "bot"}"',
        "[[bots]]", 'name = "random"', 'command = "python -m sample_bots.random_bot"',
    ]) + "\n")
    res = CliRunner().invoke(main, ["tournament", "run", str(path), "--no-progress"])
    assert res.exit_code == 0, res.output + res.stderr
    with ResultsStore.open_existing(path.with_suffix(".sqlite")) as store:
        rows = list(store.games())
    # Both games were played to the end: the exceptions cost no game.
    assert len(rows) == 2 and all(r.termination == "target_reached" and r.faulty_bot is None for r in rows)
    # Its log: CONFIG-logs/flaky.log, or CONFIG-logs/worker-N/flaky.log for a worker's copy of the bot.
    log = "".join(p.read_text() for p in sorted((tmp_path / "flaky-logs").glob("**/flaky.log")))
    reports = [line for line in log.splitlines() if "choose() raised in game" in line]
    assert reports, log
    assert "ZeroDivisionError: a bug in the bot" in log and "observation: Observation(" in log
    # The bot never saw the games' keys, only their opaque ids, and those are what it reports.
    game_ids = {line.split("choose() raised in game ")[1].split(";")[0] for line in reports}
    assert all(len(g) >= 8 and "|" not in g for g in game_ids)
    # Every fallback was marked on its Move, stored with the game and counted per bot.
    assert sum(r.fallbacks0 if r.bot0 == "flaky" else r.fallbacks1 for r in rows) == len(reports)
    assert sum(r.fallbacks1 if r.bot0 == "flaky" else r.fallbacks0 for r in rows) == 0
    view = CliRunner().invoke(main, ["standings", str(path.with_suffix(".sqlite")), "--view", "failures", "--json"])
    assert view.exit_code == 0, view.output
    table = json.loads(view.stdout)["failures"]
    by_bot = {r["bot"]: r for r in table["rows"]}
    assert by_bot["flaky"]["fallbacks"] == len(reports) and by_bot["random"]["fallbacks"] == 0
    report = CliRunner().invoke(main, ["report", str(path.with_suffix(".sqlite")), "-o", str(tmp_path / "report")])
    assert report.exit_code == 0, report.output
    index = (tmp_path / "report" / "index.html").read_text()
    failures = index[index.index('<section id="failures">'):index.index('<section id="games">')]
    assert f"<td>flaky</td><td>0</td><td>0</td><td>0</td><td>0</td><td>0</td><td>{len(reports)}</td>" in failures
