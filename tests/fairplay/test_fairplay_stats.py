"""The chance law the fair-play tests compare the adversary against."""

from __future__ import annotations

import random

from fairplay_stats import chance_interval, hits_law, total_hits_law


def test_one_prediction_law_sums_to_one_with_mean_nine_over_unseen() -> None:
    law = hits_law(36)
    assert abs(sum(law) - 1) < 1e-12
    assert abs(sum(k * p for k, p in enumerate(law)) - 9 / 36) < 1e-12


def test_interval_holds_what_random_guessing_gets() -> None:
    # Simulated chance: three random unseen cards against three random held ones.
    rng = random.Random(7)
    n, inside = 150, 0
    lo, hi = chance_interval([36] * n)
    assert sum(total_hits_law([36] * n)) > 0.999999
    for _ in range(200):
        hits = 0
        for _ in range(n):
            held = set(rng.sample(range(36), 3))
            hits += len(held & set(rng.sample(range(36), 3)))
        inside += lo <= hits <= hi
    assert inside >= 195  # 99.9% interval: about 0.2 of 200 runs fall outside
    assert hi < 3 * n // 4  # a reader of cards (3 hits a hand) is far outside
