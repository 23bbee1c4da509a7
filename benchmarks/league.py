"""League throughput: games per second of a ``truco-arena serve`` league
with sample random bots, measured from the games its database records,
beside the same league under attack, in one run:

- ``plain``: the bots alone;
- ``slow``: plus a bot of one stream that uses 90% of its move time on every move;
- ``flood``: plus a client holding thousands of streams that never say Hello;
- ``live``: with the live page (``--http``), polled by 50 clients as fast as
  they can and held by a slowloris of idle connections.

    python benchmarks/league.py [--arms plain,slow,flood,live] [--bots 4] [--streams 2] [--seconds 15] [--rounds 1]

Each arm starts the league and the bots as separate processes (as in
production), waits until the first game is recorded, then counts the games
recorded over ``--seconds``. One of the bots is a probe that times how long
the arena keeps it waiting after each of its moves (benchmarks/league_probe.py).
Prints one line per arm: games/s among the plain bots, the probe's delays,
and what the arm's extra did. With ``--rounds N`` the arms run N times,
interleaved (plain, live, plain, live, ...), so that a change in the
machine's load falls on every arm alike; then one line per arm gives the
medians over the rounds and the ratio to the plain arm's median.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from league_attackers import ATTACKERS  # noqa: E402  (this directory, first on the path when run)

from arena.games.game_record import GameRecord  # noqa: E402
from arena.games.store import ResultsStore, StoreError  # noqa: E402
from arena.server import mint_token  # noqa: E402

ARMS = ("plain", "slow", "flood", "live")


def recorded(db: Path) -> list[GameRecord]:
    try:
        with ResultsStore.open_existing(db) as store:
            return list(store.games())
    except StoreError:
        return []


def plain_games(rows: list[GameRecord], extra: set[str]) -> int:
    return sum(1 for r in rows if r.bot0 not in extra and r.bot1 not in extra)


def cpu_seconds(pid: int) -> float:
    """User plus system CPU seconds of process ``pid`` so far (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(stat.parent.name))
        except (OSError, IndexError, ValueError):
            continue
    return found


def wait_for(check: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            sys.exit(f"timed out waiting for {what}")
        time.sleep(0.05)


def run_arm(arm: str, args: argparse.Namespace) -> tuple[str, float, float | None]:
    """The arm's line, its games/s and the probe's worst wait (ms, None without a report)."""
    env = dict(os.environ, PYTHONPATH=str(REPO))
    with tempfile.TemporaryDirectory(prefix=f"league-bench-{arm}-") as d:
        work = Path(d)
        tokens, db, config = work / "tokens.txt", work / "league.sqlite", work / "league.toml"
        config.write_text(f'pairing = "{args.pairing}"\nconcurrency = {args.concurrency}\n'
                          f"[options]\nseats = {args.seats}\ntarget = {args.target}\n"
                          f"[time_control]\nmove_seconds = {args.move_seconds}\nbank_seconds = 1.0\n")
        names = [f"random{i}" for i in range(args.bots)]
        secrets = {n: mint_token(tokens, n) for n in [*names, "slow"]}
        log = open(work / "serve.log", "w")
        http = ["--http", "127.0.0.1:0"] if arm == "live" else []
        serve = subprocess.Popen(
            [sys.executable, "-c", "from arena.cli import main; main()", "serve", "--tokens", str(tokens),
             "--db", str(db), "--config", str(config), "--address", "127.0.0.1:0", *http],
            stdout=subprocess.DEVNULL, stderr=log, env=env, cwd=REPO)
        procs: list[subprocess.Popen[bytes]] = []
        probe: subprocess.Popen[bytes] | None = None
        attacker = None
        try:
            def text() -> str:
                if serve.poll() is not None:
                    sys.exit(f"serve exited: {(work / 'serve.log').read_text()}")
                return (work / "serve.log").read_text()

            wait_for(lambda: bool(re.findall(r"listening on 127\.0\.0\.1:(\d+)", text())), 30, "serve to listen")
            port = int(re.findall(r"listening on 127\.0\.0\.1:(\d+)", text())[0])
            address = f"127.0.0.1:{port}"
            for i, name in enumerate(names):
                module = [str(REPO / "benchmarks" / "league_probe.py")] if i == 0 else ["-m", "sample_bots.random_bot"]
                proc = subprocess.Popen(
                    [sys.executable, *module, "--address", address, "--name", name, "--streams", str(args.streams)],
                    stdout=subprocess.PIPE if i == 0 else subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                    env=dict(env, TRUCO_ARENA_TOKEN=secrets[name]), cwd=REPO)
                procs.append(proc)
                probe = probe or proc
            wait_for(lambda: len(recorded(db)) > 0, 60, "the first game")
            extra: set[str] = set()
            if arm in ATTACKERS:
                live = re.findall(r"live page on (http://\S+)", text())
                attacker = ATTACKERS[arm](address=address, live=live[0] if live else "", work=work, env=env,
                                          token=secrets["slow"], move_seconds=args.move_seconds)
                extra = attacker.names
                time.sleep(1.0)  # let the attack take hold before measuring
            # CPU over the window, per part: where the attack's cost lands.
            parts = {"serve": [serve.pid], "page": children(serve.pid), "bots": [p.pid for p in procs],
                     "extra": [attacker.proc.pid] if attacker is not None else []}
            cpu0 = {k: sum(map(cpu_seconds, pids)) for k, pids in parts.items()}
            start_rows = recorded(db)
            t0 = time.monotonic()
            time.sleep(args.seconds)
            rows = recorded(db)
            elapsed = time.monotonic() - t0
            cpu = ", ".join(f"{k} {sum(map(cpu_seconds, pids)) - cpu0[k]:.1f}" for k, pids in parts.items() if pids)
            games = plain_games(rows, extra) - plain_games(start_rows, extra)
            extra_games = sum(1 for r in rows[len(start_rows):] if r.bot0 in extra or r.bot1 in extra)
            said = attacker.finish() if attacker is not None else ""
        finally:
            delays, worst = "probe: no report", None
            if probe is not None:  # before the league stops: a bot exits at the arena's shutdown
                probe.send_signal(signal.SIGTERM)
                try:
                    out, _ = probe.communicate(timeout=10)
                    report = json.loads(out.decode().strip().splitlines()[-1])
                    worst = float(report["worst_ms"])
                    delays = (f"probe waited median {report['median_ms']:.2f} ms, p99 {report['p99_ms']:.2f} ms, "
                              f"worst {report['worst_ms']:.1f} ms over {report['moves']} moves")
                except (subprocess.TimeoutExpired, ValueError, IndexError, TypeError, KeyError):
                    pass
            serve.send_signal(signal.SIGINT)
            try:
                serve.wait(30)
            except subprocess.TimeoutExpired:
                serve.kill()
            if attacker is not None:
                attacker.stop()
            for p in procs:
                if p.poll() is None:
                    p.kill()
                p.wait(10)
            log.close()
    line = (f"{arm:5} bots={args.bots} streams={args.streams} concurrency={args.concurrency}: {games} games in "
            f"{elapsed:.1f} s = {games / elapsed:.1f} games/s; {delays}; CPU s: {cpu}")
    if arm in ATTACKERS:
        line += f"; {extra_games} game(s) of the extra bot; {said}"
    return line, games / elapsed, worst


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--arms", default=",".join(ARMS), help="comma-separated, from: " + ", ".join(ARMS))
    p.add_argument("--bots", type=int, default=4)
    p.add_argument("--streams", type=int, default=2, help="streams per bot")
    p.add_argument("--concurrency", type=int, default=8)
    p.add_argument("--seconds", type=float, default=15.0)
    p.add_argument("--seats", type=int, default=2)
    p.add_argument("--target", type=int, default=30)
    p.add_argument("--move-seconds", type=float, default=0.25)
    p.add_argument("--pairing", default="independent", choices=("independent", "duplicate"))
    p.add_argument("--rounds", type=int, default=1, help="run the arms this many times, interleaved; print medians")
    args = p.parse_args()
    arms = [a for a in args.arms.split(",") if a]
    unknown = [a for a in arms if a not in ARMS]
    if unknown:
        p.error(f"unknown arm(s): {', '.join(unknown)}")
    if args.rounds < 1:
        p.error("--rounds must be at least 1")
    rates: dict[str, list[float]] = {a: [] for a in arms}
    worsts: dict[str, list[float]] = {a: [] for a in arms}
    for _ in range(args.rounds):
        for arm in arms:
            line, rate, worst = run_arm(arm, args)
            print(line, flush=True)
            rates[arm].append(rate)
            if worst is not None:
                worsts[arm].append(worst)
    if args.rounds > 1:
        print(summary(rates, worsts), flush=True)


def summary(rates: dict[str, list[float]], worsts: dict[str, list[float]]) -> str:
    """One line per arm: median games/s over the rounds, beside the plain arm's."""
    plain = statistics.median(rates["plain"]) if rates.get("plain") else None
    lines = []
    for arm, values in rates.items():
        median = statistics.median(values)
        ratio = f" = {100 * median / plain:.0f}% of plain" if plain and arm != "plain" else ""
        worst = (f"; probe's worst wait: median {statistics.median(worsts[arm]):.0f} ms, "
                 f"max {max(worsts[arm]):.0f} ms" if worsts[arm] else "")
        lines.append(f"median {arm:5} over {len(values)} rounds: {median:.1f} games/s "
                     f"({', '.join(f'{v:.1f}' for v in values)}){ratio}{worst}")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
