"""Small dense linear algebra for the rating fit (no numpy in the project).

Gaussian elimination with partial pivoting is plenty for the <= ~100 players
of a tournament and keeps the package dependency-free.
"""

from __future__ import annotations

from collections.abc import Sequence

from arena.errors import DomainError

Matrix = list[list[float]]

# Relative pivot size below which the matrix is treated as singular.
_SINGULAR_TOLERANCE = 1e-13


class SingularMatrixError(DomainError, ValueError):
    """The system has no unique solution (e.g. a disconnected comparison graph)."""


def _check_square(a: Sequence[Sequence[float]]) -> int:
    n = len(a)
    if any(len(row) != n for row in a):
        raise ValueError("matrix is not square")
    return n


def solve(a: Sequence[Sequence[float]], b: Sequence[float]) -> list[float]:
    """Solve ``a x = b`` by Gaussian elimination with partial pivoting."""
    n = _check_square(a)
    if len(b) != n:
        raise ValueError("right-hand side has the wrong length")
    cols = inverse_and_solve(a, [[v] for v in b])
    return [row[0] for row in cols]


def inverse(a: Sequence[Sequence[float]]) -> Matrix:
    """The inverse of ``a`` (Gauss-Jordan with partial pivoting)."""
    n = _check_square(a)
    identity = [[1.0 if i == j else 0.0 for j in range(n)] for i in range(n)]
    return inverse_and_solve(a, identity)


def inverse_and_solve(a: Sequence[Sequence[float]], rhs: Sequence[Sequence[float]]) -> Matrix:
    """Solve ``a X = rhs`` for a matrix right-hand side (Gauss-Jordan)."""
    n = _check_square(a)
    if len(rhs) != n:
        raise ValueError("right-hand side has the wrong number of rows")
    width = len(rhs[0]) if n else 0
    m = [list(map(float, a[i])) + list(map(float, rhs[i])) for i in range(n)]
    scale = max((abs(v) for row in a for v in row), default=0.0) or 1.0
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        if abs(m[pivot][col]) <= _SINGULAR_TOLERANCE * scale:
            raise SingularMatrixError("matrix is singular")
        m[col], m[pivot] = m[pivot], m[col]
        p = m[col][col]
        row_c = [v / p for v in m[col]]
        m[col] = row_c
        for r in range(n):
            if r != col and m[r][col] != 0.0:
                f = m[r][col]
                row_r = m[r]
                m[r] = [x - f * y for x, y in zip(row_r, row_c)]
    return [row[n : n + width] for row in m]


def mat_mul(a: Sequence[Sequence[float]], b: Sequence[Sequence[float]]) -> Matrix:
    """The product ``a b``."""
    bt = list(zip(*b))
    return [[sum(x * y for x, y in zip(row, col)) for col in bt] for row in a]


def transpose(a: Sequence[Sequence[float]]) -> Matrix:
    """The transpose of ``a``."""
    return [list(col) for col in zip(*a)]
