"""One bot stream (a seat-slot): its single reader task, its single writer
task, and the bookkeeping that sorts each incoming Move into current, late or
bad.

Exactly ONE task reads the stream, forever, and hands what it reads to the
game the stream is playing (``Connection.inbox``). Timeouts are applied to the
queue, never to ``context.read()``: cancelling a pending gRPC read breaks the
stream for good.

Exactly ONE task writes it, from an outbox. A game ``post``s its messages and
goes on without waiting for gRPC to finish each write: the order on the wire
is the order posted, and a game only ever waits for a Move. (Awaiting every
write put a cross-thread completion wake-up on the game's critical path once
per message.) A write that stays blocked, because the bot stopped reading and
HTTP/2 flow control ran out, is found by ``write_blocked_for`` and the arena's
watchdog drops the stream; ``send`` posts and waits, under ``write_timeout``,
for callers that need the message out before they go on. A poster may also
ask to be told the loop time at which its message was written (``post``'s
``written``): a move's clock starts then, not when the Decision was queued.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict, deque
from collections.abc import Callable

import grpc

from arena.errors import DomainError
from arena.protocol import PROTOCOL_VERSION
from arena.protocol import arena_pb2 as pb
from arena.protocol.handshake import Verifier

from .convert import clip, status_pb
from .wire import WireFault

log = logging.getLogger("arena.server")

_GAMES_REMEMBERED = 64  # past games whose late Moves are still recognised as late
# A game posts a handful of messages per Move it waits for, so a long queue
# means a bot that sends (e.g. junk between games) without reading.
_OUTBOX_MAX = 1024
HALF_CLOSED = "the bot closed its side of the stream"
# gRPC cancels the servicer well under a millisecond after the EOF of a call
# it ended; a half-close is told apart by no cancel coming within this.
_EOF_SETTLE = 0.05


class ConnectionLostError(DomainError):
    """The stream is gone (closed, broken, or a write timed out)."""


class Reply:
    """The Move for the Decision the game is waiting on."""

    __slots__ = ("conn", "move")

    def __init__(self, conn: Connection, move: pb.Move) -> None:
        self.conn, self.move = conn, move


class Bad:
    """A malformed or unexpected message from a seat in a game: it loses."""

    __slots__ = ("conn", "detail")

    def __init__(self, conn: Connection, detail: str) -> None:
        self.conn, self.detail = conn, detail


class Gone:
    """A seat's stream closed."""

    __slots__ = ("conn",)

    def __init__(self, conn: Connection) -> None:
        self.conn = conn


class Interrupt:
    """The arena is shutting down: end the game without a winner."""

    __slots__ = ()


class Deadline:
    """The clock of Decision ``seq`` on ``conn`` ran out (put by the game's own timer)."""

    __slots__ = ("conn", "seq")

    def __init__(self, conn: Connection, seq: int) -> None:
        self.conn, self.seq = conn, seq


InboxItem = Reply | Bad | Gone | Interrupt | Deadline


class Inbox:
    """What a game's seats' readers, its clock and the arena put for the game,
    read by that game alone, in order. An ``asyncio.Queue`` without a bound
    and with one reader: it costs the game's loop a deque and one future per
    wait, and a game waits once per decision."""

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: deque[InboxItem] = deque()
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: InboxItem) -> None:
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None:
            self._waiter = None
            if not waiter.done():
                waiter.set_result(None)

    async def get(self) -> InboxItem:
        items = self._items
        while not items:
            waiter = self._waiter = asyncio.get_running_loop().create_future()
            await waiter
        return items.popleft()

    def empty(self) -> bool:
        return not self._items

    def qsize(self) -> int:
        return len(self._items)
# Called by the writer with the loop time at which a message's write completed.
Written = Callable[[float], None]


class Connection:
    """A stream that said Hello. Attributes set by the servicer once admitted:
    ``name``, ``version``, ``token``, ``protocol``."""

    def __init__(self, context: grpc.aio.ServicerContext, stream_id: str, write_timeout: float) -> None:
        self.context = context
        self.stream_id = stream_id
        self.write_timeout = write_timeout
        self.name = ""
        self.version = ""
        self.token = ""
        self.protocol = PROTOCOL_VERSION  # the Hello's protocol_version once admitted
        self.peer = context.peer()
        self.family: str | None = None  # the process family whose own Unix socket it came through
        self.alive = True
        self.close_reason = ""
        self.graceful = False  # closed (or being closed) by the arena with a closing Status
        self.fault: WireFault | None = None  # what the bot sent that ended the stream, told in the call's status
        self.evicted = False  # ended before its Hello to make room for newer streams (admission.py)
        # The token's verifier and the auth message once the Proof checked:
        # what signs this stream's goodbye (docs/protocol.md, "Trusting the other end").
        self.signer: tuple[Verifier, bytes] | None = None
        self.closed = asyncio.Event()
        self.hello: asyncio.Future[pb.Hello | None] = asyncio.get_running_loop().create_future()
        # The answer to the Challenge: the second message (None if it is not a Proof).
        self.proof: asyncio.Future[pb.Proof | None] = asyncio.get_running_loop().create_future()
        self.inbox: Inbox | None = None  # the game's, while in one
        self.outstanding: tuple[str, int] | None = None  # the Decision awaiting a Move
        self._seq = 0
        self._games: OrderedDict[str, list[int]] = OrderedDict()  # game id -> [first seq, last seq]
        self._outbox: deque[tuple[pb.PlayResponse, asyncio.Future[None] | None, Written | None]] = deque()
        self._wakeup: asyncio.Future[None] | None = None  # the idle writer waits on it
        self._writer_done = False
        self._write_started: float | None = None  # loop time the write in progress began

    def __repr__(self) -> str:
        return f"<stream {self.stream_id} {self.name or '?'} {self.peer}>"

    def goodbye(self, code: pb.StatusCode, message: str, *, restarting: bool = False) -> pb.PlayResponse:
        """A closing Status, signed when the stream's Proof checked, so the bot
        can tell the arena's goodbye from a squatter's."""
        out = status_pb(code, message, closing=True, restarting=restarting)
        if self.signer is not None:
            verifier, auth = self.signer
            out.status.signature = verifier.goodbye(auth, code, restarting)
        return out

    # ------------------------------------------------------------ game binding

    def begin_game(self, game_id: str, inbox: Inbox) -> None:
        self._games[game_id] = [self._seq + 1, self._seq]
        while len(self._games) > _GAMES_REMEMBERED:
            self._games.popitem(last=False)
        self.inbox = inbox

    def end_game(self) -> None:
        self.inbox = None
        self.outstanding = None

    def next_seq(self, game_id: str) -> int:
        """Number the next Decision; from now on its Move is the one awaited."""
        self._seq += 1
        self._games[game_id][1] = self._seq
        self.outstanding = (game_id, self._seq)
        return self._seq

    # ------------------------------------------------------------------ writes

    def post(
        self, msg: pb.PlayResponse, done: asyncio.Future[None] | None = None, written: Written | None = None
    ) -> None:
        """Queue ``msg`` for the writer and return at once; ``done`` (if given)
        gets the result of its write, ``written`` (if given) is called with
        the loop time its write completed (never if it fails). ConnectionLostError
        if the stream is gone."""
        if not self.alive or self._writer_done:
            raise ConnectionLostError(self.close_reason or "stream closed")
        if len(self._outbox) >= _OUTBOX_MAX:
            self.drop(f"{_OUTBOX_MAX} messages waiting to be written: the bot is not reading")
            raise ConnectionLostError(self.close_reason)
        self._outbox.append((msg, done, written))
        wakeup = self._wakeup
        if wakeup is not None and not wakeup.done():
            wakeup.set_result(None)

    async def send(self, msg: pb.PlayResponse) -> None:
        """Post ``msg`` and wait until it is written. A bot that stops reading
        eventually blocks writes (HTTP/2 flow control): after ``write_timeout``
        the stream is dropped."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.post(msg, done)
        try:
            async with asyncio.timeout(self.write_timeout):
                await done
        except TimeoutError:
            self.drop(f"a write blocked for {self.write_timeout:g} s")
            raise ConnectionLostError(self.close_reason) from None

    async def send_quietly(self, msg: pb.PlayResponse) -> bool:
        """Send when the stream may already be gone; True if it went out."""
        try:
            await self.send(msg)
            return True
        except ConnectionLostError:
            return False

    def post_quietly(self, msg: pb.PlayResponse) -> bool:
        """Post when the stream may already be gone; True if it was queued."""
        try:
            self.post(msg)
            return True
        except ConnectionLostError:
            return False

    def write_blocked_for(self, now: float) -> float:
        """Seconds the write in progress has been waiting (0 when none is)."""
        started = self._write_started
        return 0.0 if started is None else now - started

    async def write_loop(self) -> None:
        """The stream's only writer: the outbox, in order, until the stream ends."""
        loop = asyncio.get_running_loop()
        outbox = self._outbox
        in_flight: asyncio.Future[None] | None = None
        try:
            while True:
                if not outbox:
                    self._wakeup = loop.create_future()
                    await self._wakeup
                    self._wakeup = None
                    continue
                msg, in_flight, written = outbox.popleft()
                self._write_started = loop.time()
                await self.context.write(msg)
                self._write_started = None
                if written is not None:
                    written(loop.time())
                if in_flight is not None and not in_flight.done():
                    in_flight.set_result(None)
                in_flight = None
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # grpc reports a dead stream in several ways
            self.drop(f"write failed: {type(exc).__name__}")
        finally:
            self._writer_done = True
            lost = ConnectionLostError(self.close_reason or "stream closed")
            # The write cut short (cancelled or failed) is no longer in the
            # outbox, and whoever awaits it must hear of it as well.
            pending = [in_flight, *(done for _, done, _ in outbox)]
            for done in pending:
                if done is not None and not done.done():
                    done.set_exception(lost)
            outbox.clear()

    # ------------------------------------------------------------------- reads

    async def read_loop(self) -> None:
        """The stream's only reader; runs until the stream ends."""
        reason = HALF_CLOSED
        try:
            while True:
                req = await self.context.read()
                if req is grpc.aio.EOF:
                    # A half-close and a call that gRPC ended (cancel, lost
                    # connection, oversized message) both read as EOF; in the
                    # second case gRPC cancels the servicer right after, which
                    # then names the reason (servicer.ArenaServicer.Play).
                    await asyncio.sleep(_EOF_SETTLE)
                    break
                if isinstance(req, WireFault):
                    reason = req.reason
                    self.fault = req
                    break
                assert isinstance(req, pb.PlayRequest)
                self._on_request(req)
        except asyncio.CancelledError:
            reason = self.close_reason or "stream closed by the arena"
            raise
        except Exception as exc:  # a reset or cancelled RPC surfaces here
            reason = clip(f"stream broken: {type(exc).__name__}: {exc}", 120)
        finally:
            self.drop(reason)

    def _on_request(self, req: pb.PlayRequest) -> None:
        if not self.alive or self.graceful:
            return  # closing (a closing Status is on its way): whatever the bot still says is moot
        if not self.hello.done():
            self.hello.set_result(req.hello if req.WhichOneof("kind") == "hello" else None)
            return
        if not self.proof.done():
            self.proof.set_result(req.proof if req.WhichOneof("kind") == "proof" else None)
            return
        if req.WhichOneof("kind") != "move":
            what = {"hello": "a second Hello", "proof": "a second Proof"}.get(req.WhichOneof("kind") or "",
                                                                             "an empty PlayRequest")
            self._bad(f"expected a Move, got {what}")
            return
        m = req.move
        out = self.outstanding
        if out is not None and out[1] == m.seq and out[0] == m.game_id:
            assert self.inbox is not None
            self._inbox_put(Reply(self, m))
            return
        span = self._games.get(m.game_id)
        if span is not None and span[0] <= m.seq <= span[1]:
            return  # late: an answer to a Decision that is no longer open; dropped silently
        if span is None:
            self._bad(f"Move for unknown game id {m.game_id!r} (seq {m.seq})")
        elif m.seq > self._seq:
            self._bad(f"Move with seq {m.seq}, which was never sent (last sent: {self._seq})")
        else:
            self._bad(f"Move with seq {m.seq}, which did not belong to game {m.game_id!r}")

    def _bad(self, detail: str) -> None:
        if self.inbox is not None:
            self._inbox_put(Bad(self, detail))
            return
        # Outside a game nothing is at stake: say so and carry on.
        self.post_quietly(status_pb(pb.STATUS_CODE_PROTOCOL_ERROR, f"ignored: {detail} (no game in progress)"))

    def _inbox_put(self, item: InboxItem) -> None:
        if self.inbox is not None:
            self.inbox.put_nowait(item)

    # ----------------------------------------------------------------- closing

    def drop(self, reason: str) -> None:
        """Mark the stream dead and tell its game, if any. Idempotent."""
        if not self.alive:
            return
        self.alive = False
        self.close_reason = reason
        log.info("%r closed: %s", self, reason)
        if not self.hello.done():
            self.hello.set_result(None)
        if not self.proof.done():
            self.proof.set_result(None)
        self._inbox_put(Gone(self))
        self.closed.set()

    def close(self, reason: str) -> None:
        """End the stream from the arena's side, politely: the servicer gives
        the bot a moment to half-close before it returns."""
        self.graceful = True
        self.drop(reason)
