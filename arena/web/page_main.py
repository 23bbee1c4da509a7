"""The live page's own process, so that serving pages never competes with the
games for the arena's interpreter (and, at a lower CPU priority, loses to
them for the cores):

    python -m arena.web.page_main --fd N [--db FILE]

Started by ``page_process.PageProcess``, never by hand. ``--fd`` is a
listening socket the arena bound; ``--db`` the results database, opened
read-only. Standard input carries the arena's snapshots (``page_frames.py``:
length-prefixed JSON, each a ``LiveState``); standard output carries
``ready`` once the page serves, then one ``want GAME_ID`` line per game a
page asked to watch (sent at most every ``WANT_REPEAT`` seconds per game,
through a bounded queue: a busy arena loses requests, never blocks the page).

It stops when its standard input ends (the arena stopped, or died: nobody
else holds the pipe) or when its parent changes, whichever comes first; it
ignores SIGINT (a Ctrl-C in the terminal is the arena's to handle, which
then closes the pipe).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import queue
import signal
import socket
import sys
import threading
import time
from pathlib import Path
from typing import IO

from .http import HttpServer
from .live_games import GAME_ID
from .page_frames import FrameError, read_frame
from .page_process import LOGIN_ENV
from .site import LiveSite
from .snapshot import LiveState

log = logging.getLogger("arena.web")
NICENESS = 10  # added to the page's CPU niceness: on a busy machine, the games come first
WANT_REPEAT = 2.0  # seconds between two requests to the arena for the same game's view
MAX_WANTS = 64  # requests waiting to be sent to the arena, at most; more are dropped
PARENT_CHECK = 1.0  # seconds between two checks that the arena is still the parent


class ReceivedState:
    """The page's ``LiveSource``: the latest state the arena sent, and a
    bounded, non-blocking way to ask it for a game's view."""

    def __init__(self) -> None:
        self.state = LiveState(at=time.time())
        self.wants: queue.Queue[str] = queue.Queue(MAX_WANTS)
        self._asked: dict[str, float] = {}  # game id -> monotonic time last asked (the page's loop only)

    def want(self, game_id: str) -> None:
        if not GAME_ID.fullmatch(game_id):
            return
        now = time.monotonic()
        if now - self._asked.get(game_id, -WANT_REPEAT) < WANT_REPEAT:
            return
        if len(self._asked) >= 4 * MAX_WANTS:  # forget old requests: the table stays small
            self._asked = {g: t for g, t in self._asked.items() if now - t < WANT_REPEAT}
        self._asked[game_id] = now
        try:
            self.wants.put_nowait(game_id)
        except queue.Full:
            pass


def _read_states(stream: IO[bytes], source: ReceivedState, loop: asyncio.AbstractEventLoop,
                 stop: asyncio.Event) -> None:
    """Take each snapshot the arena sends; stop the page when the pipe ends."""
    try:
        while (frame := read_frame(stream)) is not None:
            try:
                source.state = LiveState.from_json(frame)
            except ValueError:
                log.warning("the arena sent a frame that is not a live state: ignored")
    except (FrameError, OSError) as exc:
        log.warning("the arena's snapshots stopped: %s", exc)
    loop.call_soon_threadsafe(stop.set)


def _send_wants(out: IO[bytes], source: ReceivedState) -> None:
    while True:
        game_id = source.wants.get()
        try:
            out.write(f"want {game_id}\n".encode("ascii"))
            out.flush()
        except OSError:  # the arena is gone; the input's end stops the page
            return


async def _serve(sock: socket.socket, db: Path | None, parent: int, login: str | None) -> None:
    source = ReceivedState()
    http = HttpServer(LiveSite(source, db).handle, login=login)
    await http.serve_socket(sock)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    threading.Thread(target=_read_states, args=(sys.stdin.buffer, source, loop, stop),
                     name="live-page-input", daemon=True).start()
    threading.Thread(target=_send_wants, args=(sys.stdout.buffer, source),
                     name="live-page-wants", daemon=True).start()
    sys.stdout.buffer.write(b"ready\n")
    sys.stdout.buffer.flush()
    try:
        while not stop.is_set() and os.getppid() == parent:
            try:
                await asyncio.wait_for(stop.wait(), PARENT_CHECK)
            except TimeoutError:
                pass
    finally:
        await http.stop()


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m arena.web.page_main", description=__doc__.splitlines()[0])
    p.add_argument("--fd", type=int, required=True, help="a listening TCP socket, inherited")
    p.add_argument("--db", type=Path, help="the results database, read-only")
    p.add_argument("--parent", type=int, required=True, help="the arena's pid: the page stops if it changes")
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s live page: %(message)s")
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        os.nice(NICENESS)
    except OSError:
        pass  # not allowed here: the page still runs, at the arena's priority
    # The login's digest comes in the environment, never on the command line (``ps``).
    login = os.environ.pop(LOGIN_ENV, "") or None
    sock = socket.socket(fileno=args.fd)
    try:
        asyncio.run(_serve(sock, args.db, args.parent, login))
    finally:
        sock.close()


if __name__ == "__main__":
    main()
