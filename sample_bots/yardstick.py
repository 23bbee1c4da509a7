"""The ladder's reference bot: ``simulation``'s search with cheaper worlds (2-seat games).

The same determinized Monte Carlo as ``simulation`` (worlds sampled from
what this seat knows and weighed by the heuristic opponent model, paired
heuristic rollouts per candidate, the heuristic's move left only for a
paired advantage of ``margin`` standard errors), tuned for worlds per
millisecond, which is what made the search bots stronger:

1. **A cheaper rollout policy, with the same choices.** Rollouts are two
   thirds of the search's time, and most of a rollout's time is the
   heuristic rebuilding an observation and working out a truco equity at
   every step. Here a step with only card plays to choose from (no call,
   no answer: the heuristic then plays by its card rules alone) is decided
   from the state directly, without an observation; and the equities are
   kept for the whole game in a table keyed by everything they depend on
   (the unseen cards' ranks, this seat's ranks, the tricks, the table), so
   the thousands of rollouts of a decision, which meet the same few
   situations again and again, work each out once. A rollout plays the
   very moves ``simulation``'s would with the same random numbers; those
   numbers come from a ``Stream`` (``streams.py``: splitmix64 behind the
   ``random.Random`` interface) rather than a Mersenne Twister seeded for
   every rollout and every replayed world, whose seeding alone took about
   9% of a search's time on the compiled build.
2. **Cheaper worlds**: the rival's unseen cards are drawn by compiled code
   (``worlds.drawn``: the stdlib's ``sample``, the same cards from the same
   numbers, but interpreted); a world the opponent model rules out is dropped at
   the first disagreement that decides it (``early``), and a candidate
   whose paired deficit to the heuristic's move exceeds ``prune`` standard
   errors after ``prune_after`` worlds gets no more rollouts (``pruning``'s
   savings): the budget goes to more worlds for the others.
3. **The compiled build**: this module, the heuristic, the worlds and the
   simulation search are compiled with mypyc where the engine is
   (setup.py); pure Python it plays the same moves, slower.

Budget: by default ``time_ms`` of wall-clock time per decision (the time a
tournament gives; at least ``min_worlds`` worlds), or ``worlds`` rollouts
per candidate counted, as ``pruning``, so a seeded game replays exactly.
On the clock, a search that pruning leaves with one candidate ends early,
and the time it saved is kept for the game's hard searches (two candidates
or more still open at the budget), up to ``lend`` times ``time_ms`` more for
one of them: over a game the bot thinks at most ``time_ms`` per searched
decision on average (but for the part of a world past the budget, as
``simulation``, whose clock is also read once per world), and a single
decision never takes more than a fifth of the arena's move clock, so the
arena's own time bank is never touched.
``benchmarks/bot_strength.py --matchup yardstick-simulation --time-ms MS``
measures it against ``simulation`` at the same wall-clock time per decision.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from mypy_extensions import mypyc_attr

from arena.engine import Game, State
from arena.engine.actions import PLAYS, Action, Kind
from arena.engine.observation import Observation

from .heuristic import DEFAULT_PARAMS, Params, decide, lead_index, respond_index
from .simulation import DEFAULT_WORLDS, SimulationBot, fast_observation
from .streams import Stream
from .worlds import RivalModel, World, sample_world

# Wall-clock milliseconds per searched decision by default: well under a
# fifth of any usual move clock, and where the budget is measured.
DEFAULT_TIME_MS = 8.0
# A candidate is dropped once its paired deficit to the heuristic's move
# exceeds this many standard errors: less eager than pruning's 1.0, as the
# time an early stop saves now goes to the hard searches rather than being
# its only gain (the screens in benchmarks/README.md do not separate the two).
DEFAULT_PRUNE = 1.5
# A hard search may take the time easy ones saved, up to this many times
# ``time_ms`` on top of its own.
DEFAULT_LEND = 2.0
# Past this many entries the equity table starts afresh (a few MB at most).
MEMO_LIMIT = 200_000


def card_only(legal: tuple[Action, ...]) -> bool:
    """Whether ``legal`` offers nothing but card plays (and the mazo, which
    the heuristic never takes): the heuristic then plays by card rules alone."""
    for a in legal:
        if a.kind is not Kind.PLAY and a.kind is not Kind.MAZO:
            return False
    return True


def card_choice(st: State, seat: int) -> Action:
    """The heuristic's card for ``seat`` in a 2-seat hand where it may only
    play a card (``card_only``), read from the state: lead its middle card
    in the first trick, its lowest after winning a trick, its highest
    otherwise; answer with the cheapest card that wins the trick (or ties
    where a parda is enough), else its lowest."""
    h = st.hand
    rank = h.table.rank
    team = seat % 2
    mine = sorted(st.unplayed(seat), key=lambda c: -rank[c.index])
    mine_r = [rank[c.index] for c in mine]
    results = ["P" if w < 0 else ("W" if w == team else "L") for w in h.results]
    if not h.trick:
        return PLAYS[mine[lead_index(mine_r, results)].index]
    best = max(rank[c.index] for _, c in h.trick)
    return PLAYS[mine[respond_index(mine_r, best, results)].index]


def cheap_rollout_value(st: State, rng: random.Random, params: Params, flor_on: bool, falta_mode: str,
                        memo: dict[tuple[object, ...], float], me: int, wt: tuple[tuple[float, ...], ...],
                        noise_seat: int = -1, noise: float = 0.0) -> float:
    """``simulation.rollout_value`` with the heuristic for both seats, the
    same moves for the same random numbers, at a fraction of the cost (see
    the module docstring): team ``me``'s chance of winning the game from the
    end of the hand."""
    while True:
        s = st.current_player()
        if s is None:
            break
        if noise and s == noise_seat and rng.random() < noise:
            st.apply(rng.choice(st.legal_actions()))
            continue
        legal = st.legal_actions()
        if len(legal) == 1:
            st.apply(legal[0])
        elif card_only(legal):
            st.apply(card_choice(st, s))
        else:
            st.apply(decide(fast_observation(st, s), rng, params, flor_on, falta_mode, memo))
    if st.winner is not None:
        return 1.0 if st.winner == me else 0.0
    return wt[st.scores[me]][st.scores[1 - me]]


@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass(frozen=True)
class StreamRivalModel(RivalModel):
    """The rival model whose replays draw their bluffs from a ``Stream``
    (a world replayed costs no Mersenne Twister seeding)."""

    def stream(self) -> random.Random:
        return Stream(0)


@mypyc_attr(allow_interpreted_subclasses=True)
class YardstickBot(SimulationBot):
    """``simulation``'s search with cheaper rollouts and worlds, on a
    wall-clock budget per decision by default (see the module docstring)."""

    name = "yardstick"
    version = "1.0.0"

    def __init__(
        self,
        seed: int | None = None,
        time_ms: float | None = DEFAULT_TIME_MS,
        worlds: int = DEFAULT_WORLDS,
        min_worlds: int = 8,
        prune: float = DEFAULT_PRUNE,
        prune_after: int = 6,
        params: Params = DEFAULT_PARAMS,
        options: dict[str, object] | None = None,
        lend: float = DEFAULT_LEND,
        margin: float = 1.0,
    ) -> None:
        if prune_after < 2:
            raise ValueError(f"prune_after must be at least 2 worlds, got {prune_after}")
        if lend < 0:
            raise ValueError(f"lend must not be negative, got {lend}")
        super().__init__(seed, worlds=worlds, time_ms=time_ms, min_worlds=min_worlds, params=params,
                         options=options, margin=margin, early=True, prune=prune, prune_after=prune_after)
        self._memo: dict[tuple[object, ...], float] = {}
        self.lend = lend
        # Wall-clock ms that this game's searches left unused and not yet lent.
        self._saved_ms = 0.0

    def on_game_start(self, game_id: str, seat: int, variant: str) -> None:
        super().on_game_start(game_id, seat, variant)
        self._saved_ms = 0.0
        if len(self._memo) > MEMO_LIMIT:
            self._memo = {}

    def _budget_ms(self) -> float:
        base = super()._budget_ms()
        if self.time_ms is None:
            return base
        # The time easy searches left (pruning soon left them one candidate)
        # goes to the hard ones: a search only runs on while two candidates
        # or more are still open. Never past a fifth of the move clock.
        extra = min(max(0.0, self._saved_ms), self.lend * self.time_ms)
        return min(base + extra, self._time_cap_ms)

    def _decide(self, obs: Observation, base: Action, cands: list[Action], start: float) -> Action:
        allowed = self._budget_ms()
        action = super()._decide(obs, base, cands, start)
        if self.time_ms is not None:
            # Credit what an easy search left of its own time, debit what a
            # hard one took of the saved time; the part of a world that runs
            # past the budget (the clock is read once per world, as
            # simulation's search does) is neither.
            own = min(self.time_ms, self._time_cap_ms)
            self._saved_ms += own - min((time.perf_counter() - start) * 1000, allowed)
        return action

    def _sample(self, obs: Observation, game: Game, soft: float, model: RivalModel) -> World | None:
        return sample_world(obs, game, self.rng, soft, model, early=self.early, compiled_draw=True)

    def _model(self) -> RivalModel:
        if len(self._memo) > MEMO_LIMIT:
            self._memo = {}
        return StreamRivalModel(self.params, self.flor_on, self.falta_mode, self._memo)

    def _evaluate(self, obs: Observation, replayed: State, action: Action, seed: int,
                  me: int, wt: tuple[tuple[float, ...], ...], noise: float = 0.0) -> float:
        st = replayed.copy()
        st.apply(action)
        return cheap_rollout_value(st, Stream(seed), self.params, self.flor_on, self.falta_mode,
                                   self._memo, me, wt, noise_seat=1 - obs.seat, noise=noise)


def main() -> None:
    """``python -m sample_bots.yardstick --address HOST:PORT --token TOKEN [--seed N]
    [--time-ms MS | --worlds N]``"""
    import argparse

    from ._cli import seeded_main

    def add_arguments(p: argparse.ArgumentParser) -> None:
        p.add_argument("--time-ms", type=float, default=DEFAULT_TIME_MS,
                       help="wall-clock ms to think per decision (default %(default)s)")
        p.add_argument("--worlds", type=int, default=None,
                       help="rollouts per candidate instead of a clock (reproducible)")

    seeded_main(
        lambda seed, args: YardstickBot(seed, time_ms=None if args.worlds else args.time_ms,
                                        worlds=args.worlds or DEFAULT_WORLDS),
        prog="yardstick", seed_help="seed of the sampling", add_arguments=add_arguments,
    )


if __name__ == "__main__":
    main()
