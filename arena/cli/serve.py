"""``truco-arena serve`` and ``truco-arena token``: a long-running arena and its tokens."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from pathlib import Path

import click

from ..server import Arena, TokenFileError, load_tokens, mint_token
from ..server import serve as serve_arena
from ..web.option import missing_extra, split_address
from .errors import DOMAIN_ERROR, USAGE_ERROR, fail


@click.command()
@click.option("--address", default="127.0.0.1:50051", show_default=True, help="HOST:PORT to listen on.")
@click.option("--tokens", "tokens_path", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="Token file (NAME sha256:HASH per line); re-read when it changes.")
@click.option("--tls-cert", type=click.Path(dir_okay=False, path_type=Path),
              help="PEM certificate (chain): serve TLS only. Needed on any address others can reach.")
@click.option("--tls-key", type=click.Path(dir_okay=False, path_type=Path), help="PEM private key of --tls-cert.")
@click.option("-v", "--verbose", is_flag=True, help="Log connections and games.")
@click.option("--http", metavar="HOST:PORT", help="Serve the live page (games in progress) here.")
def serve(address: str, tokens_path: Path, tls_cert: Path | None, tls_key: Path | None, verbose: bool,
          http: str | None) -> None:
    """Run an arena that bots connect to, until Ctrl-C or SIGTERM.

    Bots dial in with a name and a token from the token file (mint one with
    `truco-arena token mint`). Running games end as interrupted on shutdown.
    On an address other machines can reach, serve TLS (--tls-cert, --tls-key):
    without it tokens cross the network in the clear.

    \b
    Example:
      truco-arena token mint mybot --tokens tokens.txt
      truco-arena serve --address 0.0.0.0:50051 --tokens tokens.txt \\
          --tls-cert arena.crt --tls-key arena.key
    """
    if (tls_cert is None) != (tls_key is None):
        raise fail("--tls-cert and --tls-key go together", USAGE_ERROR)
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING, format="%(asctime)s %(message)s")
    try:
        load_tokens(tokens_path)
    except TokenFileError as exc:
        raise fail(str(exc), USAGE_ERROR) from None
    except UnicodeDecodeError:
        raise fail(f"{tokens_path}: not a token file (not UTF-8 text)", USAGE_ERROR) from None
    live = _live_main(http)
    try:
        serve_arena(address, tokens_path, tls_cert=tls_cert, tls_key=tls_key, main=live)
    except (OSError, ValueError) as exc:
        raise fail(str(exc), USAGE_ERROR) from None


def _live_main(http: str | None) -> Callable[[Arena], Awaitable[None]] | None:
    """The live page on ``http`` (HOST:PORT) for as long as the arena runs, if asked for."""
    if http is None:
        return None
    try:
        split_address(http)
    except ValueError as exc:
        raise fail(str(exc), USAGE_ERROR) from None
    if (missing := missing_extra()) is not None:
        raise fail(missing, DOMAIN_ERROR)
    from ..web.server import live_main
    return live_main(None, http, lambda line: click.echo(line, err=True))


@click.group()
def token() -> None:
    """Manage the arena's access tokens."""


@token.command("mint")
@click.argument("name")
@click.option("--tokens", "tokens_path", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="Token file to write (created if missing).")
def mint(name: str, tokens_path: Path) -> None:
    """Give bot NAME a new token, print it once, and keep only its hash.

    The token is printed once and never stored: hand it to the bot's owner
    now. Minting again replaces NAME's earlier token (rotation).

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
