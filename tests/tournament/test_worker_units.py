"""The units games go out to workers in (``scaleout/batches.py``): every
game of every format exactly once, a duplicate pair's two halves together,
first half first, whatever else a game waits on (a match's window)."""

from __future__ import annotations

from typing import Any

import pytest

from arena.games.seeds import TournamentSecret
from arena.tournament.config import parse_config
from arena.tournament.runner import schedule_of
from arena.tournament.scaleout.batches import batches_of, units_of

BOTS = [{"name": n, "command": "python -m sample_bots.random_bot"} for n in ("a", "b", "c", "d")]
FORMATS: dict[str, dict[str, Any]] = {
    "round robin, duplicate": {"bots": BOTS, "games_per_pairing": 6},
    "round robin, independent": {"bots": BOTS, "games_per_pairing": 5, "pairing": "independent"},
    "match, windowed pairs": {"bots": BOTS[:2], "format": "match", "games": 40, "concurrency": 3},
    "gauntlet, SPRT": {"bots": BOTS, "format": "gauntlet", "sprt": {"elo0": 0, "elo1": 50}, "max_games": 60},
    "swiss, first round": {"bots": BOTS, "format": "swiss", "rounds": 3, "games_per_pairing": 4},
}


@pytest.mark.parametrize("spec", FORMATS.values(), ids=list(FORMATS))
def test_every_game_goes_out_once_and_a_pair_goes_whole(spec: dict[str, Any]) -> None:
    config = parse_config(spec)
    secret = TournamentSecret.from_seed(3)
    schedule = schedule_of(config, secret)
    units = units_of(enumerate(schedule), secret, config.options.seats)
    sent = [o.game for unit in units for o in unit]
    assert sorted(g.key for g in sent) == sorted(g.key for g in schedule)
    for unit in units:
        first, *rest = [o.game for o in unit]
        assert len(rest) <= 1
        if rest:  # a pair: its second half waits on its first, on the same deal
            assert rest[0].after == first.key and rest[0].deal == first.deal
    batches = batches_of(units, 4, first=7)
    assert [b.number for b in batches] == list(range(7, 7 + len(batches)))
    assert [o.game.key for b in batches for u in b.units for o in u] == [g.key for g in sent]


def test_a_match_window_is_not_a_pair() -> None:
    """A match's pair k waits on pair k - window (match_plan.py): on workers it
    is a unit of its own, sent whole, never dropped with the pair it waits on."""
    config = parse_config(FORMATS["match, windowed pairs"])
    secret = TournamentSecret.from_seed(3)
    units = units_of(enumerate(schedule_of(config, secret)), secret, 2)
    assert len(units) == 20 and all(len(u) == 2 for u in units)
    assert any(u[0].game.after is not None for u in units)  # waits on another pair: still a unit's first
