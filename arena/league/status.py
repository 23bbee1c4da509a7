"""The status record a running league writes into its database about once a
second (``meta.league_status``), and reading it back for
``truco-arena league status``. It is what the league is doing now; what it
has done is in the games table."""

from __future__ import annotations

from typing import Any

import msgspec

from arena.errors import DomainError

STALE_SECONDS = 5.0  # a record older than this is from a league that is not running


class StatusError(DomainError, ValueError):
    """The stored status record is not one this version wrote."""


class BotLine(msgspec.Struct, frozen=True, array_like=True):
    """Stored as a list: ``[name, version, streams, playing]``."""

    name: str
    version: str
    streams: int
    """Connected streams."""
    playing: int
    """Of those, in league games now."""


class GameLine(msgspec.Struct, frozen=True, array_like=True):
    """Stored as a list: ``[key, bot0, bot1, since]``."""

    key: str
    bot0: str
    bot1: str
    since: float
    """Unix time it started."""


class LeagueStatus(msgspec.Struct, frozen=True):
    updated_at: float
    """Unix time."""
    pid: int
    """The serving process."""
    stopped: bool
    """Written by a league that shut down cleanly."""
    bots: tuple[BotLine, ...]
    games: tuple[GameLine, ...]

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = msgspec.to_builtins(self)
        return data

    @classmethod
    def from_json(cls, data: Any) -> LeagueStatus:
        try:
            return msgspec.convert(data, cls)
        except msgspec.ValidationError as exc:
            raise StatusError(f"the league status record is damaged ({exc})") from None

    def state(self, now: float) -> str:
        """running, stopped, or not running (killed: the record stopped ageing)."""
        if self.stopped:
            return "stopped"
        return "running" if now - self.updated_at <= STALE_SECONDS else "not running"
