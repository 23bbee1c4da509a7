"""``truco-arena play``: a person plays whole games against a bot in Debian's
Chromium, clicking the page's buttons, through the real CLI, arena and
sandbox: two seats in each variant (in uruguayo in seat 1, and a second game
asked for on the page), and a four-seat argentino game in seat 2 beside a
partner bot. The stored games replay to their results, and no card the
person's seat may not see reaches the page's messages or the live part of
its DOM."""

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
from arena.replay.replayer import replay
from arena.web.person_seat import card_label

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("browser")]

TARGET = 12
LIVE_PARTS = ("hand", "up", "tricks", "history", "actions")  # what shows the hand being played


def _start(tmp_path: Path, variant: str, target: int, *extra: str) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, "-c", "from arena.cli import main; main()", "play", "random", "--variant", variant,
         "--target", str(target), "--games", "1", "--no-browser", "--seed", "5", "--db", str(tmp_path / "play.sqlite"),
         *extra],
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


def _play_to_the_end(browser: webdriver.Chrome, url: str, rng: random.Random, number: int = 1
                     ) -> list[tuple[dict[str, object], str]]:
    """Click random offered actions until game ``number`` is over; every
    state the page could read and the live DOM at each decision."""
    seen: list[tuple[dict[str, object], str]] = []
    reloaded = number > 1
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        if f"Game {number}:" in browser.find_element(By.ID, "result").text:
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


def _end_session(browser: webdriver.Chrome, proc: subprocess.Popen[str], number: int) -> None:
    result = browser.find_element(By.ID, "result")
    deadline = time.monotonic() + 10
    while f"Game {number}:" not in result.text and time.monotonic() < deadline:
        time.sleep(0.1)
    assert f"Game {number}:" in result.text
    browser.find_element(By.ID, "end-button").click()
    assert proc.wait(timeout=60) == 0, proc.stderr.read() if proc.stderr else ""


def _check_hidden(seen: list[tuple[dict[str, object], str]], game: object, person: int) -> int:
    """No card of another seat that is not on the table is in a state the
    page read or in its live DOM; how many such cards were checked."""
    checked = 0
    for state, live in seen:
        obs = state["obs"]
        assert isinstance(obs, dict)
        hand = game.hands[obs["hand_number"] - 1]  # type: ignore[attr-defined]
        played = {p["card"]["text"] for trick in obs["tricks"] for p in trick}
        hidden = [c for seat, cards in enumerate(hand.deal) if seat != person for c in cards or ()
                  if c.text not in played]
        text = json.dumps(obs)
        for card in hidden:
            assert f'"text": "{card.text}"' not in text, (card, obs)
            assert not re.search(rf"(?<!\d){card_label(card)}", live), (card, live)
            checked += 1
    return checked


@pytest.mark.parametrize("variant", ["uruguayo", "argentino", "venezolano"])
def test_a_person_plays_a_whole_game(browser: webdriver.Chrome, tmp_path: Path, variant: str) -> None:
    # In uruguayo the person takes seat 1 and asks for a second game on the page.
    games = 2 if variant == "uruguayo" else 1
    proc, url = _start(tmp_path, variant, TARGET, *(["--seat", "1"] if games == 2 else []))
    seen: list[list[tuple[dict[str, object], str]]] = []
    try:
        # Without the session's key the page gives nothing.
        assert _get(url.replace("/s/", "/s/x") + "state")[0] == 403
        browser.get(url)
        seen.append(_play_to_the_end(browser, url, random.Random(variant)))
        assert len(seen[0]) >= 3
        if games == 2:
            browser.find_element(By.ID, "another-button").click()
            # The click's request is asynchronous: wait until the page has its
            # answer (it hides the button's row) before a second request.
            deadline = time.monotonic() + 10
            while browser.find_element(By.ID, "last").is_displayed() and time.monotonic() < deadline:
                time.sleep(0.05)
            assert not browser.find_element(By.ID, "last").is_displayed()
            code, body = _get(url + "more/1")  # a second click asks for no third game
            assert code == 409, body
            seen.append(_play_to_the_end(browser, url, random.Random(1), number=2))
        _end_session(browser, proc, games)
    finally:
        proc.kill()
        proc.wait()
    with ResultsStore.open_existing(tmp_path / "play.sqlite") as store:
        rows = list(store.games())
    assert len(rows) == games
    options = make_options(variant, {"target": TARGET})
    for row, states in zip(sorted(rows, key=lambda r: r.game_key), seen):
        game = replay(options, row.seed, row.actions, bots=(row.bot0, row.bot1))
        assert max(game.hands[-1].end_scores) >= TARGET
        assert tuple(game.hands[-1].end_scores) == (row.score0, row.score1)
        person = 0 if row.bot0 == "you" else 1
        if games == 2:
            assert person == 1
        assert _check_hidden(states, game, person) > 0


def test_a_person_in_a_four_seat_game(browser: webdriver.Chrome, tmp_path: Path) -> None:
    """Seat 2 of four: the person's partner (seat 0) is a sample bot, the
    other team the launched bot; the person sees only their own cards."""
    proc, url = _start(tmp_path, "argentino", 9, "--seats", "4", "--seat", "2")
    try:
        browser.get(url)
        seen = _play_to_the_end(browser, url, random.Random(4))
        assert all(s["obs"]["seat"] == 2 for s, _ in seen)  # type: ignore[index]
        assert "you are seat 2 with a partner in seat 0 against random" in browser.find_element(By.ID, "status").text
        _end_session(browser, proc, 1)
    finally:
        proc.kill()
        proc.wait()
    with ResultsStore.open_existing(tmp_path / "play.sqlite") as store:
        (row,) = list(store.games())
    assert (row.bot0, row.bot1) == ("you", "random")
    game = replay(make_options("argentino", {"target": 9, "seats": 4}), row.seed, row.actions,
                  bots=(row.bot0, row.bot1))
    assert max(game.hands[-1].end_scores) >= 9
    assert tuple(game.hands[-1].end_scores) == (row.score0, row.score1)
    assert _check_hidden(seen, game, 2) > 0
