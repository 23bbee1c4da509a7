"""Replays of stored games: a typed, immutable record of every hand and every
step, each step seen by a spectator and by each seat, and its JSON export.

Pure: no I/O. The engine replays the game from its seed and action log; what a
seat saw is the engine's own ``observation(seat)``.
"""

from .export import SCHEMA_VERSION, ExportError, from_json, to_json
from .model import (
    Announcement,
    Call,
    Category,
    GameInfo,
    GameReplay,
    HandRecord,
    Pending,
    PlayedCard,
    ScoreEntry,
    ShownCards,
    Step,
    TableView,
    Trick,
    Views,
)
from .replayer import ReplayError, category_of, replay
from .seat import restrict_to_seat
from .stored import options_of, replay_row
from .text import render_text

__all__ = [
    "SCHEMA_VERSION", "Announcement", "Call", "Category", "ExportError", "GameInfo", "GameReplay", "HandRecord",
    "Pending", "PlayedCard", "ReplayError", "ScoreEntry", "ShownCards", "Step", "TableView", "Trick", "Views",
    "category_of", "from_json", "options_of", "render_text", "replay", "replay_row", "restrict_to_seat", "to_json",
]
