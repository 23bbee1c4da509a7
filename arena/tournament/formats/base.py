"""What every format of a tournament is: a typed value, tagged by the config's
``format`` key, that owns its own keys, checks them against the rest of the
config, and builds its scheduler (``arena.games.scheduler``).

A format's keys sit at the top of the tournament config beside the common ones
(``format = "match"``, ``games = 200``); its fields are exactly those keys,
decoded strictly by msgspec (``arena.games.settings.decode``), so a wrong type
or an unknown key is refused naming the key. The value is plain data: equal
configs have equal formats, and it encodes to the same JSON every time.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import ClassVar

import msgspec

from ...games.dispatch import Ranking
from ...games.schedule import Pairing
from ...games.scheduler import Scheduler


@dataclass(frozen=True)
class Field:
    """What a format is given of the rest of its tournament."""

    bots: tuple[str, ...]
    """The bots' names, in config order."""
    games_per_pairing: int
    """The config's ``games_per_pairing`` (formats that pair bots as a round robin does)."""
    pairing: Pairing
    """Duplicate pairs or independent games."""
    concurrency: int
    """Games at once in each worker: a format that releases its games a few at a time sizes its window on it."""
    alternate_seats: bool = True
    """Independent games: the bot in seat 0 alternates between the two bots; False: the first in config order keeps it."""


class Format(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="format"):
    """One format; a subclass names its tag (``tag="swiss"``) and its fields
    are its keys."""

    uses_games_per_pairing: ClassVar[bool] = True
    """Whether ``games_per_pairing`` means anything to it (a match counts ``games`` instead)."""

    @classmethod
    def name(cls) -> str:
        """The value of ``format`` that chooses it."""
        return str(cls.__struct_config__.tag)

    @classmethod
    def keys(cls) -> tuple[str, ...]:
        """Its own keys of the config."""
        return cls.__struct_fields__

    def check(self, field: Field, given: Collection[str]) -> None:
        """Raise ``ValueError`` naming the key first when the rest of the
        config (``field``; ``given``: the keys the file sets) does not fit."""

    def scheduler(self, field: Field, secret: Ranking) -> Scheduler:
        """The games it plays, stage by stage; ``secret`` orders what must be
        unpredictable (Swiss tie-breaks)."""
        raise NotImplementedError
