"""One-line errors with the exit codes of the CLI contract."""

from __future__ import annotations

import click

DOMAIN_ERROR = 1
USAGE_ERROR = 2
INTERRUPTED = 130  # 128 + SIGINT, what shells report for a Ctrl-C


def fail(message: str, code: int = DOMAIN_ERROR) -> click.exceptions.Exit:
    """Print ``message`` as one line on stderr and return the exit to raise."""
    click.echo(f"error: {one_line(message)}", err=True)
    return click.exceptions.Exit(code)


def one_line(message: str) -> str:
    """``message`` with any line breaks folded, so every error is one line."""
    return " ".join(message.split())
