"""Joint Bradley-Terry maximum-likelihood fit, in natural (logit) units.

Model: P(i beats j) = 1 / (1 + exp(-(theta_i - theta_j))). Only wins count;
seats, margins and the way a game ended do not.

Regularization (the prior): every bot is given ``prior_games`` virtual games
against a virtual opponent fixed at theta = 0, of which it wins exactly half
(the default, ``prior_games = 1``, is one virtual draw: half a win and half a
loss). This is a symmetric prior that pulls every rating toward the same
point, so a bot with all wins or all losses gets a finite rating and a finite
interval, a bot in a disconnected group still has a defined level, and the
log-posterior is strictly concave, hence the maximum is unique. Its pull is
worth one game, so it fades as real games accumulate. Because the virtual
opponent has a fixed rating it also removes the "add a constant to everyone"
freedom; the caller re-anchors the result afterwards (``rating_fit``).

With ``prior_games = 0`` the fit is the plain MLE: one bot is pinned at 0 to
remove the free constant, and the fit exists only if the "beat" graph is
strongly connected (every bot has beaten, through some chain, every other);
otherwise a ``ValueError`` is raised instead of returning infinite ratings.

Solved by Newton's method with step halving (the objective is concave, the
halving only guards the first steps from far away); the covariance is the
inverse of the observed information (minus the Hessian) at the optimum.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..games.game_record import GameRecord
from .linalg import Matrix, SingularMatrixError, inverse, solve
from .records import bots_of, decided

_MAX_ITERATIONS = 200
_STEP_TOLERANCE = 1e-11  # natural units; ~6e-10 Elo


@dataclass(frozen=True, slots=True)
class NaturalFit:
    """Bradley-Terry strengths in logit units and their covariance (unanchored)."""

    bots: tuple[str, ...]
    theta: tuple[float, ...]
    covariance: tuple[tuple[float, ...], ...]
    iterations: int


def win_matrix(records: Sequence[GameRecord], bots: Sequence[str]) -> list[list[int]]:
    """``w[i][j]`` = decided games bot i won against bot j."""
    index = {b: i for i, b in enumerate(bots)}
    wins = [[0] * len(bots) for _ in bots]
    for r in decided(records):
        loser = r.loser
        assert r.winner is not None and loser is not None
        wins[index[r.winner]][index[loser]] += 1
    return wins


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def _log_sigmoid(x: float) -> float:
    # Stable for large |x|: never exponentiates a large positive number.
    if x >= 0:
        return -math.log1p(math.exp(-x))
    return x - math.log1p(math.exp(x))


def _log_posterior(theta: Sequence[float], wins: Sequence[Sequence[int]], prior: float) -> float:
    n = len(theta)
    total = 0.0
    for i in range(n):
        for j in range(n):
            if wins[i][j]:
                total += wins[i][j] * _log_sigmoid(theta[i] - theta[j])
        if prior > 0:
            total += 0.5 * prior * (_log_sigmoid(theta[i]) + _log_sigmoid(-theta[i]))
    return total


def _derivatives(
    theta: Sequence[float], wins: Sequence[Sequence[int]], prior: float
) -> tuple[list[float], Matrix]:
    """Gradient and information matrix (minus the Hessian) of the log-posterior."""
    n = len(theta)
    grad = [0.0] * n
    info = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            games = wins[i][j] + wins[j][i]
            if games == 0:
                continue
            p = _sigmoid(theta[i] - theta[j])
            g = wins[i][j] - games * p
            h = games * p * (1.0 - p)
            grad[i] += g
            grad[j] -= g
            info[i][i] += h
            info[j][j] += h
            info[i][j] -= h
            info[j][i] -= h
        if prior > 0:
            p = _sigmoid(theta[i])
            grad[i] += prior * (0.5 - p)
            info[i][i] += prior * p * (1.0 - p)
    return grad, info


def _strongly_connected(wins: Sequence[Sequence[int]]) -> bool:
    """Whether every bot reaches every other along "beat" edges (MLE existence)."""
    n = len(wins)

    def reach(forward: bool) -> int:
        seen = {0}
        stack = [0]
        while stack:
            i = stack.pop()
            for j in range(n):
                edge = wins[i][j] if forward else wins[j][i]
                if edge and j not in seen:
                    seen.add(j)
                    stack.append(j)
        return len(seen)

    return n == 0 or (reach(True) == n and reach(False) == n)


def fit_natural(
    records: Sequence[GameRecord],
    *,
    prior_games: float = 1.0,
    bots: Sequence[str] | None = None,
) -> NaturalFit:
    """Fit Bradley-Terry strengths (logit units) to the decided games of ``records``.

    ``bots`` fixes the player set (default: every bot in a decided game).
    Raises ``ValueError`` when ``prior_games == 0`` and no finite MLE exists.
    """
    games = decided(records)
    names = tuple(bots) if bots is not None else bots_of(games)
    return fit_wins(names, win_matrix(games, names), prior_games=prior_games)


def fit_wins(names: Sequence[str], wins: Sequence[Sequence[int]], *, prior_games: float = 1.0) -> NaturalFit:
    """``fit_natural`` from the win matrix alone (``w[i][j]``: games ``names[i]``
    won against ``names[j]``), all the fit depends on: a standing league keeps
    that, not every game."""
    if prior_games < 0 or not math.isfinite(prior_games):
        raise ValueError(f"prior_games must be a finite number >= 0, got {prior_games!r}")
    names = tuple(names)
    wins = [list(row) for row in wins]
    n = len(names)
    if n == 0:
        return NaturalFit((), (), (), 0)
    if prior_games == 0 and not _strongly_connected(wins):
        raise ValueError(
            "no finite maximum-likelihood fit: some bot never beat (or never lost to) the rest; "
            "use prior_games > 0"
        )
    # Without the prior the last bot is pinned at 0 (the model's free constant).
    free = n if prior_games > 0 else n - 1
    theta = [0.0] * n
    iterations = 0
    try:
        while True:
            iterations += 1
            if iterations > _MAX_ITERATIONS:
                raise RuntimeError("Bradley-Terry fit did not converge")
            grad, info = _derivatives(theta, wins, prior_games)
            step = solve([row[:free] for row in info[:free]], grad[:free]) + [0.0] * (n - free)
            base = _log_posterior(theta, wins, prior_games)
            t = 1.0
            while True:
                candidate = [x + t * s for x, s in zip(theta, step)]
                if _log_posterior(candidate, wins, prior_games) >= base - 1e-12 * (1.0 + abs(base)):
                    break
                t *= 0.5
                if t < 1e-8:
                    break
            theta = candidate
            if max((abs(t * s) for s in step), default=0.0) < _STEP_TOLERANCE:
                break
        _, info = _derivatives(theta, wins, prior_games)
        reduced = inverse([row[:free] for row in info[:free]])
    except SingularMatrixError as exc:
        raise ValueError("rating fit is singular: the comparison graph is not connected") from exc
    covariance = tuple(
        tuple(reduced[i][j] if i < free and j < free else 0.0 for j in range(n)) for i in range(n)
    )
    return NaturalFit(names, tuple(theta), covariance, iterations)
