"""Truco Arena SDK: subclass ``Bot``, implement ``choose``, call ``run``."""

from arena.engine.actions import Action, Kind
from arena.engine.cards import Card, Suit
from arena.engine.observation import Observation, PendingCall

from .bot import Bot

__all__ = ["Bot", "Action", "Kind", "Card", "Suit", "Observation", "PendingCall"]
