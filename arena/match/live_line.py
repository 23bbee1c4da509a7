"""The live line on stderr: one line rewritten in place on a terminal, one
line per update otherwise (a log file or a pipe gets every update)."""

from __future__ import annotations

import sys
from typing import TextIO

_CLEAR_TO_END = "\x1b[K"


class LiveLine:
    def __init__(self, stream: TextIO | None = None) -> None:
        self._stream = stream or sys.stderr
        self._tty = self._stream.isatty()
        self._open = False  # a line is on screen without its newline

    def show(self, line: str) -> None:
        if self._tty:
            self._stream.write(f"\r{line}{_CLEAR_TO_END}")
            self._open = True
        else:
            self._stream.write(line + "\n")
        self._stream.flush()

    def print(self, line: str) -> None:
        """A line that stays, below the live one."""
        self.end()
        self._stream.write(line + "\n")
        self._stream.flush()

    def end(self) -> None:
        if self._open:
            self._stream.write("\n")
            self._stream.flush()
            self._open = False
