"""``truco-arena rules``: the referee on its own, without bots or a server."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ..scenario import (
    MAX_BYTES,
    ScenarioError,
    parse_scenario,
    play_scenario,
)
from .errors import USAGE_ERROR, fail


@click.group()
def rules() -> None:
    """Work with the referee's rules directly."""


@rules.command("play")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
def play(file: Path) -> None:
    """Play the scenario FILE (format: docs/rules.md appendix B) and print the result as JSON.

    Exit 0 with one JSON object on stdout; 1 when an action is illegal (the
    message names its 0-based position, the seat and the reason); 2 when the
    file is malformed (the message names the field).

    \b
    Example:
      truco-arena rules play tests/scenarios/s4_1_truco_accepted__argentino.json
    """
    try:
        with file.open("rb") as stream:
            raw = stream.read(MAX_BYTES + 1)  # one byte more, so the loader can say it is too large
    except OSError as exc:
        raise fail(f"{file}: cannot read: {exc.strerror}", USAGE_ERROR) from None
    try:
        scenario = parse_scenario(raw)
    except ScenarioError as exc:
        raise fail(f"{file}: {exc}", USAGE_ERROR) from None
    result = play_scenario(scenario)
    click.echo(json.dumps(result))
