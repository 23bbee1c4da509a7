"""The ``truco-arena`` command: a thin layer that parses and formats.

Exit codes: 0 ok, 1 domain error (an illegal action, a failed tournament, a
file that is not a results database), 2 usage error (bad arguments, a
malformed file or config), 130 interrupted (Ctrl-C). Every error is one line
on stderr, never a traceback.
"""

from __future__ import annotations

import os

# gRPC's C core logs to stderr on its own ("Got goaway", add_port.cc, absl's
# "before InitializeLog" warning); that is not the CLI's output. These must be
# set before grpc is first imported, which the commands below do. A value the
# user set is kept, so the logs can still be had for debugging.
os.environ.setdefault("GRPC_VERBOSITY", "NONE")
os.environ.setdefault("GRPC_TRACE", "")

import sqlite3
import sys
from collections.abc import Sequence
from typing import Any

import click

from .. import interrupt
from ..engine import BUILD as ENGINE_BUILD
from ..errors import ArenaError
from .check_bot import check_bot
from .connect import connect
from .demo import demo
from .errors import DOMAIN_ERROR, INTERRUPTED, one_line
from .formatting import guard_terminal
from .ladder import ladder
from .league import league
from .match import match
from .results import compare, standings
from .rules import rules
from .sandbox import sandbox
from .serve import serve, token
from .tournament import tournament


class ArenaGroup(click.Group):
    """A click group whose errors all end as one line and a documented exit code."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True, **extra: Any) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        guard_terminal()  # nothing a bot wrote reaches the terminal raw, whichever line quotes it
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.exceptions.NoArgsIsHelpError as exc:  # a bare group: its help, as click shows it
            click.echo(exc.format_message(), err=True)
            sys.exit(exc.exit_code)
        except click.UsageError as exc:
            command = exc.ctx.command_path if exc.ctx is not None else "truco-arena"
            _die(f"{exc.format_message()} (see `{command} --help`)", exc.exit_code)
        except click.ClickException as exc:
            _die(exc.format_message(), exc.exit_code)
        except (click.Abort, KeyboardInterrupt):  # click.Abort: click's form of a KeyboardInterrupt
            _die("interrupted", interrupt.exit_code(INTERRUPTED))
        except ArenaError as exc:  # every error the arena raises for people: one line, its own exit code
            _die(str(exc), exc.exit_code)
        except sqlite3.Error as exc:
            _die(f"results database: {exc}", DOMAIN_ERROR)
        sys.exit(code if isinstance(code, int) else 0)


def _die(message: str, code: int) -> None:
    click.echo(f"error: {one_line(message)}", err=True)
    sys.exit(code)


@click.group(cls=ArenaGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="truco-arena", message=f"%(prog)s %(version)s (engine: {ENGINE_BUILD})")
def main() -> None:
    """Truco Arena: referee, gRPC arena and tournaments for Truco bots.

    \b
    Example:
      truco-arena demo                        # the sample bots, over gRPC
      truco-arena tournament run weekly.toml  # your own tournament
      truco-arena standings weekly.sqlite --view all
      truco-arena rules play case.json        # the referee on a scripted deal
    """


for command in (demo, tournament, match, ladder, standings, compare, serve, league, token, rules, check_bot, connect,
                sandbox):
    main.add_command(command)
from .games import games; main.add_command(games)  # noqa: E402, E702, I001
from .replay import replay; main.add_command(replay)  # noqa: E402, E702, I001
from .play import play; main.add_command(play)  # noqa: E402, E702, I001
from .report import report; main.add_command(report)  # noqa: E402, E702, I001
