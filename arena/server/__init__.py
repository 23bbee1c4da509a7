"""The gRPC arena: bots dial in, the arena referees games between them.

Library API (for the tournament layer): ``Arena`` (``start``, ``play_game``,
``play_seats``, ``add_token``, ``bots``, ``wait_for_bots``, ``stop``),
``TimeControl``, ``PlayedGame``; ``mint_token`` for the token file. ``truco-arena
serve`` runs one for a league (``arena.league.league``).
"""

from .arena import Arena, ListenError
from .pool import ArenaClosedError, BotStatus, BotUnavailableError
from .record import PlayedGame, TimeControl
from .tokens import TokenFileError, TokenStore, load_tokens, mint_token

__all__ = [
    "Arena", "ArenaClosedError", "BotStatus", "BotUnavailableError", "ListenError", "PlayedGame", "TimeControl",
    "TokenFileError", "TokenStore", "load_tokens", "mint_token",
]
