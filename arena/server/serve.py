"""Run an arena until SIGINT/SIGTERM (or until a ``main`` coroutine is done),
then shut it down gracefully. ``truco-arena serve`` calls ``serve``."""

from __future__ import annotations

import asyncio
import signal
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from .arena import Arena
from .tokens import TokenStore

T = TypeVar("T")


async def serve_async(
    address: str,
    tokens_path: str | Path | None,
    *,
    main: Callable[[Arena], Awaitable[T]] | None = None,
    grace: float = 2.0,
    announce: Callable[[str], None] | None = None,
    tls_cert: str | Path | None = None,
    tls_key: str | Path | None = None,
    **arena_options: Any,
) -> T | None:
    """Start an arena on ``address`` with the token file ``tokens_path`` (and
    TLS with ``tls_cert``/``tls_key``); run ``main(arena)`` if given (e.g. a
    tournament) or serve until a signal; return ``main``'s result (None if
    interrupted)."""
    arena = Arena(TokenStore(tokens_path), **arena_options)
    port = await arena.start(address, tls_cert=tls_cert, tls_key=tls_key)
    host = address.rsplit(":", 1)[0]
    if announce is not None:
        announce(f"arena listening on {host}:{port}{' (TLS)' if tls_cert is not None else ''}")
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        stopper = asyncio.ensure_future(stop.wait())
        if main is None:
            await stopper
            return None
        job = asyncio.ensure_future(main(arena))
        await asyncio.wait({job, stopper}, return_when=asyncio.FIRST_COMPLETED)
        stopper.cancel()
        if job.done():
            return job.result()
        # A signal: stop the arena first so running games end as INTERRUPTED.
        await arena.stop(grace)
        try:
            return await job
        except Exception:
            return None
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)
        await arena.stop(grace)


def serve(
    address: str = "127.0.0.1:50051",
    tokens_path: str | Path | None = "tokens.txt",
    *,
    grace: float = 2.0,
    tls_cert: str | Path | None = None,
    tls_key: str | Path | None = None,
    main: Callable[[Arena], Awaitable[object]] | None = None,
    **arena_options: Any,
) -> None:
    """Blocking: serve until Ctrl-C / SIGTERM (or ``main`` returns), printing the bound address."""
    asyncio.run(
        serve_async(
            address,
            tokens_path,
            grace=grace,
            tls_cert=tls_cert,
            tls_key=tls_key,
            main=main,
            announce=lambda line: print(line, file=sys.stderr, flush=True),
            **arena_options,
        )
    )
