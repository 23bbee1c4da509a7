"""Test harness: a real arena on loopback (port 0) in a background event
loop, and real bot subprocesses (``sys.executable -m MODULE``). No mocks."""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import subprocess
import sys
import threading
import time
from collections.abc import Coroutine, Sequence
from pathlib import Path
from typing import Any, TypeVar

from arena.engine.options import make_options
from arena.server import Arena, BotUnavailableError, PlayedGame, TimeControl

T = TypeVar("T")
REPO = Path(__file__).resolve().parents[2]
FAST = TimeControl(move_time=1.0, bank=5.0)


class BotExited(AssertionError):
    """A bot process did not connect; the message carries its stderr."""


class BotProc:
    """A bot process; its stderr goes to a file so a failure can show it."""

    def __init__(self, args: list[str], log_dir: Path, label: str, token: str | None = None) -> None:
        """``token``, if given, goes in $TRUCO_ARENA_TOKEN, as an arena gives it."""
        self.args = args
        self.stderr_path = log_dir / f"{label}.stderr"
        env = dict(os.environ)
        env.pop("TRUCO_ARENA_TOKEN", None)
        if token is not None:
            env["TRUCO_ARENA_TOKEN"] = token
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
        env["PYTHONUNBUFFERED"] = "1"
        with open(self.stderr_path, "w") as err:
            self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=err, env=env, cwd=REPO)

    def stderr(self) -> str:
        return self.stderr_path.read_text()

    def wait(self, timeout: float = 15.0) -> int:
        return self.proc.wait(timeout)

    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)


_spawned = 0


def spawn_bot(log_dir: Path, module: str, address: str, name: str, token: str, *extra: str) -> BotProc:
    """``python -m MODULE`` against ``address`` (an arena may or may not be there)."""
    global _spawned
    _spawned += 1
    args = [sys.executable, "-m", module, "--address", address, "--name", name, *extra]
    return BotProc(args, log_dir, f"{name}-{_spawned}", token)


class Harness:
    """An ``Arena`` running in its own thread; the tests drive it synchronously."""

    def __init__(
        self, log_dir: Path, address: str = "127.0.0.1:0", *, tls: tuple[Path, Path] | None = None,
        **arena_options: Any,
    ) -> None:
        """``tls``: (certificate, key) PEM files to serve TLS with."""
        self.log_dir = log_dir
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="arena-loop", daemon=True)
        self.thread.start()
        self.arena = Arena(**arena_options)
        cert, key = tls if tls is not None else (None, None)
        self.port = self.call(self.arena.start(address, tls_cert=cert, tls_key=key))
        self.address = f"127.0.0.1:{self.port}"
        self.procs: list[BotProc] = []

    def call(self, coro: Coroutine[Any, Any, T], timeout: float = 120.0) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def submit(self, coro: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        """Start ``coro`` on the arena's loop; ``.result(timeout)`` waits for it."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop)

    @property
    def evictions(self) -> int:
        """Streams the arena evicted before their Hello (read from the test's thread)."""
        return self.arena.evictions

    def token(self, name: str, token: str | None = None) -> str:
        async def add() -> str:
            return self.arena.add_token(name, token)

        return self.call(add())

    def spawn(self, module: str, name: str, *extra: str, token: str | None = None, streams: int = 1) -> BotProc:
        tok = token if token is not None else self.token(name)
        proc = spawn_bot(self.log_dir, module, self.address, name, tok, "--streams", str(streams), *extra)
        self.procs.append(proc)
        return proc

    def wait_for(self, names: Sequence[str] | dict[str, int], procs: Sequence[BotProc] = (), timeout: float = 20.0) -> None:
        """Wait until the bots are connected; fail at once, with their stderr,
        if one of ``procs`` exits first."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.call(self.arena.wait_for_bots(names, 0.1), 10)
                return
            except BotUnavailableError as exc:
                dead = [p for p in procs if not p.alive()]
                if dead or time.monotonic() > deadline:
                    logs = "\n".join(f"--- {p.args[2]} exit={p.proc.poll()}\n{p.stderr()}" for p in procs)
                    raise BotExited(f"{exc}\n{logs}") from None

    def play(
        self,
        bot_a: str,
        bot_b: str,
        variant: str = "argentino",
        seed: int = 1,
        tc: TimeControl = FAST,
        **overrides: Any,
    ) -> PlayedGame:
        options = make_options(variant, overrides)
        return self.call(self.arena.play_game(bot_a, bot_b, options, seed, tc, acquire_timeout=20.0))

    def assert_serving(self) -> None:
        """The arena still plays a clean game between the good bots."""
        r = self.play("good-a", "good-b", "uruguayo", seed=11, target=9)
        assert r.termination.value == "target_reached", r.reason

    def close(self) -> None:
        try:
            self.call(self.arena.stop(grace=0.5), 30)
        finally:
            for p in self.procs:
                try:
                    p.wait(5)
                except subprocess.TimeoutExpired:
                    p.kill()
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(5)
            self.loop.close()
