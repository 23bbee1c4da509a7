"""The one class a bot author subclasses."""

from __future__ import annotations

from arena.engine.actions import Action
from arena.engine.observation import Observation


class Bot:
    """Subclass and implement ``choose``; hand an instance to ``sdk.run``.

    ``choose`` gets the seat's typed observation (RULES.md 9: own cards, the up
    card, every public action of the hand, scores, the pending call, announced
    points) and must return one of ``obs.legal``.
    """

    name: str = "bot"
    version: str = "0.1.0"

    def choose(self, obs: Observation) -> Action:
        raise NotImplementedError

    # Optional hooks; the default does nothing.
    def on_game_start(self, game_id: str, seat: int, variant: str) -> None:
        """A new game begins with this bot in ``seat``."""

    def on_game_end(self, game_id: str, won: bool | None, scores: tuple[int, int]) -> None:
        """The game ended; ``won`` is None when it was interrupted."""
