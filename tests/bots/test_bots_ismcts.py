"""The ISMCTS sample bot: legal in every variant, falls back in team games,
reproducible from its seed, and clearly stronger than random play."""

from __future__ import annotations

import pytest

from sample_bots._play import UniformBot, duplicate_match, play_game
from sample_bots.heuristic import HeuristicBot
from sample_bots.ismcts import ISMCTSBot

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
        bot = ISMCTSBot(seed, iterations=6, rollout="random" if seed == 3 else "heuristic",
                        rival="model" if seed == 1 else "tree", options=options)
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


def test_bots_ismcts_beats_random() -> None:
    st = duplicate_match(lambda k: ISMCTSBot(k, iterations=12), lambda k: UniformBot(k), "uruguayo",
                         range(100, 115))
    assert st.games == 30
    assert st.rate >= 0.75, st.rate
    assert st.interval()[0] > 0.6, st.interval()
    assert st.points_for > 2 * st.points_against, (st.points_for, st.points_against)
