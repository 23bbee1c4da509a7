"""``truco-arena match A B``: is A better than B? Duplicate pairs until N
games or until an SPRT decides."""

from __future__ import annotations

import shlex
from pathlib import Path

import click

from ..games.schedule import Pairing
from ..games.settings import ConfigError
from ..match.bots import resolve, sample_bots
from ..protocol.stdio import GRPC, STDIO
from ..sandbox import SandboxMode
from ..tournament.config import BotSpec, TournamentConfig, tournament_config
from ..tournament.formats.match_plan import DEFAULT_MAX_GAMES, Match, Sprt
from ..tournament.scale import MAX_WORKERS
from .errors import USAGE_ERROR, fail
from .formatting import output_options, pick_format
from .tournament import play_new


def launched(name: str, command: str, stdio: bool = False) -> BotSpec:
    """The bot a command as typed launches. A script or program given by its
    path becomes an absolute path, and its folder the bot's ``dir``: the
    folder its sandbox shows it (docs/sandbox.md). ``stdio``: a stdio bot
    (docs/protocol.md, "Stdio bots"), played behind the SDK's bridge."""
    argv = shlex.split(command)  # splittable: the bot was named from it (``name_of``)
    protocol = STDIO if stdio else GRPC
    for i, arg in enumerate(argv[:2]):
        path = Path(arg)
        if (i == 0 and "/" in arg or i == 1 and arg.endswith(".py")) and path.is_file():
            argv[i] = str(path.resolve())
            return BotSpec(name, tuple(argv), path.resolve().parent, protocol=protocol)
    return BotSpec(name, tuple(argv), protocol=protocol)


def match_config(a: str, b: str, *, games: int | None, sprt: tuple[float, float] | None, alpha: float,
                 beta: float, max_games: int, variant: str, concurrency: int, seed: int | None,
                 stdio: tuple[str, ...] = (), names: tuple[str, str] | None = None,
                 sandbox: SandboxMode = SandboxMode.BWRAP) -> TournamentConfig:
    """The tournament config of ``truco-arena match``; ``stdio`` holds "a"
    and/or "b", the sides that are stdio bots. A ConfigError names the key a
    file would have."""
    bot_a, bot_b = resolve(a, b, names)
    try:
        bounds = None if sprt is None else Sprt(sprt[0], sprt[1], alpha, beta)
    except ValueError as exc:
        raise ConfigError(f"sprt.{exc}") from None
    fmt = Match(sprt=bounds, games=games, max_games=None if sprt is None else max_games)
    return tournament_config(f"{bot_a.name}-vs-{bot_b.name}", variant,
                             [launched(bot.name, bot.command, side in stdio) for bot, side in ((bot_a, "a"), (bot_b, "b"))],
                             fmt, pairing=Pairing.DUPLICATE, concurrency=concurrency, seed=seed, sandbox=sandbox)


@click.command()
@click.argument("a")
@click.argument("b")
@click.option("--games", type=click.IntRange(2), help="Play this many games (even: duplicate pairs).")
@click.option("--sprt", nargs=2, type=float, metavar="ELO0 ELO1",
              help="Play until the SPRT of H0 'A is ELO0 stronger' vs H1 'ELO1 stronger' decides.")
@click.option("--alpha", type=float, default=0.05, show_default=True, help="SPRT: chance of a false H1.")
@click.option("--beta", type=float, default=0.05, show_default=True, help="SPRT: chance of a false H0.")
@click.option("--max-games", type=click.IntRange(2), default=DEFAULT_MAX_GAMES, show_default=True,
              help="SPRT: stop without a verdict after this many games.")
@click.option("--variant", type=click.Choice(["argentino", "uruguayo", "venezolano"]), default="uruguayo",
              show_default=True)
@click.option("--concurrency", type=click.IntRange(1), default=1, show_default=True,
              help="Games at once (in each worker, with --workers).")
@click.option("--workers", type=click.IntRange(1, MAX_WORKERS),
              help="Spread the pairs over this many worker processes, each with its own copies of the bots "
                   "(docs/scaling.md). Default: every game in this process.")
@click.option("--seed", type=int, help="Seed of the deals (reproducible but predictable; default: a fresh secret).")
@click.option("--db", type=click.Path(dir_okay=False, path_type=Path),
              help="Keep the results here, to resume with `truco-arena tournament resume DB` "
                   "(default: a temporary file).")
@click.option("--no-sandbox", "no_sandbox", is_flag=True,
              help="Run both bots without the sandbox (docs/sandbox.md): only for bot code you trust.")
@click.option("--stdio", type=click.Choice(["a", "b"]), multiple=True,
              help="Bot A (or B) is a stdio bot, JSON lines on stdin/stdout (docs/protocol.md); repeatable.")
@click.option("--name", "names", nargs=2, metavar="NAME_A NAME_B",
              help="The bots' names (default: the sample bot's, else from the command).")
@output_options
def match(a: str, b: str, games: int | None, sprt: tuple[float, float] | None, alpha: float, beta: float,
          max_games: int, variant: str, concurrency: int, workers: int | None, seed: int | None, db: Path | None,
          no_sandbox: bool, stdio: tuple[str, ...], names: tuple[str, str] | None, fmt: str, as_json: bool,
          as_csv: bool) -> None:
    """Play bot A against bot B in duplicate pairs (same deal, seats swapped)
    for --games N games, or until the SPRT given by --sprt accepts H0 or H1.

    A and B are sample bots (SAMPLES) or bot commands, as in a config's
    `command`, named after their program (or the folders that tell two
    same-named ones apart), or --name. Both run in the sandbox (docs/sandbox.md): a script given by
    its path (python mybot/bot.py) sees its own folder and nothing else of
    yours, so keep --db outside it. A live line on stderr shows games, wins-losses, pairs
    2-0/1-1/0-2, Elo +- 95%, nElo and the LLR with its bounds; the verdict
    comes at the end, on stderr and, with the same numbers, as the "match"
    table of the output (--json: the verdict, LLR, Elo and its interval for
    scripts). The exit code is 0 whatever the verdict. Without --db the
    results live in a temporary file, deleted at the end (also after Ctrl-C).

    \b
    Example:
      truco-arena match heuristic random --sprt 0 100
      truco-arena match "python mybot/bot.py" heuristic --sprt 0 20 --db mybot.sqlite
      truco-arena match simulation heuristic --games 200 --concurrency 2
      truco-arena match simulation heuristic --sprt 0 20 --workers 4
      truco-arena match ./mybot heuristic --stdio a --games 20
    """
    if (games is None) == (sprt is None):
        raise click.UsageError("give exactly one of --games N and --sprt ELO0 ELO1")
    if games is not None and games % 2:
        raise click.UsageError(f"--games: must be even (duplicate pairs), got {games}")
    try:
        config = match_config(a, b, games=games, sprt=sprt, alpha=alpha, beta=beta, max_games=max_games,
                              variant=variant, concurrency=concurrency, seed=seed, stdio=stdio, names=names,
                              sandbox=SandboxMode.NONE if no_sandbox else SandboxMode.BWRAP)
    except ConfigError as exc:
        raise fail(str(exc).replace("sprt.elo", "--sprt elo").replace("sprt.", "--").replace("max_games",
                   "--max-games"), USAGE_ERROR) from None
    fmt = pick_format(fmt, as_json, as_csv)
    play_new(config, db, "match", False, fmt, workers=workers)


if match.help is not None:  # the sample bots installed here, in the help text
    match.help = match.help.replace("SAMPLES", ", ".join(sample_bots()))
