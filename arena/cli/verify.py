"""Replay every stored game of a results database before trusting it: the
check behind ``standings --verify`` and the start of ``tournament resume``."""

from __future__ import annotations

from pathlib import Path

import click

from ..games.store import ResultsStore
from ..replay.audit import TamperedError, Verified, verify_store
from .errors import DOMAIN_ERROR, fail


def verify_or_fail(db: Path, refusing: str, *, quiet: bool = False) -> Verified:
    """Check ``db`` (opened read-only: checking never changes it) and, unless
    ``quiet``, say how it went on stderr; a row its replay contradicts is one
    line and exit 1, ``refusing`` saying what is not done because of it."""
    try:
        with ResultsStore.open_existing(db) as store:
            verified = verify_store(store)
    except TamperedError as exc:
        raise fail(f"{db}: {exc}: the stored result is not what its replay gives; {refusing}", DOMAIN_ERROR) from None
    if verified.games and not quiet:
        click.echo(f"verified {verified.games} stored games against their replays "
                   f"({verified.games_per_second:,.0f} games/s)", err=True)
    return verified
