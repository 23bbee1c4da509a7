"""The live page of a busy league (one hand a game, dozens of games a second
on a quiet machine) in a real headless Chromium: the games in progress and
the latest results update in place while the league records games, and the
page never reloads. The league's rate while watched is printed, not
checked: a rate is a performance figure (``benchmarks/league.py --arms
plain,live`` measures what watching costs), and tests beside this one
move it."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from arena.server import mint_token

from .live_run import CLI, _read_url

REPO = Path(__file__).resolve().parents[2]
WAIT = 120
BUSY = 100  # games recorded while the page is watched (8 s): a busy league, several refreshes' worth


def _live(url: str) -> dict[str, object]:
    with urllib.request.urlopen(url + "api/live.json", timeout=30) as reply:
        data: dict[str, object] = json.loads(reply.read())
        return data


def test_the_live_page_of_a_busy_league_updates_in_place(browser: webdriver.Chrome, tmp_path: Path,
                                                          artifacts: Path) -> None:
    tokens = tmp_path / "tokens.txt"
    names = [f"r{i}" for i in range(4)]
    secrets = {n: mint_token(tokens, n) for n in names}
    config = tmp_path / "league.toml"
    config.write_text("concurrency = 8\n[options]\ntarget = 1\n")  # one hand a game: dozens a second
    serve = subprocess.Popen([str(CLI), "serve", "--address", "127.0.0.1:0", "--tokens", str(tokens), "--db",
                              str(tmp_path / "league.sqlite"), "--config", str(config), "--http", "127.0.0.1:0"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    bots: list[subprocess.Popen[bytes]] = []
    try:
        assert serve.stderr is not None
        arena_line = serve.stderr.readline()
        port = int(re.findall(r"listening on 127\.0\.0\.1:(\d+)", arena_line)[0])
        url = _read_url(serve)
        for name in names:
            bots.append(subprocess.Popen(
                [sys.executable, "-m", "sample_bots.random_bot", "--address", f"127.0.0.1:{port}", "--name", name,
                 "--streams", "2"], env={**os.environ, "TRUCO_ARENA_TOKEN": secrets[name]},
                cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        wait = WebDriverWait(browser, WAIT, ignored_exceptions=(StaleElementReferenceException,))
        deadline = time.monotonic() + WAIT
        while not _live(url)["recorded"]:
            assert time.monotonic() < deadline, "no game recorded"
            time.sleep(0.2)
        browser.set_window_size(1300, 1400)
        browser.get(url)
        wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#live-latest tr.live-result"))
        browser.execute_script("window.stillHere = true")
        start, t0 = _live(url)["recorded"], time.monotonic()
        assert isinstance(start, int)
        seen_first: set[str] = set()
        seen_status: set[str] = set()
        in_progress = 0
        # Read in the page in one go: the rows are replaced in place many times a second,
        # so an element found by one call may be gone by the next.
        snapshot = """
            const first = document.querySelector('#live-latest tr.live-result');
            return [first ? (first.getAttribute('data-key') || '') : null,
                    document.getElementById('live-status').textContent,
                    document.querySelectorAll('#live-games tr.live-game').length];"""
        while time.monotonic() - t0 < 8.0:
            first_key, status, games = browser.execute_script(snapshot)
            if first_key is not None:
                seen_first.add(first_key)
            seen_status.add(" ".join(status.split()))
            in_progress = max(in_progress, int(games))
            time.sleep(0.25)
        end, elapsed = _live(url)["recorded"], time.monotonic() - t0
        assert isinstance(end, int)
        rate = (end - start) / elapsed
        browser.save_screenshot(str(artifacts / "live-league.png"))
        print(f"league at {rate:.1f} games/s while watched; {len(seen_first)} different latest results seen")
        assert browser.execute_script("return window.stillHere === true")  # never reloaded
        assert end - start >= BUSY, f"the league recorded only {end - start} games while watched ({rate:.1f}/s)"
        assert len(seen_first) >= 4  # the latest results moved on, in place
        assert in_progress >= 1 and not any("waiting for the arena" in s for s in seen_status if "recorded" in s)
        assert any("game(s) in progress" in s for s in seen_status)
        assert browser.find_elements(By.CSS_SELECTOR, "#standings tbody tr")  # the report is there too
    finally:
        for proc in [*bots]:
            proc.kill()
            proc.wait(10)
        serve.terminate()
        try:
            serve.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            serve.kill()
            serve.communicate()
