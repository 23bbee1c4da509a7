"""A bot's stderr beside its moves: the organizer's report (``report
--stderr``) shows, at each step of the replay viewer, what that bot wrote
while deciding it, as text (the markup it wrote is not run or rendered); a
report without --stderr carries none of it. A real tournament with a stdio
bot behind the bridge, the real report, a headless Chromium."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from arena.cli import main
from arena.games.game_record import GameRecord
from arena.games.store import ResultsStore
from arena.report.summary import viewer_link

BOT = Path(__file__).with_name("stderr_stdio_bot.py")


@pytest.fixture(scope="module")
def stderr_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("stderr-tournament")
    config = directory / "talk.toml"
    config.write_text("\n".join([
        'name = "talk"', 'variant = "uruguayo"', "games_per_pairing = 2", "seed = 4", 'sandbox = "none"',
        "[options]", "target = 9",
        "[[bots]]", 'name = "talker"', f'command = ["{sys.executable}", "{BOT}"]', 'protocol = "stdio"',
        "[[bots]]", 'name = "random"', 'command = "python -m sample_bots.random_bot"',
    ]) + "\n")
    result = CliRunner().invoke(main, ["tournament", "run", str(config), "--no-progress"])
    assert result.exit_code == 0, result.output
    return config.with_suffix(".sqlite")


def _first_row(db: Path) -> GameRecord:
    with ResultsStore.open_existing(db) as store:
        return next(r for r in store.games() if r.bot0 == "talker")


def _report(db: Path, out: Path, *extra: str) -> Path:
    result = CliRunner().invoke(main, ["report", str(db), "-o", str(out), *extra])
    assert result.exit_code == 0, result.output
    return out


def test_the_viewer_shows_a_bots_stderr_beside_its_move_as_text(
        browser: webdriver.Chrome, stderr_db: Path, tmp_path: Path, artifacts: Path) -> None:
    row = _first_row(stderr_db)
    notes = dict(row.stderr)
    talker_steps = [i for i, a in enumerate(row.actions) if a.startswith("0 ")]  # talker sits in seat 0
    assert talker_steps and all(i in notes for i in talker_steps)
    assert not any(a.startswith("1 ") and i in notes for i, a in enumerate(row.actions))  # random wrote none
    first = talker_steps[0]
    report = _report(stderr_db, tmp_path / "private", "--stderr")
    page, _, game = viewer_link(row).partition("#")
    browser.get((report / page).as_uri() + "#" + game)
    wait = WebDriverWait(browser, 30)
    wait.until(lambda b: b.find_elements(By.ID, "score-0"))
    browser.find_element(By.ID, "next").click()  # from the deal to the first step
    for _ in range(first):
        browser.find_element(By.ID, "next").click()
    shown = wait.until(lambda b: b.find_elements(By.ID, "step-stderr"))[0]
    assert shown.text == notes[first].strip()
    assert "decision 1 <b>bold</b> <img src=x" in shown.text  # the markup as text
    assert not browser.find_elements(By.CSS_SELECTOR, "#last-action b, #last-action img")
    assert browser.execute_script("return window.pwned === undefined")
    browser.save_screenshot(str(artifacts / "viewer-stderr.png"))
    # A step of the other bot shows nothing of the talker's.
    other = next(i for i, a in enumerate(row.actions) if a.startswith("1 ") and i > first)
    for _ in range(other - first):
        browser.find_element(By.ID, "next").click()
    assert not browser.find_elements(By.ID, "step-stderr")


def test_a_report_without_stderr_carries_none(stderr_db: Path, tmp_path: Path) -> None:
    public = _report(stderr_db, tmp_path / "public")
    assert not any("bold" in p.read_text() for p in (public / "games").glob("*.js"))
    private = _report(stderr_db, tmp_path / "private", "--stderr")
    assert any("bold" in p.read_text() for p in (private / "games").glob("*.js"))
