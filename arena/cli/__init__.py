"""The ``truco-arena`` command: a thin layer that parses and formats.

Exit codes: 0 ok, 1 domain error (an illegal action, a failed tournament),
2 usage error (bad arguments, a malformed file or config).
"""

from __future__ import annotations

import click

from .check_bot import check_bot
from .demo import demo
from .results import compare, standings
from .rules import rules
from .serve import serve, token
from .tournament import tournament


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="truco-arena")
def main() -> None:
    """Truco Arena: referee, gRPC arena and tournaments for Truco bots.

    \b
    Example:
      truco-arena demo                        # the sample bots, over gRPC
      truco-arena tournament run weekly.toml  # your own tournament
      truco-arena standings weekly.sqlite --view all
      truco-arena rules play case.json        # the referee on a scripted deal
    """


for command in (demo, tournament, standings, compare, serve, token, rules, check_bot):
    main.add_command(command)
