"""Ratings of bots from finished games: pure functions, no I/O, no formatting.

Main view: a joint Bradley-Terry fit on the Elo scale (``fit_ratings``) with
fit-based 95% intervals by default (``bootstrap_intervals`` over duplicate
pairs is the optional alternative), likelihood of superiority, and the
standings built from them. Side views: cross table, duplicate-pair stats,
failure counts, ladder points, a comparison of two runs, and the placement
of a new bot among fixed reference ratings.
"""

from .bootstrap import BootstrapIntervals, bootstrap_intervals
from .bradley_terry import NaturalFit, fit_natural
from .compare import CompareRow, Comparison, compare, compare_fits
from .correlation import kendall_tau, spearman
from .crosstable import CrossCell, CrossTable, cross_table
from .duplicate_pairs import PairStats, pair_stats
from .failures import FailureCounts, failure_counts
from .ladder_points import LadderRow, ladder
from .los import likelihood_of_superiority, los_from_difference
from .placement import Placement, Reference, place
from .rating_fit import DEFAULT_BASE, ELO_PER_NAT, Z95, RatingFit, fit_ratings
from .sprt import SprtBounds, SprtModel, SprtState, SprtVerdict, format_sprt_header, format_sprt_line, llr, sprt_status
from .sprt_counts import EloEstimate, PairCounts, elo_from_score, score_from_elo
from .standings import StandingsRow, standings
from .wins import WinLoss, win_loss

__all__ = [
    "DEFAULT_BASE",
    "ELO_PER_NAT",
    "Z95",
    "BootstrapIntervals",
    "CompareRow",
    "Comparison",
    "CrossCell",
    "CrossTable",
    "FailureCounts",
    "LadderRow",
    "NaturalFit",
    "PairStats",
    "Placement",
    "Reference",
    "RatingFit",
    "StandingsRow",
    "WinLoss",
    "bootstrap_intervals",
    "compare",
    "compare_fits",
    "cross_table",
    "failure_counts",
    "fit_natural",
    "fit_ratings",
    "kendall_tau",
    "ladder",
    "likelihood_of_superiority",
    "los_from_difference",
    "pair_stats",
    "place",
    "spearman",
    "standings",
    "win_loss",
    "EloEstimate",
    "PairCounts",
    "SprtBounds",
    "SprtModel",
    "SprtState",
    "SprtVerdict",
    "elo_from_score",
    "format_sprt_header",
    "format_sprt_line",
    "llr",
    "score_from_elo",
    "sprt_status",
]
