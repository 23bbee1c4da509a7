"""League throughput: games per second of a ``truco-arena serve`` league
with sample random bots, measured from the games its database records.

    python benchmarks/league.py --bots 4 --streams 2 --concurrency 8 --seconds 20 [--seats 2] [--target 30]

Starts the league and the bots as separate processes (as in production),
waits until the first game is recorded, then counts the games recorded over
``--seconds``. Prints one line of numbers.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from arena.server import mint_token  # noqa: E402
from arena.tournament.store import ResultsStore, StoreError  # noqa: E402


def recorded(db: Path) -> int:
    try:
        with ResultsStore.open_existing(db) as store:
            return store.count()
    except StoreError:
        return 0


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bots", type=int, default=4)
    p.add_argument("--streams", type=int, default=2, help="streams per bot")
    p.add_argument("--concurrency", type=int, default=8)
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--seats", type=int, default=2)
    p.add_argument("--target", type=int, default=30)
    p.add_argument("--pairing", default="independent", choices=("independent", "duplicate"))
    args = p.parse_args()
    env = dict(os.environ, PYTHONPATH=str(REPO))
    with tempfile.TemporaryDirectory(prefix="league-bench-") as d:
        work = Path(d)
        tokens, db, config = work / "tokens.txt", work / "league.sqlite", work / "league.toml"
        config.write_text(f'pairing = "{args.pairing}"\nconcurrency = {args.concurrency}\n'
                          f"[options]\nseats = {args.seats}\ntarget = {args.target}\n")
        names = [f"random{i}" for i in range(args.bots)]
        secrets = {n: mint_token(tokens, n) for n in names}
        log = open(work / "serve.log", "w")
        serve = subprocess.Popen(
            [sys.executable, "-c", "from arena.cli import main; main()", "serve", "--tokens", str(tokens),
             "--db", str(db), "--config", str(config), "--address", "127.0.0.1:0"],
            stdout=subprocess.DEVNULL, stderr=log, env=env, cwd=REPO)
        bots: list[subprocess.Popen[bytes]] = []
        try:
            port = None
            while port is None:
                if serve.poll() is not None:
                    sys.exit(f"serve exited: {(work / 'serve.log').read_text()}")
                found = re.findall(r"listening on 127\.0\.0\.1:(\d+)", (work / "serve.log").read_text())
                port = int(found[0]) if found else None
                time.sleep(0.05)
            for name in names:
                bots.append(subprocess.Popen(
                    [sys.executable, "-m", "sample_bots.random_bot", "--address", f"127.0.0.1:{port}",
                     "--name", name, "--streams", str(args.streams)],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                    env=dict(env, TRUCO_ARENA_TOKEN=secrets[name]), cwd=REPO))
            while recorded(db) == 0:
                time.sleep(0.05)
            start_games, t0 = recorded(db), time.monotonic()
            time.sleep(args.seconds)
            games, elapsed = recorded(db) - start_games, time.monotonic() - t0
        finally:
            serve.send_signal(signal.SIGTERM)
            serve.wait(30)
            for b in bots:
                b.kill()
                b.wait(10)
            log.close()
    print(f"league bots={args.bots} streams={args.streams} concurrency={args.concurrency} seats={args.seats} "
          f"target={args.target} pairing={args.pairing}: {games} games in {elapsed:.1f} s = "
          f"{games / elapsed:.1f} games/s")


if __name__ == "__main__":
    main()
