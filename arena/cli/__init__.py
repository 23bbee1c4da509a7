"""The ``truco-arena`` command: a thin layer that parses and formats.

Exit codes: 0 ok, 1 domain error (an illegal action, a failed tournament),
2 usage error (bad arguments, a malformed file or config).
"""

from __future__ import annotations

import click

from .rules import rules


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="truco-arena")
def main() -> None:
    """Truco Arena: referee, gRPC arena and tournaments for Truco bots.

    \b
    Example:
      truco-arena demo                 # a small tournament of the sample bots
      truco-arena rules play case.json # check the referee on a scripted deal
    """


main.add_command(rules)
