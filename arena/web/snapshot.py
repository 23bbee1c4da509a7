"""A snapshot of what the arena is doing, as the live page shows it: the
games in progress and the public view of some of them. The arena builds it
(``publisher.py``) and sends it to the page's process as JSON (``page_frames.py``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class LiveState:
    games: list[dict[str, Any]] = field(default_factory=list)
    """running_games()"""
    views: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Game id -> game_view()"""
    finished: bool = False
    """The arena has stopped: nothing more will change."""
    at: float = 0.0
    """Unix time of the snapshot."""

    def to_json(self) -> dict[str, Any]:
        return {"games": self.games, "views": self.views, "finished": self.finished, "at": self.at}

    @classmethod
    def from_json(cls, value: dict[str, Any]) -> LiveState:
        """The state a frame holds; ValueError if it is not one."""
        games, views = value.get("games"), value.get("views")
        finished, at = value.get("finished"), value.get("at")
        if (not isinstance(games, list) or not all(isinstance(g, dict) for g in games)
                or not isinstance(views, dict) or not all(isinstance(v, dict) for v in views.values())
                or not isinstance(finished, bool) or not isinstance(at, int | float)):
            raise ValueError("not a live state")
        return cls(games, views, finished, float(at))
