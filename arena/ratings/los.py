"""Likelihood of superiority: how sure the fit is that one bot is stronger.

LOS(a over b) = Phi(d / sd) with d the fitted Elo difference and sd its
standard error including the covariance of the two estimates (they come from
one joint fit, so they are correlated): var(a-b) = var a + var b - 2 cov(a,b).
"""

from __future__ import annotations

import math

from .rating_fit import RatingFit


def los_from_difference(diff: float, stderr: float) -> float:
    """P(true difference > 0) under a normal with mean ``diff`` and sd ``stderr``.

    A zero ``stderr`` gives a certain answer (1, 0, or 0.5 for no difference).
    """
    if stderr <= 0.0:
        return 1.0 if diff > 0 else 0.0 if diff < 0 else 0.5
    return 0.5 * (1.0 + math.erf(diff / (stderr * math.sqrt(2.0))))


def likelihood_of_superiority(fit: RatingFit, a: str, b: str) -> float:
    """LOS of bot ``a`` over bot ``b`` from the joint fit."""
    return los_from_difference(fit.rating(a) - fit.rating(b), fit.diff_stderr(a, b))
