"""``truco-arena play BOT``: a person plays a bot in the browser.

The person's seat is an ordinary seat of the arena: an SDK bot, dialling in
with a token like any bot that connects by itself, whose ``choose`` waits for
the person's click on a local page (``arena.web.play``). The game runs
through the tournament runner, so it is refereed, clocked, stored and
replayable like any other; BOT is launched in the sandbox as ``match``
launches its bots.
"""

from __future__ import annotations

import asyncio
import secrets
import socket
import tempfile
import threading
import webbrowser
from pathlib import Path
from typing import Any

import click

from sdk import Bot
from sdk import client as sdk_client
from sdk.bot import GameInfo, HandSummary

from ..engine import Action, Observation
from ..games.settings import ConfigError
from ..match.bots import name_of, sample_bots
from ..server.tokens import check_name, mint_token
from ..tournament.config import parse_config
from ..web.http import HttpServer
from ..web.play import Desk, play_handler
from .errors import USAGE_ERROR, fail
from .formatting import output_options, pick_format
from .match import bot_table
from .tournament import play as run_tournament

LAST_RESULT_WAIT = 10.0  # seconds the page stays up after the last game for its last read
NO_CLOCK_SECONDS = 3600.0  # without --clock: the longest move the time control allows


class PersonBot(Bot):
    """The person's side of the protocol: every decision waits on the desk."""

    def __init__(self, name: str, desk: Desk) -> None:
        self.name = name
        self.version = "person"
        self.desk = desk

    def choose(self, obs: Observation) -> Action:
        return self.desk.decide(obs)

    def on_game_info(self, info: GameInfo) -> None:
        self.desk.on_game_info(info.game_id, info.seat, info.options.variant, info.bots, info.move_time)

    def on_hand_end(self, game_id: str, hand: HandSummary) -> None:
        self.desk.on_hand_end(hand.hand_number, hand.scores, hand.shown, hand.events)

    def on_game_end(self, game_id: str, won: bool | None, scores: tuple[int, int]) -> None:
        self.desk.on_game_end(won, scores)


def _free_port(host: str) -> int:
    """A port free on ``host`` now; the arena binds it right after (a bot
    that connects by itself needs a fixed address)."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
        s.bind((host.strip("[]"), 0))
        return int(s.getsockname()[1])


def _host_port(http: str) -> tuple[str, int]:
    host, sep, port = http.rpartition(":")
    if not sep or not host or not port.isdigit() or int(port) > 65535:
        raise fail(f"--http: expected HOST:PORT, got {http!r}", USAGE_ERROR)
    return host.strip("[]"), int(port)


class PersonSide(threading.Thread):
    """The person's seat and its page, on an event loop of their own: the
    tournament runner owns the main thread's loop."""

    def __init__(self, bot: PersonBot, address: str, token: str, http: tuple[str, int], key: str) -> None:
        super().__init__(name="person", daemon=True)
        self.bot, self.address, self.token, self.http, self.key = bot, address, token, http, key
        self.port: int | None = None
        self.ready = threading.Event()
        self.error: BaseException | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping: asyncio.Event | None = None

    def run(self) -> None:
        try:
            asyncio.run(self._main())
        except BaseException as exc:  # reported by the command, never a traceback
            self.error = exc
        finally:
            self.ready.set()

    async def _main(self) -> None:
        self._loop, self._stopping = asyncio.get_running_loop(), asyncio.Event()
        server = HttpServer(play_handler(self.bot.desk, self.key))
        self.port = await server.start(*self.http)
        self.ready.set()
        # The page outlives the seat: the arena ends the seat's stream after
        # the last game, and the person still has to see the result.
        seat = asyncio.ensure_future(sdk_client.run_async(
            self.bot, self.address, self.token, threaded=True, name=self.bot.name, retry_for=60.0))
        try:
            await self._stopping.wait()
        finally:
            seat.cancel()
            await asyncio.gather(seat, return_exceptions=True)
            await server.stop()

    def stop(self) -> None:
        self.bot.desk.close()
        if self._loop is not None and self._stopping is not None and not self._loop.is_closed():
            try:
                self._loop.call_soon_threadsafe(self._stopping.set)
            except RuntimeError:  # the loop closed in between: nothing left to stop
                pass
        self.join(timeout=5.0)


def play_config(bot: str, person: str, *, variant: str, games: int, seed: int | None, target: int | None,
                clock: float | None, address: str, tokens: Path) -> dict[str, Any]:
    """The tournament config (as TOML would give it) of one session."""
    samples = sample_bots()
    name, command = (bot, samples[bot]) if bot in samples else (name_of(bot), bot)
    if name == person:
        name = f"{name}-bot"
    raw: dict[str, Any] = {
        "name": f"{person}-vs-{name}",
        "variant": variant,
        "pairing": "independent",
        "games_per_pairing": games,
        "address": address,
        "tokens": str(tokens),
        "absent_wait_seconds": 30,
        "time_control": {"move_seconds": clock or NO_CLOCK_SECONDS, "bank_seconds": 0},
        "bots": [bot_table(name, command), {"name": person}],
    }
    if target is not None:
        raw["options"] = {"target": target}
    if seed is not None:
        raw["seed"] = seed
    return raw


@click.command()
@click.argument("bot")
@click.option("--variant", type=click.Choice(["argentino", "uruguayo", "venezolano"]), default="uruguayo",
              show_default=True)
@click.option("--games", type=click.IntRange(1, 100), default=1, show_default=True,
              help="Games in this session; the page offers the next one after each.")
@click.option("--target", type=click.IntRange(1), help="Points to win a game (default: the variant's).")
@click.option("--clock", type=click.FloatRange(1.0, NO_CLOCK_SECONDS), metavar="SECONDS",
              help="Seconds per move for both seats (default: no clock to speak of).")
@click.option("--seed", type=int, help="Seed of the deals (reproducible; default: a fresh secret).")
@click.option("--http", default="127.0.0.1:0", show_default=True, metavar="HOST:PORT",
              help="Where the page listens (port 0: any free port).")
@click.option("--name", "person", default="you", show_default=True, help="The person's name in the results.")
@click.option("--db", type=click.Path(dir_okay=False, path_type=Path),
              help="Keep the games here (default: a temporary file).")
@click.option("--no-browser", is_flag=True, help="Print the page's address without opening a browser.")
@click.option("--no-sandbox", "no_sandbox", is_flag=True,
              help="Run BOT without the sandbox (docs/sandbox.md): only for bot code you trust.")
@output_options
def play(bot: str, variant: str, games: int, target: int | None, clock: float | None, seed: int | None,
         http: str, person: str, db: Path | None, no_browser: bool, no_sandbox: bool,
         fmt: str, as_json: bool, as_csv: bool) -> None:
    """Play BOT yourself, in the browser: a sample bot (SAMPLES) or a bot
    command, launched in the sandbox as `match` launches it.

    The page shows your cards, the muestra or vira, the table, the score and
    one button per action the referee offers you; keys 1, 2, 3 play your
    cards. The games are refereed, stored and rated like any other (--db
    keeps them; `truco-arena replay DB GAME` replays one).

    \b
    Example:
      truco-arena play heuristic
      truco-arena play simulation --variant argentino --games 3 --db mine.sqlite
    """
    try:
        check_name(person, "--name")
    except ValueError as exc:
        raise fail(str(exc), USAGE_ERROR) from None
    host, port = _host_port(http)
    with tempfile.TemporaryDirectory(prefix="truco-play-") as tmp:
        tokens = Path(tmp) / "tokens"
        token = mint_token(tokens, person)
        address = f"127.0.0.1:{_free_port('127.0.0.1')}"
        raw = play_config(bot, person, variant=variant, games=games, seed=seed, target=target, clock=clock,
                          address=address, tokens=tokens)
        if no_sandbox:
            raw["sandbox"] = "none"
        try:
            config = parse_config(raw)
        except ConfigError as exc:
            raise fail(str(exc), USAGE_ERROR) from None
        key = secrets.token_urlsafe(16)
        side = PersonSide(PersonBot(person, Desk(games)), address, token, (host, port), key)
        side.start()
        side.ready.wait(timeout=30.0)
        if side.port is None:
            raise fail(f"--http {http}: the page could not start: {side.error}", 1)
        url = f"http://{host if ':' not in host else f'[{host}]'}:{side.port}/s/{key}/"
        click.echo(f"play at {url}", err=True)
        if not no_browser:
            webbrowser.open(url)
        try:
            run_tournament(config, db or Path(tmp) / "play.sqlite", False, pick_format(fmt, as_json, as_csv),
                           new=True, kept=db is not None)
            # The page shows the last result once it has read it: wait for
            # that read (it polls several times a second), not forever.
            side.bot.desk.last_shown.wait(timeout=LAST_RESULT_WAIT)
        finally:
            side.stop()


if play.help is not None:
    play.help = play.help.replace("SAMPLES", ", ".join(sample_bots()))
