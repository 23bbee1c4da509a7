"""The gRPC servicer: admits a stream (Hello -> Welcome or a closing Status),
parks it in the pool, and keeps the RPC open until the stream ends. It only
translates; games are run by ``GameRun``.

Streams that have not said Hello yet cost memory and are free to open, so
they are capped, per connection, per host and arena-wide (``admission.py``):
a new stream is never refused for a cap; the oldest waiting stream of the
fullest connection is evicted instead and ends with gRPC status UNAVAILABLE,
which a well-behaved client retries with backoff. Every waiting stream has
the Hello deadline. Each refused Hello is logged at WARNING with the peer's
address, and repeated refusals from one host are slowed down (``throttle.py``).
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import logging
import re
from collections.abc import AsyncIterator
from typing import Protocol

import grpc

import arena
from arena.protocol import PROTOCOL_VERSION, SUPPORTED_VERSIONS
from arena.protocol import arena_pb2 as pb
from arena.protocol import arena_pb2_grpc as pb_grpc
from arena.protocol.handshake import MAX_NONCE_BYTES, MIN_NONCE_BYTES, auth_message, new_nonce

from .admission import AdmissionCaps, WaitingRoom
from .connection import Connection
from .convert import clip
from .pool import Pool
from .throttle import HelloThrottle, ThrottlePolicy, peer_host
from .tokens import NAME_RE, TokenStore

log = logging.getLogger("arena.server")

# Refusals that follow a message the client chose to send: these are slowed
# down when they repeat. (A missing Hello already cost its sender the deadline;
# a wrong protocol version or a taken name is a mistake, not a guess.)
_THROTTLED = frozenset({pb.STATUS_CODE_UNAUTHENTICATED, pb.STATUS_CODE_BAD_HELLO})
MAX_VERSION = 64  # characters of a bot_version: it is stored with every game and shown in every table
VERSION_RE = re.compile(rf"[A-Za-z0-9._+:~\-]{{0,{MAX_VERSION}}}")
_EVICT_LOG_EVERY = 1000  # at most one log line per this many streams evicted


def cancelled_reason(hard_limit: int) -> str:
    """Why a stream ended when gRPC cancelled its call: gRPC gives the servicer
    the same cancel for each of these causes, so the reason names them all."""
    return (
        "the stream was cancelled: by the bot, by a lost connection (exit, network, keepalive pings unanswered), "
        f"or by gRPC (a message over {hard_limit // 1024} KiB)"
    )


def family_peer(family: str) -> str:
    """The peer of every stream on a process family's own Unix socket, until
    its Hello names its process: admission caps count the family as one host."""
    return f"unix-family:{family}"


class Host(Protocol):
    """What the servicer reads of the arena it serves (``arena.Arena``): named
    here so that the arena imports the servicer and not the other way round."""

    @property
    def pool(self) -> Pool: ...

    @property
    def tokens(self) -> TokenStore: ...

    @property
    def hello_timeout(self) -> float: ...

    @property
    def write_timeout(self) -> float: ...

    @property
    def close_grace(self) -> float: ...

    @property
    def closing(self) -> bool: ...

    @property
    def admission_caps(self) -> AdmissionCaps: ...

    @property
    def throttle_policy(self) -> ThrottlePolicy: ...

    @property
    def hard_receive_bytes(self) -> int: ...


class ArenaServicer(pb_grpc.ArenaServiceServicer):
    def __init__(self, arena_: Host) -> None:
        self.arena = arena_
        self._ids = itertools.count(1)
        self.room: WaitingRoom[Connection] = WaitingRoom(arena_.admission_caps)  # streams before their Hello
        self.throttle = HelloThrottle(arena_.throttle_policy)
        self._cancelled = cancelled_reason(arena_.hard_receive_bytes)

    async def Play(  # noqa: N802 - the RPC's name
        self, request_iterator: AsyncIterator[pb.PlayRequest], context: grpc.aio.ServicerContext
    ) -> None:
        await self.play(context)

    def for_family(self, family: str) -> FamilyServicer:
        """The ``Play`` of a process family's own Unix socket (``Arena.listen_family``)."""
        return FamilyServicer(self, family)

    async def play(self, context: grpc.aio.ServicerContext, family: str | None = None) -> None:
        conn = Connection(context, f"s{next(self._ids)}", self.arena.write_timeout)
        conn.family = family
        if family is not None:
            # Every Unix connection reads "unix:"; the socket it came through
            # tells the family, so one family's flood of streams evicts and
            # throttles only its own (admission.py).
            conn.peer = family_peer(family)
        for old in self.room.add(conn, conn.peer):
            self._evict(old)
        loop = asyncio.get_running_loop()
        reader = loop.create_task(conn.read_loop(), name=f"reader-{conn.stream_id}")
        writer = loop.create_task(conn.write_loop(), name=f"writer-{conn.stream_id}")
        try:
            admitted = await self._admit(conn)
            self.room.remove(conn)
            if conn.evicted:
                context.set_code(grpc.StatusCode.UNAVAILABLE)
                context.set_details("evicted before its Hello: the arena had too many streams waiting for one "
                                    "from this connection or host; retry later")
            elif admitted:
                await conn.closed.wait()
                if conn.graceful and not reader.done():
                    # Closed by the arena (shutdown): let the bot finish a write
                    # in flight and half-close. Ending the call under a pending
                    # client write fails that write and, with it, the client's
                    # read of the Status just sent.
                    await asyncio.wait({reader}, timeout=self.arena.close_grace)
            if conn.fault is not None:  # the bot hears why, not a plain OK
                context.set_code(grpc.StatusCode.RESOURCE_EXHAUSTED if conn.fault.oversize
                                 else grpc.StatusCode.INVALID_ARGUMENT)
                context.set_details(conn.fault.reason)
        except asyncio.CancelledError:
            # gRPC ended the call under us: the client cancelled it, its
            # connection was lost (closed, reset, or keepalive pings went
            # unanswered), or it sent a message over gRPC's hard limit.
            # gRPC tells the servicer none of these apart.
            conn.drop(self._cancelled)
            raise
        finally:
            self.room.remove(conn)
            conn.drop("stream ended")
            self.arena.pool.remove(conn)
            reader.cancel()
            writer.cancel()

    def _evict(self, conn: Connection) -> None:
        """End a stream still waiting for its Hello, to make room for a newer one."""
        if self.room.evicted % _EVICT_LOG_EVERY == 1:
            caps = self.room.caps
            log.warning(
                "too many streams waiting for a Hello (caps: %d per connection, %d per host, %d in all): "
                "evicting the oldest of the fullest connection (%d so far; latest from %s)",
                caps.per_connection, caps.per_host, caps.total, self.room.evicted, conn.peer,
            )
        conn.evicted = True
        conn.drop("evicted before its Hello: too many streams waiting")

    @property
    def waiting(self) -> int:
        """Streams that have not been admitted or refused yet."""
        return len(self.room)

    async def _admit(self, conn: Connection) -> bool:
        """Hello, Challenge, Proof, then Welcome or a closing Status, all within
        the Hello deadline (docs/protocol.md, "Authentication")."""
        deadline = asyncio.get_running_loop().time() + self.arena.hello_timeout
        try:
            async with asyncio.timeout_at(deadline):
                hello = await conn.hello
        except TimeoutError:
            return await self._reject(conn, pb.STATUS_CODE_BAD_HELLO, f"no Hello within {self.arena.hello_timeout:g} s",
                                      throttle=False)
        if hello is None:
            if conn.evicted:
                return False
            if not conn.alive:
                log.log(self._hello_level(), "hello failed from %s: the stream ended before a Hello (%s)", conn.peer,
                        conn.close_reason)
                return False
            return await self._reject(conn, pb.STATUS_CODE_BAD_HELLO, "the first message must be a Hello")
        rejection = self._judge(hello, conn.family)
        if rejection is not None:
            return await self._reject(conn, *rejection)
        verifiers, legacy = self.arena.tokens.verifiers(hello.bot_name)
        if not verifiers:
            why = (f"the token of bot {hello.bot_name!r} was minted before the challenge-response Hello; ask the "
                   f"operator to re-mint it (truco-arena token mint {hello.bot_name})" if legacy
                   else f"no token is issued for bot {hello.bot_name!r}")
            return await self._reject(conn, pb.STATUS_CODE_UNAUTHENTICATED, why)
        server_nonce = new_nonce()
        if not conn.post_quietly(pb.PlayResponse(challenge=pb.Challenge(server_nonce=server_nonce))):
            return False
        try:
            async with asyncio.timeout_at(deadline):
                proof = await conn.proof
        except TimeoutError:
            return await self._reject(conn, pb.STATUS_CODE_BAD_HELLO,
                                      f"no Proof within {self.arena.hello_timeout:g} s of the stream's start",
                                      throttle=False)
        if proof is None:
            if not conn.alive:
                return False
            return await self._reject(conn, pb.STATUS_CODE_BAD_HELLO, "the second message must be a Proof")
        auth = auth_message(hello.bot_name, hello.client_nonce, server_nonce)
        matched = next((v for v in verifiers if v[1].check(auth, proof.client_proof)), None)
        if matched is None:
            return await self._reject(conn, pb.STATUS_CODE_UNAUTHENTICATED,
                                      f"the proof matches no token of bot {hello.bot_name!r} (wrong token?)")
        digest, verifier = matched
        conn.signer = (verifier, auth)  # every closing Status from now on is signed
        holder = self.arena.pool.token_of(hello.bot_name)
        if holder is not None and not self.arena.tokens.same_bot(holder, digest):
            return await self._reject(conn, pb.STATUS_CODE_NAME_TAKEN,
                                      f"bot name {hello.bot_name!r} is already connected with another token")
        if self.arena.closing:
            return await self._reject(conn, pb.STATUS_CODE_SHUTDOWN, "the arena is shutting down")
        self.throttle.forgive(peer_host(conn.peer))
        conn.name, conn.version, conn.token = hello.bot_name, hello.bot_version, digest
        conn.protocol = hello.protocol_version
        if conn.peer.startswith(("unix:", "unix-family:")):
            # A Unix socket has no client address: a launched bot's processes
            # are told apart by their tokens, one per process.
            conn.peer = f"unix:{hashlib.sha256(digest.encode()).hexdigest()[:16]}"
        # Pool first, Welcome second: no await in between, so the name check
        # above still holds; the stream's write lock keeps Welcome first on the wire.
        self.arena.pool.add(conn)
        welcome = pb.Welcome(
            protocol_version=conn.protocol,
            bot_name=conn.name,
            stream_id=conn.stream_id,
            arena_version=arena.__version__,
            server_signature=verifier.signature(auth),
        )
        return await conn.send_quietly(pb.PlayResponse(welcome=welcome))

    def _judge(self, hello: pb.Hello, family: str | None) -> tuple[pb.StatusCode, str] | None:
        """Why this Hello is refused, or None to admit it."""
        if hello.protocol_version not in SUPPORTED_VERSIONS:
            spoken = " and ".join(str(v) for v in SUPPORTED_VERSIONS)
            return (
                pb.STATUS_CODE_PROTOCOL_VERSION,
                f"protocol version {hello.protocol_version} is not supported: this arena speaks {spoken} "
                f"({PROTOCOL_VERSION} is current)",
            )
        if not NAME_RE.fullmatch(hello.bot_name):
            return pb.STATUS_CODE_BAD_HELLO, (
                f"bot_name {clip(hello.bot_name, 40)!r} is not allowed: use 1-64 letters, digits, '_', '.' or '-', "
                f"starting with a letter or digit")
        if not VERSION_RE.fullmatch(hello.bot_version):
            return pb.STATUS_CODE_BAD_HELLO, (
                f"bot_version {clip(hello.bot_version, 40)!r} is not allowed: use at most {MAX_VERSION} letters, "
                f"digits, '.', '_', '-', '+', ':' or '~'")
        if family is not None and hello.bot_name != family:
            return pb.STATUS_CODE_UNAUTHENTICATED, f"this socket admits bot {family!r} only"
        if not MIN_NONCE_BYTES <= len(hello.client_nonce) <= MAX_NONCE_BYTES:
            return pb.STATUS_CODE_BAD_HELLO, (
                f"client_nonce must be {MIN_NONCE_BYTES} to {MAX_NONCE_BYTES} random bytes, got {len(hello.client_nonce)}")
        if self.arena.closing:
            return pb.STATUS_CODE_SHUTDOWN, "the arena is shutting down"
        return None

    def _hello_level(self) -> int:
        """How loud a failed Hello is: a warning, but only a note once the
        arena is closing, when a bot still saying hello is cut off as a matter
        of course (a run that stops because another bot cannot start must say
        that in one line, not beside one line per bot caught starting)."""
        return logging.INFO if self.arena.closing else logging.WARNING

    async def _reject(self, conn: Connection, code: pb.StatusCode, message: str, *, throttle: bool = True) -> bool:
        delay = 0.0
        if throttle and code in _THROTTLED:
            delay = self.throttle.record_failure(peer_host(conn.peer))
        log.log(
            self._hello_level(), "hello failed from %s: %s: %s%s", conn.peer, pb.StatusCode.Name(code).removeprefix("STATUS_CODE_"),
            clip(message), f" (refused after {delay:g} s: repeated failures)" if delay else "",
        )
        if delay:
            # The stream stays counted as waiting meanwhile, so slowed
            # refusals cannot pile up past the arena-wide cap.
            try:
                async with asyncio.timeout(delay):
                    await conn.closed.wait()  # the client gave up: nothing to tell it
                return False
            except TimeoutError:
                pass
        conn.graceful = True  # nothing the client sends now gets an answer after the closing Status
        await conn.send_quietly(conn.goodbye(code, message))
        conn.drop(f"rejected: {message}")
        return False


class FamilyServicer:
    """``Play`` on one process family's socket: the arena's servicer, told the family."""

    def __init__(self, servicer: ArenaServicer, family: str) -> None:
        self.servicer, self.family = servicer, family

    async def Play(  # noqa: N802 - the RPC's name
        self, request_iterator: AsyncIterator[pb.PlayRequest], context: grpc.aio.ServicerContext
    ) -> None:
        await self.servicer.play(context, self.family)
