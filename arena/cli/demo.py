"""``truco-arena demo``: the sample bots in a small tournament, no setup needed."""

from __future__ import annotations

import shlex
from pathlib import Path

import click

from ..match.reference_ladder import ladder_variants, reference_ladder
from ..sandbox import Containment, SandboxMode, SandboxUnavailableError, find_bwrap
from ..server import TimeControl
from ..tournament.config import BotSpec, tournament_config
from .formatting import output_options, pick_format
from .tournament import play_new

DEMO_BOTS = 3  # the reference bot and the top of the reference ladder (docs/bots.md)
REFERENCE_BOT = "yardstick"  # the bot to measure against (docs/bots.md)


def demo_bots(variant: str) -> tuple[tuple[str, str], ...]:
    """Name and command of ``DEMO_BOTS`` bots of the variant's ladder (the
    uruguayo one where the variant was not measured): the reference bot,
    where the ladder has it, and the strongest of the others."""
    measured = ladder_variants()
    bots = reference_ladder(variant if variant in measured else "uruguayo").bots
    chosen = [b for b in bots if b.name == REFERENCE_BOT][:1]
    chosen += [b for b in bots if b.name != REFERENCE_BOT][: DEMO_BOTS - len(chosen)]
    return tuple((b.name, b.command) for b in chosen)


@click.command()
@click.option("--variant", type=click.Choice(["argentino", "uruguayo", "venezolano"]), default="uruguayo",
              show_default=True)
# Three search bots cost about 1.5 CPU s a game: 12 games keep the demo within seconds.
@click.option("--games", "games", type=click.IntRange(2), default=4, show_default=True,
              help="Games per pairing (rounded up to an even number: duplicate pairs).")
@click.option("--concurrency", type=click.IntRange(1), default=2, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True,
              help="Seed of the deals: the same seed replays the same demo. Harmless here, as only the sample "
                   "bots play; a tournament with bots you do not control needs a fresh secret (docs/fair-play.md).")
@click.option("--db", type=click.Path(dir_okay=False, path_type=Path),
              help="Keep the results here (default: a temporary file).")
@click.option("--progress/--no-progress", default=True, show_default=True)
@output_options
def demo(variant: str, games: int, concurrency: int, seed: int, db: Path | None, progress: bool,
         fmt: str, as_json: bool, as_csv: bool) -> None:
    """Run a round robin of three sample bots (the reference bot, yardstick,
    and the top of the reference ladder, docs/bots.md) over real gRPC and
    print the standings.

    \b
    Example:
      truco-arena demo
      truco-arena demo --variant argentino --games 20 --db demo.sqlite
    """
    bots = demo_bots(variant)
    sandbox = SandboxMode.BWRAP
    try:
        find_bwrap()
    except SandboxUnavailableError as exc:
        # Only our own sample bots play here, so running them unconfined is safe.
        sandbox = SandboxMode.NONE
        click.echo(f"demo: running the sample bots without a sandbox ({exc.args[0].split(':')[0]})", err=True)
    # Only our own sample bots play: where memory, processes or CPU cannot be
    # limited per bot (an ordinary user without a delegated control group), the
    # demo runs anyway, and the containment line says what does not hold.
    config = tournament_config("demo", variant, [BotSpec(name, tuple(shlex.split(command))) for name, command in bots],
                               games_per_pairing=games + games % 2, seed=seed, concurrency=concurrency,
                               time_control=TimeControl(move_time=2.0, bank=30.0), sandbox=sandbox,
                               containment=Containment.BEST_EFFORT)
    fmt = pick_format(fmt, as_json, as_csv)
    pairings = len(bots) * (len(bots) - 1) // 2
    click.echo(f"demo: {variant}, {pairings * config.games_per_pairing} games, seed {seed}", err=True)
    click.echo(f"demo: {', '.join(name for name, _ in bots)}, the reference bot and the top of the ladder "
               f"(docs/bots.md)", err=True)
    play_new(config, db, "demo", progress, fmt)
