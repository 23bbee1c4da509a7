"""One-line errors with the exit codes of the CLI contract."""

from __future__ import annotations

import click

DOMAIN_ERROR = 1
USAGE_ERROR = 2


def fail(message: str, code: int = DOMAIN_ERROR) -> "click.exceptions.Exit":
    """Print ``message`` as one line on stderr and return the exit to raise."""
    click.echo(f"error: {message}", err=True)
    return click.exceptions.Exit(code)
