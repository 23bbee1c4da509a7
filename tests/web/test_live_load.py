"""The live page cannot slow the league: a real ``serve --http`` league of
four random bots (two streams each, over loopback gRPC), its rate measured
alone, then while 50 clients poll the page as fast as they can and a
slowloris holds 200 idle connections (``benchmarks/league_attackers.py
live``, a process of its own), then alone again. The league goes on
playing under the attack (it records games throughout), and the page keeps
answering: the pollers' requests succeed and this test's own requests are
answered within their deadline throughout.

How much of its rate the league keeps is a performance figure, not a check:
on a shared two-core machine the attackers' own CPU moves it by several
points run to run. ``benchmarks/league.py --arms plain,live --rounds 3``
measures it, paired, with medians (goal: 80% or more); this test prints
its one-run figures."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from arena.games.store import ResultsStore, StoreError
from arena.server import mint_token

from .live_run import CLI, _read_url

REPO = Path(__file__).resolve().parents[2]
ATTACKERS = REPO / "benchmarks" / "league_attackers.py"
WINDOW = 6.0  # seconds of each measured window (the rate is printed, not checked: a short window will do)
PLAYING = 0.25  # games/s under the attack below which the league counts as stalled, not slowed
CLIENTS, IDLE = 50, 200
PAGE_DEADLINE = 10.0  # seconds for one of this test's requests to the page


def _recorded(db: Path) -> int:
    try:
        with ResultsStore.open_existing(db) as store:
            return store.count()
    except StoreError:
        return 0


def _rate(db: Path, seconds: float, during: list[float] | None = None, url: str = "") -> float:
    """Games recorded per second over ``seconds``; with ``url``, ask the page
    for its front page and JSON every second meanwhile, each answer's time in ``during``."""
    start, t0 = _recorded(db), time.monotonic()
    while (left := seconds - (time.monotonic() - t0)) > 0:
        if url and during is not None:
            for path in ("", "api/live.json"):
                asked = time.monotonic()
                with urllib.request.urlopen(url + path, timeout=PAGE_DEADLINE) as reply:
                    assert reply.status == 200
                    reply.read()
                during.append(time.monotonic() - asked)
        time.sleep(min(1.0, max(0.0, left)))
    return (_recorded(db) - start) / (time.monotonic() - t0)


# Alone (serial): the page answers at most MAX_RATE requests a second in
# arrival order, so this test's own request waits behind the 50 pollers'; with
# three other test workers on two cores the page process got so little CPU that
# the wait passed PAGE_DEADLINE (failed so once in CI). What is checked is the
# page under this attack, not under the attack plus the rest of the suite.
@pytest.mark.slow
@pytest.mark.serial
def test_the_league_keeps_its_rate_while_the_page_is_polled_and_held(tmp_path: Path) -> None:
    tokens, db, config = tmp_path / "tokens.txt", tmp_path / "league.sqlite", tmp_path / "league.toml"
    config.write_text("concurrency = 8\n[options]\ntarget = 30\n[time_control]\nmove_seconds = 0.25\n"
                      "bank_seconds = 1.0\n")
    names = [f"r{i}" for i in range(4)]
    secrets = {n: mint_token(tokens, n) for n in names}
    serve = subprocess.Popen([str(CLI), "serve", "--address", "127.0.0.1:0", "--tokens", str(tokens), "--db",
                              str(db), "--config", str(config), "--http", "127.0.0.1:0"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    procs: list[subprocess.Popen[bytes]] = []
    try:
        assert serve.stderr is not None
        port = int(re.findall(r"listening on 127\.0\.0\.1:(\d+)", serve.stderr.readline())[0])
        url = _read_url(serve)
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
        for name in names:
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "sample_bots.random_bot", "--address", f"127.0.0.1:{port}", "--name", name,
                 "--streams", "2"], env={**env, "TRUCO_ARENA_TOKEN": secrets[name]},
                cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        deadline = time.monotonic() + 120
        while _recorded(db) < 20:  # every bot connected and playing
            assert time.monotonic() < deadline, "the league recorded no games"
            time.sleep(0.2)

        before = _rate(db, WINDOW)
        report = tmp_path / "attack.json"
        attack = subprocess.Popen([sys.executable, str(ATTACKERS), "live", url, str(CLIENTS), str(IDLE)],
                                  env={**env, "BENCH_REPORT": str(report)}, cwd=REPO,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        procs.append(attack)
        time.sleep(1.0)  # let the attack take hold
        answered: list[float] = []
        attacked = _rate(db, WINDOW, answered, url)
        attack.send_signal(signal.SIGKILL)
        attack.wait(10)
        counts = json.loads(report.read_text())
        after = _rate(db, WINDOW)

        plain = (before + after) / 2
        figures = (f"league alone {before:.1f} and {after:.1f} games/s, under the attack {attacked:.1f} games/s "
                   f"({100 * attacked / plain:.0f}%); pollers: {counts}; load average {os.getloadavg()}")
        print(figures)
        # Pages keep answering: the pollers were served, none of their requests failed or was refused.
        served = counts.get("200", 0)
        failed = {k: v for k, v in counts.items() if k not in ("200", "worst_ms", "idle dropped")}
        assert served >= 100, f"the page answered only {served} polls: {figures}"
        assert sum(failed.values()) <= served // 100, f"polls failed or were refused: {failed}; {figures}"
        assert answered and max(answered) < PAGE_DEADLINE, answered
        assert attacked >= PLAYING, f"the league stalled under the attack: {figures}"
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
            p.wait(10)
        serve.send_signal(signal.SIGTERM)
        try:
            serve.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            serve.kill()
            serve.communicate()
