"""``truco-arena serve`` and ``truco-arena token``: a standing league and its tokens."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path

import click

from ..games.playing import ArenaHook, GamesInProgress
from ..games.settings import ConfigError
from ..league import load_league_config, serve_league
from ..server import load_tokens, mint_token
from ..server.tokens import read_entries, revoke_token, set_owner
from ..web.option import missing_extra, read_login, split_address
from .errors import DOMAIN_ERROR, USAGE_ERROR, fail


@click.command()
@click.option("--address", default="127.0.0.1:50051", show_default=True, help="HOST:PORT to listen on.")
@click.option("--tokens", "tokens_path", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="Token file (NAME scram:VERIFIER per line); re-read when it changes.")
@click.option("--db", "db_path", type=click.Path(dir_okay=False, path_type=Path), default=Path("league.sqlite"),
              show_default=True, help="Results database of the league; an existing one is continued.")
@click.option("--config", "config_path", type=click.Path(dir_okay=False, path_type=Path),
              help="League config (TOML): variant, options, clock, concurrency, pairing, matchmaking.")
@click.option("--tls-cert", type=click.Path(dir_okay=False, path_type=Path),
              help="PEM certificate (chain): serve TLS only. Needed on any address others can reach.")
@click.option("--tls-key", type=click.Path(dir_okay=False, path_type=Path), help="PEM private key of --tls-cert.")
@click.option("-v", "--verbose", is_flag=True, help="Log connections, and each game's start and end.")
@click.option("--http", metavar="HOST:PORT", help="Also serve the live page (standings, games in progress) here.")
@click.option("--http-login", "http_login", type=click.Path(dir_okay=False, path_type=Path),
              help="With --http: only who logs in (HTTP Basic) sees the live page; FILE holds one line "
                   "USER:PASSWORD and only its owner may read it.")
def serve(address: str, tokens_path: Path, db_path: Path, config_path: Path | None, tls_cert: Path | None,
          tls_key: Path | None, verbose: bool, http: str | None, http_login: Path | None) -> None:
    """Run a league that bots join by connecting, until Ctrl-C or SIGTERM.

    Every bot that dials in with a name and a token from the token file
    (mint one with `truco-arena token mint`) is entered, and games are
    scheduled among the connected bots for as long as the league runs. Each
    game is recorded in DB as it ends: `truco-arena standings DB` and
    `truco-arena league status DB` work while it runs. Running games end as
    interrupted on shutdown; serving again on the same DB continues the
    league. On an address other machines can reach, serve TLS (--tls-cert,
    --tls-key): without it tokens cross the network in the clear.

    \b
    Example:
      truco-arena token mint mybot --tokens tokens.txt
      truco-arena serve --address 0.0.0.0:50051 --tokens tokens.txt --db open.sqlite \\
          --config league.toml --tls-cert arena.crt --tls-key arena.key
    """
    if (tls_cert is None) != (tls_key is None):
        raise fail("--tls-cert and --tls-key go together", USAGE_ERROR)
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING, format="%(asctime)s %(message)s")
    try:
        config = load_league_config(config_path)
    except ConfigError as exc:
        raise fail(f"{config_path}: {exc}", USAGE_ERROR) from None
    _check_http(http)
    if http_login is not None and http is None:
        raise fail("--http-login goes with --http", USAGE_ERROR)
    login = read_login(http_login) if http_login is not None else None
    if not tokens_path.exists():
        raise fail(f"--tokens {tokens_path}: no such file (nobody could join); mint a token first: "
                   f"truco-arena token mint NAME --tokens {tokens_path}", USAGE_ERROR)
    load_tokens(tokens_path)
    recorded = asyncio.run(
        serve_league(address, tokens_path, db_path, config, tls_cert=tls_cert, tls_key=tls_key,
                     on_arena=_live_page(http, db_path, login)))
    click.echo(f"league stopped: {recorded} game(s) recorded this run in {db_path}", err=True)


def _live_page(http: str | None, db_path: Path, login: str | None = None) -> ArenaHook | None:
    """The hook that starts the live page on ``http`` once the arena is up,
    if asked for; with ``login`` (a ``login_digest``) behind that login."""
    if http is None:
        return None

    async def start(arena: GamesInProgress) -> Callable[[], Awaitable[None]]:
        from ..web.server import start_live  # the report extra, checked by _check_http

        live = await start_live(arena, db_path, http, login)
        click.echo(f"live page on {live.url}", err=True)
        return live.stop
    return start


def _check_http(http: str | None) -> None:
    """Refuse a malformed --http address or a missing report extra before anything starts."""
    if http is None:
        return
    split_address(http)
    if (missing := missing_extra()) is not None:
        raise fail(missing, DOMAIN_ERROR)


@click.group()
def token() -> None:
    """Manage the arena's access tokens."""


@token.command("mint")
@click.argument("name")
@click.option("--tokens", "tokens_path", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="Token file to write (created if missing).")
@click.option("--owner", help="Who enters the bot (default: NAME). A league never pairs two bots of one owner.")
def mint(name: str, tokens_path: Path, owner: str | None) -> None:
    """Give bot NAME a new token, print it once, and keep only its hash.

    The token is printed once and never stored: hand it to the bot's owner
    now. Minting again replaces NAME's earlier token (rotation). Give all
    the bots of one person or team the same --owner: a league then never
    pairs them with each other, so one cannot feed the other rating.

    \b
    Example:
      truco-arena token mint mybot --tokens tokens.txt --owner alice
    """
    click.echo(mint_token(tokens_path, name, owner))


@token.command("list")
@click.option("--tokens", "tokens_path", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="Token file to read.")
def list_tokens(tokens_path: Path) -> None:
    """List the bots of a token file: name, owner, and how many tokens each has.

    Tokens themselves are never stored, so they cannot be shown; the hash
    prefix tells two tokens of one bot apart.
    """
    entries = read_entries(tokens_path)
    if not entries:
        click.echo(f"{tokens_path}: no tokens", err=True)
        return
    width = max(len(e.name) for e in entries)
    owner_width = max(len(e.owner) for e in entries)
    click.echo(f"{'bot':<{width}}  {'owner':<{owner_width}}  token hash")
    for e in sorted(entries, key=lambda e: e.name):
        click.echo(f"{e.name:<{width}}  {e.owner:<{owner_width}}  {e.stored[:15]}...")


@token.command("owner")
@click.argument("name")
@click.argument("owner")
@click.option("--tokens", "tokens_path", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="Token file to change.")
def change_owner(name: str, owner: str, tokens_path: Path) -> None:
    """Make OWNER the owner of bot NAME, keeping its tokens: when two owner
    names turn out to be one person (a suspicious pair in `league status`),
    give both bots one owner and a running league stops pairing them within
    a second.

    \b
    Example:
      truco-arena token owner folder alice --tokens tokens.txt
    """
    changed = set_owner(tokens_path, name, owner)
    if not changed:
        raise fail(f"{tokens_path}: no token for bot {name!r}", DOMAIN_ERROR)
    click.echo(f"{name}: owner {owner} ({changed} token(s))", err=True)


@token.command("revoke")
@click.argument("name")
@click.option("--tokens", "tokens_path", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="Token file to change.")
def revoke(name: str, tokens_path: Path) -> None:
    """Remove every token of bot NAME. A running league or arena re-reads the
    file within a second and disconnects the bot at once (a game it is in is
    its loss by disconnect); it cannot connect again until a new token is minted.
    """
    removed = revoke_token(tokens_path, name)
    if not removed:
        raise fail(f"{tokens_path}: no token for bot {name!r}", DOMAIN_ERROR)
    click.echo(f"revoked every token of {name}", err=True)
