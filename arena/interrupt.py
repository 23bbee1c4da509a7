"""Stop signals (SIGINT, SIGTERM) from the first line of ``main`` to the last.

A signal is never lost and never ends in a traceback; the process always
exits 128 + the signal (130 for Ctrl-C, 143 for SIGTERM), with one line:

- ``arm()``, the first thing the ``truco-arena`` command does (before it
  imports anything of its own): a signal exits at once. Nothing has been
  launched yet, and nothing a command does outside the two scopes below
  needs more than that (an SQLite write is atomic however the process ends).
- ``clean_stop(loop, request)``, around a run that stops cleanly
  (tournament, league): the first signal asks it to stop (no new game
  starts, running ones end as interrupted), a second one exits at once.
- ``interruptible()``, around work that launches processes without a clean
  stop of its own (``check-bot``): a signal raises KeyboardInterrupt where
  the code is (asyncio's ``run`` turns it into a cancel of its task), so
  the ``finally`` blocks that end those processes run.

stdlib only: the command imports it before anything else.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    import asyncio

SIGNALS = (signal.SIGINT, signal.SIGTERM)

_armed = False  # arm() was called: this process is the command, not a library user (a test)
_received: int | None = None  # the first stop signal seen


def exit_code(default: int = 128 + signal.SIGINT) -> int:
    """128 + the first stop signal received (``default`` when none was)."""
    return default if _received is None else 128 + _received


def _note(signum: int) -> bool:
    """Remember ``signum``; True if a stop signal had come before."""
    global _received
    again = _received is not None
    if not again:
        _received = signum
    return again


def exit_at_once(signum: int, frame: FrameType | None = None) -> NoReturn:
    """Print one line and end the process now, 128 + ``signum``, nothing else run."""
    name = signal.Signals(signum).name
    try:
        os.write(2, f"error: interrupted by {name}\n".encode())
    except OSError:
        pass
    os._exit(128 + signum)


def arm() -> None:
    """From now on a stop signal ends the process at once, with one line,
    except inside ``clean_stop`` and ``interruptible``."""
    global _armed
    _armed = True
    for sig in SIGNALS:
        signal.signal(sig, exit_at_once)


@contextmanager
def clean_stop(loop: asyncio.AbstractEventLoop, request: Callable[[int], Any]) -> Iterator[None]:
    """While inside (on ``loop``'s thread, the main one), the first SIGINT or
    SIGTERM calls ``request(signum)`` on the loop; a second one exits at once.
    On leaving, the handlers from before are back."""
    previous = {sig: signal.getsignal(sig) for sig in SIGNALS}

    def handle(signum: int) -> None:
        if _note(signum):
            exit_at_once(signum)
        request(signum)

    for sig in SIGNALS:
        loop.add_signal_handler(sig, handle, sig)
    try:
        yield
    finally:
        for sig in SIGNALS:
            loop.remove_signal_handler(sig)
        _restore(previous)


@contextmanager
def interruptible() -> Iterator[None]:
    """While inside, a SIGINT or SIGTERM raises KeyboardInterrupt (asyncio's
    ``run`` cancels its task instead). Only in an
    armed process: elsewhere (a test calling the CLI) the handlers stay as they are."""
    if not _armed:
        yield
        return
    previous = {sig: signal.getsignal(sig) for sig in SIGNALS}

    def handle(signum: int, frame: FrameType | None) -> None:
        _note(signum)
        # asyncio.run puts its own SIGINT handler in place of Python's
        # default (it cancels the main task): SIGTERM takes the same way.
        current = signal.getsignal(signal.SIGINT)
        if callable(current) and current is not handle:
            current(signal.SIGINT, frame)
        else:
            raise KeyboardInterrupt

    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, handle)
    try:
        yield
    finally:
        _restore(previous)


def _restore(previous: dict[signal.Signals, Any]) -> None:
    for sig, handler in previous.items():
        signal.signal(sig, handler if handler is not None else signal.SIG_DFL)
