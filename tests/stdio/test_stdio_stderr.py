"""What a bot writes to stderr while deciding is kept beside that move, for
the organizer: ``replay`` shows it under the move (made printable), its
JSON export carries it, a seat's view (``--seat``) and another bot never get
it. A real tournament with a stdio bot behind the bridge."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.games.store import ResultsStore

pytestmark = pytest.mark.integration

BOT = Path(__file__).resolve().parents[1] / "web" / "stderr_stdio_bot.py"


def test_replay_shows_each_decisions_stderr_under_its_move(tmp_path: Path) -> None:
    config = tmp_path / "talk.toml"
    config.write_text("\n".join([
        'name = "talk"', 'variant = "uruguayo"', "games_per_pairing = 2", "seed = 4", 'sandbox = "none"',
        "[options]", "target = 6",
        "[[bots]]", 'name = "talker"', f'command = ["{sys.executable}", "{BOT}"]', 'protocol = "stdio"',
        "[[bots]]", 'name = "random"', 'command = "python -m sample_bots.random_bot"',
    ]) + "\n")
    runner = CliRunner()
    assert runner.invoke(main, ["tournament", "run", str(config), "--no-progress"]).exit_code == 0
    db = config.with_suffix(".sqlite")
    with ResultsStore.open_existing(db) as store:
        row = next(r for r in store.games() if r.bot0 == "talker")
    talker = [i for i, a in enumerate(row.actions) if a.startswith("0 ")]
    assert [i for i, _ in row.stderr] == talker  # one note per decision of the talker, at its index
    # One program plays many games: its count runs on, one a decision, in order.
    counts = [int(text.split()[1]) for _, text in row.stderr]
    assert counts == list(range(counts[0], counts[0] + len(counts)))
    assert all(" <b>bold</b> " in text for _, text in row.stderr)

    text = runner.invoke(main, ["replay", str(db), row.game_id]).output
    lines = text.splitlines()
    first = talker[0]
    at = next(k for k, line in enumerate(lines) if line.strip().startswith(f"{first + 1}. seat 0 (talker):"))
    assert lines[at + 1].strip().startswith("stderr| decision") and "holding" in lines[at + 1]

    export = json.loads(runner.invoke(main, ["replay", str(db), row.game_id, "--json"]).output)
    assert export["steps"][first]["stderr"] == dict(row.stderr)[first]
    assert all(s["stderr"] == "" for s in export["steps"] if s["seat"] == 1)
    for seat in ("0", "1"):  # what a seat's record shows: none of it, not even its own
        seen = runner.invoke(main, ["replay", str(db), row.game_id, "--seat", seat, "--json"]).output
        assert "bold" not in seen and "stderr|" not in runner.invoke(
            main, ["replay", str(db), row.game_id, "--seat", seat]).output

