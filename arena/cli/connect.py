"""``truco-arena connect``: a stdio bot dials a league from its author's machine."""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

import click

from ..protocol.stdio import bridge_command
from .errors import USAGE_ERROR, fail


@click.command(context_settings={"allow_interspersed_args": False})
@click.option("--address", required=True, help="The arena's HOST:PORT (or unix:PATH).")
@click.option("--token-file", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="A file holding the bot's token (as `token mint` printed it), on its first line.")
@click.option("--name", help="The bot name the token was minted for (default: the program's name).")
@click.option("--streams", type=click.IntRange(1), default=1, show_default=True,
              help="Games at once: one program per stream.")
@click.option("--tls", is_flag=True, help="Connect with TLS, checking the arena's certificate.")
@click.option("--ca", type=click.Path(dir_okay=False, path_type=Path),
              help="PEM certificate(s) to trust for the arena instead of the system's; implies --tls.")
@click.argument("command", nargs=-1, required=True, type=click.UNPROCESSED)
def connect(address: str, token_file: Path, name: str | None, streams: int, tls: bool, ca: Path | None,
            command: tuple[str, ...]) -> None:
    """Play the stdio bot COMMAND (JSON lines on its stdin and stdout,
    docs/protocol.md "Stdio bots") in the arena at --address: the SDK's
    bridge speaks gRPC for it, and reconnects after a restart of the arena
    as any SDK bot does. Runs until the arena shuts down for good, or Ctrl-C.

    \b
    Example:
      truco-arena connect --address league.example.org:50051 --tls \\
          --token-file mybot.token --name mybot -- ./mybot
    """
    token = read_token(token_file)
    # bridge_command's "python" is this interpreter, as for any launched bot.
    argv = [sys.executable, *bridge_command(command)[1:], "--address", address, "--streams", str(streams)]
    if name is not None:
        argv += ["--name", name]
    if tls:
        argv.append("--tls")
    if ca is not None:
        argv += ["--ca", str(ca)]
    env = dict(os.environ, TRUCO_ARENA_TOKEN=token)
    sys.stdout.flush()
    try:
        # The bridge becomes this process: Ctrl-C and its exit code are the bot's own.
        os.execve(sys.executable, argv, env)
    except OSError as exc:
        raise fail(f"cannot start the bridge for {shlex.join(command)}: {exc.strerror}") from None


def read_token(token_file: Path) -> str:
    """The token on the first line of ``--token-file``, or a usage error in one line."""
    try:
        lines = token_file.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise fail(f"--token-file {token_file}: cannot read it: {getattr(exc, 'strerror', None) or exc}",
                   USAGE_ERROR) from None
    token = lines[0].strip() if lines else ""
    if not token:
        raise fail(f"--token-file {token_file}: no token on its first line", USAGE_ERROR)
    return token
