"""The hand-written solver and inverse."""

import pytest

from arena.ratings.linalg import SingularMatrixError, inverse, mat_mul, solve


def test_solve_needs_pivoting() -> None:
    # Zero in the top-left corner: fails without row exchange.
    a = [[0.0, 2.0, 1.0], [1.0, 1.0, 0.0], [2.0, 0.0, 3.0]]
    x = solve(a, [7.0, 3.0, 11.0])  # a @ (1, 2, 3)
    assert x == pytest.approx([1.0, 2.0, 3.0], rel=1e-12)


def test_inverse_times_matrix_is_identity() -> None:
    a = [[4.0, -2.0, 1.0], [-2.0, 4.0, -2.0], [1.0, -2.0, 4.0]]
    product = mat_mul(a, inverse(a))
    for i in range(3):
        for j in range(3):
            assert product[i][j] == pytest.approx(1.0 if i == j else 0.0, abs=1e-12)


def test_singular_matrix_raises() -> None:
    with pytest.raises(SingularMatrixError):
        inverse([[1.0, -1.0], [-1.0, 1.0]])
