"""The live page of a running tournament in a real headless Chromium: the
games in progress appear, the standings change as games are recorded, and a
running game's page shows the table with every unplayed card face down."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from .live_run import LiveRun, live_tournament

WAIT = 180  # seconds: generous, the machine is shared


def _recorded(browser: webdriver.Chrome) -> int:
    """Games recorded as the live section says; -1 while it is being replaced
    (the page swaps it in as it polls: the element found may be gone a moment
    later, which Chromium reports as a stale or foreign node)."""
    try:
        found = browser.find_elements(By.ID, "live")
        return int(found[0].get_attribute("data-recorded") or -1) if found else -1
    except WebDriverException:
        return -1


def _standings(browser: webdriver.Chrome) -> str:
    """The standings rows' text; '' while the section is being replaced (as ``_recorded``)."""
    try:
        rows = browser.find_elements(By.CSS_SELECTOR, "#standings tbody tr")
        return "\n".join(r.text for r in rows)
    except WebDriverException:
        return ""


def _same_origin_only(browser: webdriver.Chrome, run: LiveRun) -> None:
    urls = browser.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    assert not [u for u in urls if not str(u).startswith(run.url)], urls


def _click_first(browser: webdriver.Chrome, css: str) -> bool:
    """Click the first element matching ``css``; False if there is none yet."""
    found = browser.find_elements(By.CSS_SELECTOR, css)
    if not found:
        return False
    found[0].click()
    return True


def _opened_a_running_game(browser: webdriver.Chrome, run: LiveRun) -> bool:
    """From the index, open the first game in progress; True once its page
    shows it running, False (back on the index) if there was none or it had
    ended by then."""
    if not _click_first(browser, "a.live-link"):
        return False
    WebDriverWait(browser, WAIT, ignored_exceptions=(StaleElementReferenceException,)).until(
        lambda b: b.find_elements(By.ID, "score-0") or b.find_elements(By.CSS_SELECTOR, "[data-over]"))
    if browser.find_elements(By.CSS_SELECTOR, "[data-over]"):
        browser.get(run.url)
        return False
    return True


@pytest.mark.slow  # about 50 s: six games at the slow bot's pace, and the front page renders at most every 10 s
def test_live_page_follows_a_running_tournament(browser: webdriver.Chrome, tmp_path: Path,
                                                artifacts: Path) -> None:
    with live_tournament(tmp_path, games=6, delay=1.0, linger=True) as run:
        wait = WebDriverWait(browser, WAIT, ignored_exceptions=(StaleElementReferenceException,))
        browser.set_window_size(1300, 1800)
        browser.get(run.url)
        # A game in progress, its two bots named (the page may reload meanwhile: read it inside the wait).
        wait.until(lambda b: any("slow" in r.text and "random" in r.text
                                 for r in b.find_elements(By.CSS_SELECTOR, "#live-games tr.live-game")))

        # A running game, first, while games surely run: the public view only,
        # every unplayed card face down. (A game that ended between the index
        # and its page is left for another.)
        wait.until(lambda b: _opened_a_running_game(b, run))
        assert browser.find_elements(By.CSS_SELECTOR, "#seats .card:not(.back)") == []
        assert browser.find_elements(By.CSS_SELECTOR, "#up-card .card")  # uruguayo: the muestra is public
        assert "slow" in browser.find_element(By.ID, "live-title").text
        browser.save_screenshot(str(artifacts / "live-game.png"))
        watched = browser.current_url

        # Standings once a game is recorded (the page without a report loads it once).
        browser.get(run.url)
        wait.until(lambda b: 1 <= _recorded(b) < 6 and _standings(b))
        first, first_standings = _recorded(browser), _standings(browser)
        browser.save_screenshot(str(artifacts / "live-index.png"))
        # More results arrive in place, without a reload; a reload shows the new standings.
        browser.execute_script("window.stillHere = true")
        wait.until(lambda b: len(b.find_elements(By.CSS_SELECTOR, "#live-latest tr.live-result")) > first)
        assert browser.execute_script("return window.stillHere === true")
        # (The front page is rendered again at most every 10 s: reload until it is.)
        deadline = time.monotonic() + WAIT
        while not (_recorded(browser) > first and _standings(browser)):
            assert time.monotonic() < deadline, "the reloaded page never showed the newer standings"
            time.sleep(2.0)
            browser.refresh()
        assert _standings(browser) != first_standings
        assert len(browser.find_elements(By.CSS_SELECTOR, "a.game-link")) == _recorded(browser)
        _same_origin_only(browser, run)

        browser.get(watched)
        # The game ends while watched (or had ended): the page says so and links back.
        wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "[data-over]"))
        assert browser.find_elements(By.CSS_SELECTOR, "#live-game-status a")
