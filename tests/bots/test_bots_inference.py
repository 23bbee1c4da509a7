"""The inference sample bot: legal in every variant, reproducible from its
seed, and its card-play evidence only ever lowers a world's chance of being
kept (with ``play_soft`` 1 it samples exactly the worlds simulation samples)."""

from __future__ import annotations

import random

import pytest

from arena.engine import Action, Game, Kind
from arena.engine.observation import Observation
from sample_bots._play import UniformBot, play_game
from sample_bots.heuristic import HeuristicBot
from sample_bots.inference import InferenceBot
from sample_bots.worlds import RivalModel, sample_world


@pytest.mark.parametrize("variant", ["argentino", "uruguayo", "venezolano"])
def test_bots_inference_always_legal(variant: str) -> None:
    # play_game raises IllegalChoiceError on any action outside state.legal_actions()
    for seed in range(2):
        bot = InferenceBot(seed, worlds=4)
        other = HeuristicBot(seed) if seed else UniformBot(seed)
        play_game([bot, other] if seed else [other, bot], variant, 900 + seed)
        assert bot.stats["searched"] > 0


def test_bots_inference_repeats_with_the_same_seed() -> None:
    def choices(seed: int) -> list[str]:
        seen: list[str] = []
        bot = InferenceBot(seed, worlds=4)
        inner = bot.choose

        def choose(obs: Observation) -> Action:
            action = inner(obs)
            seen.append(f"{obs.hand_number}:{len(obs.history)}:{action}")
            return action

        bot.choose = choose  # type: ignore[method-assign]
        play_game([bot, HeuristicBot(seed + 50)], "uruguayo", 60 + seed)
        return seen

    first = choices(3)
    assert len(first) > 10 and first == choices(3)


def test_bots_inference_rejects_a_weight_out_of_range() -> None:
    with pytest.raises(ValueError, match="play_soft"):
        InferenceBot(1, play_soft=0.0)


def _decisions_after_card_plays(seed: int) -> list[Observation]:
    """Observations of seat 0 in hands where the rival chose among cards."""
    game = Game("uruguayo")
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    found: list[Observation] = []
    while not state.is_terminal() and len(found) < 12:
        seat = state.current_player()
        assert seat is not None
        obs = state.observation(seat, log=False)
        if seat == 0 and any(s == 1 and a.kind is Kind.PLAY for s, a in obs.history) and len(obs.legal) > 1:
            found.append(obs)
        legal = [a for a in state.legal_actions() if a.kind is not Kind.MAZO]
        state.apply(rng.choice(legal))
    return found


def test_card_play_evidence_keeps_fewer_worlds_and_none_without_it() -> None:
    model = RivalModel()
    kept_plain = kept_cards = 0
    for seed in range(6):
        for obs in _decisions_after_card_plays(seed):
            game = Game("uruguayo", seats=2, target=obs.target)
            for draw in range(20):
                plain = sample_world(obs, game, random.Random(draw), 0.5, model)
                same = sample_world(obs, game, random.Random(draw), 0.5, model, play_soft=1.0)
                cards = sample_world(obs, game, random.Random(draw), 0.5, model, play_soft=0.2)
                # play_soft 1.0 is simulation's sampling, world for world
                assert (plain is None) == (same is None)
                if plain is not None and same is not None:
                    assert plain.rival_hand == same.rival_hand
                kept_plain += plain is not None
                kept_cards += cards is not None
    assert kept_plain > 0
    assert kept_cards < kept_plain
