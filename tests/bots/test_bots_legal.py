"""The sample bots always answer with a legal action (engine-only matches)."""

from __future__ import annotations

import pytest

from arena.engine import Game
from sample_bots._play import UniformBot, play_game
from sample_bots.heuristic import HeuristicBot
from sample_bots.simulation import SimulationBot, fast_observation

CONFIGS = [
    ("argentino", {}, 2),
    ("argentino", {}, 4),
    ("argentino", {}, 6),
    ("argentino", {"flor": False, "target": 15}, 2),
    ("argentino", {"falta_envido": "malas_buenas"}, 4),
    ("uruguayo", {}, 2),
    ("venezolano", {}, 2),
]


@pytest.mark.parametrize("variant,options,seats", CONFIGS)
def test_bots_heuristic_always_legal(variant: str, options: dict[str, object], seats: int) -> None:
    # play_game raises IllegalChoiceError on any action outside state.legal_actions()
    for seed in range(25):
        bots = [HeuristicBot(seed * 7 + s, options=options) for s in range(seats)]
        play_game(bots, variant, seed, {**options, "seats": seats})
        # against a uniformly random side, to reach odd situations
        mixed = [HeuristicBot(seed + s, options=options) if (s + seed) % 2 else UniformBot(seed + s)
                 for s in range(seats)]
        play_game(mixed, variant, 1000 + seed, {**options, "seats": seats})


@pytest.mark.parametrize("variant,options", [
    ("argentino", {}), ("uruguayo", {}), ("venezolano", {}), ("argentino", {"flor": False}),
])
def test_bots_simulation_always_legal_two_seats(variant: str, options: dict[str, object]) -> None:
    for seed in range(4):
        sim = SimulationBot(seed, worlds=3, options=options)
        other = HeuristicBot(seed, options=options) if seed % 2 else UniformBot(seed)
        bots = [sim, other] if seed < 2 else [other, sim]
        play_game(bots, variant, 500 + seed, options)
        assert sim.stats["searched"] > 0


def test_bots_simulation_falls_back_in_team_games() -> None:
    bots = [SimulationBot(s, worlds=3) if s % 2 == 0 else HeuristicBot(s) for s in range(4)]
    play_game(bots, "argentino", 3, {"seats": 4})
    bots6 = [SimulationBot(s, worlds=3) if s % 2 == 0 else HeuristicBot(s) for s in range(6)]
    play_game(bots6, "argentino", 4, {"seats": 6})  # pico a pico mini hands included
    assert all(b.stats["searched"] == 0 for b in bots + bots6 if isinstance(b, SimulationBot))


@pytest.mark.parametrize("variant", ["argentino", "uruguayo", "venezolano"])
def test_bots_fast_observation_matches_engine(variant: str) -> None:
    game = Game(variant)
    for seed in range(15):
        state = game.new_state(seed=seed)
        bots = [UniformBot(seed), HeuristicBot(seed)]
        while not state.is_terminal():
            seat = state.current_player()
            assert seat is not None
            for s in (0, 1):
                full = state.observation(s)
                fast = fast_observation(state, s)
                assert fast == full.__class__(**{**{f: getattr(full, f) for f in full.__slots__}, "events": ()})
            state.apply(bots[seat].choose(state.observation(seat)))


class _Recorder(HeuristicBot):
    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.kinds: list[str] = []

    def choose(self, obs):  # type: ignore[no-untyped-def]
        a = super().choose(obs)
        self.kinds.append(a.kind.value)
        return a


def test_bots_heuristic_never_goes_to_the_mazo_and_calls_bets() -> None:
    recorders = []
    for seed in range(20):
        pair = [_Recorder(seed), _Recorder(seed + 100)]
        recorders += pair
        play_game(pair, "argentino", seed)
    kinds = [k for r in recorders for k in r.kinds]
    assert "mazo" not in kinds
    for k in ("truco", "quiero", "no_quiero", "envido", "flor"):
        assert k in kinds, k
