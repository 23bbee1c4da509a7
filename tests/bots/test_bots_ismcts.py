"""The ISMCTS sample bot: legal in every variant, falls back in team games,
reproducible from its seed whatever the machine's speed, spends its budget per
root candidate, and is clearly stronger than random play."""

from __future__ import annotations

import itertools
import time

import pytest

from arena.engine import hierarchy
from arena.engine.actions import Action, Kind, simple
from arena.engine.observation import Observation
from sample_bots._play import UniformBot, duplicate_match, play_game
from sample_bots.heuristic import HeuristicBot
from sample_bots.ismcts import ISMCTSBot
from sample_bots.simulation import candidates

CONFIGS = [
    ("argentino", {}),
    ("argentino", {"flor": False, "target": 15}),
    ("argentino", {"falta_envido": "malas_buenas"}),
    ("uruguayo", {}),
    ("venezolano", {}),
]


@pytest.mark.parametrize("variant,options", CONFIGS)
def test_bots_ismcts_always_legal_two_seats(variant: str, options: dict[str, object]) -> None:
    # play_game raises IllegalChoiceError on any action outside state.legal_actions()
    for seed in range(4):
        # seeds 0 and 2: the plain search (the rival's moves by UCB1 too);
        # seeds 1 and 3: the paired root (with random playouts for seed 3)
        bot = ISMCTSBot(seed, iterations=6, rollout="random" if seed == 3 else "heuristic",
                        root="ucb" if seed % 2 == 0 else "paired", rival="tree", options=options)
        other = HeuristicBot(seed, options=options) if seed % 2 else UniformBot(seed)
        bots = [bot, other] if seed < 2 else [other, bot]
        play_game(bots, variant, 700 + seed, options)
        assert bot.stats["searched"] > 0
        assert bot.stats["iterations"] >= 6 * bot.stats["searched"] - 6


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["argentino", "uruguayo", "venezolano"])
def test_bots_ismcts_always_legal_many_seeds(variant: str) -> None:
    for seed in range(30):
        bot = ISMCTSBot(seed, iterations=4, per_world=2)
        bots = [bot, UniformBot(seed)] if seed % 2 else [UniformBot(seed), bot]
        play_game(bots, variant, 3000 + seed)


def test_bots_ismcts_falls_back_in_team_games() -> None:
    bots = [ISMCTSBot(s, iterations=4) if s % 2 == 0 else HeuristicBot(s) for s in range(4)]
    play_game(bots, "argentino", 3, {"seats": 4})
    bots6 = [ISMCTSBot(s, iterations=4) if s % 2 == 0 else HeuristicBot(s) for s in range(6)]
    play_game(bots6, "argentino", 4, {"seats": 6})  # pico a pico mini hands included
    searchers = [b for b in bots + bots6 if isinstance(b, ISMCTSBot)]
    assert all(b.stats["searched"] == 0 and b.stats["fallbacks"] > 0 for b in searchers)


def test_bots_ismcts_rejects_unknown_policies() -> None:
    with pytest.raises(ValueError, match="rollout"):
        ISMCTSBot(1, rollout="greedy")
    with pytest.raises(ValueError, match="rival"):
        ISMCTSBot(1, rival="oracle")


@pytest.mark.slow
def test_bots_ismcts_beats_random() -> None:
    st = duplicate_match(lambda k: ISMCTSBot(k, iterations=12), lambda k: UniformBot(k), "uruguayo",
                         range(100, 115))
    assert st.games == 30
    assert st.rate >= 0.75, st.rate
    assert st.interval()[0] > 0.6, st.interval()
    assert st.points_for > 2 * st.points_against, (st.points_for, st.points_against)


def test_bots_ismcts_rejects_an_unknown_root_search() -> None:
    with pytest.raises(ValueError, match="root"):
        ISMCTSBot(1, root="flat")


def _logged_game(bot: ISMCTSBot, seed: int) -> list[tuple[int, int, Action]]:
    """Play ``bot`` against the heuristic and log its choices."""
    log: list[tuple[int, int, Action]] = []
    inner = bot.choose

    def choose(obs: Observation) -> Action:
        action = inner(obs)
        log.append((obs.hand_number, len(obs.history), action))
        return action

    bot.choose = choose  # type: ignore[method-assign]
    play_game([bot, HeuristicBot(seed + 1)] if seed % 2 else [HeuristicBot(seed + 1), bot], "uruguayo", 60 + seed)
    return log


@pytest.mark.slow
def test_bots_ismcts_counted_budget_ignores_the_speed_of_the_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    # The same seeds give the same moves on a machine a thousand times slower:
    # the clock the search reads jumps a second at every look.
    normal = [_logged_game(ISMCTSBot(seed, iterations=8), seed) for seed in range(2)]
    ticks = itertools.count()
    monkeypatch.setattr(time, "perf_counter", lambda: float(next(ticks)))
    slow = [_logged_game(ISMCTSBot(seed, iterations=8), seed) for seed in range(2)]
    assert slow == normal
    assert sum(len(log) for log in normal) > 30


@pytest.mark.slow
def test_bots_ismcts_spends_its_iterations_per_root_candidate_and_carries_worlds() -> None:
    bot = ISMCTSBot(3, iterations=10)
    searched: list[tuple[int, float, float]] = []
    inner = bot.choose

    def choose(obs: Observation) -> Action:
        before = bot.stats["searched"], bot.stats["iterations"], bot.stats["worlds"]
        action = inner(obs)
        if bot.stats["searched"] > before[0]:
            n = len(candidates(obs.legal, hierarchy.table(obs.variant, obs.up_card).rank))
            searched.append((n, bot.stats["iterations"] - before[1], bot.stats["worlds"] - before[2]))
        return action

    bot.choose = choose  # type: ignore[method-assign]
    for seed in range(3):
        play_game([bot, HeuristicBot(seed)] if seed % 2 else [HeuristicBot(seed), bot], "uruguayo", 80 + seed)
    assert len(searched) > 20
    for n, iterations, worlds in searched:
        # the heuristic's own choice may be one more candidate
        assert iterations <= 10 * (n + 1)
        assert worlds <= iterations // 2  # every world serves two candidates at least
    # racing hands the budget of the dropped candidates to more worlds
    assert any(worlds > 10 for _, _, worlds in searched)
    assert bot.stats["carried"] > 0


def test_bots_ismcts_race_keeps_the_heuristic_choice_and_the_leader() -> None:
    bot = ISMCTSBot(0)
    base, leader, close, poor = (simple(Kind.TRUCO), simple(Kind.QUIERO), simple(Kind.NO_QUIERO),
                                 simple(Kind.ENVIDO))
    values = {
        base: [0.2, 0.1, 0.3, 0.2, 0.1, 0.2],
        leader: [0.9, 0.8, 0.9, 0.7, 0.8, 0.9],
        close: [0.9, 0.7, 0.9, 0.8, 0.8, 0.8],
        poor: [0.1, 0.0, 0.1, 0.0, 0.1, 0.0],
    }
    assert bot._race([base, leader, close, poor], values, base) == [base, leader, close]
