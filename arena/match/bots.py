"""The bots of ``truco-arena match A B``: a sample bot's name or a command.

Every sample bot has a short name (``random``, ``heuristic``, ``simulation``,
``inference``, ``ismcts``, ``pruning``, ``yardstick``: those installed here); anything else
is a command line as in a config's ``command``. A command's bot is named
after its program or module (``python mybot.py`` -> ``mybot``); when both
get the same name, each is named after the folder that tells them apart
(``python v2/mybot.py`` and ``python v1/mybot.py`` -> ``v2`` and ``v1``),
else ``NAME-a`` and ``NAME-b``. Names given by the user win over all these.
"""

from __future__ import annotations

import importlib.util
import re
import shlex
from dataclasses import dataclass

from ..games.settings import ConfigError

_SAMPLES = ("random", "heuristic", "simulation", "inference", "ismcts", "pruning", "yardstick")
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


def _folders(command: str) -> list[str]:
    """The folders of a command's script or program path, innermost first."""
    words = shlex.split(command)
    script = next((w for w in words[1:] if not w.startswith("-")), words[0]) if "-m" not in words else ""
    return [p for p in reversed(script.split("/")[:-1]) if p not in ("", ".", "..")]


def _apart(a: MatchBot, b: MatchBot) -> tuple[MatchBot, MatchBot] | None:
    """Two same-named bots named after the innermost folders that differ, if any do."""
    for fa, fb in zip(_folders(a.command), _folders(b.command), strict=False):
        na, nb = (_NOT_NAME.sub("-", f).strip("-._")[:_MAX_NAME] for f in (fa, fb))
        if na != nb and na[:1].isalnum() and nb[:1].isalnum():
            return MatchBot(na, a.command), MatchBot(nb, b.command)
    return None


def resolve(a: str, b: str, names: tuple[str, str] | None = None) -> tuple[MatchBot, MatchBot]:
    samples = sample_bots()
    bots = [MatchBot(arg, samples[arg]) if arg in samples else MatchBot(name_of(arg), arg) for arg in (a, b)]
    if names is not None:
        return MatchBot(names[0], bots[0].command), MatchBot(names[1], bots[1].command)
    if bots[0].name == bots[1].name:
        apart = _apart(bots[0], bots[1])
        if apart is not None:
            return apart
        bots = [MatchBot(f"{bot.name}-{suffix}", bot.command) for bot, suffix in zip(bots, "ab", strict=True)]
    return bots[0], bots[1]
