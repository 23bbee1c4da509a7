"""``truco-arena sandbox check``: what the bot sandbox guarantees here."""

from __future__ import annotations

import os

import click

from ..sandbox.check import check as check_guarantees
from ..sandbox.session import level_line
from .errors import DOMAIN_ERROR


@click.group("sandbox")
def sandbox() -> None:
    """The sandbox launched bots run in (docs/sandbox.md)."""


@sandbox.command("check")
def check() -> None:
    """One line per guarantee of the bot sandbox on this machine, for this
    user: "holds", or "does not hold" with what to do about it. Starts a
    real sandbox (no bot) to observe what a bot would see. Exit status 0
    only when every guarantee holds, 1 otherwise.

    \b
    Example:
      truco-arena sandbox check
      TRUCO_ARENA_CGROUP=truco-alice truco-arena sandbox check
    """
    findings = check_guarantees()
    width = max(len(f.guarantee) for f in findings)
    for f in findings:
        click.echo(f"{'holds        ' if f.holds else 'does not hold'}  {f.guarantee:<{width}}  {f.detail}")
    holds = {f.guarantee: f.holds for f in findings}
    limits = ("memory", "processes", "CPU", "CPU accounting", "a user id per bot process")
    if all(holds[g] for g in limits[:4]):
        click.echo(level_line({g: holds[g] for g in limits}, as_root=os.geteuid() == 0))
    else:
        click.echo('a tournament here is refused by default; containment = "best-effort" runs it with what holds')
    if not all(holds.values()):
        raise click.exceptions.Exit(DOMAIN_ERROR)
