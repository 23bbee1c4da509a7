"""Test harness for leagues: a real ``truco-arena serve`` process on
loopback, real sample-bot processes dialling in with minted tokens, and the
league's real SQLite file read through the read-only store. No mocks."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from arena.games.game_record import GameRecord
from arena.games.seeds import TournamentSecret
from arena.games.store import ResultsStore
from arena.server import mint_token

REPO = Path(__file__).resolve().parents[2]
CLI = [sys.executable, "-c", "from arena.cli import main; main()"]
# Short games with random bots: a few hands each.
FAST_CONFIG = """
[options]
target = 6

[time_control]
move_seconds = 2.0
bank_seconds = 2.0
"""


def free_port() -> int:
    """A port free right now, so a restarted league can listen where its bots reconnect."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def env() -> dict[str, str]:
    out = dict(os.environ)
    out.pop("TRUCO_ARENA_TOKEN", None)
    out["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), out.get("PYTHONPATH")]))
    out["PYTHONUNBUFFERED"] = "1"
    return out


def run_cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, env=env(), cwd=REPO, timeout=timeout)


class League:
    """A ``truco-arena serve`` process with its token file and database in ``workdir``."""

    def __init__(self, workdir: Path, config: str = FAST_CONFIG, port: int = 0) -> None:
        self.workdir = workdir
        self.tokens = workdir / "tokens.txt"
        self.db = workdir / "league.sqlite"
        self.config = workdir / "league.toml"
        self.config.write_text(config)
        self.port = port
        self.bots: list[subprocess.Popen[bytes]] = []
        self.proc: subprocess.Popen[str] | None = None
        self.log = workdir / "serve.log"
        self._log_from = 0
        self.serve_args: tuple[str, ...] = ()  # more options of `serve` (e.g. --http)

    def token(self, name: str) -> str:
        return mint_token(self.tokens, name)

    def start(self) -> None:
        if not self.tokens.exists():
            self.tokens.write_text("")
        # Only this start's lines count: the log is appended to, and an earlier
        # run's "listening" line would end the wait before this one listens.
        self._log_from = self.log.stat().st_size if self.log.exists() else 0
        with open(self.log, "a") as log:
            self.proc = subprocess.Popen(
                [*CLI, "serve", "--tokens", str(self.tokens), "--db", str(self.db), "--config", str(self.config),
                 "--address", f"127.0.0.1:{self.port}", "-v", *self.serve_args],
                stdout=subprocess.DEVNULL, stderr=log, text=True, env=env(), cwd=REPO)
        wait_until(lambda: self._listening() is not None, 30, "the league to listen")
        self.port = self._listening() or 0

    def _listening(self) -> int | None:
        assert self.proc is not None
        if self.proc.poll() is not None:
            raise AssertionError(f"serve exited with {self.proc.returncode}: {self.log.read_text()}")
        with open(self.log, "rb") as log:
            log.seek(self._log_from)
            text = log.read().decode(errors="replace")
        found = re.findall(r"arena listening on 127\.0\.0\.1:(\d+)", text)
        return int(found[-1]) if found else None

    def bot(self, name: str, token: str, *extra: str, module: str = "sample_bots.random_bot",
            streams: int = 1, host: str = "127.0.0.1") -> subprocess.Popen[bytes]:
        e = env()
        e["TRUCO_ARENA_TOKEN"] = token
        proc = subprocess.Popen(
            [sys.executable, "-m", module, "--address", f"{host}:{self.port}", "--name", name,
             "--streams", str(streams), *extra],
            stdout=subprocess.DEVNULL, stderr=open(self.workdir / f"{name}-{len(self.bots)}.log", "wb"),
            env=e, cwd=REPO)
        self.bots.append(proc)
        return proc

    def stop(self, sig: int = signal.SIGTERM) -> int:
        assert self.proc is not None
        self.proc.send_signal(sig)
        return self.proc.wait(30)

    def close(self) -> None:
        procs: list[subprocess.Popen[bytes] | subprocess.Popen[str]] = [*self.bots]
        if self.proc is not None:
            procs.append(self.proc)
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)

    def rows(self) -> list[GameRecord]:
        if not self.db.exists():
            return []
        with ResultsStore.open_existing(self.db) as store:
            return list(store.games())

    def secret(self) -> TournamentSecret:
        """The league's deal secret, from its key file."""
        with ResultsStore.open_existing(self.db) as store:
            secret = store.secret()
        assert secret is not None
        return secret

    def meta(self, key: str) -> object:
        with ResultsStore.open_existing(self.db) as store:
            return store.get_meta(key)

    def interrupted(self) -> list[str]:
        return [key for key, _, _ in self.interrupted_rows()]

    def interrupted_rows(self) -> list[tuple[str, float, str]]:
        """(game key, Unix time recorded, reason) of each interrupted game."""
        with ResultsStore.open_existing(self.db) as store:
            return store.interrupted()


def wait_until(check: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
        time.sleep(0.1)


def played(rows: list[GameRecord], a: str, b: str) -> int:
    return sum(1 for r in rows if {r.bot0, r.bot1} == {a, b})
