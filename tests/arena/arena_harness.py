"""Test harness: a real arena on loopback (port 0) in a background event
loop, and real bot subprocesses (``sys.executable -m MODULE``). No mocks."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
import threading
from collections.abc import Coroutine, Sequence
from pathlib import Path
from typing import Any, TypeVar

import pytest

from arena.engine.options import make_options
from arena.server import Arena, GameRecord, TimeControl

T = TypeVar("T")
REPO = Path(__file__).resolve().parents[2]
FAST = TimeControl(move_time=1.0, bank=5.0)


class BotProc:
    """A bot process; its stderr goes to a file so a failure can show it."""

    def __init__(self, args: list[str], log_dir: Path, label: str) -> None:
        self.args = args
        self.stderr_path = log_dir / f"{label}.stderr"
        env = dict(os.environ)
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


class Harness:
    """An ``Arena`` running in its own thread; the tests drive it synchronously."""

    def __init__(self, log_dir: Path, **arena_options: Any) -> None:
        self.log_dir = log_dir
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="arena-loop", daemon=True)
        self.thread.start()
        self.arena = Arena(**arena_options)
        self.port = self.call(self.arena.start("127.0.0.1:0"))
        self.address = f"127.0.0.1:{self.port}"
        self.procs: list[BotProc] = []

    def call(self, coro: Coroutine[Any, Any, T], timeout: float = 120.0) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def submit(self, coro: Coroutine[Any, Any, T]) -> "asyncio.Future[T]":
        return asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coro, self.loop))  # type: ignore[return-value]

    def token(self, name: str) -> str:
        async def add() -> str:
            return self.arena.add_token(name)

        return self.call(add())

    def spawn(self, module: str, name: str, *extra: str, token: str | None = None, streams: int = 1) -> BotProc:
        tok = token if token is not None else self.token(name)
        args = [sys.executable, "-m", module, "--address", self.address, "--token", tok, "--name", name,
                "--streams", str(streams), *extra]
        proc = BotProc(args, self.log_dir, f"{name}-{len(self.procs)}")
        self.procs.append(proc)
        return proc

    def wait_for(self, names: Sequence[str] | dict[str, int], procs: Sequence[BotProc] = (), timeout: float = 20.0) -> None:
        try:
            self.call(self.arena.wait_for_bots(names, timeout), timeout + 5)
        except Exception as exc:
            logs = "\n".join(f"--- {p.args[2]} exit={p.proc.poll()}\n{p.stderr()}" for p in procs)
            pytest.fail(f"{exc}\n{logs}")

    def play(
        self,
        bot_a: str,
        bot_b: str,
        variant: str = "argentino",
        seed: int = 1,
        tc: TimeControl = FAST,
        **overrides: Any,
    ) -> GameRecord:
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
