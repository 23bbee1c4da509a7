"""The arena's side of the live page's process (``page_main.py``).

``PageProcess.start`` binds the page's address here (so a busy port is an
OSError before any game starts), starts the page's process with the
listening socket and waits until it serves. ``offer(state)`` hands it the
arena's latest snapshot without ever waiting: a slot of one, which a newer
snapshot replaces, drained by a thread of its own that blocks (if the page
falls behind) only itself. A second thread reads the page's requests for a
game's view and passes them on. ``close()`` ends the pipe, so the page
stops; one that does not within ``EXIT_DEADLINE`` seconds is killed. The page
also stops by itself when the arena's process dies: the pipe ends with it.
"""

from __future__ import annotations

import io
import logging
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import IO, cast

from .http import BACKLOG
from .live_games import GAME_ID
from .page_frames import FrameError, encode_frame
from .snapshot import LiveState

log = logging.getLogger("arena.web")
START_DEADLINE = 60.0  # seconds for the page's process to serve (its imports, on a loaded machine)
EXIT_DEADLINE = 5.0  # seconds for it to stop once its input ends, before it is killed
MAX_LINE = 256  # bytes of one line from the page
LOGIN_ENV = "TRUCO_ARENA_PAGE_LOGIN"  # the page's login digest (http.login_digest), if any


def listen(host: str, port: int) -> socket.socket:
    """A listening TCP socket on HOST:PORT; OSError if it cannot be bound."""
    family, _, _, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(BACKLOG)
    except BaseException:
        sock.close()
        raise
    return sock


def _env(login: str | None) -> dict[str, str]:
    """This environment, with this copy of ``arena`` first on the page's path
    and the login's digest (if any) in ``LOGIN_ENV``."""
    root = str(Path(__file__).resolve().parents[2])
    env = dict(os.environ)
    env.pop(LOGIN_ENV, None)
    if login is not None:
        env[LOGIN_ENV] = login
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [root, env.get("PYTHONPATH")]))
    return env


class PageProcess:
    """The live page's process for the results database ``db`` (None: none);
    ``on_want(game_id)`` is called (from a thread of its own) when a page asks to watch a game;
    with ``login`` (``http.login_digest``) every request must log in."""

    def __init__(self, db: Path | None, on_want: Callable[[str], None], login: str | None = None) -> None:
        self.db, self.on_want, self.login = db, on_want, login
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None
        self._pending: LiveState | None = None
        self._closing = False
        self._wake = threading.Condition()
        self._ready = threading.Event()
        self._ready_seen = False  # the page said it serves
        self._threads: list[threading.Thread] = []

    def start(self, host: str, port: int) -> int:
        """Bind, start the page, wait until it serves; return the bound port.
        Blocking: call it in a thread. OSError if the address cannot be bound or the page does not start."""
        sock = listen(host, port)
        try:
            self.port = int(sock.getsockname()[1])
            db = ["--db", str(self.db)] if self.db is not None else []
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "arena.web.page_main", "--fd", str(sock.fileno()),
                 "--parent", str(os.getpid()), *db],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0, pass_fds=(sock.fileno(),), env=_env(self.login))
        finally:
            sock.close()  # the page holds it now
        for target, name in ((self._read_page, "live-page-reader"), (self._feed_page, "live-page-feeder")):
            thread = threading.Thread(target=target, name=name, daemon=True)
            thread.start()
            self._threads.append(thread)
        if not self._ready.wait(START_DEADLINE) or not self._ready_seen:  # it ended, or never said "ready"
            self.close()
            raise OSError(f"the live page's process did not start (exit code {self.proc.returncode})")
        return self.port

    def offer(self, state: LiveState) -> None:
        """The latest snapshot, to send when the page can take it. Never blocks."""
        with self._wake:
            self._pending = state
            self._wake.notify()

    def close(self) -> None:
        """Send the last snapshot offered, end the pipe, wait for the page to stop (blocking)."""
        with self._wake:
            self._closing = True
            self._wake.notify()
        proc = self.proc
        if proc is None:
            return
        try:
            proc.wait(EXIT_DEADLINE)
        except subprocess.TimeoutExpired:
            log.warning("the live page did not stop within %g s: killed", EXIT_DEADLINE)
            proc.kill()
            proc.wait()
        for thread in self._threads:
            thread.join(EXIT_DEADLINE)

    def _feed_page(self) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        pipe = self.proc.stdin
        try:
            while True:
                with self._wake:
                    while self._pending is None and not self._closing:
                        self._wake.wait()
                    state, self._pending = self._pending, None
                    closing = self._closing
                if state is not None:
                    try:
                        frame = encode_frame(state.to_json())
                    except (FrameError, TypeError, ValueError) as exc:  # the page keeps the previous one
                        log.warning("the live page's snapshot was not sent: %s", exc)
                    else:
                        _write_all(pipe, frame)  # blocks this thread only, until the page reads
                if closing:
                    return
        except OSError:
            pass  # the page is gone: nothing more to send
        finally:
            try:
                pipe.close()  # the page's input ends: it stops
            except OSError:
                pass

    def _read_page(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        lines = io.BufferedReader(cast(io.RawIOBase, self.proc.stdout))  # bufsize=0: a raw pipe
        try:
            while line := lines.readline(MAX_LINE):
                word, _, rest = line.decode("ascii", "replace").strip().partition(" ")
                if word == "ready":
                    self._ready_seen = True
                    self._ready.set()
                elif word == "want" and GAME_ID.fullmatch(rest):
                    try:
                        self.on_want(rest)
                    except Exception:  # a bug here must not stop the page's requests
                        log.exception("the live page's request for game %s failed", rest)
        except OSError:
            pass
        finally:
            self._ready.set()  # the page ended: nobody waits for it any longer
            lines.close()
            with self._wake:
                closing = self._closing
            if not closing and self._ready_seen:
                log.warning("the live page's process exited; the games go on without it")


def _write_all(pipe: IO[bytes], data: bytes) -> None:
    """Write all of ``data`` to an unbuffered pipe (a raw write may take only part of it)."""
    view = memoryview(data)
    while view:
        view = view[pipe.write(view):]
