"""Sequential probability ratio test of bot A against bot B over duplicate pairs.

H0: A is ``elo0`` stronger than B; H1: A is ``elo1`` stronger (elo0 < elo1).
After every pair the log-likelihood ratio of H1 over H0 (``sprt_llr``) is
compared with Wald's bounds: at or below ``log(beta / (1 - alpha))`` H0 is
accepted, at or above ``log((1 - beta) / alpha)`` H1 is accepted, in between
the match goes on. alpha bounds the chance of accepting H1 when H0 holds,
beta that of accepting H0 when H1 holds. The state is a function of the pair
counts and the bounds only, so a resumed match recomputes it from its store.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

from .sprt_counts import (
    NELO_PER_T,
    PAIR_SCORES,
    EloEstimate,
    PairCounts,
    elo_from_score,
    score_from_elo,
)
from .sprt_llr import REGULARIZATION, SprtModel, llr

__all__ = [
    "ELO_LIMIT",
    "NELO_PER_T",
    "PAIR_SCORES",
    "REGULARIZATION",
    "EloEstimate",
    "PairCounts",
    "SprtBounds",
    "SprtModel",
    "SprtState",
    "SprtVerdict",
    "elo_from_score",
    "llr",
    "score_from_elo",
    "sprt_status",
]

# Largest |elo0|, |elo1| accepted: beyond it the hypotheses are about
# certainties, and the logistic score rounds to 0 or 1.
ELO_LIMIT = 1000.0


class SprtVerdict(StrEnum):
    CONTINUE = "continue"
    H0_ACCEPTED = "H0 accepted"
    H1_ACCEPTED = "H1 accepted"


def _check_number(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{name} must be a number, got {value!r}")
    if not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number, got {value}")
    return float(value)


@dataclass(frozen=True, slots=True)
class SprtBounds:
    """The hypotheses and error rates of one SPRT, validated when built.

    ``elo0``/``elo1`` are logistic Elo under the ``logistic`` model and
    normalized Elo under ``normalized``.
    """

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    model: SprtModel = SprtModel.LOGISTIC

    def __post_init__(self) -> None:
        for name in ("elo0", "elo1"):
            value = _check_number(name, getattr(self, name))
            if abs(value) > ELO_LIMIT:
                raise ValueError(f"{name} must be between {-ELO_LIMIT:g} and {ELO_LIMIT:g}, got {value:g}")
        for name in ("alpha", "beta"):
            value = _check_number(name, getattr(self, name))
            if not 0.0 < value < 0.5:
                raise ValueError(f"{name} must be greater than 0 and less than 0.5, got {value:g}")
        if not self.elo0 < self.elo1:
            raise ValueError(f"elo0 ({self.elo0:g}) must be less than elo1 ({self.elo1:g})")
        try:
            model = SprtModel(self.model)
        except ValueError:
            names = ", ".join(m.value for m in SprtModel)
            raise ValueError(f"model must be one of {names}, got {self.model!r}") from None
        object.__setattr__(self, "model", model)  # a plain name becomes the enum

    @property
    def lower(self) -> float:
        """LLR at or below which H0 is accepted: log(beta / (1 - alpha))."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        """LLR at or above which H1 is accepted: log((1 - beta) / alpha)."""
        return math.log((1.0 - self.beta) / self.alpha)

    def verdict(self, llr_value: float) -> SprtVerdict:
        """What an LLR of ``llr_value`` decides."""
        if llr_value >= self.upper:
            return SprtVerdict.H1_ACCEPTED
        if llr_value <= self.lower:
            return SprtVerdict.H0_ACCEPTED
        return SprtVerdict.CONTINUE


@dataclass(frozen=True, slots=True)
class SprtState:
    """Where an SPRT stands after ``counts``."""

    counts: PairCounts
    bounds: SprtBounds
    llr: float
    verdict: SprtVerdict

    @property
    def finished(self) -> bool:
        return self.verdict is not SprtVerdict.CONTINUE


def sprt_status(counts: PairCounts, bounds: SprtBounds) -> SprtState:
    """The SPRT state after ``counts``, recomputed from scratch."""
    value = llr(counts, bounds.elo0, bounds.elo1, bounds.model)
    return SprtState(counts, bounds, value, bounds.verdict(value))
