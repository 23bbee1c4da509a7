"""``truco-arena check-bot``: the protocol compliance suite, for bot authors."""

from __future__ import annotations

import asyncio
import logging
import shutil
import tempfile
from pathlib import Path

import click

from .. import interrupt
from ..compliance import (
    CheckResult,
    CheckSettings,
    LaunchError,
    run_checks,
)
from ..compliance.result import as_json, line, summary
from ..protocol.stdio import bridge_command
from ..sandbox import Containment, SandboxUnavailableError, probe
from .errors import DOMAIN_ERROR


@click.command("check-bot", context_settings={"allow_interspersed_args": False})
@click.option("--games", type=click.IntRange(1), default=3, show_default=True,
              help="Games in a row for the 'series' check.")
@click.option("--move-seconds", type=click.FloatRange(0, min_open=True), default=2.0, show_default=True,
              help="Time per move (the tournaments' default).")
@click.option("--bank-seconds", type=click.FloatRange(0), default=30.0, show_default=True,
              help="Time bank per game, used when a move takes longer than --move-seconds.")
@click.option("--timeout", type=click.FloatRange(0, min_open=True), default=10.0, show_default=True,
              help="Seconds the bot gets to connect, to reconnect, and to read what the arena sends.")
@click.option("--streams", type=click.IntRange(1), default=3, show_default=True,
              help="Streams the bot is asked to open (--streams N); 4- and 6-seat games need 2 and 3.")
@click.option("--name", default="",
              help="The bot name the token is issued for (default: its module, script or program's name).")
@click.option("--seed", type=int, default=None,
              help="Seed of the deals, game ids and opponents' names (default: fresh each run).")
@click.option("--log-dir", type=click.Path(file_okay=False, path_type=Path),
              help="Where the bot's stderr goes (default: a new temporary directory, kept).")
@click.option("--json", "as_json_output", is_flag=True, help="Print one JSON object instead of lines.")
@click.option("--sandbox", is_flag=True,
              help="Launch the bot in the sandbox tournaments use (bubblewrap; docs/sandbox.md): checks that it "
                   "runs there too, and keeps code you were handed contained.")
@click.option("--dir", "bot_dir", type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="With --sandbox: the folder the bot sees (default: the folder of its script or program).")
@click.option("--stdio", is_flag=True,
              help="COMMAND is a stdio bot, JSON lines on stdin/stdout (docs/protocol.md, \"Stdio bots\"): "
                   "checked behind the SDK's bridge, as a tournament plays it.")
@click.argument("command", nargs=-1, required=True, type=click.UNPROCESSED)
def check_bot(games: int, move_seconds: float, bank_seconds: float, timeout: float, streams: int, name: str,
              seed: int | None, log_dir: Path | None, as_json_output: bool, sandbox: bool, bot_dir: Path | None, stdio: bool,
              command: tuple[str, ...]) -> None:
    """Check that the bot started by COMMAND speaks the arena protocol.

    Starts an arena on 127.0.0.1 (a free port), launches COMMAND as a
    tournament does (with --address, --name, --streams and a token), plays
    games against the checker's own opponents and prints one line per check:
    Hello, a game in each variant, 4- and 6-seat games, games in a row, a game
    the opponent loses on time, every message kind, answers in time, legal,
    echoing game_id and seq, staying connected, reading the stream, and
    (optional) reconnecting. Exit status: 0 when every check passes, 1 when
    one fails, 2 on a usage error. The bot's stderr goes to a log file whose
    path is printed.

    \b
    Example:
      truco-arena check-bot -- python -m sample_bots.random_bot
      truco-arena check-bot --games 5 --json -- ./mybot --verbose
      truco-arena check-bot --sandbox -- python -m sample_bots.heuristic
      truco-arena check-bot --stdio -- ./mybot
      truco-arena check-bot --sandbox -- python bots/mybot.py     (it sees bots/)
      truco-arena check-bot --sandbox -- ./build/cppbot           (it sees build/)
    """
    # A script or program given by its path: its folder is the bot's folder,
    # which the sandbox shows it (--dir: another), as `match` and `ladder` do;
    # worked out before a stdio bot is put behind the bridge.
    command, folder = CheckSettings(command, Path(tempfile.gettempdir()), dir=bot_dir).bot_folder()
    if stdio:
        command = bridge_command(command)
    temporary = log_dir is None
    log_dir = Path(tempfile.mkdtemp(prefix="truco-check-bot-")) if log_dir is None else log_dir
    settings = CheckSettings(command, log_dir, name=name, games=games, move_seconds=move_seconds,
                             bank_seconds=bank_seconds, timeout=timeout, streams=streams, seed=seed,
                             sandbox=sandbox, dir=folder)
    if sandbox and not as_json_output:
        try:
            click.echo(probe(Containment.BEST_EFFORT), err=True)
        except SandboxUnavailableError:
            pass  # the run below says it in one line

    # The arena logs what it refuses (a bad Hello...) as warnings, which
    # Python would print between the report's lines; the checks report it.
    logging.getLogger("arena").addHandler(logging.NullHandler())

    def echo_line(result: CheckResult) -> None:
        if not as_json_output:
            click.echo(line(result))

    try:
        with interrupt.interruptible():  # the bot's process is ended on the way out
            report = asyncio.run(run_checks(settings, echo_line))
    except LaunchError:
        if temporary:  # nothing ran: leave no empty log behind
            shutil.rmtree(log_dir, ignore_errors=True)
        raise
    if as_json_output:
        click.echo(as_json(report))
    else:
        click.echo(summary(report))
        click.echo(f"bot log: {report.log_path}")
    if not report.passed:
        raise click.exceptions.Exit(DOMAIN_ERROR)
