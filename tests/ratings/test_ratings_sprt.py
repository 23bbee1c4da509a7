"""SPRT over duplicate pairs: LLR against an independent maximisation, error
rates by simulation, estimates against hand-computed values, validation."""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import pytest

from arena.engine.outcome import Termination
from arena.games.game_record import GameRecord
from arena.ratings import (
    PairCounts,
    SprtBounds,
    SprtModel,
    SprtVerdict,
    format_sprt_header,
    format_sprt_line,
    llr,
    sprt_status,
)
from arena.ratings.sprt import mle_given_score

# --- an independent LLR: direct 1-D maximisation of the constrained likelihood ---
#
# The library solves the Lagrange (secular) equation in closed form and, for
# the normalized model, iterates a fixed point. Here each hypothesis' feasible
# trinomials are written as an explicit curve q(x) and sum n_k log q_k(x) is
# maximised along it by plain numeric search, which shares nothing with the
# library but the published definitions: scores (0, 1/2, 1), empty buckets
# counted as 1e-3, s = 1/(1+10^(-elo/400)), t = sqrt(2) * nelo * ln(10) / 800.

Curve = Callable[[float], tuple[float, float, float]]


def _logistic_score(elo: float) -> float:
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def _regularized(counts: tuple[int, int, int]) -> tuple[float, float, float]:
    a, b, c = (float(x) if x > 0 else 1e-3 for x in counts)
    return (a, b, c)


def _loglik(n: tuple[float, float, float], q: tuple[float, float, float]) -> float:
    return sum(nk * math.log(qk) for nk, qk in zip(n, q, strict=True))


def _golden_max(f: Callable[[float], float], lo: float, hi: float) -> float:
    """max of a unimodal f on [lo, hi] by golden-section search."""
    r = (math.sqrt(5.0) - 1.0) / 2.0
    a, b = lo, hi
    c, d = b - r * (b - a), a + r * (b - a)
    fc, fd = f(c), f(d)
    for _ in range(300):
        if fc > fd:
            b, d, fd = d, c, fc
            c = b - r * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + r * (b - a)
            fd = f(d)
    return max(fc, fd)


def _max_along(n: tuple[float, float, float], curve: Curve, lo: float, hi: float) -> float:
    """Largest log-likelihood on the open curve segment (lo, hi): grid, then golden section."""
    steps = 400
    xs = [lo + (hi - lo) * (i + 0.5) / steps for i in range(steps)]
    values = [_loglik(n, curve(x)) for x in xs]
    best = max(range(steps), key=values.__getitem__)
    left = xs[best - 1] if best > 0 else lo + (hi - lo) * 1e-15
    right = xs[best + 1] if best < steps - 1 else hi - (hi - lo) * 1e-15
    return max(values[best], _golden_max(lambda x: _loglik(n, curve(x)), left, right))


def _profile_given_score(n: tuple[float, float, float], s: float) -> float:
    # Mean s fixed: the split share x is free, the rest follows.
    def curve(x: float) -> tuple[float, float, float]:
        return (1.0 - s - x / 2.0, x, s - x / 2.0)

    return _max_along(n, curve, 0.0, 2.0 * min(s, 1.0 - s))


def _profile_given_t(n: tuple[float, float, float], t: float) -> float:
    if t == 0.0:
        return _profile_given_score(n, 0.5)

    # mu = 1/2 + e and sigma = e / t fix the trinomial:
    # split share 1 - 4 e^2 (1 + 1/t^2), 2-0 share mu - split/2.
    def curve(e: float) -> tuple[float, float, float]:
        split = 1.0 - 4.0 * e * e * (1.0 + 1.0 / (t * t))
        mu = 0.5 + e
        return (1.0 - mu - split / 2.0, split, mu - split / 2.0)

    # Every share positive: |e| between t^2/(2(1+t^2)) and |t|/(2 sqrt(1+t^2)).
    near, far = t * t / (2.0 * (1.0 + t * t)), abs(t) / (2.0 * math.sqrt(1.0 + t * t))
    lo, hi = (near, far) if t > 0 else (-far, -near)
    return _max_along(n, curve, lo, hi)


def _reference_llr(counts: tuple[int, int, int], elo0: float, elo1: float, model: str) -> float:
    n = _regularized(counts)
    if model == "logistic":
        s0, s1 = _logistic_score(elo0), _logistic_score(elo1)
        return _profile_given_score(n, s1) - _profile_given_score(n, s0)
    t0, t1 = (math.sqrt(2.0) * e * math.log(10.0) / 800.0 for e in (elo0, elo1))
    return _profile_given_t(n, t1) - _profile_given_t(n, t0)


# (0-2, 1-1, 2-0) pair counts: sweeps only, no splits, only splits, tiny, typical, large.
COUNT_VECTORS = [
    (0, 0, 1),
    (1, 0, 0),
    (0, 1, 0),
    (0, 0, 40),
    (40, 0, 0),
    (0, 25, 0),
    (10, 0, 12),
    (1, 2, 0),
    (3, 5, 2),
    (22, 58, 40),
    (300, 700, 330),
    (1000, 2000, 1100),
]


@pytest.mark.parametrize("counts", COUNT_VECTORS)
@pytest.mark.parametrize(("elo0", "elo1"), [(0.0, 5.0), (0.0, 60.0), (-10.0, 0.0), (-3.0, 7.0)])
def test_logistic_llr_matches_direct_maximisation(counts: tuple[int, int, int], elo0: float, elo1: float) -> None:
    got = llr(PairCounts(*counts), elo0, elo1, SprtModel.LOGISTIC)
    assert got == pytest.approx(_reference_llr(counts, elo0, elo1, "logistic"), abs=1e-6)


@pytest.mark.parametrize("counts", COUNT_VECTORS)
@pytest.mark.parametrize(("nelo0", "nelo1"), [(0.0, 5.0), (0.0, 60.0), (-10.0, 0.0), (-3.0, 7.0)])
def test_normalized_llr_matches_direct_maximisation(counts: tuple[int, int, int], nelo0: float, nelo1: float) -> None:
    got = llr(PairCounts(*counts), nelo0, nelo1, SprtModel.NORMALIZED)
    assert got == pytest.approx(_reference_llr(counts, nelo0, nelo1, "normalized"), abs=1e-6)


def test_llr_matches_direct_maximisation_on_random_counts() -> None:
    rng = random.Random(7)
    for _ in range(20):
        counts = (rng.randrange(0, 300), rng.randrange(0, 300), rng.randrange(0, 300))
        if sum(counts) == 0:
            continue
        elo0 = rng.uniform(-50.0, 40.0)
        elo1 = elo0 + rng.uniform(1.0, 30.0)
        for model in SprtModel:
            got = llr(PairCounts(*counts), elo0, elo1, model)
            assert got == pytest.approx(_reference_llr(counts, elo0, elo1, model.value), abs=1e-6), (counts, model)


def test_even_hypothesis_keeps_the_splits_and_evens_the_sweeps() -> None:
    # With s = 1/2 the secular equation is linear and the maximum is by hand:
    # p = ((ll + ww) / 2n, dd / n, (ll + ww) / 2n). 22/58/40: (31/120, 58/120, 31/120).
    phat = (22 / 120, 58 / 120, 40 / 120)
    p = mle_given_score(phat, 0.5)
    assert p == pytest.approx((31 / 120, 58 / 120, 31 / 120), abs=1e-15)
    # And the LLR of H1 = 10 Elo is the worked example of docs/sprt.md.
    assert llr(PairCounts(22, 58, 40), 0.0, 10.0) == pytest.approx(0.9098045, abs=1e-6)


def test_llr_symmetries_and_empty_counts() -> None:
    c = PairCounts(22, 58, 40)
    mirrored = PairCounts(40, 58, 22)  # the same pairs seen from B's side
    for model in SprtModel:
        forward = llr(c, -2.0, 8.0, model)
        # Swapping the hypotheses flips the sign; so does looking from B's side
        # with the hypotheses mirrored (A +e over B is B -e over A).
        assert llr(c, 8.0, -2.0, model) == pytest.approx(-forward, abs=1e-12)
        assert llr(mirrored, -8.0, 2.0, model) == pytest.approx(-forward, abs=1e-9)
        assert llr(PairCounts(), 0.0, 5.0, model) == 0.0
    # A strong winning record favours the larger Elo, a losing one the smaller.
    assert llr(PairCounts(10, 20, 40), 0.0, 20.0) > 0 > llr(PairCounts(40, 20, 10), 0.0, 20.0)
    # The plain model name is accepted.
    assert llr(c, 0.0, 5.0, "normalized") == llr(c, 0.0, 5.0, SprtModel.NORMALIZED)  # type: ignore[arg-type]


# --- error rates by simulation ---

SIMULATED_TESTS = 2000
Z_999 = 3.090232306167813  # one-sided 99.9% normal quantile
SPLIT_RATE = 0.5

Trinomial = tuple[float, float, float]


def _trinomial_for_elo(elo: float, split_rate: float) -> Trinomial:
    """Pair-outcome shares (0-2, 1-1, 2-0) with mean score L(elo) and the given split share."""
    s = _logistic_score(elo)
    return (1.0 - s - split_rate / 2.0, split_rate, s - split_rate / 2.0)


def _trinomial_for_nelo(nelo: float, split_rate: float) -> Trinomial:
    """Pair-outcome shares with the given nElo (>= 0) and split share, by bisection on the score."""

    def nelo_of(s: float) -> float:
        var = s - split_rate / 4.0 - s * s  # E[a^2] - mu^2 with E[a^2] = p_ww + split/4
        return (s - 0.5) / math.sqrt(2.0 * var) * 800.0 / math.log(10.0)

    lo, hi = 0.5, 1.0 - split_rate / 2.0 - 1e-12
    for _ in range(200):
        mid = (lo + hi) / 2.0
        lo, hi = (mid, hi) if nelo_of(mid) < nelo else (lo, mid)
    s = (lo + hi) / 2.0
    return (1.0 - s - split_rate / 2.0, split_rate, s - split_rate / 2.0)


def _simulate(
    truth: Trinomial, bounds: SprtBounds, rng: random.Random, cache: dict[tuple[int, int, int], float]
) -> tuple[SprtVerdict, int]:
    """Run one SPRT on pairs drawn from ``truth``; its verdict and length in pairs."""
    p_ll, p_ll_or_dd = truth[0], truth[0] + truth[1]
    lower, upper = bounds.lower, bounds.upper
    ll = dd = ww = 0
    while True:
        u = rng.random()
        if u < p_ll:
            ll += 1
        elif u < p_ll_or_dd:
            dd += 1
        else:
            ww += 1
        key = (ll, dd, ww)
        value = cache.get(key)
        if value is None:  # the LLR depends on the counts only, and runs revisit them
            value = cache[key] = llr(PairCounts(*key), bounds.elo0, bounds.elo1, bounds.model)
        if not lower < value < upper:
            return bounds.verdict(value), ll + dd + ww


def _error_rate_and_mean_pairs(
    truth: Trinomial, wrong: SprtVerdict, bounds: SprtBounds, seed: int, runs: int
) -> tuple[float, float]:
    rng = random.Random(seed)
    cache: dict[tuple[int, int, int], float] = {}
    wrong_count = total_pairs = 0
    for _ in range(runs):
        verdict, pairs = _simulate(truth, bounds, rng, cache)
        wrong_count += verdict is wrong
        total_pairs += pairs
    return wrong_count / runs, total_pairs / runs


def _tolerance(rate: float, runs: int) -> float:
    return Z_999 * math.sqrt(rate * (1.0 - rate) / runs)


def _wald_mean_pairs(truth: Trinomial, bounds: SprtBounds, h1_share: float) -> float:
    """Wald's approximation of the mean number of pairs, for scale (logistic model).

    It ignores the overshoot past the bounds and takes the LLR's drift per pair
    from its normal approximation, (s1 - s0)(2s - s0 - s1) / (2 var).
    """
    s0, s1 = _logistic_score(bounds.elo0), _logistic_score(bounds.elo1)
    s = truth[1] / 2.0 + truth[2]
    var = truth[0] * s**2 + truth[1] * (0.5 - s) ** 2 + truth[2] * (1.0 - s) ** 2
    drift = (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    return (h1_share * bounds.upper + (1.0 - h1_share) * bounds.lower) / drift


@pytest.mark.slow
@pytest.mark.parametrize(
    ("true_elo", "wrong", "seed"),
    [(0.0, SprtVerdict.H1_ACCEPTED, 20261201), (40.0, SprtVerdict.H0_ACCEPTED, 20261202)],
)
def test_simulated_error_rates_stay_within_alpha_and_beta(true_elo: float, wrong: SprtVerdict, seed: int) -> None:
    bounds = SprtBounds(elo0=0.0, elo1=40.0, alpha=0.05, beta=0.05)
    truth = _trinomial_for_elo(true_elo, SPLIT_RATE)
    nominal = bounds.alpha if wrong is SprtVerdict.H1_ACCEPTED else bounds.beta
    rate, mean_pairs = _error_rate_and_mean_pairs(truth, wrong, bounds, seed, SIMULATED_TESTS)
    h1_share = bounds.alpha if wrong is SprtVerdict.H1_ACCEPTED else 1.0 - bounds.beta
    wald = _wald_mean_pairs(truth, bounds, h1_share)
    print(
        f"logistic, true Elo {true_elo:+g}: wrong verdicts {rate:.4f} (nominal {nominal}), "
        f"mean pairs {mean_pairs:.1f} (Wald, no overshoot: {wald:.1f})"
    )
    assert rate <= nominal + _tolerance(nominal, SIMULATED_TESTS)
    # Overshoot makes real runs longer than Wald's figure, never much shorter.
    assert 0.8 * wald <= mean_pairs <= 1.5 * wald


NORMALIZED_RUNS = 1000


@pytest.mark.slow
@pytest.mark.parametrize(
    ("true_nelo", "wrong", "seed"),
    [(0.0, SprtVerdict.H1_ACCEPTED, 20261203), (40.0, SprtVerdict.H0_ACCEPTED, 20261204)],
)
def test_simulated_error_rates_of_the_normalized_model(true_nelo: float, wrong: SprtVerdict, seed: int) -> None:
    # Slower per LLR (a fixed point instead of a closed form), so fewer runs.
    bounds = SprtBounds(elo0=0.0, elo1=40.0, alpha=0.05, beta=0.05, model=SprtModel.NORMALIZED)
    truth = _trinomial_for_nelo(true_nelo, 0.3)  # a split rate where nElo and Elo differ
    nominal = bounds.alpha if wrong is SprtVerdict.H1_ACCEPTED else bounds.beta
    rate, mean_pairs = _error_rate_and_mean_pairs(truth, wrong, bounds, seed, NORMALIZED_RUNS)
    print(
        f"normalized, true nElo {true_nelo:+g}: wrong verdicts {rate:.4f} (nominal {nominal}), mean pairs {mean_pairs:.1f}"
    )
    assert rate <= nominal + _tolerance(nominal, NORMALIZED_RUNS)


# --- estimates against hand-computed values ---


def test_score_variance_elo_and_nelo_by_hand() -> None:
    c = PairCounts(ll=22, dd=58, ww=40)
    assert (c.pairs, c.games, c.wins, c.losses) == (120, 240, 138, 102)
    # mu = (40 + 58/2) / 120 = 69/120 = 0.575
    assert c.score == pytest.approx(0.575, abs=1e-15)
    # var = (22 * 0.575^2 + 58 * 0.075^2 + 40 * 0.425^2) / 120 = 14.825 / 120
    assert c.variance == pytest.approx(14.825 / 120, abs=1e-15)
    est = c.elo()
    assert est is not None
    # Elo = 400 log10(0.575 / 0.425) = 400 log10(23/17) = 52.5116
    assert est.elo == pytest.approx(52.51156585572754, abs=1e-9)
    # se = sqrt(0.12354167 / 120) = 0.03208604; mu -+ 1.96 se = 0.51211136, 0.63788864
    # Elo(0.51211136) = 400 log10(0.51211136 / 0.48788864) = 8.4175
    # Elo(0.63788864) = 400 log10(0.63788864 / 0.36211136) = 98.3611
    assert est.lower == pytest.approx(8.41748, abs=1e-4)
    assert est.upper == pytest.approx(98.36108, abs=1e-4)
    assert est.halfwidth == pytest.approx((98.36108 - 8.41748) / 2, abs=1e-4)
    # nElo = (0.575 - 0.5) / sqrt(2 * 0.12354167) * 800 / ln 10
    #      = 0.075 / 0.49707310 * 347.43558552 = 52.4220
    assert c.nelo == pytest.approx(52.42203, abs=1e-4)


def test_estimates_at_the_edges() -> None:
    even = PairCounts(ll=1, dd=2, ww=1)
    # mu = 1/2, var = (0.25 + 0.25) / 4 = 1/8, se = sqrt(1/32) = 0.1767767
    # mu -+ 1.96 se = 0.1535177, 0.8464823 -> Elo -+400 log10(0.8464823 / 0.1535177) = -+400 * 0.7414595 = -+296.584
    est = even.elo()
    assert est is not None
    assert est.elo == 0.0
    assert est.upper == pytest.approx(296.584, abs=1e-3)
    assert est.lower == pytest.approx(-est.upper, abs=1e-9)
    assert even.nelo == 0.0
    # Every pair swept: the score is 1, so Elo is unbounded and nElo undefined.
    swept = PairCounts(ww=3).elo()
    assert swept is not None and swept.elo == math.inf and swept.lower == math.inf
    assert PairCounts(ww=3).nelo is None
    lost = PairCounts(ll=2).elo()
    assert lost is not None and lost.elo == -math.inf
    # Only splits: exactly even, no spread.
    splits = PairCounts(dd=4)
    assert splits.elo() == type(est)(0.0, 0.0, 0.0)
    assert splits.nelo is None
    empty = PairCounts()
    assert (empty.score, empty.variance, empty.elo(), empty.nelo) == (None, None, None, None)
    # Interval beyond the scores 0 and 1 becomes infinite rather than an error.
    wide = PairCounts(ll=1, ww=9).elo()
    assert wide is not None and wide.upper == math.inf and math.isfinite(wide.lower)


# --- building counts ---


def test_counts_from_scores_games_and_records_agree() -> None:
    scores = [1.0, 0.5, 0.5, 0.0, 1.0, 1.0]
    from_scores = PairCounts.from_pair_scores(scores)
    assert from_scores == PairCounts(ll=1, dd=2, ww=3)
    wins = [(True, True), (True, False), (False, True), (False, False), (True, True), (True, True)]
    assert PairCounts.from_game_wins(wins) == from_scores
    built = PairCounts()
    for s in scores:
        built = built.with_pair(s)
    assert built == from_scores

    records: list[GameRecord] = []
    for i, (first, second) in enumerate(wins):
        pair = f"p{i}"
        records.append(GameRecord("new", "old", "new" if first else "old", Termination.TARGET_REACHED, matchup=pair, pair_index=0))
        records.append(GameRecord("old", "new", "new" if second else "old", Termination.TARGET_REACHED, matchup=pair, pair_index=0))
    # An interrupted pair and a game of other bots do not count.
    records.append(GameRecord("new", "old", "new", Termination.TARGET_REACHED, matchup="cut", pair_index=0))
    records.append(GameRecord("old", "new", None, Termination.INTERRUPTED, matchup="cut", pair_index=0))
    records.append(GameRecord("x", "y", "x", Termination.TARGET_REACHED, matchup="other", pair_index=0))
    assert PairCounts.from_records(records, "new", "old") == from_scores
    assert PairCounts.from_records(records, "old", "new") == PairCounts(ll=3, dd=2, ww=1)
    assert PairCounts.from_records(records, "new", "nobody") == PairCounts()


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: PairCounts(ll=-1), "ll must not be negative, got -1"),
        (lambda: PairCounts(dd=1.5), "dd must be a whole number of pairs, got 1.5"),  # type: ignore[arg-type]
        (lambda: PairCounts(ww=True), "ww must be a whole number of pairs, got True"),
        (lambda: PairCounts.from_pair_scores([0.25]), "a pair score is 0, 0.5 or 1, got 0.25"),
        (lambda: PairCounts.from_pair_scores([True]), "a pair score is 0, 0.5 or 1, got True"),
        (lambda: PairCounts.from_records([], "a", "a"), "bot and opponent are both 'a'"),
    ],
)
def test_bad_counts_are_refused(build: Callable[[], object], message: str) -> None:
    with pytest.raises(ValueError) as info:
        build()
    assert str(info.value) == message


# --- bounds, verdicts, live line ---


def test_bounds_are_walds_thresholds() -> None:
    b = SprtBounds(elo0=0.0, elo1=10.0)
    assert (b.alpha, b.beta, b.model) == (0.05, 0.05, SprtModel.LOGISTIC)
    assert b.lower == pytest.approx(math.log(0.05 / 0.95), abs=1e-15)  # -2.944439
    assert b.upper == pytest.approx(math.log(0.95 / 0.05), abs=1e-15)  # +2.944439
    skew = SprtBounds(elo0=-5, elo1=5, alpha=0.01, beta=0.2, model="normalized")  # type: ignore[arg-type]
    assert skew.model is SprtModel.NORMALIZED
    assert skew.lower == pytest.approx(math.log(0.2 / 0.99), abs=1e-15)  # -1.599
    assert skew.upper == pytest.approx(math.log(0.8 / 0.01), abs=1e-15)  # +4.382
    assert b.verdict(b.upper) is SprtVerdict.H1_ACCEPTED
    assert b.verdict(b.lower) is SprtVerdict.H0_ACCEPTED
    assert b.verdict(0.0) is SprtVerdict.CONTINUE
    assert b.verdict(math.nextafter(b.upper, 0.0)) is SprtVerdict.CONTINUE


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"elo0": 5.0, "elo1": 5.0}, "elo0 (5) must be less than elo1 (5)"),
        ({"elo0": 10.0, "elo1": 0.0}, "elo0 (10) must be less than elo1 (0)"),
        ({"elo0": math.nan}, "elo0 must be a finite number, got nan"),
        ({"elo1": math.inf}, "elo1 must be a finite number, got inf"),
        ({"elo1": "5"}, "elo1 must be a number, got '5'"),
        ({"elo1": 1500.0}, "elo1 must be between -1000 and 1000, got 1500"),
        ({"alpha": 0.0}, "alpha must be greater than 0 and less than 0.5, got 0"),
        ({"alpha": 0.5}, "alpha must be greater than 0 and less than 0.5, got 0.5"),
        ({"alpha": -0.1}, "alpha must be greater than 0 and less than 0.5, got -0.1"),
        ({"beta": 1.0}, "beta must be greater than 0 and less than 0.5, got 1"),
        ({"beta": math.nan}, "beta must be a finite number, got nan"),
        ({"model": "bayesian"}, "model must be one of logistic, normalized, got 'bayesian'"),
    ],
)
def test_bad_bounds_get_one_clear_message(kwargs: dict[str, object], message: str) -> None:
    args: dict[str, object] = {"elo0": 0.0, "elo1": 5.0, "alpha": 0.05, "beta": 0.05}
    args.update(kwargs)
    with pytest.raises(ValueError) as info:
        SprtBounds(**args)  # type: ignore[arg-type]
    assert str(info.value) == message


def test_status_is_recomputed_from_counts_alone() -> None:
    bounds = SprtBounds(elo0=0.0, elo1=10.0)
    counts = PairCounts(ll=22, dd=58, ww=40)
    state = sprt_status(counts, bounds)
    assert state == sprt_status(PairCounts(22, 58, 40), SprtBounds(0.0, 10.0))
    assert state.llr == llr(counts, 0.0, 10.0)
    assert state.verdict is SprtVerdict.CONTINUE and not state.finished
    # Enough lopsided pairs decide either way.
    won = sprt_status(PairCounts(ll=30, dd=180, ww=120), bounds)
    lost = sprt_status(PairCounts(ll=120, dd=180, ww=30), bounds)
    assert won.verdict is SprtVerdict.H1_ACCEPTED and won.finished
    assert lost.verdict is SprtVerdict.H0_ACCEPTED and lost.finished


def test_live_line() -> None:
    bounds = SprtBounds(elo0=0.0, elo1=10.0)
    line = format_sprt_line(sprt_status(PairCounts(ll=22, dd=58, ww=40), bounds))
    llr_text = f"{llr(PairCounts(22, 58, 40), 0.0, 10.0):.2f}"
    assert line == (
        f"games 240  W-L 138-102  pairs 40/58/22  Elo +52.5 +-45.0  nElo +52.4  LLR {llr_text} [-2.94, 2.94]"
    )
    decided = format_sprt_line(sprt_status(PairCounts(ll=30, dd=180, ww=120), bounds))
    assert decided.endswith("[-2.94, 2.94]  H1 accepted")
    assert format_sprt_line(sprt_status(PairCounts(), bounds)) == (
        "games 0  W-L 0-0  pairs 0/0/0  Elo n/a  nElo n/a  LLR 0.00 [-2.94, 2.94]"
    )
    swept = format_sprt_line(sprt_status(PairCounts(ww=3), bounds))
    assert swept.startswith("games 6  W-L 6-0  pairs 3/0/0  Elo +inf  nElo n/a  LLR ")


def test_header_line_states_the_test() -> None:
    assert format_sprt_header(SprtBounds(elo0=0, elo1=10)) == (
        "SPRT H0 Elo 0 vs H1 Elo 10  alpha 0.05  beta 0.05  LLR bounds [-2.94, 2.94]"
    )
    normalized = SprtBounds(elo0=-2.5, elo1=5, alpha=0.01, beta=0.1, model=SprtModel.NORMALIZED)
    assert format_sprt_header(normalized) == (
        "SPRT H0 nElo -2.5 vs H1 nElo 5  alpha 0.01  beta 0.1  LLR bounds [-2.29, 4.50]"
    )
