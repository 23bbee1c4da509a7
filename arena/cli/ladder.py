"""``truco-arena ladder -- COMMAND...``: where does my bot land among the sample bots?"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Sequence
from pathlib import Path

import click

from ..games.game_record import GameRecord, checked
from ..games.schedule import Pairing
from ..games.settings import ConfigError
from ..match.bots import MatchBot, name_of
from ..match.reference_ladder import LADDER_FILE, ReferenceLadder, ladder_variants, reference_ladder
from ..results.placement_table import ladder_result, placement_table
from ..results.tables import Table
from ..sandbox import SandboxMode
from ..tournament.config import BotSpec, TournamentConfig, tournament_config
from ..tournament.formats.match_plan import Gauntlet
from .errors import DOMAIN_ERROR, USAGE_ERROR, fail
from .formatting import output_options, pick_format
from .match import launched
from .tournament import play_new

DEFAULT_GAMES = 20


def _variants() -> list[str]:
    try:
        return list(ladder_variants()) or ["uruguayo"]
    except Exception:  # a broken install: the command itself then says what is wrong
        return ["uruguayo"]


def ladder_config(newcomer: MatchBot, ladder: ReferenceLadder, *, games: int, concurrency: int,
                  seed: int | None, stdio: bool = False, sandbox: SandboxMode = SandboxMode.BWRAP
                  ) -> TournamentConfig:
    """The gauntlet: the newcomer (a stdio bot with ``stdio``) against every reference bot."""
    bots = [launched(newcomer.name, newcomer.command, stdio)]
    bots += [BotSpec(b.name, tuple(shlex.split(b.command))) for b in ladder.bots]
    return tournament_config(f"ladder-{newcomer.name}", ladder.variant, bots,
                             Gauntlet(games=games, challenger=newcomer.name), pairing=Pairing.DUPLICATE,
                             concurrency=concurrency, seed=seed, sandbox=sandbox)


def newcomer_of(command: Sequence[str], ladder: ReferenceLadder) -> MatchBot:
    """The new bot: its command as typed (one quoted string or its words) and a name no reference bot has."""
    line = command[0] if len(command) == 1 else shlex.join(command)
    try:
        name = name_of(line)
    except ConfigError as exc:
        raise fail(f"COMMAND: {exc}", USAGE_ERROR) from None
    if name in {b.name for b in ladder.bots}:
        name = f"{name}-new"  # a sample bot entered as a newcomer keeps a name of its own
    return MatchBot(name, line)


def _tables(ladder: ReferenceLadder, newcomer: str) -> Callable[[Sequence[GameRecord]], list[Table]]:
    """What the ladder prints from the stored games: the placement, or why there is none."""
    def tables(rows: Sequence[GameRecord]) -> list[Table]:
        result = ladder_result(ladder, newcomer, checked(rows))
        if result.placement is None:
            raise fail(f"{newcomer}: no game got a result, so it cannot be placed", DOMAIN_ERROR)
        if result.faults == result.games:
            reason = next((r.reason for r in list(rows) if r.faulty_bot == newcomer and r.reason), "")
            raise fail(f"{newcomer} lost all {result.games} games by its own failure (a crash, a timeout or "
                       f"an illegal action{': ' + reason if reason else ''}); not placed", DOMAIN_ERROR)
        p = result.placement
        click.echo(f"ladder: {newcomer} lands {p.rank} of {len(ladder.bots) + 1}, Elo {p.elo:.0f} "
                   f"[{p.low:.0f}, {p.high:.0f}]"
                   + (f" ({result.faults} games lost by its own failure)" if result.faults else ""), err=True)
        return [placement_table(ladder, result)]
    return tables


@click.command(context_settings={"allow_interspersed_args": False})
@click.argument("command", nargs=-1, required=True, type=click.UNPROCESSED)
@click.option("--games", type=click.IntRange(2), default=DEFAULT_GAMES, show_default=True,
              help="Games against each ladder bot (even: duplicate pairs).")
@click.option("--variant", type=click.Choice(_variants()), default="uruguayo", show_default=True,
              help="The variant; only those the reference ladder was measured in.")
@click.option("--concurrency", type=click.IntRange(1), default=2, show_default=True, help="Games at once.")
@click.option("--seed", type=int,
              help="Seed of the deals: reproducible, but a bot that knows it can know every deal, so a "
                   "placement to trust uses the default, a fresh secret.")
@click.option("--db", type=click.Path(dir_okay=False, path_type=Path),
              help="Keep the games here (default: a temporary file), for `truco-arena standings` or `games`.")
@click.option("--no-sandbox", "no_sandbox", is_flag=True,
              help="Run the bots without the sandbox (docs/sandbox.md): only for bot code you trust.")
@click.option("--stdio", is_flag=True,
              help="COMMAND is a stdio bot, JSON lines on stdin/stdout (docs/protocol.md, \"Stdio bots\").")
@output_options
def ladder(command: tuple[str, ...], games: int, variant: str, concurrency: int, seed: int | None,
           db: Path | None, no_sandbox: bool, stdio: bool, fmt: str, as_json: bool, as_csv: bool) -> None:
    """Play the bot started by COMMAND against every bot of the reference
    ladder (the sample bots, docs/bots.md) over gRPC, --games games each in
    duplicate pairs (same deal, seats swapped), and print the ladder with
    the new bot placed: its Elo, with a 95% interval, and its rank.

    The reference bots keep the Elo measured for them by
    benchmarks/ladder.py (anchored at heuristic = 1000); the new bot's Elo
    is fitted to its own games against them, so only its results move it.
    Its bot runs in the sandbox like any launched bot; the deals come from
    a fresh secret unless --seed fixes them. A game a bot loses by a crash,
    a timeout or an illegal action counts as a loss; a bot that loses every
    game that way is not placed (exit 1).

    Put the ladder's options before COMMAND, or end them with `--`.

    \b
    Example:
      truco-arena ladder -- python mybot/bot.py
      truco-arena ladder --games 40 --db mybot.sqlite -- python mybot/bot.py --depth 3
      truco-arena ladder --stdio -- ./mybot
    """
    if games % 2:
        raise click.UsageError(f"--games: must be even (duplicate pairs), got {games}")
    reference = reference_ladder(variant, LADDER_FILE)
    newcomer = newcomer_of(command, reference)
    try:
        config = ladder_config(newcomer, reference, games=games, concurrency=concurrency, seed=seed, stdio=stdio,
                               sandbox=SandboxMode.NONE if no_sandbox else SandboxMode.BWRAP)
    except ConfigError as exc:
        raise fail(str(exc), USAGE_ERROR) from None
    fmt = pick_format(fmt, as_json, as_csv)
    if seed is not None:
        click.echo(f"ladder: deals from --seed {seed}: reproducible, and predictable to a bot that knows it",
                   err=True)
    click.echo(f"ladder: {newcomer.name} against {len(reference.bots)} ladder bots, {games} games each, "
               f"{variant}", err=True)
    tables = _tables(reference, newcomer.name)
    play_new(config, db, "ladder", False, fmt, tables)
