"""Truco Arena SDK: subclass ``Bot``, implement ``choose``, call ``run``.
``sdk.rules`` answers rules questions as the referee does (card rank, envido
and flor points).

    from sdk import Bot, main

    class MyBot(Bot):
        name = "mybot"
        def choose(self, obs):
            return obs.legal[0]

    if __name__ == "__main__":
        main(MyBot)          # --address HOST:PORT --token TOKEN [--streams N]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from arena.engine.actions import Action, Kind
from arena.engine.cards import Card, Suit
from arena.engine.observation import Observation, PendingCall

from . import rules
from .bot import Bot, GameInfo, HandSummary

if TYPE_CHECKING:
    from .cli import main
    from .client import GaveUpError, RejectedError, run, run_async

__all__ = [
    "Bot", "GameInfo", "HandSummary", "Action", "Kind", "Card", "Suit", "Observation", "PendingCall", "rules",
    "run", "run_async", "main", "RejectedError", "GaveUpError",
]

# Networking loads on first use, so `import sdk` stays light.
_LAZY = {"run": "client", "run_async": "client", "RejectedError": "client", "GaveUpError": "client", "main": "cli"}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'sdk' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(f".{module}", __name__), name)
