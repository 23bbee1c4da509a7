"""The bots of ``truco-arena match A B``: a sample bot's name or a command.

``random``, ``heuristic``, ``simulation`` (and ``ismcts`` when that sample
bot is installed) stand for the sample bots; anything else is a command line
as in a config's ``command``. A command's bot is named after its program or
module (``python mybot.py`` -> ``mybot``); the same name twice (a bot
against itself) becomes ``NAME-a`` and ``NAME-b``.
"""

from __future__ import annotations

import importlib.util
import re
import shlex
from dataclasses import dataclass

from ..games.settings import ConfigError

_SAMPLES = ("random", "heuristic", "simulation", "ismcts")
_MODULES = {"random": "sample_bots.random_bot"}
_NOT_NAME = re.compile(r"[^A-Za-z0-9_.\-]+")
_MAX_NAME = 60  # check_name allows 64; room for the -a/-b suffix


@dataclass(frozen=True)
class MatchBot:
    name: str
    command: str


def sample_bots() -> dict[str, str]:
    """Sample bot name -> command, for the sample bots installed here."""
    found = {}
    for name in _SAMPLES:
        module = _MODULES.get(name, f"sample_bots.{name}")
        if importlib.util.find_spec(module) is not None:
            found[name] = f"python -m {module}"
    return found


def name_of(command: str) -> str:
    """A bot name from a command line: its module (after -m) or its script/program, without a .py."""
    try:
        words = shlex.split(command)
    except ValueError as exc:
        raise ConfigError(f"cannot split the command {command!r}: {exc}") from None
    if not words:
        raise ConfigError("a bot command is empty")
    if "-m" in words[:-1]:
        stem = words[words.index("-m") + 1].rsplit(".", 1)[-1]
    else:
        script = next((w for w in words[1:] if not w.startswith("-")), words[0])
        stem = script.rsplit("/", 1)[-1].removesuffix(".py")
    name = _NOT_NAME.sub("-", stem).strip("-._")[:_MAX_NAME]
    return name if name and name[0].isalnum() else "bot"


def resolve(a: str, b: str) -> tuple[MatchBot, MatchBot]:
    samples = sample_bots()
    bots = [MatchBot(arg, samples[arg]) if arg in samples else MatchBot(name_of(arg), arg) for arg in (a, b)]
    if bots[0].name == bots[1].name:
        bots = [MatchBot(f"{bot.name}-{suffix}", bot.command) for bot, suffix in zip(bots, "ab", strict=True)]
    return bots[0], bots[1]
