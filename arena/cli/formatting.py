"""The shared output options (``--format``: any tabulate format, ``--json``,
``--csv``) and the one helper that makes what the CLI prints safe on a
terminal (``printable``, applied to all of stdout and stderr by ``TerminalGuard``)."""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Callable
from typing import Any, TextIO, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])

TABLE_FORMATS = ("plain", "simple", "github", "grid", "simple_grid", "rounded_grid", "pipe", "orgtbl",
                 "rst", "mediawiki", "html", "latex", "latex_booktabs", "tsv", "psql", "outline")


def output_options(func: F) -> F:
    """Add ``--format/--json/--csv`` and pass one ``fmt`` argument to ``func``."""

    func = click.option("--csv", "as_csv", is_flag=True, help="Write CSV (same as --format csv).")(func)
    func = click.option("--json", "as_json", is_flag=True, help="Write JSON (same as --format json).")(func)
    func = click.option(
        "--format", "fmt", default="simple", show_default=True,
        type=click.Choice(TABLE_FORMATS + ("json", "csv")),
        help="Table format: any of tabulate's, or json / csv.",
    )(func)
    return func


def pick_format(fmt: str, as_json: bool, as_csv: bool) -> str:
    if as_json and as_csv:
        raise click.UsageError("choose one of --json and --csv")
    return "json" if as_json else "csv" if as_csv else fmt


# Everything but these is shown escaped. Newlines and tabs are the CLI's own
# layout (a bot's text never brings one: its log is quoted by lines, names and
# versions are checked); a carriage return is allowed to pass only where
# the CLI's own progress lines redraw (see TerminalGuard).
_UNSAFE = re.compile(r"[^\n\t\x20-\x7e]")
_REDRAW_TAIL = ("\r", "\x1b[K")


def printable(text: str) -> str:
    """``text`` with every control or escape character shown escaped
    (``\\x1b``, ``\\r``, ``\\x9b``, ``\\u202e``...), so that nothing a bot wrote
    (a log line, a name, a version, a reason) acts on a terminal: no clear
    screen, no colours, no window title, no OSC 52 clipboard write, no
    rewritten line. Printable non-ASCII letters stay as they are."""
    if not _UNSAFE.search(text):
        return text
    return _UNSAFE.sub(lambda m: m[0] if m[0].isprintable() else repr(m[0])[1:-1], text)


class TerminalGuard(io.TextIOBase):
    """A text stream that passes everything through ``printable`` on its way
    to ``stream``: the CLI puts one on stdout and one on stderr, so that
    every line it prints (tables, errors, logs, progress, standings) is safe
    on a terminal, whatever bot text it quotes. The only controls let
    through are those of the CLI's own redrawn progress lines: one carriage
    return at the start of a write, and a carriage return or an
    erase-to-end-of-line (``ESC [ K``) as its very end."""

    def __init__(self, stream: TextIO) -> None:
        super().__init__()
        self.stream = stream

    def write(self, s: str) -> int:
        if not isinstance(s, str):
            raise TypeError(f"write() argument must be str, not {type(s).__name__}")
        head = "\r" if s.startswith("\r") else ""
        rest = s[len(head):]
        tail = next((t for t in _REDRAW_TAIL if rest.endswith(t)), "")
        self.stream.write(head + printable(rest[:len(rest) - len(tail)]) + tail)
        return len(s)

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return self.stream.isatty()

    def fileno(self) -> int:
        return self.stream.fileno()

    def writable(self) -> bool:
        return True

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self.stream.encoding

    @property
    def errors(self) -> str | None:  # type: ignore[override]
        return self.stream.errors


def guard_terminal() -> None:
    """Put a ``TerminalGuard`` on ``sys.stdout`` and ``sys.stderr`` (once)."""
    for attr in ("stdout", "stderr"):
        stream = getattr(sys, attr)
        if stream is not None and not isinstance(stream, TerminalGuard):
            setattr(sys, attr, TerminalGuard(stream))
