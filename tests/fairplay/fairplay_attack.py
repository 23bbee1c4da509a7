"""What a bot that has read this code can try in order to learn its
opponent's cards, written as plainly as an attacker would.

Two attacks:

* Seeds. Guess the seed the tournament's deals come from (0..N, the values a
  config is likely to hold) and run the project's own derivation on each:
  a guess is right when it reproduces what the bot was sent (the game id, or
  under the scheme before secret deals, its rng seed). Then every deal of the
  tournament is known.
* Twins. In a duplicate pair the bot plays one deal from both seats: its own
  cards in one game are its opponent's in the other. Link a game to its twin
  by id, by timing or by the up card, and predict the opponent's hand.

A prediction is always three cards the bot has not seen (not in its hand,
not the up card), chosen before the hand's first action is seen, so under a
fair deal each of the three hits with probability 3 / (cards unseen).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from arena.engine import Game, Options
from arena.engine.cards import DECK, Card
from arena.games.schedule import Pairing
from arena.games.seeds import TournamentSecret
from arena.tournament.formats.round_robin import round_robin

# Keys per pairing tried when mapping an id back to its schedule key once the
# secret is known; far more than the tests' tournaments have.
MAX_GAMES_PER_PAIRING = 2000


# ----------------------------------------------------------------- the old scheme
def old_derive(master: int, *labels: object) -> int:
    """Seed derivation before secret deals (SHA-256 of the master seed and
    labels); bots got the schedule key as game id and old_derive(master, key,
    seat) as rng seed. Kept here to show the attack works on it."""
    text = "/".join([str(master), *map(str, labels)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def crack_old_scheme(game_id: str, seat: int, rng_seed: int, seeds: Iterable[int]) -> int | None:
    """The deal seed of ``game_id`` under the old scheme, from what one bot saw."""
    if "#" not in game_id:
        return None
    pairing, _, rest = game_id.partition("#")
    k = rest.rstrip("ab")
    for master in seeds:
        if old_derive(master, game_id, seat) == rng_seed:
            return old_derive(master, pairing, int(k))
    return None


# ----------------------------------------------------------------- the new scheme
def candidate_keys(me: str, opponent: str) -> list[str]:
    """Schedule keys of the first game of a pairing, in every form the schedule writes them."""
    keys = []
    for a, b in ((me, opponent), (opponent, me)):
        keys += [f"{a}|{b}#0", f"{a}|{b}#0a", f"{a}|{b}#0b"]
    return keys


@dataclass
class SecretCracker:
    """Tries every seed in ``seeds`` as the tournament's; found when a derived
    game id equals one the bot was sent."""

    seeds: Sequence[int]
    tables: dict[str, dict[str, int]] = field(default_factory=dict)  # opponent -> {game id: seed}
    found: TournamentSecret | None = None
    found_seed: int | None = None
    _keys: dict[str, str] = field(default_factory=dict)  # game id -> schedule key, once found

    def observe(self, me: str, opponent: str, game_id: str) -> None:
        if self.found is not None:
            return
        table = self.tables.get(opponent)
        if table is None:
            table = {}
            keys = candidate_keys(me, opponent)
            for seed in self.seeds:
                secret = TournamentSecret.from_seed(seed)
                for key in keys:
                    table[secret.game_id(key)] = seed
            self.tables[opponent] = table
        match = table.get(game_id)
        if match is not None:
            self.found, self.found_seed = TournamentSecret.from_seed(match), match
            self.tables.clear()

    def deal_seed(self, me: str, opponent: str, game_id: str) -> int | None:
        """The deal seed of ``game_id`` once the secret is known."""
        secret = self.found
        if secret is None:
            return None
        if game_id not in self._keys:
            for pairing in Pairing:
                for names in ([me, opponent], [opponent, me]):
                    games = round_robin(names, MAX_GAMES_PER_PAIRING, pairing)
                    for g in games:
                        self._keys.setdefault(secret.game_id(g.key), g.deal)
        deal = self._keys.get(game_id)
        return None if deal is None else secret.deal_seed(deal)


def hands_from_seed(options: Options, seed: int, hand: int) -> tuple[tuple[Card, ...], ...]:
    """The cards dealt to each seat in hand ``hand`` of a game dealt from ``seed``."""
    game = Game(options)
    rng = random.Random(seed)
    deal = game.deal(rng)
    for _ in range(hand):
        deal = game.deal(rng)
    return deal.hands


# ------------------------------------------------------------------- the twins
@dataclass
class PlayedHand:
    dealt: tuple[Card, ...]
    up: Card | None


@dataclass
class GameMemory:
    game_id: str
    opponent: str
    seat: int
    started: float
    ended: float | None = None
    hands: dict[int, PlayedHand] = field(default_factory=dict)


def find_twin(games: Sequence[GameMemory], current: GameMemory, hand: int, up: Card | None) -> GameMemory | None:
    """The earlier game most likely to be ``current``'s twin: same opponent,
    other seat, and, best of all, the same up card in this hand and the
    first; else an id differing only in its last character; else the most
    recently started one (a twin played at once or right after)."""
    others = [g for g in games if g is not current and g.opponent == current.opponent and g.seat != current.seat
              and hand in g.hands]
    if not others:
        return None
    first = current.hands.get(0)
    if up is not None and first is not None and first.up is not None:
        same_up = [g for g in others if g.hands[hand].up == up and 0 in g.hands and g.hands[0].up == first.up]
        if same_up:
            return max(same_up, key=lambda g: g.started)
    by_id = [g for g in others if g.game_id[:-1] == current.game_id[:-1]]
    if by_id:
        return by_id[0]
    return max(others, key=lambda g: g.started)


def as_prediction(preferred: Sequence[Card], seen: Iterable[Card], rng: random.Random) -> tuple[Card, ...]:
    """Three distinct cards not seen, ``preferred`` ones first, then at random."""
    unseen = [c for c in DECK if c not in set(seen)]
    picked: list[Card] = []
    for c in preferred:
        if c in unseen and c not in picked:
            picked.append(c)
    rest = [c for c in unseen if c not in picked]
    rng.shuffle(rest)
    return tuple((picked + rest)[:3])
