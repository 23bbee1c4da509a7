"""The ``truco-arena`` executable: stop signals first, then the CLI.

Its first line puts the stop signals' handlers in place (``interrupt.arm``),
before the CLI's imports, which take a second or more: a Ctrl-C or SIGTERM
from then on ends the process with one line and 130 or 143, never a
traceback. Only the standard library is imported before that.

An install whose dependencies do not match the code (a checkout updated
without reinstalling) fails its imports: that is said in one line, with
the way out, and exit code 1.
"""

from __future__ import annotations

import sys

from . import interrupt


def main() -> None:
    interrupt.arm()
    try:
        from .cli import main as cli
    except ModuleNotFoundError as exc:
        if exc.name is None or exc.name.partition(".")[0] in ("arena", "sdk", "sample_bots"):
            raise  # our own code is broken: that is a bug to report, with its traceback
        sys.stderr.write(f"error: truco-arena needs the Python package {exc.name!r}, which this environment "
                         f"lacks: reinstall it (pip install truco-arena, or pip install -e . in a checkout)\n")
        sys.exit(1)
    cli()


if __name__ == "__main__":
    main()
