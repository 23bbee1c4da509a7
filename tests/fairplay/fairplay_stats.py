"""How many of an adversary's card predictions chance alone would get right.

A prediction names three cards the bot has not seen; the opponent holds
three of the ``unseen`` cards, all equally likely under a fair deal, so the
hits of one prediction follow a hypergeometric law. Predictions in different
hands are independent (each hand is a new shuffle); the total is the
convolution of their laws, computed exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb


def hits_law(unseen: int, held: int = 3, named: int = 3) -> list[float]:
    """P(k of the ``named`` cards are among the ``held`` of ``unseen``), k = 0..named."""
    total = comb(unseen, named)
    return [comb(held, k) * comb(unseen - held, named - k) / total for k in range(named + 1)]


def total_hits_law(unseen_per_prediction: Sequence[int]) -> list[float]:
    law = [1.0]
    for unseen in unseen_per_prediction:
        one = hits_law(unseen)
        out = [0.0] * (len(law) + len(one) - 1)
        for i, p in enumerate(law):
            for k, q in enumerate(one):
                out[i + k] += p * q
        law = out
    return law


def chance_interval(unseen_per_prediction: Sequence[int], confidence: float = 0.999) -> tuple[int, int]:
    """The central ``confidence`` interval of the total hits under chance:
    (lo, hi) with P(X < lo) <= a/2 and P(X > hi) <= a/2, a = 1 - confidence."""
    law = total_hits_law(unseen_per_prediction)
    tail = (1 - confidence) / 2
    below, lo = 0.0, 0
    while below + law[lo] <= tail:
        below += law[lo]
        lo += 1
    above, hi = 0.0, len(law) - 1
    while above + law[hi] <= tail:
        above += law[hi]
        hi -= 1
    return lo, hi
