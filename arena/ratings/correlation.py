"""Rank correlations between two ratings of the same bots.

Both handle ties (average ranks for Spearman, tau-b for Kendall) and return
None when undefined: fewer than two bots, or one side with all values equal.
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def average_ranks(values: Sequence[float]) -> list[float]:
    """1-based ranks of ``values`` (ascending); tied values share their mean rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2.0 + 1.0
        i = j + 1
    return ranks


def spearman(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Spearman's rho: the Pearson correlation of the average ranks."""
    if len(x) != len(y):
        raise ValueError("sequences differ in length")
    n = len(x)
    if n < 2:
        return None
    rx, ry = average_ranks(x), average_ranks(y)
    mean = (n + 1) / 2.0  # average ranks always sum to n(n+1)/2
    sxy = sum((a - mean) * (b - mean) for a, b in zip(rx, ry))
    sxx = sum((a - mean) ** 2 for a in rx)
    syy = sum((b - mean) ** 2 for b in ry)
    if sxx == 0 or syy == 0:
        return None
    return sxy / math.sqrt(sxx * syy)


def kendall_tau(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Kendall's tau-b (O(n^2), fine for tournament sizes)."""
    if len(x) != len(y):
        raise ValueError("sequences differ in length")
    n = len(x)
    if n < 2:
        return None
    concordant = discordant = ties_x = ties_y = 0
    for i in range(n):
        for j in range(i + 1, n):
            dx, dy = x[i] - x[j], y[i] - y[j]
            if dx == 0:
                ties_x += 1
            if dy == 0:
                ties_y += 1
            if dx * dy > 0:
                concordant += 1
            elif dx * dy < 0:
                discordant += 1
    total = n * (n - 1) // 2
    denominator = math.sqrt((total - ties_x) * (total - ties_y))
    if denominator == 0:
        return None
    return (concordant - discordant) / denominator
