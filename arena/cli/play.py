"""``truco-arena play BOT``: a person plays a bot in the browser.

The person's seat is an ordinary seat of the arena: an SDK bot, dialling in
with a token like any bot that connects by itself, whose ``choose`` waits for
the person's click on a local page (``arena.web.person_seat``). The games run
through the tournament runner, so they are refereed, clocked, stored and
replayable like any other; BOT is launched in the sandbox as ``match``
launches its bots. In a 4- or 6-seat game the person's team is one entry,
as every team is: the person's seat goes to the page, the partners' seats
to a sample bot in this process (``SeatRouter``). The session's games are
its own format (``Session``): one at a time, the person in the seat they
chose, and another whenever the page asks for one; each batch is one run
of the runner over the same results file.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import secrets
import socket
import tempfile
import threading
import webbrowser
from collections.abc import Callable
from pathlib import Path

import click

from sdk import Bot
from sdk import client as sdk_client
from sdk.bot import GameInfo, HandSummary
from sdk.client import BotSource as SdkBotSource

from ..engine import Action, Observation
from ..games.schedule import Pairing, ScheduledGame
from ..games.scheduler import Winners
from ..games.settings import ConfigError, rules
from ..match.bots import name_of, sample_bots
from ..sandbox import SandboxMode
from ..server import TimeControl
from ..server.tokens import check_name, mint_token
from ..tournament.config import BotSpec, TournamentConfig, tournament_config
from ..tournament.runner import schedule_of
from ..web.http import HttpServer
from ..web.person_seat import MAX_SESSION_GAMES, Desk, play_handler
from .connect import read_token
from .errors import USAGE_ERROR, fail
from .formatting import output_options, pick_format
from .match import launched
from .tournament import play as run_tournament

CHOICE_WAIT = 900.0  # seconds the command waits after the last game for the person to ask for another
NO_CLOCK_SECONDS = 3600.0  # without --clock: the longest move the time control allows


class SeatRouter(Bot):
    """One stream of the person's team entry. The person's seat of a game
    goes to the desk; a partner's seat (4 and 6 seats) to the partner, a
    sample bot playing in this process, which sees only its own seat's
    messages, as it would in a process of its own."""

    def __init__(self, name: str, desk: Desk, person_seat: Callable[[int], int], partner: Bot) -> None:
        self.name = name
        self.version = "person"
        self.desk, self.person_seat, self.partner = desk, person_seat, partner
        self.mine = False  # this stream holds the person's seat in its current game

    def choose(self, obs: Observation) -> Action:
        return self.desk.decide(obs) if self.mine else self.partner.choose(obs)

    def on_game_info(self, info: GameInfo) -> None:
        self.mine = info.seat == self.person_seat(info.seat % 2)
        if self.mine:
            self.desk.on_game_info(info.game_id, info.seat, info.options.variant, info.bots, info.move_time)
        else:
            self.partner.rng = random.Random(info.rng_seed)
            self.partner.on_game_info(info)

    def on_hand_end(self, game_id: str, hand: HandSummary) -> None:
        if self.mine:
            self.desk.on_hand_end(hand.hand_number, hand.scores, hand.shown, hand.events)
        else:
            self.partner.on_hand_end(game_id, hand)

    def on_game_end(self, game_id: str, won: bool | None, scores: tuple[int, int]) -> None:
        if self.mine:
            self.desk.on_game_end(won, scores)
        else:
            self.partner.on_game_end(game_id, won, scores)


def make_partner(name: str) -> Bot:
    """A sample bot to sit beside the person (in-process: trusted code)."""
    if name == "random":
        from sample_bots.random_bot import RandomBot
        return RandomBot()
    from sample_bots.heuristic import HeuristicBot
    return HeuristicBot()


class Session:
    """The games of one session (``arena.games.scheduler.Scheduler``): the
    config's round robin, one game a stage, as many as the person has asked
    for so far. They are the config's own games, so the stored file checks
    against its config (``standings --verify``) like any other."""

    def __init__(self, games: list[ScheduledGame], desk: Desk) -> None:
        self.games, self.desk = games, desk
        self.given = 0

    def total(self) -> int:
        return len(self.games)

    def next(self, winners: Winners) -> list[ScheduledGame]:
        if self.given >= min(self.desk.wanted(), len(self.games)):
            return []
        self.given += 1
        return [self.games[self.given - 1]]


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


def team_targets(address: str, count: int) -> list[str]:
    """``count`` spellings of one loopback address. gRPC shares one TCP
    connection among the channels of a process that dial the same target;
    the arena seats a team's partners on different connections, so each
    seat of the person's team dials its own spelling."""
    return [address, f"ipv4:{address}", f"ipv4:///{address}"][:count]


class PersonSide(threading.Thread):
    """The person's team entry and the page, on an event loop of their own:
    the tournament runner owns the main thread's loop. One SDK client per
    seat of the team, each reconnecting for the session's next run."""

    def __init__(self, name: str, desk: Desk, clients: list[tuple[SdkBotSource, str, int]], token: str,
                 http: tuple[str, int], *, tls: bool = False) -> None:
        super().__init__(name="person", daemon=True)
        self.person, self.desk, self.clients, self.token, self.http, self.tls = name, desk, clients, token, http, tls
        self.key = secrets.token_urlsafe(16)
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

    async def _client(self, bot: SdkBotSource, target: str, streams: int) -> None:
        assert self._stopping is not None
        while not self._stopping.is_set():
            # Returns when a run's arena shuts down; the next run's arena listens on the same address.
            with contextlib.suppress(Exception):
                await sdk_client.run_async(bot, target, self.token, streams, threaded=True, name=self.person,
                                           retry_for=60.0, tls=self.tls)
            await asyncio.sleep(0.2)

    async def _main(self) -> None:
        self._loop, self._stopping = asyncio.get_running_loop(), asyncio.Event()
        server = HttpServer(play_handler(self.desk, self.key))
        self.port = await server.start(*self.http)
        self.ready.set()
        # The page outlives the seats: the arena ends their streams after the
        # last game, and the person still has to see the result.
        seats = [asyncio.ensure_future(self._client(bot, target, streams)) for bot, target, streams in self.clients]
        try:
            await self._stopping.wait()
        finally:
            for seat in seats:
                seat.cancel()
            await asyncio.gather(*seats, return_exceptions=True)
            await server.stop()

    def stop(self) -> None:
        self.desk.close()
        if self._loop is not None and self._stopping is not None and not self._loop.is_closed():
            try:
                self._loop.call_soon_threadsafe(self._stopping.set)
            except RuntimeError:  # the loop closed in between: nothing left to stop
                pass
        self.join(timeout=5.0)


def play_config(bot: str, person: str, *, variant: str, seats: int, seat: int | None, seed: int | None,
                target: int | None, clock: float | None, address: str, tokens: Path,
                sandbox: SandboxMode = SandboxMode.BWRAP) -> TournamentConfig:
    """The tournament config of one session: a round robin of the person and
    the bot, played as far as the person asks (``Session``). With ``seat``
    the person's team keeps seat 0 (even seats) or 1; without, the person has
    seat 0 in the first game and the teams alternate."""
    samples = sample_bots()
    name, command = (bot, samples[bot]) if bot in samples else (name_of(bot), bot)
    if name == person:
        name = f"{name}-bot"
    bots = [BotSpec(person), launched(name, command)][::1 if seat is None or seat % 2 == 0 else -1]
    options = rules(variant, {"seats": seats} | ({} if target is None else {"target": target}))
    return tournament_config(f"{person}-vs-{name}", variant, bots, options=options, pairing=Pairing.INDEPENDENT,
                             games_per_pairing=MAX_SESSION_GAMES, alternate_seats=seat is None, address=address,
                             tokens=str(tokens), absent_wait=30.0, seed=seed, sandbox=sandbox,
                             time_control=TimeControl(move_time=clock or NO_CLOCK_SECONDS, bank=0.0))


def _start_page(side: PersonSide, http: str, no_browser: bool) -> None:
    side.start()
    side.ready.wait(timeout=30.0)
    if side.port is None:
        raise fail(f"--http {http}: the page could not start: {side.error}", 1)
    host = side.http[0]
    url = f"http://{host if ':' not in host else f'[{host}]'}:{side.port}/s/{side.key}/"
    click.echo(f"play at {url}", err=True)
    if not no_browser:
        webbrowser.open(url)


def _play_league(league: str, token_file: Path | None, tls: bool, person: str, table: int, http: tuple[str, int],
                 http_text: str, no_browser: bool) -> None:
    """The person's seat in a standing league: dial it with the person's token
    and play the games it pairs them in, until the page's End or Ctrl-C."""
    if token_file is None:
        raise fail("--league needs --token-file (the token `token mint` printed for --name)", USAGE_ERROR)
    token = read_token(token_file)
    desk = Desk(MAX_SESSION_GAMES, league=True)
    # A league seats a team's partners from one connection: one client, a stream per seat of the team.
    routers = iter([SeatRouter(person, desk, lambda team: team, make_partner("heuristic"))
                    for _ in range(table // 2)])
    side = PersonSide(person, desk, [(lambda: next(routers), league, table // 2)], token, http, tls=tls)
    _start_page(side, http_text, no_browser)
    click.echo(f"playing in the league at {league} as {person}; end the session on the page (or Ctrl-C)", err=True)
    try:
        desk.await_end()
    finally:
        side.stop()


@click.command()
@click.argument("bot", required=False)
@click.option("--variant", type=click.Choice(["argentino", "uruguayo", "venezolano"]), default="uruguayo",
              show_default=True)
@click.option("--seats", type=click.Choice(["2", "4", "6"]), default="2", show_default=True,
              help="Seats at the table; 4 and 6 (argentino): BOT plays the other team, --partner sits beside you.")
@click.option("--seat", type=click.IntRange(0, 5),
              help="Your seat, every game (0 is mano in the first hand; even seats are a team). "
                   "Default: seat 0 and seat 1 in turn.")
@click.option("--partner", type=click.Choice(["heuristic", "random"]), default="heuristic", show_default=True,
              help="The sample bot in your partners' seats (4 and 6 seats).")
@click.option("--games", type=click.IntRange(1, MAX_SESSION_GAMES), default=1, show_default=True,
              help="Games to start with; after the last one the page offers another.")
@click.option("--target", type=click.IntRange(1), help="Points to win a game (default: the variant's).")
@click.option("--clock", type=click.FloatRange(1.0, NO_CLOCK_SECONDS), metavar="SECONDS",
              help="Seconds per move for every seat (default: no clock to speak of).")
@click.option("--seed", type=int, help="Seed of the deals (reproducible; default: a fresh secret).")
@click.option("--http", default="127.0.0.1:0", show_default=True, metavar="HOST:PORT",
              help="Where the page listens (port 0: any free port).")
@click.option("--name", "person", default="you", show_default=True, help="The person's name in the results.")
@click.option("--db", type=click.Path(dir_okay=False, path_type=Path),
              help="Keep the games here (default: a temporary file).")
@click.option("--no-browser", is_flag=True, help="Print the page's address without opening a browser.")
@click.option("--no-sandbox", "no_sandbox", is_flag=True,
              help="Run BOT without the sandbox (docs/sandbox.md): only for bot code you trust.")
@click.option("--league", metavar="HOST:PORT",
              help="Instead of BOT: play in the standing league at this address (`serve`), with --token-file, "
                   "as --name; the league pairs and rates you like a bot.")
@click.option("--token-file", type=click.Path(dir_okay=False, path_type=Path),
              help="With --league: a file holding your token (as `token mint` printed it), on its first line.")
@click.option("--tls", is_flag=True, help="With --league: connect with TLS, checking the arena's certificate.")
@output_options
def play(bot: str | None, variant: str, seats: str, seat: int | None, partner: str, games: int, target: int | None,
         clock: float | None, seed: int | None, http: str, person: str, db: Path | None, no_browser: bool,
         no_sandbox: bool, league: str | None, token_file: Path | None, tls: bool,
         fmt: str, as_json: bool, as_csv: bool) -> None:
    """Play BOT yourself, in the browser: a sample bot (SAMPLES) or a bot
    command, launched in the sandbox as `match` launches it.

    The page shows your cards, the muestra or vira, the table, the score and
    one button per action the referee offers you; keys 1, 2, 3 play your
    cards. After the last game it offers another, until you end the
    session. The games are refereed, stored and rated like any other (--db
    keeps them; `truco-arena replay DB GAME` replays one).

    \b
    Example:
      truco-arena play heuristic
      truco-arena play simulation --variant argentino --games 3 --db mine.sqlite
      truco-arena play heuristic --variant argentino --seats 4 --seat 2
      truco-arena play --league arena.example.org:50051 --tls --name ana --token-file ana.token
    """
    try:
        check_name(person, "--name")
    except ValueError as exc:
        raise fail(str(exc), USAGE_ERROR) from None
    table = int(seats)
    if seat is not None and seat >= table:
        raise fail(f"--seat {seat}: a {table}-seat game has seats 0 to {table - 1}", USAGE_ERROR)
    host, port = _host_port(http)
    if league is not None:
        if bot is not None or seat is not None:
            raise fail("--league: the league chooses your opponent and seat (no BOT, no --seat)", USAGE_ERROR)
        _play_league(league, token_file, tls, person, table, (host, port), http, no_browser)
        return
    if bot is None:
        raise fail("give BOT (a sample bot or a command), or --league HOST:PORT", USAGE_ERROR)
    with tempfile.TemporaryDirectory(prefix="truco-play-") as tmp:
        tokens = Path(tmp) / "tokens"
        token = mint_token(tokens, person)
        address = f"127.0.0.1:{_free_port('127.0.0.1')}"
        try:
            config = play_config(bot, person, variant=variant, seats=table, seat=seat, seed=seed, target=target,
                                 clock=clock, address=address, tokens=tokens,
                                 sandbox=SandboxMode.NONE if no_sandbox else SandboxMode.BWRAP)
        except ConfigError as exc:
            raise fail(str(exc), USAGE_ERROR) from None
        desk = Desk(games)

        def person_seat(team: int) -> int:
            return seat if seat is not None else team

        # One client per seat of the person's team, each on its own connection (``team_targets``).
        clients: list[tuple[SdkBotSource, str, int]] = [
            (SeatRouter(person, desk, person_seat, make_partner(partner)), target, 1)
            for target in team_targets(address, table // 2)]
        side = PersonSide(person, desk, clients, token, (host, port))
        _start_page(side, http, no_browser)
        schedule = schedule_of(config)
        try:
            first = True
            while True:
                summary = run_tournament(config, db or Path(tmp) / "play.sqlite", False,
                                         pick_format(fmt, as_json, as_csv), new=first, kept=db is not None,
                                         scheduler=Session(schedule, desk))
                first = False
                # The page offers another game; the command waits for the person's answer, not forever.
                if summary.played == 0 or not desk.await_choice(CHOICE_WAIT):
                    break
        finally:
            side.stop()


if play.help is not None:
    play.help = play.help.replace("SAMPLES", ", ".join(sample_bots()))
