"""The networking of the SDK: dial the arena, say Hello, play every Decision
with ``Bot.choose``, and come back by itself when the connection is lost.

Only a proven arena is trusted (docs/protocol.md, "Trusting the other
end"): a Welcome counts only with the arena's signature, and a goodbye (a
SHUTDOWN, a closing Status) only with its goodbye signature, so whoever holds
the address before the arena (a squatter on ``[::1]`` while the arena
listens on ``127.0.0.1``, or on the port after a crash) can delay a bot but
never send it away. Every other failure is retried with backoff (a gRPC
error of any code, INTERNAL included; a stream that ends without a closing
Status; an unsigned goodbye; no Welcome within ``HANDSHAKE_SECONDS``; a
SHUTDOWN whose Status says the arena is restarting): for ``retry_for``
seconds until the first Welcome, then for ``reconnect_for`` seconds
(default: forever) after each loss. A signed SHUTDOWN without
``restarting`` (a tournament that is over) ends the bot normally; a signed
refusal ends it with ``RejectedError``, an unsigned one only once it has
lasted ``retry_for`` seconds.

A host name is dialled at every address it resolves to (``localhost``: also
``::1`` and ``127.0.0.1``, which other resolvers return), one channel each;
a stream tries them in turn until one proves it is the arena, and that one
is tried first from then on.

Each stream is an asyncio task with its own ``Play`` call on one shared
channel. ``choose`` runs inline on the event loop when there is one stream
(lowest latency) and in a thread pool when there are several (so a slow
decision in one game does not stall the others); pass ``threaded`` to choose.
With a shared ``Bot`` instance and threads, ``choose`` may run concurrently:
pass a factory (``lambda: MyBot()``) to get one instance per stream.

A ``choose`` that raises does not end the bot: the exception, the game id and
the observation go to the bot's stderr, and the seat answers with its first
legal action (``obs.legal[0]``), so one bug costs at most a poor move.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import ipaddress
import json
import math
import os
import random
import socket
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import grpc
from google.protobuf import json_format  # type: ignore[import-untyped,unused-ignore]

from arena.engine.actions import Action
from arena.engine.observation import Observation
from arena.protocol import PROTOCOL_VERSION, handshake
from arena.protocol import arena_pb2 as pb
from arena.protocol import arena_pb2_grpc as pb_grpc

from . import convert
from .bot import Bot

DEFAULT_ADDRESS = "127.0.0.1:50051"

BACKOFF_FIRST = 0.2  # seconds before the first retry; doubled after each failure
BACKOFF_MAX = 3.0  # the longest wait between two tries: a restarted arena is rejoined within it
# The arena ends a handshake after 10 s; a peer that keeps a stream open
# longer without a signed Welcome is not the arena (or not a working one).
HANDSHAKE_SECONDS = 12.0

CHANNEL_OPTIONS: list[tuple[str, int]] = [
    # The channel has a reconnect backoff of its own (gRPC's default grows to
    # 120 s), and while it waits every new stream fails at once: unbounded, a
    # bot would rejoin a restarted arena long after BACKOFF_MAX.
    ("grpc.initial_reconnect_backoff_ms", int(BACKOFF_FIRST * 1000)),
    ("grpc.min_reconnect_backoff_ms", int(BACKOFF_FIRST * 1000)),
    ("grpc.max_reconnect_backoff_ms", int(BACKOFF_MAX * 1000)),
    # Notice a dead arena within ~15 s even between games.
    ("grpc.keepalive_time_ms", 10_000),
    ("grpc.keepalive_timeout_ms", 5_000),
    ("grpc.http2.ping_timeout_ms", 5_000),
    ("grpc.keepalive_permit_without_calls", 1),
    ("grpc.http2.max_pings_without_data", 0),
    ("grpc.max_receive_message_length", 4 * 1024 * 1024),
]

BotSource = Bot | Callable[[], Bot]


class RejectedError(Exception):
    """The arena refused the Hello (bad token, protocol version, name taken)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{message} ({code})")
        self.code, self.message = code, message


class GaveUpError(Exception):
    """The arena stayed unreachable for longer than ``retry_for`` (or ``reconnect_for``) seconds."""


class TransientError(Exception):
    """The stream ended without a shutdown notice: reconnect. A session
    (``StreamSession.handle``) may raise it to leave its stream and start afresh."""


class UnsignedGoodbyeError(TransientError):
    """A SHUTDOWN or closing Status without a valid goodbye signature: anybody
    holding the address can send one, so it is a failure to retry, not an order.
    ``code`` and ``message`` say what it claimed."""

    def __init__(self, where: str, code: str, message: str, refusal: bool) -> None:
        message = message if len(message) <= 200 else message[:197] + "..."  # whoever sent it chose its length
        super().__init__(f"{where} said goodbye without the arena's signature ({code}: {message}); ignored")
        self.code, self.message, self.refusal = code, message, refusal


@dataclass(frozen=True)
class Settings:
    address: str
    token: str
    name: str | None = None
    """Default: the bot's ``name``"""
    protocol_version: int = PROTOCOL_VERSION
    threaded: bool = False
    retry_for: float = 30.0
    """Seconds to keep trying until the first Welcome."""
    reconnect_for: float = math.inf
    """Seconds to keep trying after a lost connection or a restart."""
    tls: bool = False
    """Dial with TLS (implied by ``ca``)"""
    ca: bytes | None = None
    """PEM root certificates to trust; None: the system's."""


def channel_credentials(settings: Settings) -> grpc.ChannelCredentials | None:
    """TLS credentials for ``settings``, or None for plaintext."""
    if not settings.tls and settings.ca is None:
        return None
    return grpc.ssl_channel_credentials(root_certificates=settings.ca)


def _split(address: str) -> tuple[str, str] | None:
    """(host, port) of ``HOST:PORT`` or ``[V6]:PORT``; None for a gRPC target
    with a scheme (``unix:``, ``ipv4:``, ``dns:``...), dialled as it is."""
    if address.startswith("["):
        host, sep, port = address[1:].partition("]:")
        return (host, port) if sep and port.isdigit() else None
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit() or ":" in host or not host:
        return None
    return host, port


def dial_targets(address: str) -> list[str]:
    """The gRPC targets to try for ``address``: one per address its host
    resolves to, so that a squatter on one of them (``[::1]`` while the arena
    listens on ``127.0.0.1``) cannot hold the bot; ``localhost`` always
    includes both loopbacks (RFC 6761; gRPC's own resolver returns both).
    An IP address, a target with a scheme, or a name that does not resolve
    is dialled as given."""
    split = _split(address)
    if split is None:
        return [address]
    host, port = split
    try:
        ipaddress.ip_address(host)
        return [address]
    except ValueError:
        pass
    found: list[str] = []
    if host.lower() == "localhost" or host.lower().endswith(".localhost"):
        found += ["::1", "127.0.0.1"]
    try:
        found += [str(info[4][0]) for info in socket.getaddrinfo(host, int(port), type=socket.SOCK_STREAM)]
    except (OSError, UnicodeError):
        pass
    unique = list(dict.fromkeys(ip.partition("%")[0] for ip in found))
    if len(unique) <= 1:
        return [address]
    return [f"ipv6:[{ip}]:{port}" if ":" in ip else f"ipv4:{ip}:{port}" for ip in unique]


class Dialer:
    """One channel per target of the bot's address, shared by all its streams
    and reconnects (so the TLS settings hold for every connection), and which
    target last proved to be the arena."""

    def __init__(self, settings: Settings, targets: list[str] | None = None) -> None:
        self.settings = settings
        self.targets = targets if targets is not None else dial_targets(settings.address)
        self.preferred = 0  # the target of the last signed Welcome
        self._channels: dict[int, grpc.aio.Channel] = {}

    def channel(self, i: int) -> grpc.aio.Channel:
        if i not in self._channels:
            self._channels[i] = _open(self.settings, self.targets[i], len(self.targets) > 1)
        return self._channels[i]

    def where(self, i: int) -> str:
        target = self.targets[i]
        return self.settings.address if target == self.settings.address else f"{self.settings.address} ({target})"

    async def close(self) -> None:
        for channel in self._channels.values():
            await channel.close()


def _open(settings: Settings, target: str, by_address: bool) -> grpc.aio.Channel:
    credentials = channel_credentials(settings)
    if credentials is None:
        return grpc.aio.insecure_channel(target, options=CHANNEL_OPTIONS)
    options: list[tuple[str, int | str]] = [*CHANNEL_OPTIONS]
    split = _split(settings.address)
    if by_address and split is not None:
        # Dialled by address, still checked against the name in --address.
        options += [("grpc.ssl_target_name_override", split[0]), ("grpc.default_authority", settings.address)]
    return grpc.aio.secure_channel(target, credentials, options=options)


def open_channel(settings: Settings) -> grpc.aio.Channel:
    """A channel to ``settings.address`` as given (tools and tests; bots use ``Dialer``)."""
    return _open(settings, settings.address, False)


class Recorder:
    """Writes every message received, as one JSON object per line (debugging, tests)."""

    def __init__(self, path: str | Path) -> None:
        self._file: IO[str] = open(path, "w", encoding="utf-8")

    def write(self, stream: int, msg: pb.PlayResponse) -> None:
        body = json_format.MessageToDict(msg, preserving_proto_field_name=True)
        self._file.write(json.dumps({"stream": stream, "message": body}) + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()


class StreamSession:
    """One stream: Hello, then games until the arena shuts down.

    Subclass and override ``reply`` (or ``hello``) to change what goes on the
    wire; sample_bots/misbehaving.py does, to test the arena."""

    def __init__(
        self,
        bot: Bot,
        settings: Settings,
        index: int,
        recorder: Recorder | None = None,
        executor: concurrent.futures.Executor | None = None,
    ) -> None:
        self.bot = bot
        self.settings = settings
        self.index = index
        self.recorder = recorder
        self.executor = executor
        self.connected = False  # became True once a Welcome arrived
        self.where = settings.address  # what this stream dialled, for messages
        self._client_nonce = b""
        self._auth: bytes | None = None  # the handshake's auth message, once challenged
        self.name = settings.name or bot.name
        # Convert only for hooks the bot overrides (this runs on every hand).
        self._wants_info = type(bot).on_game_info is not Bot.on_game_info
        self._wants_hands = type(bot).on_hand_end is not Bot.on_hand_end

    def hello(self) -> pb.PlayRequest:
        """The Hello: the token itself never goes on the wire (``proof`` answers the Challenge)."""
        self._client_nonce = handshake.new_nonce()
        return pb.PlayRequest(
            hello=pb.Hello(
                bot_name=self.name,
                bot_version=self.bot.version,
                protocol_version=self.settings.protocol_version,
                client_nonce=self._client_nonce,
            )
        )

    def proof(self, challenge: pb.Challenge) -> pb.PlayRequest:
        """The answer to the arena's Challenge: proves the token without revealing it."""
        self._auth = handshake.auth_message(self.name, self._client_nonce, challenge.server_nonce)
        return pb.PlayRequest(proof=pb.Proof(client_proof=handshake.client_proof(self.settings.token, self._auth)))

    async def run(self, stub: pb_grpc.ArenaServiceStub) -> str:
        """Play on one ``Play`` call; return "shutdown" or "restarting" when the
        arena says goodbye, raise ``RejectedError``, ``TransientError`` or
        ``grpc.aio.AioRpcError`` otherwise."""
        call = stub.Play()
        loop = asyncio.get_running_loop()
        handshake_deadline = loop.time() + HANDSHAKE_SECONDS
        try:
            await call.write(self.hello())
            while True:
                if self.connected:
                    msg = await call.read()
                else:
                    try:
                        async with asyncio.timeout_at(handshake_deadline):
                            msg = await call.read()
                    except TimeoutError:
                        raise TransientError(
                            f"{self.where} sent no signed Welcome within {HANDSHAKE_SECONDS:g} s") from None
                if msg is grpc.aio.EOF:
                    raise TransientError("the arena closed the stream without a closing Status")
                assert isinstance(msg, pb.PlayResponse)
                # A Batch (protocol 3) is its messages, one after another.
                for one in msg.batch.messages if msg.WhichOneof("kind") == "batch" else (msg,):
                    if self.recorder is not None:
                        self.recorder.write(self.index, one)
                    said = await self.handle(one, call)
                    if said in ("shutdown", "restarting"):
                        await self._close(call)
                        return said
        finally:
            call.cancel()

    @staticmethod
    async def _close(call: grpc.aio.StreamStreamCall) -> None:
        """Half-close and let the arena end the call (it waits for that)."""
        try:
            async with asyncio.timeout(2.0):
                await call.done_writing()
                while await call.read() is not grpc.aio.EOF:
                    pass
        except Exception:
            pass  # the call is over either way

    async def handle(self, msg: pb.PlayResponse, call: grpc.aio.StreamStreamCall) -> str | None:
        kind = msg.WhichOneof("kind")
        if kind == "decision":
            out = await self.reply(msg.decision)
            for m in [out] if isinstance(out, pb.PlayRequest) else out or ():
                try:
                    await call.write(m)
                except Exception:
                    # The arena already ended the call (e.g. a shutdown while we
                    # were thinking); the reads that follow say how it ended.
                    break
        elif kind == "challenge":
            await call.write(self.proof(msg.challenge))
        elif kind == "welcome":
            if self._auth is None or not handshake.server_signature_ok(
                    self.settings.token, self._auth, msg.welcome.server_signature):
                raise ImpostorError(
                    f"{self.where} answered without proving it holds this bot's token verifier: "
                    f"not the arena (or a token it does not know)")
            self.connected = True
        elif kind == "game_start":
            g = msg.game_start
            if g.HasField("rng_seed"):
                self.bot.rng = random.Random(g.rng_seed)
            if self._wants_info:
                self.bot.on_game_info(convert.game_info(g))
            self.bot.on_game_start(g.game_id, g.seat, g.options.variant)
        elif kind == "hand_end":
            if self._wants_hands:
                self.bot.on_hand_end(msg.hand_end.game_id, convert.hand_summary(msg.hand_end))
        elif kind == "game_end":
            e = msg.game_end
            won = e.won if e.HasField("won") else None
            self.bot.on_game_end(e.game_id, won, convert.pair(e.scores))
        elif kind == "status":
            s = msg.status
            code = pb.StatusCode.Name(s.code).removeprefix("STATUS_CODE_")
            if s.code == pb.STATUS_CODE_SHUTDOWN or s.closing:
                if not self.goodbye_ok(s):
                    raise UnsignedGoodbyeError(self.where, code, s.message, s.code != pb.STATUS_CODE_SHUTDOWN)
                if s.code == pb.STATUS_CODE_SHUTDOWN:
                    return "restarting" if s.restarting else "shutdown"
                raise RejectedError(code, s.message)
            print(f"{self.name}[{self.index}]: arena: {code}: {s.message}", file=sys.stderr, flush=True)
        return None

    def goodbye_ok(self, s: pb.Status) -> bool:
        """Whether the closing Status ``s`` carries the arena's goodbye
        signature for this stream: only the holder of this token's verifier
        who answered this stream's Proof can make it."""
        return self._auth is not None and handshake.goodbye_ok(
            self.settings.token, self._auth, s.code, s.restarting, s.signature)

    async def reply(self, d: pb.Decision) -> pb.PlayRequest | list[pb.PlayRequest] | None:
        """The Move for Decision ``d`` (None sends nothing; a list sends several messages)."""
        obs = convert.observation(d)
        fallback = False
        try:
            action = await self.choose(obs)
        except Exception as exc:
            # Move.fallback tells the arena, which counts these per bot: a bug
            # that costs only poor moves still shows in the failures view.
            action, fallback = self.fallback(d.game_id, obs, exc), True
        return pb.PlayRequest(move=pb.Move(game_id=d.game_id, seq=d.seq, action=str(action), fallback=fallback))

    async def choose(self, obs: Observation) -> Action:
        if self.executor is None:
            return self.bot.choose(obs)
        return await asyncio.get_running_loop().run_in_executor(self.executor, self.bot.choose, obs)

    def fallback(self, game_id: str, obs: Observation, exc: Exception) -> Action:
        """The answer when ``choose`` raised ``exc``: the seat's first legal
        action. Reported on stderr with the game id and the observation, so
        the bug can be reproduced; the bot goes on playing."""
        trace = "".join(traceback.format_exception(exc)).rstrip()
        print(f"{self.name}[{self.index}]: choose() raised in game {game_id}; playing the first legal "
              f"action {obs.legal[0]}\nobservation: {obs!r}\n{trace}", file=sys.stderr, flush=True)
        return obs.legal[0]


class ImpostorError(TransientError):
    """The peer welcomed the bot without the arena's signature: an impostor on
    the address (or a stale arena). Nothing reusable was sent; retry later."""


SessionFactory = Callable[..., StreamSession]


async def _keep_stream(
    dialer: Dialer | grpc.aio.Channel,
    make_session: Callable[[], StreamSession],
    settings: Settings,
) -> None:
    """Run sessions on one stream slot, reconnecting with backoff after every
    failure that is not a signed refusal (``RejectedError`` propagates).
    Each try after one that proved nothing goes to the dialer's next target;
    the wait grows only once every target has been tried."""
    if not isinstance(dialer, Dialer):  # one channel given: dial it alone
        channel, dialer = dialer, Dialer(settings, [settings.address])
        dialer._channels[0] = channel
    loop = asyncio.get_running_loop()
    window = settings.retry_for
    deadline = loop.time() + window
    backoff = BACKOFF_FIRST
    target = dialer.preferred
    tried = 0  # targets tried since the last proven arena or the last wait
    refusal: UnsignedGoodbyeError | None = None  # the last unsigned refusal, said if the bot gives up
    while True:
        session = make_session()
        session.where = dialer.where(target)
        stub = pb_grpc.ArenaServiceStub(dialer.channel(target))  # type: ignore[no-untyped-call]
        try:
            if await session.run(stub) == "shutdown":
                return
            why, fresh = "the arena is restarting", True
        except grpc.aio.AioRpcError as exc:  # any code: INTERNAL from a dying arena too
            why, fresh = f"{exc.code().name}: {exc.details()}", session.connected
        except (ImpostorError, UnsignedGoodbyeError) as exc:  # say why, then keep looking for the arena
            why, fresh = str(exc), session.connected
            if isinstance(exc, UnsignedGoodbyeError) and exc.refusal:
                refusal = exc
            print(f"{session.name}[{session.index}]: {why}", file=sys.stderr, flush=True)
        except TransientError as exc:
            why, fresh = str(exc), session.connected
        if session.connected:
            dialer.preferred = target
        if fresh:  # it worked until now: a fresh window, and the arena is probably back soon
            window = settings.reconnect_for
            deadline, backoff = loop.time() + window, BACKOFF_FIRST
            target, tried, refusal = dialer.preferred, 0, None
            if session.index == 0:
                print(f"{session.name}: {why}; reconnecting", file=sys.stderr, flush=True)
        else:
            target, tried = (target + 1) % len(dialer.targets), tried + 1
            if tried < len(dialer.targets):
                continue  # another address of the same name: no wait
        if loop.time() + backoff > deadline:
            if refusal is not None:
                raise RejectedError(refusal.code, f"{refusal.message} (refused without the arena's signature "
                                                  f"for {window:g} s: a wrong token, or not the arena)")
            raise GaveUpError(f"cannot reach the arena at {settings.address} ({why}); gave up after {window:g} s")
        await asyncio.sleep(backoff * random.uniform(0.8, 1.0))  # jitter: bots do not all come back at once
        backoff, tried = min(backoff * 2, BACKOFF_MAX), 0


class _ParentGoneError(Exception):
    """The arena process that launched this bot is gone: stop playing."""


async def _watch_parent(pid: int) -> None:
    # A bot launched by an arena (TRUCO_ARENA_PARENT_PID) must not outlive it,
    # even when the arena was killed with SIGKILL and could not stop it.
    while os.getppid() == pid:
        await asyncio.sleep(0.5)
    raise _ParentGoneError()


async def _watch_parent_fd(fd: int) -> None:
    # TRUCO_ARENA_PARENT_FD: a pipe whose only writer is the arena. It never
    # writes, so the descriptor turns readable exactly when the arena is gone
    # (end of file), in a sandbox too, where no pid of the arena can be named.
    loop = asyncio.get_running_loop()
    gone: asyncio.Future[None] = loop.create_future()

    def readable() -> None:
        try:
            data = os.read(fd, 1)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if data == b"" and not gone.done():
            gone.set_result(None)

    loop.add_reader(fd, readable)
    try:
        await gone
    finally:
        loop.remove_reader(fd)
    raise _ParentGoneError()


def _parent_watch() -> asyncio.Task[None] | None:
    fd, pid = os.environ.get("TRUCO_ARENA_PARENT_FD", ""), os.environ.get("TRUCO_ARENA_PARENT_PID", "")
    if fd.isdigit():
        try:
            os.fstat(int(fd))
        except OSError:
            fd = ""  # not inherited (a bot started by hand with a copied environment)
    if fd.isdigit():
        return asyncio.create_task(_watch_parent_fd(int(fd)))
    if pid.isdigit():
        return asyncio.create_task(_watch_parent(int(pid)))
    return None


async def run_async(
    bot: BotSource,
    address: str = DEFAULT_ADDRESS,
    token: str = "",
    streams: int = 1,
    *,
    name: str | None = None,
    threaded: bool | None = None,
    record: str | Path | None = None,
    retry_for: float = 30.0,
    reconnect_for: float = math.inf,
    protocol_version: int = PROTOCOL_VERSION,
    session_cls: SessionFactory = StreamSession,
    tls: bool = False,
    ca: str | Path | None = None,
) -> None:
    """Play until the arena shuts down for good. ``bot`` is one instance shared by all
    streams, or a zero-argument factory called once per stream. ``retry_for``
    bounds the tries until the first Welcome, ``reconnect_for`` those after
    a lost connection or a restarting arena (default: forever). With ``tls``
    (or a ``ca`` file of PEM root certificates to trust instead of the
    system's) the connection is encrypted and the arena's certificate checked.
    Raises ``RejectedError`` or ``GaveUpError``; an exception in the bot propagates."""
    if streams < 1:
        raise ValueError(f"streams must be >= 1, got {streams}")
    threaded = streams > 1 if threaded is None else threaded
    ca_pem = Path(ca).read_bytes() if ca is not None else None
    settings = Settings(address, token, name, protocol_version, threaded, retry_for, reconnect_for,
                        tls or ca_pem is not None, ca_pem)
    recorder = Recorder(record) if record else None
    executor = concurrent.futures.ThreadPoolExecutor(max_workers=streams) if threaded else None
    bots = [bot if isinstance(bot, Bot) else bot() for _ in range(streams)]
    dialer = Dialer(settings)
    try:
        try:

            def session_maker(i: int) -> Callable[[], StreamSession]:
                return lambda: session_cls(bots[i], settings, i, recorder, executor)

            tasks = [
                asyncio.ensure_future(_keep_stream(dialer, session_maker(i), settings)) for i in range(streams)
            ]
            watch = _parent_watch()
            if watch is not None:
                tasks.append(watch)
            try:
                done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
            finally:
                # Also on Ctrl-C (this task cancelled): every stream ends here,
                # before the executor below shuts down under a choose() in flight.
                for t in tasks:
                    t.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)
            for t in done:
                exc = t.exception()
                if exc is not None and not isinstance(exc, _ParentGoneError):
                    raise exc
        finally:
            await dialer.close()
    finally:
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
        if recorder is not None:
            recorder.close()


def run(
    bot: BotSource,
    address: str = DEFAULT_ADDRESS,
    token: str = "",
    streams: int = 1,
    *,
    prog: str = "bot",
    **options: object,
) -> int:
    """Blocking ``run_async``; returns a process exit code: 0 after the arena's
    shutdown, 2 when the Hello was rejected, 1 when the arena stayed
    unreachable or the stream failed, 130 on Ctrl-C. Errors are one line on stderr."""
    try:
        asyncio.run(run_async(bot, address, token, streams, **options))  # type: ignore[arg-type]
        return 0
    except RejectedError as exc:
        print(f"{prog}: rejected by the arena: {exc.message}", file=sys.stderr)
        return 2
    except GaveUpError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 1
    except grpc.aio.AioRpcError as exc:
        print(f"{prog}: stream failed: {exc.code().name}: {exc.details()}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
