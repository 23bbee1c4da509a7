"""Sequential probability ratio test of bot A against bot B over duplicate pairs.

H0: A is ``elo0`` stronger than B; H1: A is ``elo1`` stronger (elo0 < elo1).
After every pair the log-likelihood ratio of H1 over H0 (``llr``) is
compared with Wald's bounds: at or below ``log(beta / (1 - alpha))`` H0 is
accepted, at or above ``log((1 - beta) / alpha)`` H1 is accepted, in between
the match goes on. alpha bounds the chance of accepting H1 when H0 holds,
beta that of accepting H0 when H1 holds. The state is a function of the pair
counts and the bounds only, so a resumed match recomputes it from its store.

In this module, in order: the log-likelihood ratio and its two models, the
test's bounds, state and verdict, and the lines a match prints. The counts
and the Elo estimates they give are in ``sprt_counts``."""

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

# Generalized log-likelihood ratio (GSPRT) of duplicate-pair counts.
#
# The pair outcomes are a trinomial on the scores a = (0, 1/2, 1) with unknown
# probabilities p. Each hypothesis fixes one number of p, not p itself, so the
# likelihood of each is maximised over every p that satisfies it (Michel Van
# den Bergh's GSPRT, as in fishtest and fastchess):
#
#     LLR = sum_k n_k log(p1_k / p0_k)
#
# with n_k the (regularized) counts and p0, p1 the maximum-likelihood trinomials
# under H0 and H1. Both constrained maxima have the form
#
#     p_k = phat_k / (1 + theta b_k)
#
# where phat is the observed distribution, b_k a per-bucket offset, and the
# Lagrange multiplier theta the one root, in the interval where every
# 1 + theta b_k > 0, of the secular equation sum_k phat_k b_k / (1 + theta b_k) = 0.
#
# Models:
#
# * ``logistic`` (the default): H_i says the expected score is
#   s_i = 1 / (1 + 10^(-elo_i/400)); then b_k = a_k - s_i. With three buckets
#   the secular equation is a quadratic in theta, solved here in closed form.
# * ``normalized``: H_i says the t-value (mu - 1/2) / sigma of the pair score is
#   t_i = sqrt(2) nelo_i ln(10) / 800; then
#   b_k = a_k - 1/2 - t_i sigma (1 + ((a_k - mu) / sigma)^2) / 2 with mu and
#   sigma those of the current estimate, iterated to a fixed point from the
#   uniform distribution.
#
# Empty buckets are replaced by 1e-3 pairs before anything else (as fishtest and
# fastchess do), so that the maxima stay inside the simplex from the first pair.
# No pairs at all give an LLR of exactly 0.

# Stand-in count for an empty bucket.
REGULARIZATION = 1e-3
# The normalized fixed point stops when no probability moves by more than this
# fraction of itself (the LLR's error is of that order per pair). It usually
# takes under ten steps; when a bucket is nearly empty, rounding keeps the last
# digits flickering at about 1e-12, which the tolerance must stay above.
_FIXED_POINT_TOLERANCE = 1e-10
_FIXED_POINT_MAX_STEPS = 100

Trinomial = tuple[float, float, float]


class SprtModel(StrEnum):
    """What elo0 and elo1 are measured in."""

    LOGISTIC = "logistic"  # logistic Elo: a statement about the expected score
    NORMALIZED = "normalized"  # normalized Elo: a statement about score / spread


def regularized(counts: PairCounts) -> Trinomial:
    """The counts as floats with every empty bucket set to ``REGULARIZATION``."""
    ll, dd, ww = (float(c) if c else REGULARIZATION for c in counts.as_tuple())
    return (ll, dd, ww)


def _mean_variance(p: Trinomial) -> tuple[float, float]:
    mu = sum(pk * a for pk, a in zip(p, PAIR_SCORES, strict=True))
    return mu, sum(pk * (a - mu) ** 2 for pk, a in zip(p, PAIR_SCORES, strict=True))


def _secular(phat: Trinomial, b: Trinomial, theta: float) -> float:
    return sum(pk * bk / (1.0 + theta * bk) for pk, bk in zip(phat, b, strict=True))


def _secular_root(phat: Trinomial, b: Trinomial) -> float:
    """theta solving sum phat_k b_k / (1 + theta b_k) = 0 with every 1 + theta b_k > 0.

    The sum is strictly decreasing in theta over that interval and runs from
    +inf to -inf, so the root is unique. Multiplied by the positive product of
    the denominators it is the quadratic A theta^2 + B theta + C with
    A = b0 b1 b2 sum(phat), B = sum phat_k b_k (sum(b) - b_k), C = sum phat_k b_k;
    of its real roots exactly one lies in the interval. Bisection is the fallback
    for when rounding puts the closed-form root a hair outside it.
    """
    # Written out for three buckets: this runs twice per LLR, and simulations
    # compute hundreds of thousands of LLRs.
    p0, p1, p2 = phat
    b0, b1, b2 = b
    lo, hi = -1.0 / max(b), -1.0 / min(b)
    a_coef = b0 * b1 * b2 * (p0 + p1 + p2)
    b_coef = p0 * b0 * (b1 + b2) + p1 * b1 * (b0 + b2) + p2 * b2 * (b0 + b1)
    c_coef = p0 * b0 + p1 * b1 + p2 * b2
    if c_coef == 0.0:
        return 0.0
    roots: list[float] = []
    disc = b_coef * b_coef - 4.0 * a_coef * c_coef
    if a_coef == 0.0:
        if b_coef != 0.0:
            roots.append(-c_coef / b_coef)
    elif disc >= 0.0:
        # Stable form: q has the sign of b_coef, so nothing cancels.
        q = -0.5 * (b_coef + math.copysign(math.sqrt(disc), b_coef))
        roots.append(q / a_coef)
        if q != 0.0:
            roots.append(c_coef / q)
    for root in roots:
        if lo < root < hi:
            return root
    return _bisect_secular(phat, b, lo, hi)


def _bisect_secular(phat: Trinomial, b: Trinomial, lo: float, hi: float) -> float:
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        if _secular(phat, b, mid) > 0.0:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def _tilted(phat: Trinomial, b: Trinomial) -> Trinomial:
    theta = _secular_root(phat, b)
    return (phat[0] / (1.0 + theta * b[0]), phat[1] / (1.0 + theta * b[1]), phat[2] / (1.0 + theta * b[2]))


def mle_given_score(phat: Trinomial, s: float) -> Trinomial:
    """The trinomial of largest likelihood for ``phat`` among those with mean ``s``."""
    return _tilted(phat, (PAIR_SCORES[0] - s, PAIR_SCORES[1] - s, PAIR_SCORES[2] - s))


def mle_given_t(phat: Trinomial, t: float) -> Trinomial:
    """The trinomial of largest likelihood for ``phat`` among those with (mu - 1/2)/sigma = ``t``."""
    p: Trinomial = (1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0)
    for _ in range(_FIXED_POINT_MAX_STEPS):
        mu, var = _mean_variance(p)
        sigma = math.sqrt(var)
        b0, b1, b2 = (a - 0.5 - t * sigma * (1.0 + ((a - mu) / sigma) ** 2) / 2.0 for a in PAIR_SCORES)
        new = _tilted(phat, (b0, b1, b2))
        moved = max(abs(x - y) / x for x, y in zip(new, p, strict=True))
        p = new
        if moved < _FIXED_POINT_TOLERANCE:
            break
    return p


def t_from_nelo(nelo: float) -> float:
    """The pair-score t-value (mu - 1/2)/sigma_pair of a normalized Elo ``nelo``."""
    return math.sqrt(2.0) * nelo / NELO_PER_T


def llr(counts: PairCounts, elo0: float, elo1: float, model: SprtModel = SprtModel.LOGISTIC) -> float:
    """Log-likelihood ratio of H1 (``elo1``) over H0 (``elo0``) for A's pair counts."""
    model = SprtModel(model)  # also accepts the plain name
    if not counts.pairs:
        return 0.0
    n = regularized(counts)
    total = n[0] + n[1] + n[2]
    phat = (n[0] / total, n[1] / total, n[2] / total)
    if model is SprtModel.LOGISTIC:
        p0 = mle_given_score(phat, score_from_elo(elo0))
        p1 = mle_given_score(phat, score_from_elo(elo1))
    else:
        p0 = mle_given_t(phat, t_from_nelo(elo0))
        p1 = mle_given_t(phat, t_from_nelo(elo1))
    return sum(nk * math.log(q1 / q0) for nk, q0, q1 in zip(n, p0, p1, strict=True))


# The test: its bounds, its state after each pair, its verdict.

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


# The one-line live summary of an SPRT, for a match to print after each pair,
# and the line that states the test before the first pair.
#
# Example (alpha = beta = 0.05):
# ``games 240  W-L 138-102  pairs 40/58/22  Elo +52.5 +-45.0  nElo +52.4  LLR 1.85 [-2.94, 2.94]``
# and, once decided, the verdict at the end (``... [-2.94, 2.94]  H1 accepted``).

def _elo_text(state: SprtState) -> str:
    return elo_text(state.counts.elo())


def elo_text(estimate: EloEstimate | None) -> str:
    """``Elo +12.3 +-8.0``; what stands in for it when there is no interval to speak of."""
    if estimate is None:
        return "Elo n/a"
    if not math.isfinite(estimate.elo):
        return f"Elo {estimate.elo:+.1f}"  # every pair went one way
    if estimate.lower == estimate.upper:  # every pair scored the same (all split): no spread to measure
        return "Elo: no information yet"
    return f"Elo {estimate.elo:+.1f} +-{estimate.halfwidth:.1f}"


def _nelo_text(state: SprtState) -> str:
    nelo = state.counts.nelo
    return "nElo n/a" if nelo is None else f"nElo {nelo:+.1f}"


def format_sprt_line(state: SprtState) -> str:
    """Games, wins-losses, pairs 2-0/1-1/0-2, Elo +- 95%, nElo, LLR [lower, upper], verdict if decided."""
    c, b = state.counts, state.bounds
    parts = [
        f"games {c.games}",
        f"W-L {c.wins}-{c.losses}",
        f"pairs {c.ww}/{c.dd}/{c.ll}",
        _elo_text(state),
        _nelo_text(state),
        f"LLR {state.llr:.2f} [{b.lower:.2f}, {b.upper:.2f}]",
    ]
    if state.finished:
        parts.append(state.verdict.value)
    return "  ".join(parts)


def format_sprt_header(bounds: SprtBounds) -> str:
    """What is being tested, e.g. ``SPRT H0 Elo 0 vs H1 Elo 10  alpha 0.05  beta 0.05  LLR bounds [-2.94, 2.94]``."""
    unit = "Elo" if bounds.model is SprtModel.LOGISTIC else "nElo"
    return (
        f"SPRT H0 {unit} {bounds.elo0:g} vs H1 {unit} {bounds.elo1:g}  alpha {bounds.alpha:g}  beta {bounds.beta:g}"
        f"  LLR bounds [{bounds.lower:.2f}, {bounds.upper:.2f}]"
    )
