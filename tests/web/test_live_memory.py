"""The live page's process keeps the same size however many games are
recorded: what it serves comes from bounded queries and from pages that a
short-lived process renders (``arena/web/pages.py``), never from a list of
every game. The trend per game is checked over a short league of copied
games; ``benchmarks/soak.py`` measures it over a long one."""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path

import pytest

from arena.games.store import ResultsStore
from arena.web.page_process import PageProcess
from arena.web.snapshot import LiveState

from .live_run import page_showing

pytestmark = pytest.mark.slow

# Each measurement waits for the front page to be rendered again (at most
# every 10 s): few, large batches keep that wait from being the test's time.
BATCH = 2_000  # games recorded between two measurements
BATCHES = 4
# Batches before the baseline: the first renders fill the caches and the
# allocator's pools (measured: about 5 MB over the first 3,500 games, then
# flat, within 50 KB over the next 3,500). The baseline is taken at 4,000
# games, the trend measured over the next 4,000.
WARM_UP = 2
MAX_BYTES_PER_GAME = 1_000  # the list of every game it held cost about 13 KB a game


def _rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def test_the_page_process_does_not_grow_with_the_games(report_db: Path, tmp_path: Path) -> None:
    with ResultsStore.open_existing(report_db) as store:
        played = list(store.games())
        config = store.get_meta("config")
    db = tmp_path / "league.sqlite"
    page = PageProcess(db, lambda game_id: None)
    with ResultsStore.create_or_open(db) as store:
        store.set_meta("config", config)
        port = page.start("127.0.0.1", 0)
        assert page.proc is not None
        try:
            sizes = []
            for batch in range(BATCHES):
                for i in range(BATCH):
                    n = batch * BATCH + i
                    row = played[n % len(played)]
                    store.record(dataclasses.replace(row, game_key=f"copy{n}|{row.game_key}", seq=n, game_id="",
                                                     pair_index=-1, finished_at=time.time()))
                games = [{"id": f"g{n}", "bots": ["a", "b"]} for n in range(8)]
                page.offer(LiveState(games, {}, False, time.time()))
                # Both as of this batch (the database is read at most every 2 s).
                page_showing(f"http://127.0.0.1:{port}/api/live.json", f'"recorded":{(batch + 1) * BATCH}', 300)
                page_showing(f"http://127.0.0.1:{port}/", f"the latest 500 of the {(batch + 1) * BATCH} games", 300)
                sizes.append(_rss(page.proc.pid))
        finally:
            page.close()
    grown = sizes[-1] - sizes[WARM_UP - 1]
    per_game = grown / ((BATCHES - WARM_UP) * BATCH)
    assert per_game < MAX_BYTES_PER_GAME, f"the page grew {grown} bytes, {per_game:.0f} a game: {sizes}"
