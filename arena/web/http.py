"""A minimal, strict HTTP/1.1 server on asyncio: GET and HEAD only, one
request per connection, everything bounded.

Limits: a request line and each header line at most ``MAX_LINE`` bytes, at
most ``MAX_HEADERS`` headers, the whole head read within ``READ_DEADLINE``
seconds (a slow client is cut off), no request body, at most
``MAX_CONNECTIONS`` connections at once, at most ``MAX_RATE`` requests
answered a second (the others wait their turn: the page's CPU is bounded
however fast clients poll), a page that takes more than
``HANDLER_DEADLINE`` seconds to make is answered 503, and a response that
the client does not read within ``WRITE_DEADLINE`` seconds is dropped. A connection past the
cap evicts the oldest connection that has sent nothing yet (so a slowloris
of idle connections cannot lock the page: it only evicts itself), else the
oldest whose request has been trickling in for ``TRICKLE_GRACE`` seconds;
a request that has arrived but waits for its turn is never evicted. Only
when no connection can be evicted does the new one get 503. Paths
are looked up in a routing function; nothing maps a path to a file.

Of the headers only ``Authorization`` is kept (one at most): with a
``login`` (the SHA-256 of ``USER:PASSWORD``) every request must carry it as
HTTP Basic credentials, else it gets 401 after ``LOGIN_FAIL_DELAY``
seconds, before any page is made.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import fcntl
import hashlib
import hmac
import logging
import socket
import sys
import termios
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from http import HTTPStatus
from typing import SupportsIndex

from arena.errors import UsageError

log = logging.getLogger("arena.web")

MAX_LINE = 8192
MAX_HEADERS = 64
MAX_CONNECTIONS = 64
READ_DEADLINE = 10.0
WRITE_DEADLINE = 10.0
BACKLOG = 512  # connections the kernel queues: a burst is served late, not refused
MAX_RATE = 100.0  # requests answered per second, at most: a browser tab polls about once a second
HANDLER_DEADLINE = 10.0  # seconds to make one page (a read of a large database included)
REFUSE_DEADLINE = 1.0
TRICKLE_GRACE = 1.0  # seconds a request may take to arrive before its connection may be evicted
LINGER_SECONDS = 1.0  # after an error, how long to read what the client still sends
LINGER_BYTES = 1 << 20
LOGIN_FAIL_DELAY = 1.0  # seconds before a request without the right login is told 401
REALM = "truco-arena"


@dataclass(frozen=True)
class Response:
    status: HTTPStatus
    body: bytes
    content_type: str = "text/plain; charset=utf-8"
    cache: str = "no-store"
    """Live data: never cached."""
    headers: tuple[tuple[str, str], ...] = ()
    """More response headers (ASCII)"""


def text_response(status: HTTPStatus, text: str | None = None) -> Response:
    return Response(status, ((text or status.phrase) + "\n").encode())


# path (without the query) -> response
Handler = Callable[[str], Awaitable[Response]]


class BadRequestError(UsageError):
    def __init__(self, status: HTTPStatus, detail: str) -> None:
        super().__init__(detail)
        self.status = status


@dataclass(frozen=True)
class Request:
    method: str
    """GET or HEAD."""
    path: str
    """Without the query or fragment."""
    authorization: str | None = None
    """The Authorization header, if the client sent one."""


def login_digest(user: str, password: str) -> str:
    """What ``HttpServer(login=...)`` is given: the hex SHA-256 of ``USER:PASSWORD``."""
    return hashlib.sha256(f"{user}:{password}".encode()).hexdigest()


def authorized(authorization: str | None, login: str) -> bool:
    """Whether an Authorization header holds the Basic credentials of ``login``."""
    if authorization is None:
        return False
    scheme, _, encoded = authorization.strip().partition(" ")
    if scheme.lower() != "basic":
        return False
    try:
        credentials = base64.b64decode(encoded.strip(), validate=True)
    except (binascii.Error, ValueError):
        return False
    return hmac.compare_digest(hashlib.sha256(credentials).hexdigest(), login)


async def read_head(reader: asyncio.StreamReader) -> tuple[str, str]:
    """The method and path of one request; BadRequestError for anything else."""
    request = await read_request(reader)
    return request.method, request.path


async def read_request(reader: asyncio.StreamReader) -> Request:
    """One request's head (``MAX_HEADERS`` lines of ``MAX_LINE`` bytes at
    most); BadRequestError for anything else."""
    authorization: str | None = None
    line = await _line(reader)
    parts = line.split(" ")
    if len(parts) != 3 or not parts[2].startswith("HTTP/1."):
        raise BadRequestError(HTTPStatus.BAD_REQUEST, "malformed request line")
    method, target, _ = parts
    for count in range(MAX_HEADERS + 1):
        header = await _line(reader)
        if not header:
            break
        if count == MAX_HEADERS:
            raise BadRequestError(HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, "too many headers")
        name, colon, value = header.partition(":")
        if not colon or not name or name != name.strip():
            raise BadRequestError(HTTPStatus.BAD_REQUEST, "malformed header")
        # No request body is read, so a request announcing one is refused.
        if name.lower() == "transfer-encoding" or (name.lower() == "content-length" and value.strip() != "0"):
            raise BadRequestError(HTTPStatus.BAD_REQUEST, "a request body is not accepted")
        if name.lower() == "authorization":
            if authorization is not None:
                raise BadRequestError(HTTPStatus.BAD_REQUEST, "more than one Authorization header")
            authorization = value.strip()
    if method not in ("GET", "HEAD"):
        raise BadRequestError(HTTPStatus.METHOD_NOT_ALLOWED, "only GET and HEAD")
    if not target.startswith("/"):
        raise BadRequestError(HTTPStatus.BAD_REQUEST, "the target must be a path")
    return Request(method, target.split("?", 1)[0].split("#", 1)[0], authorization)


async def _line(reader: asyncio.StreamReader) -> str:
    try:
        raw = await reader.readuntil(b"\n")
    except asyncio.LimitOverrunError:
        raise BadRequestError(HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, "line too long") from None
    except asyncio.IncompleteReadError:
        raise BadRequestError(HTTPStatus.BAD_REQUEST, "incomplete request") from None
    try:
        return raw.decode("ascii").rstrip("\r\n")
    except UnicodeDecodeError:
        raise BadRequestError(HTTPStatus.BAD_REQUEST, "not ASCII") from None


class _Reader(asyncio.StreamReader):
    """A stream reader that knows whether the client has sent anything yet
    (that the event loop has read, at least: see ``_silent``)."""

    heard = False

    def feed_data(self, data: Iterable[SupportsIndex]) -> None:
        if data:
            self.heard = True
        super().feed_data(data)


@dataclass
class _Waiting:
    """A connection waiting for its request."""

    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    since: float
    """Monotonic time it was accepted."""


def _silent(waiting: _Waiting) -> bool:
    """Whether the client has sent nothing: nothing read, nothing waiting in
    the kernel either (a burst of connections is accepted before any is read)."""
    if getattr(waiting.reader, "heard", False):
        return False
    sock = waiting.writer.get_extra_info("socket")
    if sock is None:
        return True
    try:
        pending = fcntl.ioctl(sock.fileno(), termios.FIONREAD, b"\0\0\0\0")
    except OSError:
        return True  # closed already
    return int.from_bytes(pending, sys.byteorder) == 0


class HttpServer:
    """Serve ``handler`` on HOST:PORT inside the running event loop."""

    def __init__(self, handler: Handler, max_connections: int = MAX_CONNECTIONS,
                 read_deadline: float = READ_DEADLINE, max_rate: float = MAX_RATE,
                 login: str | None = None) -> None:
        self.handler = handler
        self.login = login  # ``login_digest`` of the one user allowed in; None: anyone
        self.interval = 1.0 / max_rate  # seconds between the starts of two answers, at least
        self._next_turn = 0.0  # loop time the next answer may start
        self.max_connections = max_connections
        self.read_deadline = read_deadline
        self.open = 0
        self.evicted = 0  # idle connections closed to make room
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._idle: OrderedDict[asyncio.Task[None], _Waiting] = OrderedDict()  # waiting for a request, oldest first

    def _protocol(self) -> asyncio.StreamReaderProtocol:
        # asyncio.start_server's own, with a reader that tells a silent connection from a slow one.
        return asyncio.StreamReaderProtocol(_Reader(limit=MAX_LINE), self._connection)

    async def start(self, host: str, port: int) -> int:
        """Listen; return the bound port (``port`` 0 picks a free one). OSError if it cannot bind."""
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(self._protocol, host, port, backlog=BACKLOG)
        return int(self._server.sockets[0].getsockname()[1])

    async def serve_socket(self, sock: socket.socket) -> None:
        """Serve on ``sock``, already bound (the arena binds it for the page's process)."""
        self._server = await asyncio.get_running_loop().create_server(self._protocol, sock=sock, backlog=BACKLOG)

    async def stop(self) -> None:
        if self._server is None:
            return
        self._server.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self._server.wait_closed()
        self._server = None

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        self.open += 1
        try:
            if self.open > self.max_connections:
                victim = self._victim()
                if victim is None:
                    await self._refuse(reader, writer)
                    return
                del self._idle[victim]
                victim.cancel()  # it closes: an idle connection makes room for a new one
                self.evicted += 1
            await self._serve_one(reader, writer, task)
        except asyncio.CancelledError:
            pass  # the server is stopping: this connection just closes (asyncio would log a cancelled handler)
        except Exception:  # a bug in a page must not take the arena down
            log.exception("live page request failed")
        finally:
            self.open -= 1
            self._tasks.discard(task)
            self._idle.pop(task, None)
            writer.close()

    def _victim(self) -> asyncio.Task[None] | None:
        """The connection to close for a new one: the oldest silent one, else
        the oldest whose request has been arriving for too long; None if every
        waiting connection has its request, or is new."""
        for task, waiting in self._idle.items():  # oldest first
            if _silent(waiting):
                return task
        now = time.monotonic()
        for task, waiting in self._idle.items():
            if now - waiting.since >= TRICKLE_GRACE:
                return task
        return None

    async def _refuse(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """503 for a connection over the limit. Its request is read first (for
        at most ``REFUSE_DEADLINE`` s): closing with unread data would reset
        the connection and the client would never see the 503."""
        try:
            async with asyncio.timeout(REFUSE_DEADLINE):
                await read_head(reader)
        except (TimeoutError, BadRequestError, ConnectionError, OSError):
            pass
        await _send(writer, text_response(HTTPStatus.SERVICE_UNAVAILABLE, "too many connections"), False)

    async def _serve_one(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                         task: asyncio.Task[None]) -> None:
        self._idle[task] = _Waiting(reader, writer, time.monotonic())
        try:
            async with asyncio.timeout(self.read_deadline):
                request = await read_request(reader)
                method, path = request.method, request.path
        except TimeoutError:
            await _send(writer, text_response(HTTPStatus.REQUEST_TIMEOUT), False)
            return
        except BadRequestError as bad:
            await _send(writer, text_response(bad.status, str(bad)), False)
            await _linger(reader)
            return
        except (ConnectionError, OSError):
            return
        finally:
            self._idle.pop(task, None)
        if self.login is not None and not authorized(request.authorization, self.login):
            await asyncio.sleep(LOGIN_FAIL_DELAY)  # guesses come slowly
            await _send(writer, Response(HTTPStatus.UNAUTHORIZED, b"log in to see this page\n",
                                         headers=(("WWW-Authenticate", f'Basic realm="{REALM}", charset="UTF-8"'),)),
                        method == "GET")
            return
        try:
            async with asyncio.timeout(HANDLER_DEADLINE):
                await self._turn()
                response = await self.handler(path)
        except TimeoutError:
            log.warning("live page %s took over %g s", path, HANDLER_DEADLINE)
            response = text_response(HTTPStatus.SERVICE_UNAVAILABLE, "the page is busy: try again")
        except Exception:
            log.exception("live page %s failed", path)
            response = text_response(HTTPStatus.INTERNAL_SERVER_ERROR)
        await _send(writer, response, method == "GET")


    async def _turn(self) -> None:
        """Wait for this request's turn: answers start at most ``max_rate`` a
        second. The wait is bounded: at most ``max_connections`` requests queue."""
        now = asyncio.get_running_loop().time()
        turn = max(now, self._next_turn)
        self._next_turn = turn + self.interval
        if turn > now:
            await asyncio.sleep(turn - now)


async def _linger(reader: asyncio.StreamReader) -> None:
    """Read what the client is still sending (bounded in bytes and time) before
    closing: closing with unread data resets the connection, and the client
    could lose the error response it has not read yet."""
    try:
        async with asyncio.timeout(LINGER_SECONDS):
            left = LINGER_BYTES
            while left > 0 and (chunk := await reader.read(min(left, 65536))):
                left -= len(chunk)
    except (TimeoutError, ConnectionError, OSError):
        pass


async def _send(writer: asyncio.StreamWriter, response: Response, body: bool) -> None:
    head = (f"HTTP/1.1 {response.status.value} {response.status.phrase}\r\n"
            f"Content-Type: {response.content_type}\r\n"
            f"Content-Length: {len(response.body)}\r\n"
            f"Cache-Control: {response.cache}\r\n"
            + "".join(f"{name}: {value}\r\n" for name, value in response.headers)
            + "X-Content-Type-Options: nosniff\r\n"
            "Connection: close\r\n\r\n")
    try:
        writer.write(head.encode("ascii") + (response.body if body else b""))
        async with asyncio.timeout(WRITE_DEADLINE):
            await writer.drain()
    except (TimeoutError, ConnectionError, OSError):
        pass  # a client that does not read, or went away: the connection is closed by the caller
