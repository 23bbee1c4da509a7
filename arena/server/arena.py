"""The arena: a gRPC server, the pool of connected bots, and ``play_game``,
the library call the tournament layer uses."""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from types import TracebackType

import grpc

from arena.engine.options import Options
from arena.errors import UsageError
from arena.protocol import arena_pb2 as pb

from . import wire
from .admission import AdmissionCaps
from .connection import Connection
from .game import GameRun, new_game_id
from .grpc_options import HARD_RECEIVE_BYTES, MAX_RECEIVE_BYTES, MAX_STREAMS_PER_CONNECTION, server_options
from .pool import ArenaClosedError, BotStatus, BotUnavailableError, Pool
from .record import PlayedGame, TimeControl
from .servicer import ArenaServicer
from .throttle import HelloThrottle, ThrottlePolicy
from .tokens import TokenStore

# Streams that have not said Hello yet, per connection, per host and
# arena-wide. Each costs a few KiB here and in gRPC; a bot needs one per game
# it plays at once, so a few hundred bots reconnecting together stay well
# below it. Past a cap the oldest of the fullest connection is evicted (admission.py).
MAX_WAITING_HELLOS = AdmissionCaps().total
HARD_RECEIVE_FACTOR = HARD_RECEIVE_BYTES // MAX_RECEIVE_BYTES  # gRPC's limit over the arena's (wire.py)

log = logging.getLogger("arena.server")


class ListenError(UsageError, OSError):
    """The arena cannot listen: the address cannot be bound, or a TLS file
    cannot be read (or only one of the two was given)."""


def server_credentials(cert: str | Path | None, key: str | Path | None) -> grpc.ServerCredentials | None:
    """TLS credentials from PEM files, or None for plaintext."""
    if cert is None and key is None:
        return None
    if cert is None or key is None:
        raise ListenError("TLS needs both a certificate and its key (--tls-cert and --tls-key)")
    try:
        chain, private = Path(cert).read_bytes(), Path(key).read_bytes()
    except OSError as exc:
        raise ListenError(f"cannot read TLS file {exc.filename}: {exc.strerror}") from None
    return grpc.ssl_server_credentials([(private, chain)])


class Arena:
    """Serve ``ArenaService`` and referee games between the connected bots.

    Typical use::

        arena = Arena(TokenStore("tokens.txt"))
        port = await arena.start("0.0.0.0:50051")
        record = await arena.play_game("alice", "bob", make_options("uruguayo"), seed=7)
        await arena.stop()
    """

    def __init__(
        self,
        tokens: TokenStore | str | Path | None = None,
        *,
        hello_timeout: float = 10.0,
        write_timeout: float = 10.0,
        keepalive_time: float = 5.0,
        keepalive_timeout: float = 5.0,
        max_receive_bytes: int = MAX_RECEIVE_BYTES,
        close_grace: float = 3.0,
        admission_caps: AdmissionCaps | None = None,
        max_streams_per_connection: int = MAX_STREAMS_PER_CONNECTION,
        throttle_policy: ThrottlePolicy = ThrottlePolicy(),
    ) -> None:
        self.tokens = tokens if isinstance(tokens, TokenStore) else TokenStore(tokens)
        self.hello_timeout = hello_timeout
        self.write_timeout = write_timeout  # a bot that stops reading is dropped after this
        self.close_grace = close_grace  # at shutdown, how long a stream may take to half-close
        self.admission_caps = admission_caps or AdmissionCaps()  # streams waiting for a Hello; past them the oldest are evicted
        self.throttle_policy = throttle_policy  # how repeated failed Hellos from one host are slowed
        self.max_receive_bytes = max_receive_bytes  # a bigger message from a bot closes its stream
        self.hard_receive_bytes = HARD_RECEIVE_FACTOR * max_receive_bytes  # gRPC's own limit (wire.py)
        self._grpc_options = server_options(
            keepalive_time, keepalive_timeout, self.hard_receive_bytes, max_streams_per_connection
        )
        self._servicer: ArenaServicer | None = None
        self._pool: Pool | None = None
        self._server: grpc.aio.Server | None = None
        self._family_servers: dict[str, grpc.aio.Server] = {}  # one per process family's own Unix socket
        self._games: set[GameRun] = set()
        self._watchdog: asyncio.Task[None] | None = None
        self._no_games: asyncio.Event | None = None
        self.closing = False
        self.port = 0

    @property
    def pool(self) -> Pool:
        if self._pool is None:
            raise RuntimeError("the arena is not started: call `await arena.start(address)` first")
        return self._pool

    # ------------------------------------------------------------- lifecycle

    async def start(
        self,
        address: str = "127.0.0.1:0",
        *,
        tls_cert: str | Path | None = None,
        tls_key: str | Path | None = None,
        unix_socket: Path | None = None,
    ) -> int:
        """Listen on ``address`` ("HOST:PORT"; port 0 picks a free one); return the port.

        With ``unix_socket`` the arena also listens, without TLS, on that Unix
        socket: the only way out of a launched bot's sandbox (arena/sandbox).

        With ``tls_cert`` and ``tls_key`` (PEM files: the certificate chain and
        its private key) the arena speaks TLS only; a plaintext client cannot
        connect. Both or neither. ListenError (an OSError) if a file cannot
        be read, only one is given, or the address cannot be bound.
        """
        if self._server is not None:
            raise RuntimeError("the arena is already started")
        credentials = server_credentials(tls_cert, tls_key)
        self._pool = Pool()
        self._no_games = asyncio.Event()
        self._no_games.set()
        server = grpc.aio.server(options=self._grpc_options)
        self._servicer = ArenaServicer(self)
        wire.register(server, self._servicer.Play, self.max_receive_bytes)
        try:
            if credentials is None:
                port: int = server.add_insecure_port(address)
            else:
                port = server.add_secure_port(address, credentials)
            if unix_socket is not None and not server.add_insecure_port(f"unix:{unix_socket}"):
                raise ListenError(f"cannot listen on the Unix socket {unix_socket}")
        except RuntimeError as exc:  # grpc raises RuntimeError when it cannot bind
            raise ListenError(f"cannot listen on {address}: {exc}") from None
        if port == 0:
            raise ListenError(f"cannot listen on {address}")
        await server.start()
        self._server, self.port = server, port
        self._watchdog = asyncio.get_running_loop().create_task(self._watch_writes(), name="write-watchdog")
        log.info("arena listening on port %d%s", port, " (TLS)" if credentials is not None else "")
        return port

    async def listen_family(self, family: str, path: Path, processes: int, streams: int) -> None:
        """Listen on ``path``, a Unix socket for bot ``family``'s processes
        only (each of its sandboxes sees this socket and no other). gRPC gives
        every Unix connection the same peer, so one shared socket counts all
        bots as one for the admission caps and the Hello throttle; a socket
        per family counts each apart, and gRPC itself bounds what the family
        may hold open: ``2 * processes + 2`` connections (each of
        ``processes`` processes, restarted once, plus two) of ``streams + 1``
        streams each. A standard gRPC client queues streams beyond the
        per-connection cap on its own side, so a flood costs the arena
        nothing past the caps. A Hello naming another bot is refused. Idempotent."""
        if self._servicer is None:
            raise RuntimeError("the arena is not started: call `await arena.start(address)` first")
        if family in self._family_servers:
            return
        connections, per_connection = 2 * processes + 2, streams + 1
        options = [o for o in self._grpc_options if o[0] != "grpc.max_concurrent_streams"] + [
            ("grpc.max_concurrent_streams", per_connection),
            ("grpc.max_allowed_incoming_connections", connections),
        ]
        server = grpc.aio.server(options=options, maximum_concurrent_rpcs=connections * per_connection)
        wire.register(server, self._servicer.for_family(family).Play, self.max_receive_bytes)
        try:
            bound = server.add_insecure_port(f"unix:{path}")
        except RuntimeError:
            bound = 0
        if not bound:
            raise ListenError(f"cannot listen on the Unix socket {path}")
        await server.start()
        self._family_servers[family] = server

    @property
    def hello_throttle(self) -> HelloThrottle:
        """The failed-Hello counts per peer host."""
        if self._servicer is None:
            raise RuntimeError("the arena is not started: call `await arena.start(address)` first")
        return self._servicer.throttle

    @property
    def streams_waiting_for_hello(self) -> int:
        """Streams open now that have not been admitted or refused yet."""
        return 0 if self._servicer is None else self._servicer.waiting

    @property
    def evictions(self) -> int:
        """Streams ended before their Hello to make room under ``admission_caps``."""
        return 0 if self._servicer is None else self._servicer.room.evicted

    async def stop(self, grace: float = 2.0, *, restarting: bool = False) -> None:
        """Shut down: no new games; running games get ``grace`` seconds to end,
        then are recorded as INTERRUPTED; every stream gets a SHUTDOWN Status
        and closes. ``restarting`` tells the bots the arena will be back on
        the same address (a standing league), so they reconnect instead of exiting."""
        if self._server is None or self.closing:
            return
        self.closing = True
        pool, no_games = self.pool, self._no_games
        assert no_games is not None
        pool.close()
        if self._games and grace > 0:
            try:
                async with asyncio.timeout(grace):
                    await no_games.wait()
            except TimeoutError:
                pass
        for run in list(self._games):
            run.interrupt()
        try:
            async with asyncio.timeout(self.write_timeout + 1):
                await no_games.wait()
        except TimeoutError:
            log.warning("%d game(s) did not stop in time", len(self._games))
        why = "the arena is restarting" if restarting else "the arena is shutting down"

        async def close(conn: Connection) -> None:
            await conn.send_quietly(conn.goodbye(pb.STATUS_CODE_SHUTDOWN, why, restarting=restarting))
            conn.close("arena shutdown")

        await asyncio.gather(*(close(c) for c in pool.connections()))
        await asyncio.gather(self._server.stop(grace=self.close_grace + 0.5),
                             *(s.stop(grace=self.close_grace + 0.5) for s in self._family_servers.values()))
        if self._watchdog is not None:
            self._watchdog.cancel()

    async def _watch_writes(self) -> None:
        """Drop streams whose write has been blocked for ``write_timeout``: a
        bot that stopped reading. One timer for the arena, not one per message.
        The same timer re-reads the token file: a bot whose token was revoked
        is disconnected at once (its game, if any, is its loss by disconnect)."""
        loop = asyncio.get_running_loop()
        period = min(0.5, self.write_timeout / 4)
        while True:
            await asyncio.sleep(period)
            now = loop.time()
            for conn in self.pool.connections():
                if conn.alive and conn.write_blocked_for(now) > self.write_timeout:
                    conn.drop(f"a write blocked for {self.write_timeout:g} s")
            if self.tokens.reload():
                self._drop_revoked()

    def _drop_revoked(self) -> None:
        for conn in self.pool.connections():
            if conn.alive and not self.tokens.admits(conn.token, conn.name):
                log.warning("bot %s disconnected: its token was revoked", conn.name)
                conn.post_quietly(conn.goodbye(pb.STATUS_CODE_UNAUTHENTICATED, "your token was revoked"))
                conn.close("its token was revoked")

    async def __aenter__(self) -> Arena:
        if self._server is None:
            await self.start()
        return self

    async def __aexit__(
        self, et: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.stop()

    # ------------------------------------------------------------------ bots

    def add_token(self, name: str, token: str | None = None, family: str | None = None) -> str:
        """Admit bot ``name`` with a fresh (or the given) token, in memory only;
        for a tournament that launches its own bots. Tokens of one ``family``
        may be connected at once under the name (one per process of a bot)."""
        return self.tokens.add(name, token, family)

    def bots(self) -> dict[str, BotStatus]:
        """Connected bots by name: version, open streams, idle streams."""
        return self.pool.status()

    async def wait_for_bots(self, streams: Mapping[str, int] | Iterable[str], timeout: float = 30.0) -> None:
        """Wait until each bot has at least the given number of streams
        connected (1 for each name of a plain list); BotUnavailableError after ``timeout``."""
        need = dict(streams) if isinstance(streams, Mapping) else dict(Counter(streams))
        pool = self.pool

        def ready() -> bool:
            status = pool.status()
            return all(name in status and status[name].streams >= n for name, n in need.items())

        try:
            async with asyncio.timeout(timeout):
                while not ready():
                    await asyncio.sleep(0.02)
        except TimeoutError:
            have = {n: s.streams for n, s in pool.status().items()}
            raise BotUnavailableError(f"bots not connected within {timeout:g} s: need {need}, have {have}") from None

    # ----------------------------------------------------------------- games

    def running_games(self) -> tuple[GameRun, ...]:
        """The games being played now (for the live page: read, never change them)."""
        return tuple(self._games)

    async def play_game(
        self,
        bot_a: str,
        bot_b: str,
        options: Options,
        seed: int,
        time_control: TimeControl = TimeControl(),
        *,
        acquire_timeout: float = 30.0,
        game_id: str | None = None,
        rng_seeds: Sequence[int] | None = None,
    ) -> PlayedGame:
        """One game: ``bot_a`` in seat 0 (team 0, mano in the first hand),
        ``bot_b`` in seat 1. See ``play_seats``."""
        return await self.play_seats(
            (bot_a, bot_b), options, seed, time_control,
            acquire_timeout=acquire_timeout, game_id=game_id, rng_seeds=rng_seeds,
        )

    async def play_seats(
        self,
        bots: Sequence[str],
        options: Options,
        seed: int,
        time_control: TimeControl = TimeControl(),
        *,
        acquire_timeout: float = 30.0,
        game_id: str | None = None,
        rng_seeds: Sequence[int] | None = None,
        distinct_peers: bool = False,
    ) -> PlayedGame:
        """One game with ``bots[s]`` in seat ``s`` (``options.seats`` names; a
        name may repeat if that bot has enough streams). The engine deals from
        ``seed``; ``rng_seeds[s]``, if given, goes to seat ``s`` in GameStart
        for the bot's own randomness. ``game_id`` defaults to a fresh one.

        Waits up to ``acquire_timeout`` s for an idle stream of every bot
        (``BotUnavailableError``), raises ``ArenaClosedError`` during shutdown.
        A failing bot does not raise: its side loses and the record says why.
        With ``distinct_peers`` the seats of one bot come from different
        connections (team games: partners are not one process).
        """
        if len(bots) != options.seats:
            raise ValueError(f"options say {options.seats} seats but {len(bots)} bots were given")
        if rng_seeds is not None and len(rng_seeds) != len(bots):
            raise ValueError(f"one rng seed per seat: {len(bots)} bots, {len(rng_seeds)} seeds")
        if self.closing:
            raise ArenaClosedError("the arena is shutting down")
        pool = self.pool
        conns = await pool.acquire(list(bots), acquire_timeout, distinct_peers=distinct_peers)
        no_games = self._no_games
        assert no_games is not None
        run: GameRun | None = None
        try:
            run = GameRun(game_id or new_game_id(), conns, options, seed, time_control, rng_seeds)
            self._games.add(run)
            no_games.clear()
            return await run.run()
        finally:
            if run is not None:
                self._games.discard(run)
            if not self._games:
                no_games.set()
            for conn in conns:
                pool.release(conn)
