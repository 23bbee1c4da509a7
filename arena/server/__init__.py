"""The gRPC arena: bots dial in, the arena referees games between them.

Library API (for the tournament layer): ``Arena`` (``start``, ``play_game``,
``play_seats``, ``add_token``, ``bots``, ``wait_for_bots``, ``stop``),
``TimeControl``, ``PlayedGame``; ``mint_token`` for the token file;
``serve``/``serve_async`` to run one.
"""

from .arena import Arena
from .pool import ArenaClosedError, BotStatus, BotUnavailableError
from .record import PlayedGame, TimeControl
from .serve import serve, serve_async
from .tokens import TokenFileError, TokenStore, load_tokens, mint_token

__all__ = [
    "Arena", "ArenaClosedError", "BotStatus", "BotUnavailableError", "PlayedGame", "TimeControl",
    "serve", "serve_async", "TokenFileError", "TokenStore", "load_tokens", "mint_token",
]
