"""The status record a running league writes into its database about once a
second (``meta.league_status``), and reading it back for
``truco-arena league status``. It is what the league is doing now; what it
has done is in the games table."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arena.errors import DomainError

STALE_SECONDS = 5.0  # a record older than this is from a league that is not running


class StatusError(DomainError, ValueError):
    """The stored status record is not one this version wrote."""


@dataclass(frozen=True, slots=True)
class BotLine:
    name: str
    version: str
    streams: int
    """Connected streams."""
    playing: int
    """Of those, in league games now."""


@dataclass(frozen=True, slots=True)
class GameLine:
    key: str
    bot0: str
    bot1: str
    since: float
    """Unix time it started."""


@dataclass(frozen=True, slots=True)
class LeagueStatus:
    updated_at: float
    """Unix time."""
    pid: int
    """The serving process."""
    stopped: bool
    """Written by a league that shut down cleanly."""
    bots: tuple[BotLine, ...]
    games: tuple[GameLine, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "updated_at": self.updated_at,
            "pid": self.pid,
            "stopped": self.stopped,
            "bots": [[b.name, b.version, b.streams, b.playing] for b in self.bots],
            "games": [[g.key, g.bot0, g.bot1, g.since] for g in self.games],
        }

    @classmethod
    def from_json(cls, data: Any) -> LeagueStatus:
        try:
            return cls(
                float(data["updated_at"]), int(data["pid"]), bool(data["stopped"]),
                tuple(BotLine(str(n), str(v), int(s), int(p)) for n, v, s, p in data["bots"]),
                tuple(GameLine(str(k), str(a), str(b), float(t)) for k, a, b, t in data["games"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise StatusError(f"the league status record is damaged ({exc})") from None

    def state(self, now: float) -> str:
        """running, stopped, or not running (killed: the record stopped ageing)."""
        if self.stopped:
            return "stopped"
        return "running" if now - self.updated_at <= STALE_SECONDS else "not running"
