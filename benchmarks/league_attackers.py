"""The extras of benchmarks/league.py's arms, each a process of its own:

    python benchmarks/league_attackers.py slow --address A --name slow --delay S   (token in $TRUCO_ARENA_TOKEN)
    python benchmarks/league_attackers.py flood ADDRESS STREAMS CHANNELS
    python benchmarks/league_attackers.py live URL CLIENTS IDLE

``slow`` is a random bot that sleeps ``S`` seconds before every move;
``flood`` holds STREAMS streams over CHANNELS connections that never say
Hello, reopening each as the arena ends it; ``live`` polls URL and its JSON
with CLIENTS threads as fast as they can while IDLE connections sit open
without sending a byte. ``flood`` and ``live`` keep one JSON object of
counts in the file named by $BENCH_REPORT, rewritten twice a second.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
HERE = Path(__file__).resolve()

FLOOD_STREAMS, FLOOD_CHANNELS = 20_000, 200
LIVE_CLIENTS, LIVE_IDLE = 50, 200


@dataclass
class Attacker:
    """One extra process; ``names`` are bots it plays as (none for a flood)."""

    proc: subprocess.Popen[bytes]
    names: set[str] = field(default_factory=set)
    what: str = ""

    report: Path | None = None

    def finish(self) -> str:
        if self.report is None:
            return ""
        try:
            return f"{self.what}: {self.report.read_text()}"
        except OSError:
            return f"{self.what}: no report"

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)


def _spawn(args: list[str], env: dict[str, str], work: Path, name: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, str(HERE), *args], stdout=subprocess.DEVNULL,
                            stderr=open(work / f"{name}.log", "wb"),
                            env=dict(env, BENCH_REPORT=str(work / f"{name}.json")), cwd=REPO)


def slow(*, address: str, live: str, work: Path, env: dict[str, str], token: str, move_seconds: float) -> Attacker:
    proc = _spawn(["slow", "--address", address, "--name", "slow", "--delay", f"{0.9 * move_seconds:g}"],
                  dict(env, TRUCO_ARENA_TOKEN=token), work, "slow")
    return Attacker(proc, {"slow"})


def flood(*, address: str, live: str, work: Path, env: dict[str, str], token: str, move_seconds: float) -> Attacker:
    proc = _spawn(["flood", address, str(FLOOD_STREAMS), str(FLOOD_CHANNELS)], env, work, "flood")
    return Attacker(proc, set(), f"flood of {FLOOD_STREAMS} silent streams", work / "flood.json")


def live_page(*, address: str, live: str, work: Path, env: dict[str, str], token: str,
              move_seconds: float) -> Attacker:
    proc = _spawn(["live", live, str(LIVE_CLIENTS), str(LIVE_IDLE)], env, work, "live")
    return Attacker(proc, set(), f"{LIVE_CLIENTS} pollers and {LIVE_IDLE} idle connections", work / "live.json")


ATTACKERS = {"slow": slow, "flood": flood, "live": live_page}


# ------------------------------------------------------------------ processes

def _keep_reporting(counts: Counter[str]) -> None:
    """Keep ``counts`` in $BENCH_REPORT (a thread: the process may be too busy for anything else)."""
    path = Path(os.environ["BENCH_REPORT"])

    def report() -> None:
        while True:
            time.sleep(0.5)
            try:
                data = json.dumps(dict(counts))
            except RuntimeError:  # changed while copied: next time
                continue
            tmp = path.with_suffix(".tmp")
            tmp.write_text(data)
            os.replace(tmp, path)

    threading.Thread(target=report, daemon=True).start()


def run_slow(argv: list[str]) -> None:
    from sdk import Action, Bot, Observation
    from sdk import main as sdk_main

    class SlowBot(Bot):
        name = "slow"
        version = "1.0.0"

        def __init__(self, delay: float) -> None:
            self.delay, self.rng = delay, random.Random()

        def choose(self, obs: Observation) -> Action:
            time.sleep(self.delay)
            return self.rng.choice(obs.legal)

    def arguments(p: Any) -> None:
        p.add_argument("--delay", type=float, required=True)

    sdk_main(lambda args: SlowBot(args.delay), add_arguments=arguments, argv=argv, prog="slow")


async def _flood(address: str, streams: int, channels: int, counts: Counter[str]) -> None:
    import grpc

    from arena.protocol import arena_pb2_grpc as pb_grpc

    options = [("grpc.use_local_subchannel_pool", 1)]  # one connection per channel
    chans = [grpc.aio.insecure_channel(address, options=options) for _ in range(channels)]
    stubs = [pb_grpc.ArenaServiceStub(c) for c in chans]  # type: ignore[no-untyped-call]

    async def hold(i: int) -> None:
        while True:  # a silent stream; reopened as soon as the arena ends it
            call = stubs[i % channels].Play()
            try:
                async for _ in call:
                    pass
                counts["ended"] += 1
            except grpc.aio.AioRpcError as exc:
                counts[exc.code().name] += 1
            await asyncio.sleep(0.05)

    await asyncio.gather(*(hold(i) for i in range(streams)))


def run_flood(argv: list[str]) -> None:
    counts: Counter[str] = Counter()
    _keep_reporting(counts)
    asyncio.run(_flood(argv[0], int(argv[1]), int(argv[2]), counts))


def run_live(argv: list[str]) -> None:
    url, clients, idle = argv[0].rstrip("/"), int(argv[1]), int(argv[2])
    counts: Counter[str] = Counter()
    _keep_reporting(counts)
    host, port = url.removeprefix("http://").split(":")
    lock = threading.Lock()

    def loris() -> None:
        held: list[socket.socket] = []
        while True:
            while len(held) < idle:
                try:
                    held.append(socket.create_connection((host, int(port)), timeout=5))
                except OSError:
                    time.sleep(0.1)
                    break
            alive = []
            for s in held:  # a closed one is replaced
                s.setblocking(False)
                try:
                    gone = s.recv(1) == b""
                except BlockingIOError:
                    gone = False
                except OSError:
                    gone = True
                if gone:
                    s.close()
                    with lock:
                        counts["idle dropped"] += 1
                else:
                    alive.append(s)
            held = alive
            time.sleep(0.2)

    def poll(path: str) -> None:
        while True:
            start = time.monotonic()
            try:
                with urllib.request.urlopen(url + path, timeout=10) as r:
                    r.read()
                    key = f"{r.status}"
            except urllib.error.HTTPError as exc:
                key = f"{exc.code}"
            except OSError as exc:  # which failure: a refused or reset connection, a timeout
                reason = getattr(exc, "reason", exc)
                key = f"failed ({type(reason).__name__})"
            with lock:
                counts[key] += 1
                counts["worst_ms"] = max(counts["worst_ms"], int(1000 * (time.monotonic() - start)))

    threading.Thread(target=loris, daemon=True).start()
    for i in range(clients):
        threading.Thread(target=poll, args=("/" if i % 2 == 0 else "/api/live.json",), daemon=True).start()
    while True:
        time.sleep(1)


if __name__ == "__main__":
    role, rest = sys.argv[1], sys.argv[2:]
    {"slow": run_slow, "flood": run_flood, "live": run_live}[role](rest)
