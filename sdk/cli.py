"""``sdk.main``: the command line of a bot process.

    TRUCO_ARENA_TOKEN=TOKEN python -m mybot --address HOST:PORT [--streams N] [--name NAME] [--tls [--ca FILE]]

The token comes from $TRUCO_ARENA_TOKEN (prefer it: a command line is visible
to every local user in ``ps``); ``--token`` remains for trying things by hand.
The variable is removed from the environment once read, so processes the bot
starts do not inherit it. ``--address`` defaults to $TRUCO_ARENA_ADDRESS,
``--tls`` to $TRUCO_ARENA_TLS=1 and ``--ca`` to $TRUCO_ARENA_CA. Exit codes
are those of ``sdk.run``.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from .bot import Bot
from .client import DEFAULT_ADDRESS, run


def parser(prog: str | None = None) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=prog, description="Play Truco in a Truco Arena.")
    p.add_argument(
        "--address",
        default=os.environ.get("TRUCO_ARENA_ADDRESS", DEFAULT_ADDRESS),
        help="arena HOST:PORT, or unix:PATH for a Unix socket (default: $TRUCO_ARENA_ADDRESS or %(default)s)",
    )
    p.add_argument(
        "--token",
        help="access token; prefer $TRUCO_ARENA_TOKEN: a command line is visible to other local users",
    )
    p.add_argument("--tls", action="store_true", default=os.environ.get("TRUCO_ARENA_TLS") == "1",
                   help="connect with TLS, checking the arena's certificate (default: $TRUCO_ARENA_TLS=1)")
    p.add_argument("--ca", default=os.environ.get("TRUCO_ARENA_CA") or None, metavar="FILE",
                   help="PEM certificate(s) to trust for the arena instead of the system's; implies --tls "
                        "(default: $TRUCO_ARENA_CA)")
    p.add_argument("--streams", type=int, default=1, help="games to play at once (default %(default)s)")
    p.add_argument("--name", help="bot name to announce (default: the bot's own); the token must be for it")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--threaded", dest="threaded", action="store_true", default=None,
                      help="run choose() in threads (default with --streams > 1)")
    mode.add_argument("--inline", dest="threaded", action="store_false", help="run choose() on the event loop")
    p.add_argument("--record", default=os.environ.get("TRUCO_ARENA_RECORD"), metavar="FILE",
                   help="write every message received to FILE as JSON lines")
    p.add_argument("--retry-for", type=float, default=30.0, metavar="SECONDS",
                   help="keep retrying an unreachable arena this long before the first connection, "
                        "also one that refuses without the arena's signature (default %(default)s)")
    p.add_argument("--reconnect-seconds", type=float, default=math.inf, metavar="SECONDS",
                   help="after a lost connection or a restarting arena, keep reconnecting this long "
                        "(default: forever)")
    return p


def main(
    bot_factory: Callable[..., Bot],
    *,
    add_arguments: Callable[[argparse.ArgumentParser], None] | None = None,
    argv: Sequence[str] | None = None,
    prog: str | None = None,
    **run_options: Any,
) -> NoReturn:
    """Parse the command line, then play. ``bot_factory()`` makes the bot (once
    per stream); with ``add_arguments`` the factory gets the parsed arguments:
    ``bot_factory(args)``."""
    p = parser(prog)
    if add_arguments is not None:
        add_arguments(p)
    args = p.parse_args(argv)
    env_token = os.environ.pop("TRUCO_ARENA_TOKEN", "")
    token = args.token or env_token
    if not token:
        p.error("no token: set TRUCO_ARENA_TOKEN (or pass --token)")
    if args.ca is not None and not os.access(args.ca, os.R_OK):
        p.error(f"--ca {args.ca}: cannot read the file")
    if args.streams < 1:
        p.error("--streams must be at least 1")

    def make() -> Bot:
        return bot_factory(args) if add_arguments is not None else bot_factory()

    sys.exit(
        run(
            make,
            args.address,
            token,
            args.streams,
            prog=p.prog,
            name=args.name,
            threaded=args.threaded,
            record=args.record,
            retry_for=args.retry_for,
            reconnect_for=args.reconnect_seconds,
            tls=args.tls,
            ca=args.ca,
            **run_options,
        )
    )
