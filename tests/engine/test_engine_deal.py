"""The engine's own shuffle deals exactly what ``random.Random.shuffle`` deals.

``arena.engine.state.shuffle`` writes the library's Fisher-Yates out for speed;
every seeded game depends on it drawing the same numbers, so a Python whose
shuffle draws differently shows up here first.
"""

from __future__ import annotations

import random

from arena.engine import DECK, Game
from arena.engine.state import shuffle


def test_shuffle_matches_the_library_and_leaves_the_generator_alike() -> None:
    for seed in range(3000):
        ours, theirs = list(DECK), list(DECK)
        mine, library = random.Random(seed), random.Random(seed)
        shuffle(ours, mine)
        library.shuffle(theirs)
        assert ours == theirs, seed
        assert mine.getstate() == library.getstate(), seed


def test_short_lists_shuffle_alike_too() -> None:
    for size in range(6):
        for seed in range(50):
            ours, theirs = list(range(size)), list(range(size))
            shuffle(ours, random.Random(seed))
            random.Random(seed).shuffle(theirs)
            assert ours == theirs


def test_a_deal_is_the_first_cards_of_the_library_shuffle() -> None:
    for variant, seats in (("argentino", 6), ("uruguayo", 2), ("venezolano", 2)):
        game = Game(variant, seats=seats)
        for seed in range(200):
            deck = list(DECK)
            random.Random(seed).shuffle(deck)
            deal = game.deal(random.Random(seed))
            assert deal.hands == tuple(tuple(deck[3 * s : 3 * s + 3]) for s in range(seats))
            assert deal.up == (deck[3 * seats] if game.needs_up else None)
