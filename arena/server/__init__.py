"""The gRPC arena: bots dial in, the arena referees games between them.

Library API (for the tournament layer): ``Arena`` (``start``, ``play_game``,
``play_seats``, ``add_token``, ``bots``, ``wait_for_bots``, ``stop``),
``TimeControl``, ``GameRecord``; ``mint_token`` for the token file;
``serve``/``serve_async`` to run one.
"""

from .arena import Arena
from .pool import ArenaClosed, BotStatus, BotUnavailableError
from .record import GameRecord, TimeControl
from .serve import serve, serve_async
from .tokens import TokenFileError, TokenStore, load_tokens, mint_token

__all__ = [
    "Arena", "ArenaClosed", "BotStatus", "BotUnavailableError", "GameRecord", "TimeControl",
    "serve", "serve_async", "TokenFileError", "TokenStore", "load_tokens", "mint_token",
]
