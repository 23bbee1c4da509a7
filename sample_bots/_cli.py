"""The command line the sample bots share: the SDK's options plus ``--seed``.

With ``--seed N`` and several streams, stream i's bot is seeded N + i, so the
streams do not play in lockstep. (In a tournament the arena sends a seed per
game in GameStart and the SDK reseeds ``Bot.rng`` from it; ``--seed`` matters
for ad-hoc games without one.)
"""

from __future__ import annotations

import argparse
import itertools
from collections.abc import Callable

from sdk import Bot
from sdk import main as sdk_main


def seeded_main(
    make: Callable[[int | None, argparse.Namespace], Bot],
    *,
    prog: str,
    seed_help: str,
    add_arguments: Callable[[argparse.ArgumentParser], None] | None = None,
) -> None:
    """Run a bot process; ``make(seed, args)`` builds the bot of one stream."""
    streams = itertools.count()

    def factory(args: argparse.Namespace) -> Bot:
        n = next(streams)
        return make(None if args.seed is None else args.seed + n, args)

    def arguments(p: argparse.ArgumentParser) -> None:
        p.add_argument("--seed", type=int, help=f"{seed_help} (default: unseeded)")
        if add_arguments is not None:
            add_arguments(p)

    sdk_main(factory, add_arguments=arguments, prog=prog)


def add_budget(p: argparse.ArgumentParser, worlds: int, what: str) -> None:
    """The search bots' budget options: ``--worlds`` (counted, so games
    replay exactly) or ``--time-ms`` (a clock, stronger on an idle machine
    but not reproducible). ``what``: what one unit of ``--worlds`` is."""
    p.add_argument("--worlds", type=int, default=worlds,
                   help=f"{what} per decision (default %(default)s; reproducible)")
    p.add_argument("--time-ms", type=float,
                   help="think for this many ms per decision instead (not reproducible)")
