"""The formats of a tournament, one class a file, each a tagged typed value
(``base.Format``) that owns its keys, its checks and its scheduler:

* ``round_robin``: every pair of bots meets ``games_per_pairing`` times;
* ``match`` and ``gauntlet`` (``match_plan``): duplicate pairs of a
  challenger against each opponent, a few pairs open at a time so that an
  SPRT can stop early;
* ``swiss``: rounds paired by the standings so far, one stage a round;
* ``challengers``: several challengers, each against every other bot.

A new format is one more file here and its class in ``AnyFormat``.
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from typing import Any

from ...games.settings import ConfigError, decode
from .base import Field, Format
from .challengers import Challengers
from .match_plan import Gauntlet, Match
from .round_robin import RoundRobin
from .swiss import SwissSystem

AnyFormat = RoundRobin | Match | Gauntlet | SwissSystem | Challengers
"""The tagged union of the formats (tag: the ``format`` key)."""
FORMATS: tuple[type[Format], ...] = typing.get_args(AnyFormat)
BY_NAME = {f.name(): f for f in FORMATS}
KEYS = ("format", *dict.fromkeys(k for f in FORMATS for k in f.keys()))
"""Every top-level key some format owns."""

__all__ = ["AnyFormat", "BY_NAME", "FORMATS", "KEYS", "Field", "Format", "format_in"]


def format_in(data: Mapping[str, Any]) -> AnyFormat:
    """The format ``data`` (a whole tournament config) asks for, its keys
    decoded (``config.tournament_config`` checks it against the rest); a
    ConfigError names the key."""
    given = data.get("format", RoundRobin.name())
    if not isinstance(given, str) or given not in BY_NAME:
        names = ", ".join(f'"{name}"' for name in BY_NAME)
        raise ConfigError(f"format: expected one of {names}, got {given!r}")
    kind = BY_NAME[given]
    for key in KEYS[1:]:
        if key in data and key not in kind.keys():
            owners = [f'"{f.name()}"' for f in FORMATS if key in f.keys()]
            choices = " or ".join(owners) if len(owners) < 3 else f"{', '.join(owners[:-1])} or {owners[-1]}"
            raise ConfigError(f"{key}: only for format = {choices}")
    return decode({k: data[k] for k in kind.keys() if k in data}, kind)  # type: ignore[return-value]
