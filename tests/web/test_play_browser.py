"""``truco-arena play``: a person plays a whole game against a bot in Debian's
Chromium, clicking the page's buttons, through the real CLI, arena and
sandbox. The stored game replays to its result, and no card the person's
seat may not see reaches the page's messages or the live part of its DOM."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By

from arena.engine import make_options
from arena.games.store import ResultsStore
from arena.replay.replay import replay
from arena.web.play import card_label

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("browser")]

TARGET = 12
LIVE_PARTS = ("hand", "up", "tricks", "history", "actions")  # what shows the hand being played


def _start(tmp_path: Path, variant: str, target: int) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, "-c", "from arena.cli import main; main()", "play", "random", "--variant", variant,
         "--target", str(target), "--games", "1", "--no-browser", "--seed", "5", "--db", str(tmp_path / "play.sqlite")],
        stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    assert proc.stderr is not None
    line = proc.stderr.readline()
    assert line.startswith("play at http://"), line
    return proc, line.split()[-1]


def _get(url: str) -> tuple[int, dict[str, object]]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        body = e.read()
        return e.code, json.loads(body) if body.startswith(b"{") else {"text": body.decode()}


def _live_text(browser: webdriver.Chrome) -> str:
    return " ".join(browser.find_element(By.ID, part).text for part in LIVE_PARTS)


def _play_to_the_end(browser: webdriver.Chrome, url: str, rng: random.Random) -> list[tuple[dict[str, object], str]]:
    """Click random offered actions until the game is over; every state the
    page could read and the live DOM at each decision."""
    seen: list[tuple[dict[str, object], str]] = []
    reloaded = False
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        if "Game 1:" in browser.find_element(By.ID, "result").text:
            return seen
        buttons = browser.find_elements(By.CSS_SELECTOR, "#actions button:not([disabled])")
        if not buttons:
            time.sleep(0.1)
            continue
        _, state = _get(url + "state")
        if "obs" not in state:
            continue
        seen.append((state, _live_text(browser)))
        if not reloaded and len(seen) == 3:  # a reload in the middle of a hand shows the same open decision
            browser.refresh()
            reloaded = True
            # A click on a decision already answered is refused with a message.
            code, body = _get(url + "act/1/mazo")
            assert code == 409 and "no longer open" in str(body["error"])
            continue
        # Mostly cards, so that a game lasts a few hands; any offered action otherwise.
        # Declining a bet mostly, too: an accepted falta envido can end the game at once.
        cards = [b for b in buttons if "card-action" in (b.get_attribute("class") or "")]
        declines = [b for b in buttons if b.text == "No quiero"]
        preferred = cards or declines
        rng.choice(preferred if preferred and rng.random() < 0.8 else buttons).click()
        time.sleep(0.05)
    raise AssertionError("the game did not end in time")


@pytest.mark.parametrize("variant", ["uruguayo", "argentino", "venezolano"])
def test_a_person_plays_a_whole_game(browser: webdriver.Chrome, tmp_path: Path, variant: str) -> None:
    proc, url = _start(tmp_path, variant, target=TARGET)
    try:
        # Without the session's key the page gives nothing.
        assert _get(url.replace("/s/", "/s/x") + "state")[0] == 403
        browser.get(url)
        seen = _play_to_the_end(browser, url, random.Random(variant))
        assert len(seen) >= 3
        result = browser.find_element(By.ID, "result")
        deadline = time.monotonic() + 10
        while "Game 1:" not in result.text and time.monotonic() < deadline:
            time.sleep(0.1)
        assert "Game 1:" in result.text and "last game" in result.text
        assert proc.wait(timeout=60) == 0, proc.stderr.read() if proc.stderr else ""
    finally:
        proc.kill()
        proc.wait()
    with ResultsStore.open_existing(tmp_path / "play.sqlite") as store:
        (row,) = list(store.games())
    options = make_options(variant, {"target": TARGET})
    game = replay(options, row.seed, row.actions, bots=(row.bot0, row.bot1), mano=row.mano)
    assert max(game.hands[-1].end_scores) >= TARGET
    assert tuple(game.hands[-1].end_scores) == (row.score0, row.score1)
    person = 0 if row.bot0 == "you" else 1
    checked = 0
    for state, live in seen:
        obs = state["obs"]
        assert isinstance(obs, dict)
        hand = game.hands[obs["hand_number"] - 1]
        bot_cards = hand.deal[1 - person] or ()
        played = {p["card"]["text"] for trick in obs["tricks"] for p in trick}
        hidden = [c for c in bot_cards if c.text not in played]
        text = json.dumps(obs)
        for card in hidden:
            assert f'"text": "{card.text}"' not in text, (card, obs)
            assert not re.search(rf"(?<!\d){card_label(card)}", live), (card, live)
            checked += 1
    assert checked > 0
