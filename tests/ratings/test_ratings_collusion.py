"""Suspicious pairs: results against each other far from what ratings
fitted without those games predict. An honest field of bots of very
different strengths flags nothing; a sybil that folds to its partner under
another owner name is flagged, with the evidence, and rating without the
flagged games takes back what it gave."""

from __future__ import annotations

import itertools
import math
import random

from arena.engine import Termination
from arena.games.game_record import GameRecord
from arena.ratings.collusion import suspicious_pairs, without_pairs
from arena.ratings.rating_fit import fit_ratings

STRENGTH = {"ace": 1800.0, "good": 1650.0, "mid": 1500.0, "weak": 1350.0, "first": 1350.0, "sybil": 1650.0}


def game(a: str, b: str, winner: str) -> GameRecord:
    return GameRecord(a, b, winner, Termination.TARGET_REACHED)


def honest(bots: list[str], per_pair: int, rng: random.Random) -> list[GameRecord]:
    out = []
    for a, b in itertools.combinations(bots, 2):
        p = 1.0 / (1.0 + 10 ** ((STRENGTH[b] - STRENGTH[a]) / 400))
        out += [game(a, b, a if rng.random() < p else b) for _ in range(per_pair)]
    return out


def test_an_honest_field_flags_nothing() -> None:
    for seed in range(20):
        records = honest(["ace", "good", "mid", "weak"], 40, random.Random(seed))
        assert suspicious_pairs(records) == (), seed


def test_a_sybil_folding_to_its_partner_is_flagged_and_its_gift_can_be_taken_back() -> None:
    rng = random.Random(1)
    bots = ["ace", "good", "mid", "weak", "first", "sybil"]
    records = [r for r in honest(bots, 30, rng) if {r.bot0, r.bot1} != {"first", "sybil"}]
    records += [game("first", "sybil", "first") for _ in range(30)]  # the sybil folds every game
    found = suspicious_pairs(records)
    assert [(s.winner, s.loser) for s in found] == [("first", "sybil")]
    s = found[0]
    assert s.games == s.wins == 30 and s.expected < 10 and s.z > 4
    assert "first won 30 of 30 against sybil" in s.evidence() and "predict" in s.evidence()
    gifted = fit_ratings(records).rating("first")
    fair = fit_ratings(without_pairs(records, found)).rating("first")
    assert gifted - fair > 100 and math.isfinite(fair)
