"""The tournament secret and everything derived from it: deal seeds, the
seeds bots get for their own randomness, and the game ids bots are shown.

Everything is an HMAC-SHA256 keyed with a 32-byte secret. Without the key the
outputs look random, so what a bot receives (an opaque game id, an rng seed)
tells it nothing about any deal, and two games cannot be linked by comparing
their ids or seeds. The secret stays in the results database (for resume and
replays) and is never sent to a bot.

A user-given seed makes a run reproducible by deriving the secret from it;
such a secret is only as hard to guess as the seed (docs/fair-play.md).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

SECRET_BYTES = 32
GAME_ID_HEX_DIGITS = 24  # 96 bits: unique across any schedule the config allows, and unguessable

# Domain separation: the same schedule key never yields related values for
# different uses.
_DEAL, _RNG, _GAME_ID, _ORDER = "deal", "rng", "game-id", "order"
_FROM_SEED = b"truco-arena tournament secret from seed\x00"


SECRET_META = "secret"  # hex of the secret, in the results store's meta table


@dataclass(frozen=True)
class TournamentSecret:
    key: bytes

    def __post_init__(self) -> None:
        if len(self.key) != SECRET_BYTES:
            raise ValueError(f"a tournament secret is {SECRET_BYTES} bytes, got {len(self.key)}")

    def __repr__(self) -> str:  # keep the key out of logs and tracebacks
        return "TournamentSecret(<hidden>)"

    @classmethod
    def fresh(cls) -> TournamentSecret:
        """A new random secret: nobody, the operator included, can predict the deals."""
        return cls(secrets.token_bytes(SECRET_BYTES))

    @classmethod
    def from_seed(cls, seed: int) -> TournamentSecret:
        """The secret a user-given seed stands for: the same seed, the same run."""
        return cls(hashlib.sha256(_FROM_SEED + str(seed).encode()).digest())

    @classmethod
    def from_hex(cls, text: str) -> TournamentSecret:
        return cls(bytes.fromhex(text))

    @property
    def hex(self) -> str:
        return self.key.hex()

    def _mac(self, *labels: object) -> bytes:
        return hmac.new(self.key, "/".join(map(str, labels)).encode(), hashlib.sha256).digest()

    def _int63(self, *labels: object) -> int:
        return int.from_bytes(self._mac(*labels)[:8], "big") >> 1

    def deal_seed(self, deal: str) -> int:
        """The engine's deal seed for the deal labelled ``deal`` (a schedule label)."""
        return self._int63(_DEAL, deal)

    def rng_seed(self, game_key: str, seat: int) -> int:
        """The seed sent to ``seat`` of game ``game_key`` for its own randomness.
        Keyed by the game, not the deal: the two games of a duplicate pair get
        unrelated seeds."""
        return self._int63(_RNG, game_key, seat)

    def game_id(self, game_key: str) -> str:
        """The id bots see for game ``game_key``: opaque, unrelated to its twin's."""
        return self._mac(_GAME_ID, game_key).hex()[:GAME_ID_HEX_DIGITS]

    def order(self, game_key: str) -> int:
        """A sort key that puts games in an order bots cannot predict."""
        return self._int63(_ORDER, game_key)
