"""A progress line: games done, rate and time left, on stderr."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    def __init__(self, total: int, done: int = 0, stream: TextIO | None = None, enabled: bool = True) -> None:
        self.total = total
        self.done = done
        self._start_done = done
        self._t0 = time.monotonic()
        self._stream = stream or sys.stderr
        self._tty = self._stream.isatty()
        self._enabled = enabled
        self._last = 0.0

    def advance(self, n: int = 1) -> None:
        self.done += n
        now = time.monotonic()
        # On a terminal redraw in place; in logs print at most every 5 s.
        if self._enabled and (self._tty or now - self._last >= 5 or self.done == self.total):
            self._last = now
            self._draw(now)

    def line(self, now: float | None = None) -> str:
        elapsed = (now or time.monotonic()) - self._t0
        played = self.done - self._start_done
        rate = played / elapsed if elapsed > 0 else 0.0
        left = (self.total - self.done) / rate if rate > 0 else float("inf")
        width = 24
        filled = int(width * self.done / self.total) if self.total else width
        eta = "--" if left == float("inf") else f"{left:.0f}s"
        return f"[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} games  {rate:.2f} games/s  left {eta}"

    def _draw(self, now: float) -> None:
        end = "\r" if self._tty and self.done < self.total else "\n"
        self._stream.write(self.line(now) + end)
        self._stream.flush()
