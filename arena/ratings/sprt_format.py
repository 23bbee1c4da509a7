"""The one-line live summary of an SPRT, for a match to print after each pair,
and the line that states the test before the first pair.

Example (alpha = beta = 0.05):
``games 240  W-L 138-102  pairs 40/58/22  Elo +52.5 +-45.0  nElo +52.4  LLR 1.85 [-2.94, 2.94]``
and, once decided, the verdict at the end (``... [-2.94, 2.94]  H1 accepted``).
"""

from __future__ import annotations

import math

from .sprt import SprtBounds, SprtState
from .sprt_counts import EloEstimate
from .sprt_llr import SprtModel


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
