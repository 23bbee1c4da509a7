"""The ``truco-arena`` executable: stop signals first, then the CLI.

Its first line puts the stop signals' handlers in place (``interrupt.arm``),
before the CLI's imports, which take a second or more: a Ctrl-C or SIGTERM
from then on ends the process with one line and 130 or 143, never a
traceback. Only the standard library is imported before that.
"""

from __future__ import annotations

from . import interrupt


def main() -> None:
    interrupt.arm()
    from .cli import main as cli

    cli()


if __name__ == "__main__":
    main()
