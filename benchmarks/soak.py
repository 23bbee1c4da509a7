"""League soak: a ``truco-arena serve`` league with the live page, polled by
a client, for a set time; prints, at intervals, the games recorded and the
memory (RSS) and open files of every arena process, then how much serve and
the live page's process grew after the warm-up.

    python benchmarks/soak.py [--minutes 10] [--every 30] [--warm-up 60] [--bots 4] [--streams 2]

The league, its bots and the client are separate processes (as in
production). The client asks for what a browser tab does, faster: the live
JSON five times a second, the front page every 2 s and the view of a running
game every second. Games are counted in the database with ``COUNT(*)`` (this
script holds no rows). The goal (docs/league.md): serve and the page grow by
less than 5 MB over 10 minutes after the warm-up.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from arena.server import mint_token  # noqa: E402


def count(db: Path) -> int:
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as con:
            return int(con.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    except sqlite3.Error:
        return 0


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def open_files(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return 0


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (started from any of its threads)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(stat.parent.name))
        except (OSError, IndexError, ValueError):
            continue
    return found


class Poller(threading.Thread):
    """What a browser tab on the live page asks, faster."""

    def __init__(self, url: str) -> None:
        super().__init__(name="poller", daemon=True)
        self.url = url.rstrip("/")
        self.stop = threading.Event()
        self.requests = 0
        self.failures = 0

    def get(self, path: str) -> bytes | None:
        self.requests += 1
        try:
            with urllib.request.urlopen(self.url + path, timeout=30) as reply:
                body: bytes = reply.read()
                return body
        except (urllib.error.URLError, OSError):
            self.failures += 1
            return None

    def run(self) -> None:
        tick = 0
        while not self.stop.wait(0.2):
            tick += 1
            live = self.get("/api/live.json")
            if tick % 10 == 0:
                self.get("/")
            if tick % 5 == 0 and live:
                games = json.loads(live).get("games") or []
                if games:
                    self.get(f"/api/game/{games[0]['id']}.json")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--minutes", type=float, default=10.0)
    p.add_argument("--every", type=float, default=30.0, help="seconds between two lines")
    p.add_argument("--warm-up", type=float, default=60.0, help="seconds before the baseline of the growth")
    p.add_argument("--bots", type=int, default=4)
    p.add_argument("--streams", type=int, default=2)
    p.add_argument("--concurrency", type=int, default=8)
    args = p.parse_args()
    env = dict(os.environ, PYTHONPATH=str(REPO))
    with tempfile.TemporaryDirectory(prefix="league-soak-") as d:
        work = Path(d)
        tokens, db, config = work / "tokens.txt", work / "league.sqlite", work / "league.toml"
        config.write_text(f'pairing = "duplicate"\nconcurrency = {args.concurrency}\n'
                          "[options]\ntarget = 15\n[time_control]\nmove_seconds = 1.0\nbank_seconds = 1.0\n")
        names = [f"random{i}" for i in range(args.bots)]
        secrets = {n: mint_token(tokens, n) for n in names}
        log = open(work / "serve.log", "w")
        serve = subprocess.Popen(
            [sys.executable, "-m", "arena.command", "serve", "--tokens", str(tokens), "--db", str(db),
             "--config", str(config), "--address", "127.0.0.1:0", "--http", "127.0.0.1:0"],
            stdout=subprocess.DEVNULL, stderr=log, env=env, cwd=REPO)
        bots: list[subprocess.Popen[bytes]] = []
        poller: Poller | None = None
        try:
            deadline = time.monotonic() + 60
            while not re.search(r"live page on (http://\S+)", (work / "serve.log").read_text()):
                if serve.poll() is not None or time.monotonic() > deadline:
                    sys.exit(f"serve did not start: {(work / 'serve.log').read_text()}")
                time.sleep(0.1)
            text = (work / "serve.log").read_text()
            port = re.findall(r"listening on 127\.0\.0\.1:(\d+)", text)[0]
            url = re.findall(r"live page on (http://\S+)", text)[0]
            for name in names:
                bots.append(subprocess.Popen(
                    [sys.executable, "-m", "sample_bots.random_bot", "--address", f"127.0.0.1:{port}",
                     "--name", name, "--streams", str(args.streams)],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                    env=dict(env, TRUCO_ARENA_TOKEN=secrets[name]), cwd=REPO))
            poller = Poller(url)
            poller.start()
            page = next(iter(children(serve.pid)), 0)  # the live page's process, serve's only child
            print(f"serve pid {serve.pid}, live page pid {page}, {args.bots} bots x {args.streams} streams, "
                  f"polled at {url}", flush=True)
            print(f"{'s':>6} {'games':>7} {'serve MB':>9} {'fds':>4} {'page MB':>8} {'fds':>4} "
                  f"{'bots MB':>8} {'fds':>4} {'WAL MB':>7} {'requests':>8}", flush=True)
            t0 = time.monotonic()
            base: tuple[int, float, float] | None = None
            samples = []
            end = t0 + args.minutes * 60
            while True:
                now = time.monotonic()
                games = count(db)
                wal = db.with_name(db.name + "-wal")
                sample = (now - t0, games, rss_mb(serve.pid), open_files(serve.pid), rss_mb(page), open_files(page),
                          sum(rss_mb(b.pid) for b in bots), sum(open_files(b.pid) for b in bots),
                          wal.stat().st_size / 2**20 if wal.exists() else 0.0)
                samples.append(sample)
                print(f"{sample[0]:6.0f} {games:7d} {sample[2]:9.1f} {sample[3]:4d} {sample[4]:8.1f} {sample[5]:4d} "
                      f"{sample[6]:8.1f} {sample[7]:4d} {sample[8]:7.2f} {poller.requests:8d}", flush=True)
                if base is None and now - t0 >= args.warm_up:
                    base = (games, sample[2], sample[4])
                if now >= end or serve.poll() is not None:
                    break
                time.sleep(max(0.0, min(args.every, end - time.monotonic())))
            if base is not None:
                last = samples[-1]
                games = last[1] - base[0]
                per = 1000 / games if games else 0.0
                print(f"after the warm-up ({args.warm_up:g} s): {games} games; serve {last[2] - base[1]:+.1f} MB "
                      f"({(last[2] - base[1]) * per:+.2f} MB per 1,000 games), live page {last[4] - base[2]:+.1f} MB "
                      f"({(last[4] - base[2]) * per:+.2f} MB per 1,000 games); {poller.failures} failed requests "
                      f"of {poller.requests}", flush=True)
        finally:
            if poller is not None:
                poller.stop.set()
            serve.send_signal(signal.SIGINT)
            try:
                serve.wait(30)
            except subprocess.TimeoutExpired:
                serve.kill()
            for b in bots:
                if b.poll() is None:
                    b.terminate()
                try:
                    b.wait(10)
                except subprocess.TimeoutExpired:
                    b.kill()
            log.close()


if __name__ == "__main__":
    main()
