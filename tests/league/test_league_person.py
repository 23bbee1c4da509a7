"""A person in the standing league: ``truco-arena play --league`` dials a
real ``serve`` process with the person's token; the league pairs the seat
like a bot's, the game is played through the page's routes, recorded and
rated, and ``standings`` marks the entrant as a person. The person thinks
longer than the league's clock allows a bot, on the person's clock
(``[persons] move_seconds``), and neither side is charged for it; a stale
click is refused."""

from __future__ import annotations

import json
import random
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from league_harness import CLI, REPO, League, env, run_cli, wait_until

pytestmark = pytest.mark.integration

CONFIG = """
[options]
target = 4

[time_control]
move_seconds = 0.5
bank_seconds = 0.5

[persons]
names = ["ana"]
move_seconds = 30
"""
THINK = 1.5  # seconds the person takes on some decisions: more than a bot's move time and bank together


def _get(url: str) -> tuple[int, dict[str, object]]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_a_person_is_paired_plays_is_rated_and_marked(tmp_path: Path) -> None:
    league = League(tmp_path, CONFIG)
    token_file = tmp_path / "ana.token"
    token_file.write_text(league.token("ana") + "\n")
    bot_token = league.token("rnd")
    person: subprocess.Popen[str] | None = None
    try:
        league.start()
        league.bot("rnd", bot_token)
        person = subprocess.Popen(
            [*CLI, "play", "--league", f"127.0.0.1:{league.port}", "--token-file", str(token_file), "--name", "ana",
             "--no-browser"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env(), cwd=REPO)
        assert person.stderr is not None
        url = person.stderr.readline().split()[-1]
        assert url.startswith("http://127.0.0.1:"), url
        rng, decisions, stale_refused, thought = random.Random(7), 0, False, 0
        deadline = time.monotonic() + 120
        state: dict[str, object] = {}
        while time.monotonic() < deadline:
            _, state = _get(url + "state")
            if state.get("previous"):
                break
            obs = state.get("obs")
            if not isinstance(obs, dict):
                time.sleep(0.05)
                continue
            decision = state["decision"]
            assert isinstance(decision, int)
            game = state["game"]
            assert isinstance(game, dict) and game["move_seconds"] == 30.0  # the person's clock
            if decision > 1 and not stale_refused:  # a click on a decision already answered
                code, body = _get(url + f"act/{decision - 1}/mazo")
                assert code == 409 and "no longer open" in str(body["error"])
                stale_refused = True
            if thought < 2:  # think longer than a bot may
                time.sleep(THINK)
                thought += 1
            legal = [a["action"] for a in obs["legal"]]
            cards = [a for a in legal if a.startswith("play ")]
            action = rng.choice(cards) if cards and rng.random() < 0.8 else rng.choice(legal)
            code, body = _get(url + f"act/{decision}/{urllib.parse.quote(action)}")
            assert code == 200, body
            decisions += 1
        assert state.get("previous"), "the person's game did not end in time"
        assert decisions >= 2 and stale_refused and thought == 2
        assert _get(url + "end")[0] == 200
        assert person.wait(timeout=30) == 0, person.stderr.read()
        wait_until(lambda: any("ana" in (r.bot0, r.bot1) for r in league.rows()), 30, "the game to be recorded")
        assert league.stop() in (0, 130, 143)
    finally:
        if person is not None and person.poll() is None:
            person.kill()
            person.wait()
        league.close()
    games = [r for r in league.rows() if "ana" in (r.bot0, r.bot1)]
    assert games and all({r.bot0, r.bot1} == {"ana", "rnd"} for r in games)
    first = games[0]
    # Played to its end, no one timed out: the person's thinking cost neither seat its clock.
    assert first.termination == "target_reached" and first.faulty_bot is None, first
    out = run_cli("standings", str(league.db), "--json")
    assert out.returncode == 0, out.stderr
    marks = {row["bot"]: row["person"] for row in json.loads(out.stdout)["standings"]["rows"]}
    assert marks == {"ana": "yes", "rnd": ""}
