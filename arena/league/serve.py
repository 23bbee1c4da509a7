"""Run a league until SIGINT/SIGTERM: open (or continue) its database, start
the arena, and schedule games among whoever connects."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from ..server import Arena, serve_async
from ..tournament.runlock import RunLock
from ..tournament.store import ResultsStore
from .config import LeagueConfig
from .database import LeagueDatabase
from .league import League


def run_league(
    address: str,
    tokens_path: Path,
    db_path: Path,
    config: LeagueConfig,
    *,
    tls_cert: Path | None = None,
    tls_key: Path | None = None,
) -> int:
    """Blocking: serve the league until a signal; return the games recorded.
    Raises RunLockError, StoreError, LeagueDatabaseError before serving,
    OSError/ValueError if the address or TLS files cannot be used."""
    with RunLock(db_path), ResultsStore.create_or_open(db_path) as store:
        db = LeagueDatabase(store, config)

        async def main(arena: Arena) -> int:
            return await League(arena, db, config).run()

        recorded = asyncio.run(serve_async(
            address, tokens_path, main=main, grace=0.0, tls_cert=tls_cert, tls_key=tls_key,
            announce=lambda line: print(line, file=sys.stderr, flush=True),
        ))
        return recorded or 0
