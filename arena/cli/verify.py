"""Check every stored game of a results database before trusting it: the
check behind ``standings --verify`` and the start of ``tournament resume``."""

from __future__ import annotations

from pathlib import Path

import click

from ..games.store import ResultsStore
from ..replay.audit import Verified, verify_store
from .errors import DOMAIN_ERROR, fail


def verify_or_fail(db: Path, refusing: str, *, quiet: bool = False, unsigned_ok: bool = False) -> Verified:
    """Check ``db`` (opened read-only: checking never changes it) and, unless
    ``quiet``, say how it went on stderr. Each row that does not hold is one
    line naming the game and what is wrong with it, then exit 1, ``refusing``
    saying what is not done because of it. Signatures that could not be
    checked (no key file, a file older than signed rows) are exit 1 too,
    unless ``unsigned_ok`` and the file predates signed rows (resume then
    signs it)."""
    with ResultsStore.open_existing(db) as store:
        verified = verify_store(store)
        legacy = store.version < 7
    return judge(db, verified, legacy, refusing, quiet=quiet, unsigned_ok=unsigned_ok)


def judge(db: Path, verified: Verified, legacy: bool, refusing: str, *, quiet: bool = False,
          unsigned_ok: bool = False) -> Verified:
    """What ``verify_or_fail`` says of a check already made (``legacy``: the
    file predates signed rows)."""
    for finding in verified.findings:
        click.echo(f"error: {db}: {finding}", err=True)
    if verified.findings:
        if verified.unsigned is not None:
            click.echo(f"error: {db}: signatures were not checked: {verified.unsigned}", err=True)
        raise fail(f"{db}: {len(verified.findings)} stored row(s) do not hold (above); {refusing}", DOMAIN_ERROR)
    if verified.unsigned is not None and not (unsigned_ok and legacy):
        raise fail(f"{db}: signatures were not checked: {verified.unsigned}; the {verified.games} games replay "
                   f"to their results, but nothing shows they are the ones played; {refusing}", DOMAIN_ERROR)
    if verified.games and not quiet:
        click.echo(f"verified {verified.games} stored games: signatures, chain and replays "
                   f"({verified.games_per_second:,.0f} games/s)", err=True)
    return verified
