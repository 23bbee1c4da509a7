"""The report in a real headless Chromium, opened from disk: the front page
draws its charts offline, and the replay viewer shows what the engine's
replay of the game says, hiding what a seat did not see."""

from __future__ import annotations

import re
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from arena.engine import Action, Card, Game, Kind
from arena.games.game_record import GameRecord
from arena.games.store import ResultsStore
from arena.replay import GameReplay, options_of, replay_row


def _first_game(db: Path) -> tuple[GameRecord, GameReplay, Game]:
    with ResultsStore.open_existing(db) as store:
        options = options_of(store.get_meta("config"))
        row = next(store.games())
    return row, replay_row(row, options), Game(options)


def _cards(browser: webdriver.Chrome, css: str) -> list[str]:
    return [str(e.get_attribute("data-card")) for e in browser.find_elements(By.CSS_SELECTOR, css)]


def _no_outside_requests(browser: webdriver.Chrome) -> None:
    # Files read from disk are not timed; any request that went out would be.
    urls = browser.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    assert not [u for u in urls if not str(u).startswith("file:")], urls


def test_front_page_draws_its_charts_from_disk(browser: webdriver.Chrome, report_dir: Path,
                                               artifacts: Path) -> None:
    browser.set_window_size(1300, 2600)
    browser.get((report_dir / "index.html").as_uri())
    wait = WebDriverWait(browser, 30)
    # Plotly draws an <svg class="main-svg"> once plotly.min.js, read from disk, has run.
    charts = "#chart-standings svg.main-svg, #chart-cross svg.main-svg, #chart-history svg.main-svg"
    wait.until(lambda b: len(b.find_elements(By.CSS_SELECTOR, charts)) >= 3)
    _no_outside_requests(browser)
    assert browser.find_elements(By.CSS_SELECTOR, "#chart-standings .errorbar")  # the 95% interval bars
    assert len(browser.find_elements(By.CSS_SELECTOR, "a.game-link")) == 2
    browser.save_screenshot(str(artifacts / "report-index.png"))


def test_viewer_steps_through_a_game_as_the_engine_replays_it(
        browser: webdriver.Chrome, report_dir: Path, report_db: Path, artifacts: Path) -> None:
    row, record, game = _first_game(report_db)
    browser.get((report_dir / "index.html").as_uri())
    browser.find_elements(By.CSS_SELECTOR, "a.game-link")[0].click()
    WebDriverWait(browser, 30).until(lambda b: b.find_elements(By.ID, "score-0"))
    assert row.game_id in browser.find_element(By.CSS_SELECTOR, "p.meta").text

    # The engine, independently: a step past the first hand that leaves its hand running,
    # preferably one with a call and a finished trick on the table (more for the page to show).
    state = game.new_state(seed=row.seed)
    running: list[int] = []
    busy: list[int] = []
    for index, text in enumerate(row.actions):
        before = state.hands_played
        state.apply(Action.parse(text.partition(" ")[2]))
        if before >= 1 and state.hands_played == before and not state.is_terminal():
            running.append(index)
            seen = state.observation(0)
            if seen.trick_winners and any(a.kind is not Kind.PLAY for _, a in seen.history):
                busy.append(index)
    assert running, "the game has no second hand"
    target = (busy or running)[0]
    state = game.new_state(seed=row.seed)
    for text in row.actions[:target + 1]:
        state.apply(Action.parse(text.partition(" ")[2]))
    hand = record.steps[target].hand
    # Positions run hand by hand: each hand's deal, then one per action.
    for _ in range(target + hand + 1):
        browser.find_element(By.ID, "next").click()
    position = browser.find_element(By.ID, "position").text
    assert f"hand {hand + 1} of {len(record.hands)}" in position and f"step {target + 1} of" in position

    assert browser.find_element(By.ID, "score-0").text == str(state.scores[0])
    assert browser.find_element(By.ID, "score-1").text == str(state.scores[1])
    observations = [state.observation(seat) for seat in (0, 1)]
    for seat in (0, 1):
        assert _cards(browser, f"#seat-{seat}-cards .card") == [str(c) for c in observations[seat].hand]
    assert _cards(browser, "#up-card .card") == [str(observations[0].up_card)]
    assert _cards(browser, "#tricks .card") == [str(c) for trick in observations[0].tricks for _, c in trick]
    browser.save_screenshot(str(artifacts / "viewer-full.png"))

    # One seat's view: the other seat's unplayed cards are backs, and nowhere on the page.
    Select(browser.find_element(By.ID, "view-select")).select_by_value("0")
    assert _cards(browser, "#seat-0-cards .card") == [str(c) for c in observations[0].hand]
    assert browser.find_elements(By.CSS_SELECTOR, "#seat-1-cards .card:not(.back)") == []
    assert len(browser.find_elements(By.CSS_SELECTOR, "#seat-1-cards .card.back")) == len(observations[1].hand)
    page_text = browser.find_element(By.TAG_NAME, "body").text
    shown = {c for text in observations[0].events if " shows " in text for c in text.split(" shows ")[1].split()}
    for card in observations[1].hand:
        if str(card) not in shown:
            assert not re.search(rf"\b{card}\b", page_text), card
    browser.save_screenshot(str(artifacts / "viewer-seat0.png"))

    # Back one step, then a jump to a hand's deal.
    browser.find_element(By.ID, "prev").click()
    assert browser.find_element(By.ID, "score-0").text == str(record.steps[target - 1].scores[0])
    Select(browser.find_element(By.ID, "view-select")).select_by_value("full")
    Select(browser.find_element(By.ID, "hand-select")).select_by_value("0")
    assert browser.find_element(By.ID, "position").text.endswith("deal")
    first = record.hands[0]
    for seat in (0, 1):
        dealt = first.deal[seat]
        assert dealt is not None
        assert _cards(browser, f"#seat-{seat}-cards .card") == [str(c) for c in dealt]
    assert all(isinstance(c, Card) for c in first.deal[0] or ())
    _no_outside_requests(browser)


def test_the_viewer_page_says_so_for_a_game_the_report_does_not_carry(browser: webdriver.Chrome,
                                                                       report_dir: Path) -> None:
    for fragment, said in (("#00999-not_there", "This game is not in the report"),
                           ("", "No game chosen")):
        browser.get((report_dir / "viewer.html").as_uri() + fragment)
        WebDriverWait(browser, 30).until(lambda b: b.find_element(By.ID, "replay-error").is_displayed())
        assert browser.find_element(By.ID, "replay-error").text.startswith(said)
        assert not browser.find_element(By.ID, "viewer").is_displayed()
        _no_outside_requests(browser)
