"""Run a league until SIGINT/SIGTERM: bind the address, open (or continue)
the league's database, and schedule games among whoever connects.

The address is bound before the database is touched, so a wrong address or
TLS file leaves no file behind."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from .. import interrupt
from ..games.hooks import ArenaHook
from ..games.runlock import RunLock
from ..games.settings import clear_text_warning
from ..games.store import ResultsStore
from ..server import Arena, TokenStore
from .config import LeagueConfig
from .database import LeagueDatabase
from .league import League


def _announce(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


async def serve_league(
    address: str,
    tokens_path: Path,
    db_path: Path,
    config: LeagueConfig,
    *,
    tls_cert: Path | None = None,
    tls_key: Path | None = None,
    on_arena: ArenaHook | None = None,
) -> int:
    """Serve until SIGINT/SIGTERM; return the games this run recorded.
    ``on_arena`` is called once the arena is up (the CLI starts the live
    page there), and what it returns once the league has stopped.
    Raises ListenError if the address or TLS files cannot be used,
    then RunLockError, StoreError, LeagueDatabaseError for the database."""
    # The handlers go in before anything is announced: a SIGTERM sent as soon
    # as the "listening" line appears must stop the league cleanly, not kill it.
    # A second signal ends the process at once (``arena.interrupt``).
    stop = asyncio.Event()
    with interrupt.clean_stop(asyncio.get_running_loop(), lambda signum: stop.set()):
        return await _serve(address, tokens_path, db_path, config, stop, tls_cert, tls_key, on_arena)


async def _serve(address: str, tokens_path: Path, db_path: Path, config: LeagueConfig, stop: asyncio.Event,
                 tls_cert: Path | None, tls_key: Path | None, on_arena: ArenaHook | None) -> int:
    arena = Arena(TokenStore(tokens_path))
    port = await arena.start(address, tls_cert=tls_cert, tls_key=tls_key)
    try:
        with RunLock(db_path), ResultsStore.create_or_open(db_path) as store:
            for notice in store.notices:  # a migration: the secret moved out to the key file
                _announce(notice)
            db = LeagueDatabase(store, config)
            host = address.rsplit(":", 1)[0]
            _announce(f"arena listening on {host}:{port}{' (TLS)' if tls_cert is not None else ''}")
            if (warning := clear_text_warning(address, tls_cert is not None)) is not None:
                _announce(f"warning: {warning}")
            _announce(f"league {config.name}: {store.count()} game(s) recorded so far in {db_path}")
            stop_hook = await on_arena(arena) if on_arena is not None else None
            try:
                return await _until_signal(arena, League(arena, db, config), stop)
            finally:
                if stop_hook is not None:
                    await stop_hook()
    finally:
        await arena.stop(grace=0, restarting=True)


async def _until_signal(arena: Arena, league: League, stop: asyncio.Event) -> int:
    job = asyncio.ensure_future(league.run())
    stopper = asyncio.ensure_future(stop.wait())
    await asyncio.wait({job, stopper}, return_when=asyncio.FIRST_COMPLETED)
    stopper.cancel()
    # Stop the arena first: running games end as interrupted and the league records them so.
    # A league is expected back: its bots keep trying to reconnect.
    await arena.stop(grace=0, restarting=True)
    return await job
