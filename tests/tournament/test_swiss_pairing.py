"""Formats as schedulers, and the Swiss system's pairing: pure functions and
the dispatcher that asks a scheduler for its next stage."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable

import pytest

from arena.games.dispatch import Dispatcher
from arena.games.schedule import NO_PAIR, Pairing, ScheduledGame
from arena.games.scheduler import Fixed, Stages
from arena.games.seeds import TournamentSecret
from arena.games.settings import ConfigError
from arena.tournament.config import parse_config
from arena.tournament.formats.round_robin import round_robin
from arena.tournament.formats.swiss import Swiss, SwissSystem, _pairs, pair_round, scores
from arena.tournament.runner import schedule_of, scheduler_of

SECRET = TournamentSecret.from_seed(7)
BOTS = ["a", "b", "c", "d", "e", "f"]
# Who wins a game in these tests: the bot earlier in the alphabet, a strength order.
Strength = Callable[[ScheduledGame], str]


def stronger(game: ScheduledGame) -> str:
    return min(game.bot0, game.bot1)


def play_out(swiss: Swiss, winner: Strength = stronger) -> tuple[list[list[ScheduledGame]], dict[str, str | None]]:
    """Every round of ``swiss``, each game won as ``winner`` says."""
    winners: dict[str, str | None] = {}
    rounds = []
    while games := swiss.next(winners):
        rounds.append(games)
        winners.update({g.key: winner(g) for g in games})
    return rounds, winners


def matchups(games: list[ScheduledGame]) -> set[str]:
    return {g.matchup for g in games}


def test_fixed_gives_its_games_as_one_stage() -> None:
    games = round_robin(["a", "b", "c"], 2, Pairing.DUPLICATE)
    fixed = Fixed(games)
    assert fixed.total() == 6 and fixed.next({}) == games and fixed.next({}) == []


def test_stages_number_games_across_stages_and_skip_the_recorded() -> None:
    rounds, winners = play_out(Swiss(BOTS, 3, 2, Pairing.DUPLICATE, SECRET))
    # Resume with the first round and half of the second recorded.
    stored = {g.key: winners[g.key] for g in rounds[0] + rounds[1][:2]}
    stages = Stages(Swiss(BOTS, 3, 2, Pairing.DUPLICATE, SECRET), stored)
    todo = stages.todo()
    assert todo == [(6 + i, g) for i, g in enumerate(rounds[1]) if i >= 2]
    assert not stages.all_known and stages.given == 12
    for _, g in todo:
        stages.won(g.key, winners[g.key])
    assert stages.todo() == [(12 + i, g) for i, g in enumerate(rounds[2])]
    assert stages.todo() == [] and stages.all_known


def test_the_schedule_a_store_fixes_is_the_rounds_so_far() -> None:
    config = parse_config({"format": "swiss", "rounds": 3, "games_per_pairing": 2,
                           "bots": [{"name": b, "command": "python -m sample_bots.random_bot"} for b in BOTS]})
    rounds, winners = play_out(scheduler_of(config, SECRET))  # type: ignore[arg-type]
    assert schedule_of(config, SECRET) == rounds[0]
    first = {g.key: winners[g.key] for g in rounds[0]}
    assert schedule_of(config, SECRET, first) == rounds[0] + rounds[1]
    assert schedule_of(config, SECRET, winners) == [g for r in rounds for g in r]


def test_the_dispatcher_asks_for_the_next_stage_once_every_game_has_ended() -> None:
    async def scenario() -> None:
        swiss = Swiss(["a", "b", "c", "d"], 2, 2, Pairing.DUPLICATE, SECRET)
        stages = Stages(swiss, {})
        d = Dispatcher(stages.todo(), set(), SECRET, stages.todo)
        first_round = [await d.next(), await d.next()]  # the two first halves
        halves = []
        for item in first_round:
            assert item is not None
            d.finished(item[1], recorded=True)
            stages.won(item[1].key, stronger(item[1]))
            halves.append(await d.next())
        waiting = asyncio.ensure_future(d.next())
        await asyncio.sleep(0.01)
        assert not waiting.done()  # round 2 waits for round 1's last games
        for item in halves:
            assert item is not None
            stages.won(item[1].key, stronger(item[1]))
            d.finished(item[1], recorded=True)
        got = await asyncio.wait_for(waiting, 1)
        assert got is not None and got[0] >= 4 and "#r2." in got[1].key
        d.close()

    asyncio.run(scenario())


def test_round_one_pairs_every_bot_on_keys_and_deals_of_its_own() -> None:
    games = Swiss(BOTS, 3, 4, Pairing.DUPLICATE, SECRET).next({})
    assert len(games) == 12 and Counter(b for g in games for b in (g.bot0, g.bot1)) == {b: 4 for b in BOTS}
    for g in games:
        a, b = g.matchup.split("|")
        assert BOTS.index(a) < BOTS.index(b)
        assert g.key.startswith(f"{g.matchup}#r1.") and g.deal == g.key[:-1]
    firsts = [g for g in games if g.after is None]
    seconds = {g.after: g for g in games if g.after is not None}
    for g in firsts:  # a duplicate pair: one deal, the seats swapped, the second after the first
        twin = seconds[g.key]
        assert (twin.deal, twin.bot0, twin.bot1, twin.pair_index) == (g.deal, g.bot1, g.bot0, g.pair_index)
    # Deals differ from a round robin's and between rounds: each derives from the secret through its label.
    assert not {g.deal for g in games} & {g.deal for g in round_robin(BOTS, 4, Pairing.DUPLICATE)}


def test_later_rounds_pair_equal_scores_without_rematches() -> None:
    rounds, winners = play_out(Swiss(BOTS, 3, 2, Pairing.DUPLICATE, SECRET))
    assert len(rounds) == 3
    seen = [m for r in rounds for m in matchups(r)]
    assert len(seen) == len(set(seen)) == 9  # three rounds of six bots, nobody met twice
    # After round 1 the three winners (2 games each) meet each other's kind: a winner never meets a loser
    # while another winner is free.
    wins = Counter(winners[g.key] for g in rounds[0])
    top = {b for b in BOTS if wins[b] == 2}
    assert len(top) == 3
    second_round = matchups(rounds[1])
    assert sum(1 for m in second_round if set(m.split("|")) <= top) == 1  # three winners: one pair of them
    pair_ids = [(g.matchup, g.pair_index) for r in rounds for g in r]
    assert len(set(pair_ids)) == len(pair_ids) // 2  # a pair id names one deal across all rounds


def test_a_rematch_comes_only_when_a_round_has_no_way_around_it() -> None:
    # Six bots, five rounds: what the first three leave may hold no round without a rematch.
    swiss = Swiss(BOTS, 5, 2, Pairing.DUPLICATE, SECRET)
    rounds, _ = play_out(swiss)
    met: Counter[frozenset[str]] = Counter()
    for games in rounds:
        now = [frozenset(m.split("|")) for m in matchups(games)]
        if any(met[pair] for pair in now):
            assert _pairs(sorted(BOTS), met, 0, [10**6]) is None  # none exists, whatever the order
        met.update(now)
    assert sum(met.values()) == 15


def test_an_odd_field_gives_each_bot_one_bye_at_most() -> None:
    bots = ["a", "b", "c", "d", "e"]
    swiss = Swiss(bots, 5, 2, Pairing.DUPLICATE, SECRET)
    rounds, _ = play_out(swiss)
    assert len(rounds) == 5 and all(len(r) == 4 for r in rounds)
    byes = [r.bye for r in swiss.played]
    assert sorted(b for b in byes if b) == bots  # five rounds, five bots: one bye each
    assert swiss.total() == 5 * 2 * 2 == sum(len(r) for r in rounds)


def test_pair_round_pairs_neighbours_and_rematches_only_when_it_must() -> None:
    ranked = ["a", "b", "c", "d"]
    assert pair_round(ranked, {}, {}) == ([("a", "b"), ("c", "d")], None)
    met = {frozenset("ab"): 1}
    assert pair_round(ranked, met, {}) == ([("a", "c"), ("b", "d")], None)
    met = {frozenset("ab"): 1, frozenset("ac"): 1, frozenset("ad"): 1}
    pairs, _ = pair_round(ranked, met, {})
    assert pairs == [("a", "b"), ("c", "d")]  # a has met everyone: one rematch, the nearest
    assert pair_round(["a", "b", "c"], {}, {"c": 1}) == ([("a", "c")], "b")  # the lowest without a bye sits out


def test_independent_pairing_alternates_seat_zero() -> None:
    games = Swiss(["a", "b", "c", "d"], 1, 3, Pairing.INDEPENDENT, SECRET).next({})
    ab = [g for g in games if g.matchup == games[0].matchup]
    assert [g.bot0 for g in ab] == [ab[0].bot0, ab[0].bot1, ab[0].bot0] and {g.pair_index for g in ab} == {NO_PAIR}


def test_a_round_waits_for_every_result_of_the_one_before() -> None:
    swiss = Swiss(["a", "b", "c", "d"], 2, 2, Pairing.DUPLICATE, SECRET)
    games = swiss.next({})
    assert swiss.next({g.key: stronger(g) for g in games[:-1]}) == []  # one game has no result yet
    assert swiss.next({g.key: stronger(g) for g in games}) != []


def test_ties_are_broken_by_the_secret() -> None:
    def second_round(secret: TournamentSecret) -> set[str]:
        rounds, _ = play_out(Swiss(BOTS, 2, 2, Pairing.DUPLICATE, secret), winner=lambda g: g.bot0)
        return matchups(rounds[1])

    # Every game won by seat 0: every bot has the same score, so round 2 is the secret's draw.
    draws = {frozenset(second_round(TournamentSecret.from_seed(s))) for s in range(8)}
    assert len(draws) > 1


def test_throwing_games_moves_only_the_thrower() -> None:
    """A bot that loses on purpose changes its own score and its opponents'
    by those games; no other bot's score moves."""
    rounds, winners = play_out(Swiss(BOTS, 1, 4, Pairing.DUPLICATE, SECRET))
    thrower = "a"
    thrown = dict(winners)
    for g in rounds[0]:
        if thrower in (g.bot0, g.bot1):
            thrown[g.key] = g.bot1 if g.bot0 == thrower else g.bot0
    swiss = Swiss(BOTS, 1, 4, Pairing.DUPLICATE, SECRET)
    swiss.next({})
    honest, thrown_scores = scores(BOTS, swiss.played, winners, 4), scores(BOTS, swiss.played, thrown, 4)
    opponent = next(g.bot1 if g.bot0 == thrower else g.bot0 for g in rounds[0] if thrower in (g.bot0, g.bot1))
    assert thrown_scores[thrower] < honest[thrower] and thrown_scores[opponent] > honest[opponent]
    assert all(thrown_scores[b] == honest[b] for b in BOTS if b not in (thrower, opponent))


@pytest.mark.parametrize("keys,bots,key", [
    ({"rounds": 0}, 4, "rounds"),
    ({"rounds": 4}, 4, "rounds"),  # four bots: three rounds meet everyone
    ({"rounds": 6}, 5, "rounds"),
    ({"rounds": "3"}, 4, "rounds"),
    ({"rounds": True}, 4, "rounds"),
    ({}, 4, "rounds"),
    ({"rounds": 1}, 2, "bots"),
    ({"rounds": 2, "games": 10}, 4, "games"),
    ({"rounds": 2, "games_per_pairing": 3}, 4, "games_per_pairing"),  # duplicate pairs: even
])
def test_swiss_config_problems_are_one_line(keys: dict[str, object], bots: int, key: str) -> None:
    raw = {"format": "swiss", **keys, "bots": [{"name": f"r{i}", "command": "python x.py"} for i in range(bots)]}
    with pytest.raises(ConfigError) as caught:
        parse_config(raw)
    assert str(caught.value).startswith(f"{key}:") and "\n" not in str(caught.value), caught.value


def test_rounds_belong_to_swiss_only() -> None:
    with pytest.raises(ConfigError, match='^rounds: only for format = "swiss"$'):
        parse_config({"rounds": 2, "bots": [{"name": f"r{i}", "command": "python x.py"} for i in range(3)]})
    config = parse_config({"format": "swiss", "rounds": 3,
                           "bots": [{"name": f"r{i}", "command": "python x.py"} for i in range(3)]})
    assert config.format == SwissSystem(rounds=3) and config.match is None
