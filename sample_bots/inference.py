"""``simulation`` with more of the rival's past play taken as evidence (2-seat games).

``simulation`` already weighs a sampled world by the rival's bets: at each
past decision of the rival that offered a call or an answer, the heuristic
policy is asked what it would have done with the sampled cards, and a world
where it would have done something else is kept only with probability
``mismatch`` (a rejection that weighs the world by the likelihood of the
rival's choices under that model of its play).

This bot adds the rival's card plays to that likelihood: at each past
decision where the rival chose between cards of different strength, a world
in which the model would have played a card of another strength is kept
only with probability ``play_soft`` more. A rival that led its lowest card,
or kept a high one back, says something about the cards it still holds,
and the worlds follow it. Everything else (the candidates, the paired
rollouts, the budget counted in evaluated worlds, the trust in the model
learnt from revealed hands) is ``simulation``'s; when ``simulation`` stops
trusting the model (few consistent worlds, or a rival unlike it), the card
evidence is dropped with it.

Measured against ``simulation`` (benchmarks/bot_strength.py, matchup
``inference-simulation``, uruguayo, duplicate deals, one worker on a busy
machine): 0.529 [0.473, 0.585] over 70 games, at equal CPU per searched
decision (inference 18 worlds, 47.2 CPU ms; simulation 20 worlds, 48.2 CPU
ms): no significant difference at that sample size (most duplicate pairs
split one game each).
"""

from __future__ import annotations

from typing import Any

from arena.engine import Game
from arena.engine.observation import Observation

from .heuristic import DEFAULT_PARAMS, Params
from .simulation import DEFAULT_WORLDS, SimulationBot
from .worlds import RivalModel, World, sample_world

# How much a card play of another strength than the model's lowers a world's
# weight (1.0: card plays are no evidence, as in simulation).
DEFAULT_PLAY_SOFT = 0.5


class InferenceBot(SimulationBot):
    """Determinized Monte Carlo over worlds weighted by the rival's bets and
    card plays (see the module docstring). Budget: ``worlds`` evaluated
    worlds per decision, as ``simulation``; seeded, it replays exactly."""

    name = "inference"
    version = "1.0.0"

    def __init__(
        self,
        seed: int | None = None,
        worlds: int = DEFAULT_WORLDS,
        time_ms: float | None = None,
        play_soft: float = DEFAULT_PLAY_SOFT,
        params: Params = DEFAULT_PARAMS,
        options: dict[str, object] | None = None,
        **search: Any,
    ) -> None:
        if not 0.0 < play_soft <= 1.0:
            raise ValueError(f"play_soft must be in (0, 1], got {play_soft}")
        super().__init__(seed, worlds=worlds, time_ms=time_ms, params=params, options=options, **search)
        self.play_soft = play_soft

    def _sample(self, obs: Observation, game: Game, soft: float, model: RivalModel) -> World | None:
        # ``soft`` is 1.0 once the model is not trusted at all: card plays
        # are then no evidence either; otherwise they weigh no more than bets.
        play_soft = 1.0 if soft >= 1.0 else max(self.play_soft, soft)
        return sample_world(obs, game, self.rng, soft, model, early=self.early, play_soft=play_soft)


def main() -> None:
    """``python -m sample_bots.inference --address HOST:PORT --token TOKEN [--seed N]
    [--worlds N | --time-ms MS] [--play-soft P]``"""
    import argparse

    from ._cli import add_budget, seeded_main

    def add_arguments(p: argparse.ArgumentParser) -> None:
        add_budget(p, DEFAULT_WORLDS, "sampled worlds")
        p.add_argument("--play-soft", type=float, default=DEFAULT_PLAY_SOFT,
                       help="weight kept by a world where the model plays another card (default %(default)s)")

    seeded_main(
        lambda seed, args: InferenceBot(seed, worlds=args.worlds, time_ms=args.time_ms, play_soft=args.play_soft),
        prog="inference", seed_help="seed of the sampling", add_arguments=add_arguments,
    )


if __name__ == "__main__":
    main()
