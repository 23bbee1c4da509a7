"""The stdio bot protocol's shared constants and texts (docs/protocol.md,
"Stdio bots"): what the bridge (``sdk.stdio``) and the arena's launchers
agree on. A stdio bot reads one JSON object per line on its stdin and
answers each decision with one line on its stdout; the bridge speaks gRPC
for it."""

from __future__ import annotations

import shlex
from collections.abc import Sequence

# Protocol values of a launched bot's config (``protocol = "stdio"``).
GRPC = "grpc"
STDIO = "stdio"
PROTOCOLS = (GRPC, STDIO)

# The longest line a stdio bot may write, in bytes (an answer is a few
# digits; the cap only bounds what the bridge holds in memory).
LINE_MAX = 4096
# How much of a bad line a reason quotes.
QUOTE_MAX = 60
# What a bot wrote to stderr while deciding, kept per decision (characters),
# and at most this much of it per game and seat (a game has ~100 decisions).
STDERR_MAX = 2000
STDERR_GAME_MAX = 65536


def bridge_command(command: Sequence[str]) -> tuple[str, ...]:
    """The command line that runs the stdio bot ``command`` behind the
    bridge: a gRPC bot like any other, so a launcher starts it (and adds
    ``--address``, ``--name``, ``--streams``) exactly as it starts an SDK bot.
    "python" means the arena's interpreter, for the bridge as for any bot."""
    return ("python", "-m", "sdk.stdio", "--run", shlex.join(command))


def printable(text: str) -> str:
    """``text`` with every character that is not printable (controls, line
    breaks, bidi overrides) shown as an escape: bot text on one line a
    terminal or a log shows as it is."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def quote(data: bytes | str, limit: int = QUOTE_MAX) -> str:
    """What a bot wrote, quoted for a reason: decoded, made printable, cut to
    ``limit`` characters ("..." marks a cut)."""
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    cut = len(text) > limit
    return '"' + printable(text[:limit]).replace('"', '\\"') + ('..."' if cut else '"')
