"""A real tournament run with its live page: ``truco-arena tournament run
CONFIG --http 127.0.0.1:0`` in a subprocess (real gRPC, real bot processes),
its URL read from stderr. The slow bot (``slow_bot.py``) keeps games in
progress long enough to be watched."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SLOW_BOT = Path(__file__).parent / "slow_bot.py"
CLI = Path(sys.executable).parent / "truco-arena"
START_TIMEOUT = 120.0  # seconds for the run to print its live page's URL
RUN_TIMEOUT = 600.0  # seconds for the run to end once the test is done with it
HTTP_TIMEOUT = 30.0


@dataclass(frozen=True)
class LiveRun:
    url: str  # the live page, ending in "/"
    db: Path
    process: subprocess.Popen[str]

    def get(self, path: str) -> tuple[int, bytes]:
        try:
            with urllib.request.urlopen(self.url + path.lstrip("/"), timeout=HTTP_TIMEOUT) as reply:
                return int(reply.status), bytes(reply.read())
        except urllib.error.HTTPError as exc:
            return int(exc.code), bytes(exc.read())

    def get_json(self, path: str) -> tuple[int, Any]:
        status, body = self.get(path)
        return status, json.loads(body)


def write_config(directory: Path, games: int, delay: float, seed: int = 33) -> Path:
    config = directory / "live.toml"
    config.write_text("\n".join([
        'name = "live"', 'variant = "uruguayo"', f"games_per_pairing = {games}", f"seed = {seed}",
        "concurrency = 2", "[options]", "target = 15", "[time_control]", "move_seconds = 5.0",
        "bank_seconds = 30.0",
        "[[bots]]", 'name = "slow"', f'command = "python {SLOW_BOT.name} --delay {delay}"',
        f'dir = "{SLOW_BOT.parent}"',
        "[[bots]]", 'name = "random"', 'command = "python -m sample_bots.random_bot"',
    ]) + "\n")
    return config


@contextmanager
def live_tournament(directory: Path, games: int, delay: float, *options: str,
                    linger: bool = False) -> Iterator[LiveRun]:
    """Start the run (with ``options`` of ``tournament run``) and yield once its
    live page answers; on exit, wait for the run to finish (it must succeed).

    ``linger``: the finished page stays up until the body is done (the run is
    then stopped as by Ctrl-C), so a page watching the run's last game sees it
    end rather than the arena stop."""
    config = write_config(directory, games, delay)
    process = subprocess.Popen(
        [str(CLI), "tournament", "run", str(config), "--no-progress", "--http", "127.0.0.1:0",
         *(() if linger else ("--http-linger", "0")), *options],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=Path(__file__).parents[2])
    try:
        url = _read_url(process)
        yield LiveRun(url, config.with_suffix(".sqlite"), process)
        err = ""
        if linger:
            err, _line = _read_until(process, "still serving it", RUN_TIMEOUT)
            process.send_signal(signal.SIGINT)
        out, rest = process.communicate(timeout=RUN_TIMEOUT)
        assert process.returncode == 0, err + rest
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()


def page_showing(url: str, showing: str, seconds: float = 120.0) -> str:
    """The page at ``url`` once it shows ``showing``. The front page serves the
    games in progress alone while its report is being made (by a process of
    its own at a low priority, which a loaded machine can hold back), and any
    page a 503 if even that is late; both are asked again, up to ``seconds``."""
    deadline = time.monotonic() + seconds
    page = ""
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=HTTP_TIMEOUT) as reply:
                page = str(reply.read().decode())
            if showing in page:
                return page
        except urllib.error.HTTPError as busy:
            assert busy.code == 503, busy
        time.sleep(0.5)
    raise AssertionError(f"{url} never showed {showing!r}: {page[-300:]}")


def _read_url(process: subprocess.Popen[str]) -> str:
    prefix = "live page on "
    read, line = _read_until(process, prefix, START_TIMEOUT)
    if not line.startswith(prefix):
        raise AssertionError(f"the run printed no live page URL: {read}")
    return line.removeprefix(prefix).strip()


def _read_until(process: subprocess.Popen[str], text: str, seconds: float) -> tuple[str, str]:
    """stderr up to the first line holding ``text`` (the run prints a line or
    exits: this does not hang), and that line ("" if none came within ``seconds``)."""
    assert process.stderr is not None
    deadline = time.monotonic() + seconds
    lines = []
    while time.monotonic() < deadline:
        line = process.stderr.readline()
        if not line:
            break
        lines.append(line)
        if text in line:
            return "".join(lines), line
    return "".join(lines), ""
