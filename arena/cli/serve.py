"""``truco-arena serve`` and ``truco-arena token``: a long-running arena and its tokens."""

from __future__ import annotations

import logging
from pathlib import Path

import click

from ..server import TokenFileError, load_tokens, mint_token, serve as serve_arena
from .errors import USAGE_ERROR, fail


@click.command()
@click.option("--address", default="127.0.0.1:50051", show_default=True, help="HOST:PORT to listen on.")
@click.option("--tokens", "tokens_path", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="Token file (NAME TOKEN per line); re-read when it changes.")
@click.option("-v", "--verbose", is_flag=True, help="Log connections and games.")
def serve(address: str, tokens_path: Path, verbose: bool) -> None:
    """Run an arena that bots connect to, until Ctrl-C or SIGTERM.

    Bots dial in with a name and a token from the token file (mint one with
    `truco-arena token mint`). Running games end as interrupted on shutdown.

    \b
    Example:
      truco-arena token mint mybot --tokens tokens.txt
      truco-arena serve --address 0.0.0.0:50051 --tokens tokens.txt
    """
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING, format="%(asctime)s %(message)s")
    try:
        load_tokens(tokens_path)
    except TokenFileError as exc:
        raise fail(str(exc), USAGE_ERROR) from None
    except UnicodeDecodeError:
        raise fail(f"{tokens_path}: not a token file (not UTF-8 text)", USAGE_ERROR) from None
    try:
        serve_arena(address, tokens_path)
    except OSError as exc:
        raise fail(str(exc), USAGE_ERROR) from None


@click.group()
def token() -> None:
    """Manage the arena's access tokens."""


@token.command("mint")
@click.argument("name")
@click.option("--tokens", "tokens_path", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="Token file to write (created if missing).")
def mint(name: str, tokens_path: Path) -> None:
    """Give bot NAME a new token in the token file and print it.

    \b
    Example:
      truco-arena token mint mybot --tokens tokens.txt
    """
    try:
        click.echo(mint_token(tokens_path, name))
    except UnicodeDecodeError:
        raise fail(f"{tokens_path}: not a token file (not UTF-8 text)", USAGE_ERROR) from None
    except (ValueError, TokenFileError) as exc:
        raise fail(str(exc), USAGE_ERROR) from None
