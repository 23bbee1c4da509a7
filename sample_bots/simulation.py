"""A determinized Monte Carlo sample bot (2-seat games).

For each decision with more than one sensible action:

1. **Sample worlds** (``sample_bots/worlds.py``): the rival's unseen cards are drawn from the cards this
   seat has not seen (own dealt cards, the up card and every card played are
   excluded), keeping the rival's played cards. Hard facts are enforced by
   rejection: announced envido/flor points, a declared flor, and the whole
   hand's history must replay legally on the sampled deal. Soft facts come
   from an opponent model: at each of the rival's past decisions that was not
   a forced card play, the heuristic policy is asked what it would have done
   with the sampled cards; a mismatch keeps the world only with probability
   ``mismatch`` (so a rival who called envido is believed to hold points, one
   who passed is believed not to, one who accepted a truco to hold cards...).
2. **Evaluate**: the hand is rebuilt on the engine for each world
   (``Game.new_state(deals=[Deal(hands, up)], scores=obs.hand_start_scores,
   mano=obs.mano)`` then ``obs.history`` replayed, which also checks the
   world), and for each candidate action a ``State.copy()`` of it is taken,
   the action applied and the hand is
   played out by the heuristic policy for both seats (each seeing only its own
   cards). The same worlds and rollout random numbers are used for every
   candidate. A rollout is scored by the probability of winning the game from
   the scores at the end of the hand (a small precomputed table), 1 or 0 when
   the game ended.
3. **Choose** the best average, but leave the heuristic's own choice only for
   an action whose paired advantage over it exceeds ``margin`` standard errors
   (so that sampling noise alone does not move the bot off a sound default).

The opponent model is checked as the game goes: after each hand in which all
of the rival's cards became known (played or shown), the rival's decisions are
replayed against the model's (a mazo counts as a disagreement at once, the
model never goes to the mazo). The less the rival agrees with the model, the
weaker the inference (``mismatch`` rises towards 1) and the more often the
rival acts uniformly at random in the rollouts. Against the heuristic the
agreement stays ~97%; against a random bot it falls to ~30% within a few
hands, which lifted the win rate against random from 0.87 to 0.90.

The win-probability table also takes an ``edge``: how much stronger this bot
has been in the game so far (its share of the points of the finished hands,
starting from a prior of an 80% share over 6 points). As the favourite it
avoids all-or-nothing bets (falta envido, contraflor al resto) that an
even-strength table would accept; as the underdog it seeks them. This prior
raised the win rate against random from 0.90 to 0.94 and against the
heuristic from 0.68 to 0.75 (300 and 200 games at 16 worlds, same seeds).

Games with more than two seats in the hand, or a deal where too few
consistent worlds are found, fall back to the heuristic. ``mazo`` is never a
candidate (it is never better than playing on).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from functools import lru_cache

from mypy_extensions import mypyc_attr

from arena.engine import Deal, Game, IllegalActionError, State, hierarchy
from arena.engine.actions import Action, Kind
from arena.engine.cards import Card
from arena.engine.observation import Observation
from sdk.bot import Bot, GameInfo, HandSummary

from .heuristic import DEFAULT_PARAMS, Params, decide
from .worlds import RivalModel, World, action_class, game_for, sample_world

# Points scored in one hand by the two sides (the order is random), measured
# from heuristic self-play; used to turn scores into a chance of winning.
_HAND_POINTS: dict[str, tuple[tuple[int, int, float], ...]] = {
    "default": (
        (0, 1, 0.23), (1, 1, 0.17), (0, 2, 0.21), (0, 3, 0.08), (0, 4, 0.11), (1, 2, 0.05),
        (1, 3, 0.06), (0, 5, 0.03), (2, 3, 0.013), (0, 6, 0.008), (0, 7, 0.012), (3, 4, 0.007),
        (2, 2, 0.006), (1, 4, 0.008),
    ),
    "venezolano": (
        (0, 1, 0.26), (0, 2, 0.16), (1, 1, 0.14), (0, 3, 0.11), (0, 4, 0.09), (1, 3, 0.06),
        (1, 2, 0.04), (0, 6, 0.03), (0, 5, 0.015), (0, 10, 0.012), (3, 3, 0.01), (0, 9, 0.01),
        (1, 6, 0.01), (2, 3, 0.008), (1, 9, 0.007),
    ),
}


@lru_cache(maxsize=256)
def win_table(variant: str, target: int, edge: float = 0.0) -> tuple[tuple[float, ...], ...]:
    """``W[a][b]``: chance that the side with ``a`` points beats the side with
    ``b`` (both below ``target``), with hands drawn from ``_HAND_POINTS``; the
    first side takes the larger share of a hand with probability 1/2 + ``edge``."""
    dist = _HAND_POINTS.get(variant, _HAND_POINTS["default"])
    total = sum(p for *_, p in dist)
    outcomes: list[tuple[int, int, float]] = []
    for x, y, p in dist:
        lo, hi = min(x, y), max(x, y)
        outcomes.append((hi, lo, p / total * (0.5 + edge)))
        outcomes.append((lo, hi, p / total * (0.5 - edge)))
    w = [[0.0] * target for _ in range(target)]
    for s in range(2 * target - 2, -1, -1):
        for a in range(max(0, s - target + 1), min(target, s + 1)):
            b = s - a
            v = 0.0
            for x, y, p in outcomes:
                na, nb = a + x, b + y
                if na >= target and nb >= target:
                    v += p * 0.5
                elif na >= target:
                    v += p
                elif nb < target:
                    v += p * w[na][nb]
            w[a][b] = v
    return tuple(tuple(row) for row in w)


# Worlds per decision by default: about 30 ms of CPU per searched decision
# (measured in uruguayo: 1.75 ms of CPU per world against the heuristic; 34 ms
# per searched decision at 18 worlds in benchmarks/bot_strength.py, a figure
# inflated by a loaded machine).
DEFAULT_WORLDS = 18


# A pessimistic CPU cost of one world (measured ~1.75 ms) and of one ISMCTS
# iteration, for cutting a counted budget to a tight move clock.
CPU_MS_PER_WORLD = 4.0


def clock_cap(cap_ms: float, unit_ms: float) -> int:
    """How many units of ``unit_ms`` fit in ``cap_ms`` (at least 4)."""
    return max(4, int(cap_ms / unit_ms)) if cap_ms < float("inf") else 1 << 30


def fast_observation(state: State, seat: int) -> Observation:
    """``state.observation(seat)`` without the human-readable event log (the
    log's string formatting is most of the cost of an observation)."""
    return state.observation(seat, log=False)


def candidates(legal: Sequence[Action], rank: Sequence[int]) -> list[Action]:
    """The actions worth searching: no mazo (never better than playing on),
    one card per hierarchy rank (same strength: near-equivalent for the
    tricks), raises of 1, 2, 3 or 5 only. ``rank``: the hand's card ranks."""
    out: list[Action] = []
    seen_ranks: set[int] = set()
    for a in legal:
        if a.kind is Kind.MAZO:
            continue
        if a.kind is Kind.PLAY:
            assert a.card is not None
            r = rank[a.card.index]
            if r in seen_ranks:
                continue
            seen_ranks.add(r)
        if a.kind is Kind.RAISE and a.amount not in (1, 2, 3, 5):
            continue
        out.append(a)
    return out or list(legal)


@mypyc_attr(allow_interpreted_subclasses=True)
class SimulationBot(Bot):
    """Determinized Monte Carlo over the heuristic policy.

    Budget: by default ``worlds`` sampled worlds per decision, so the bot's
    choices depend only on its seed (``Bot.rng``, reseeded per game by the
    SDK) and a tournament replays exactly on any machine. ``DEFAULT_WORLDS``
    costs about 30 ms of CPU per searched decision (``benchmarks/bot_strength.py``
    prints the measured figure). With ``time_ms`` set instead, worlds are
    sampled until that many milliseconds have passed (at least ``min_worlds``,
    at most ``max_worlds``): stronger on an idle machine, but not reproducible.
    A decision should take at most a fifth of the arena's per-move clock: a
    time budget stops there, a world budget is cut beforehand (from the clock
    in GameInfo and a pessimistic cost per world) only under a clock far
    tighter than usual, so it stays deterministic.
    """

    name = "simulation"
    version = "1.0.0"

    def __init__(
        self,
        seed: int | None = None,
        worlds: int = DEFAULT_WORLDS,
        time_ms: float | None = None,
        min_worlds: int = 8,
        max_worlds: int = 400,
        params: Params = DEFAULT_PARAMS,
        options: dict[str, object] | None = None,
        mismatch: float = 0.15,
        infer: bool = True,
        margin: float = 1.0,
        early: bool = False,
        prune: float | None = None,
        prune_after: int = 6,
    ) -> None:
        self.rng = random.Random(seed)
        self.worlds = worlds
        self.time_ms = time_ms
        self.min_worlds = min_worlds
        self.max_worlds = max_worlds
        self.params = params
        self.options = dict(options or {})
        self.flor_on = bool(self.options.get("flor", True))
        self.falta_mode = str(self.options.get("falta_envido", "leader") or "leader")
        self.mismatch = mismatch
        self.infer = infer
        self.margin = margin
        self.early = early
        self.prune = prune
        self.prune_after = prune_after
        self._games: dict[tuple[str, int], Game] = {}
        self._time_cap_ms = float("inf")
        # How often the rival's decisions match the model's (from hands whose
        # cards were all revealed); prior 3.6 of 4.
        self._agree = [3.6, 4.0]
        self._hand: tuple[int, Observation] | None = None
        self._points = [0, 0]  # points won by each side in this game's finished hands
        self._last_start: tuple[int, tuple[int, int]] | None = None
        self.stats: dict[str, float] = {"decisions": 0, "searched": 0, "fallbacks": 0, "worlds": 0, "tries": 0,
                                        "relaxed": 0, "seconds": 0.0}

    def on_game_info(self, info: GameInfo) -> None:
        o = info.options
        self.options = {"flor": o.flor, "falta_envido": o.falta_envido}
        self.flor_on = o.flor
        self.falta_mode = o.falta_envido or "leader"
        self._games.clear()
        # never use more than a fifth of the per-move clock
        if info.move_time > 0:
            self._time_cap_ms = info.move_time * 1000 / 5

    def on_game_start(self, game_id: str, seat: int, variant: str) -> None:
        self._agree = [3.6, 4.0]
        self._hand = None
        self._points = [0, 0]
        self._last_start = None

    def _edge(self, obs: Observation) -> float:
        """How much stronger this bot has been than the rival in this game,
        from the points of the finished hands (shrunk towards 0): makes the
        bot avoid all-or-nothing bets when it is the favourite, and seek them
        when it is the underdog."""
        start = (obs.hand_number, obs.hand_start_scores)
        last = self._last_start
        if last is not None and obs.hand_number > last[0]:
            me = obs.seat % 2
            self._points[0] += max(0, obs.hand_start_scores[me] - last[1][me])
            self._points[1] += max(0, obs.hand_start_scores[1 - me] - last[1][1 - me])
        if last is None or obs.hand_number != last[0]:
            self._last_start = start
        mine, theirs = self._points
        share = (mine + 4.8) / (mine + theirs + 6.0)  # prior: an 80% share over 6 points
        return round(max(-0.35, min(0.35, share - 0.5)) * 20) / 20

    def on_hand_end(self, game_id: str, hand: HandSummary) -> None:
        """Learn how model-like the rival is from a hand where all of its
        cards became known (played or shown)."""
        if self._hand is None or self._hand[0] != hand.hand_number:
            return
        obs = self._hand[1]
        self._hand = None
        if obs.seats != 2 or len(obs.hand_seats) != 2:
            return
        opp = 1 - obs.seat
        if any(s == opp and a.kind is Kind.MAZO for s, a in hand.history):
            self._agree[1] += 2  # the model never goes to the mazo
            return
        cards: list[Card] = []
        for s, a in hand.history:
            if s == opp and a.kind is Kind.PLAY and a.card is not None and a.card not in cards:
                cards.append(a.card)
        for s, shown in hand.shown:
            if s == opp:
                cards += [c for c in shown if c not in cards]
        if len(cards) != 3:
            return
        game = self._game(obs)
        deal = Deal((obs.dealt, tuple(cards)) if obs.seat == 0 else (tuple(cards), obs.dealt), obs.up_card)
        st = game.new_state(deals=[deal], scores=obs.hand_start_scores, mano=obs.mano)
        rng = random.Random(0)
        rank = hierarchy.table(obs.variant, obs.up_card).rank
        agree = total = 0
        for s, a in hand.history:
            if st.current_player() != s:
                return
            if s == opp and len(st.legal_actions()) > 1:
                pred = decide(fast_observation(st, s), rng, self.params, self.flor_on, self.falta_mode)
                total += 1
                if pred.kind is Kind.PLAY and a.kind is Kind.PLAY:
                    assert pred.card is not None and a.card is not None
                    agree += rank[pred.card.index] == rank[a.card.index]
                else:
                    agree += action_class(pred) == action_class(a)
            try:
                st.apply(a)
            except IllegalActionError:
                return
        self._agree[0] += agree
        self._agree[1] += total

    def _model_trust(self) -> tuple[float, float]:
        """(weight of a world where the model disagrees with a rival decision,
        chance that the rival acts at random in a rollout)."""
        a = self._agree[0] / self._agree[1]
        mismatch = min(1.0, max(self.mismatch, (1.0 - a) / max(a, 1e-6)))
        noise = min(1.0, max(0.0, (0.9 - a) / 0.6))
        return mismatch, noise

    # ----------------------------------------------------------------- helpers

    def _game(self, obs: Observation) -> Game:
        return game_for(obs, self.options, self._games)

    def _model(self) -> RivalModel:
        return RivalModel(self.params, self.flor_on, self.falta_mode)

    def _heuristic(self, obs: Observation, rng: random.Random) -> Action:
        return decide(obs, rng, self.params, self.flor_on, self.falta_mode)

    def _candidates(self, obs: Observation) -> list[Action]:
        return candidates(obs.legal, hierarchy.table(obs.variant, obs.up_card).rank)

    # ---------------------------------------------------------------- choose

    def choose(self, obs: Observation) -> Action:
        self.stats["decisions"] += 1
        legal = obs.legal
        if len(legal) == 1:
            return legal[0]
        base = self._heuristic(obs, self.rng)
        self._hand = (obs.hand_number, obs)
        if len(obs.hand_seats) != 2 or obs.seats != 2:
            self.stats["fallbacks"] += 1
            return base
        cands = self._candidates(obs)
        if len(cands) == 1:
            return cands[0]
        return self._decide(obs, base, cands, time.perf_counter())

    def _decide(self, obs: Observation, base: Action, cands: list[Action], start: float) -> Action:
        """Search ``cands`` (``base``, the heuristic's move, joins them) and pick one;
        subclasses search differently."""
        if base not in cands:
            cands.append(base)
        game = self._game(obs)
        me = obs.seat % 2
        wt = win_table(obs.variant, obs.target, self._edge(obs))
        values: list[list[float]] = [[] for _ in cands]
        n = 0
        tries = 0
        timed = self.time_ms is not None
        # A world budget never reads the clock (so it is deterministic): under a
        # tight move clock it is cut to what a fifth of the clock allows at a
        # pessimistic cost per world, a figure known before the game starts.
        limit = self.max_worlds if timed else min(self.worlds, clock_cap(self._time_cap_ms, CPU_MS_PER_WORLD))
        max_tries = 40 * limit + 200
        budget = self._budget_ms()
        mismatch, noise = self._model_trust()
        soft = mismatch if self.infer else 1.0
        model = self._model()
        relax_at = 40
        b = cands.index(base)
        alive = list(range(len(cands)))
        # With pruning the budget is counted in rollouts (worlds x candidates):
        # the rollouts a dropped candidate does not take go to more worlds.
        rollout_limit = limit * len(cands)
        rollouts = 0

        def more() -> bool:
            if self.prune is None:
                return n < limit
            return rollouts < rollout_limit and n < self.max_worlds and len(alive) > 1

        while more() and tries < max_tries:
            if budget < float("inf"):
                spent = (time.perf_counter() - start) * 1000
                if (n >= self.min_worlds and spent >= budget) or spent >= 4 * budget:
                    break
            if soft < 1.0 and tries >= relax_at and tries >= 30 * (n + 1):
                # Few worlds fit the model's view of the rival: trust it less
                # (then not at all: only the hard facts stay).
                soft = soft ** 0.5 if soft < 0.5 else 1.0
                relax_at = tries + 40
                self.stats["relaxed"] += 1
            tries += 1
            world = self._sample(obs, game, soft, model)
            if world is None:
                continue
            n += 1
            seed = self.rng.getrandbits(32)
            for i in alive:
                values[i].append(self._evaluate(obs, world.state, cands[i], seed, me, wt, noise))
            rollouts += len(alive)
            if self.prune is not None and n >= self.prune_after:
                alive = [i for i in alive if i == b or _hopeful(values[i], values[b], self.prune)]
        self.stats["tries"] += tries
        if n < 3:
            self.stats["fallbacks"] += 1
            return base
        self.stats["searched"] += 1
        self.stats["worlds"] += n
        self.stats["seconds"] += time.perf_counter() - start
        kept = [cands[i] for i in alive]
        return kept[self._pick(kept, [values[i] for i in alive], alive.index(b))]

    def _budget_ms(self) -> float:
        """Wall-clock milliseconds this search may take (infinite at a counted
        budget): ``time_ms``, never more than a fifth of the move clock;
        subclasses may lend a hard decision the time easy ones left."""
        return min(self.time_ms, self._time_cap_ms) if self.time_ms is not None else float("inf")

    def _sample(self, obs: Observation, game: Game, soft: float, model: RivalModel) -> World | None:
        """One world for a decision, or None (rejected); subclasses weigh the
        evidence differently."""
        return sample_world(obs, game, self.rng, soft, model, early=self.early)

    def _pick(self, cands: list[Action], values: list[list[float]], b: int) -> int:
        """The best candidate by mean value, but leave the heuristic's choice
        ``b`` only for a candidate whose paired advantage over it (same worlds,
        same rollout random numbers) exceeds ``margin`` standard errors."""
        n = len(values[b])
        best, best_mean = b, 0.0
        for i, vals in enumerate(values):
            if i == b:
                continue
            d = [x - y for x, y in zip(vals, values[b], strict=True)]
            mean = sum(d) / n
            var = sum((x - mean) ** 2 for x in d) / max(1, n - 1)
            if mean > best_mean and mean > self.margin * (var / n) ** 0.5:
                best, best_mean = i, mean
        return best

    # ------------------------------------------------------------ evaluation

    def _evaluate(self, obs: Observation, replayed: State, action: Action, seed: int,
                  me: int, wt: tuple[tuple[float, ...], ...], noise: float = 0.0) -> float:
        """Value for this bot of ``action`` in a world (``replayed``: the hand up
        to this decision), the rest of the hand played by the heuristic for
        both seats (the rival at random with probability ``noise``)."""
        st = replayed.copy()
        st.apply(action)
        return rollout_value(st, random.Random(seed), self._model(), me, wt,
                             noise_seat=1 - obs.seat, noise=noise)


def _hopeful(vals: list[float], base: list[float], z: float) -> bool:
    """Whether a candidate's paired advantage over the base is not yet ``z``
    standard errors below zero (worth more rollouts)."""
    n = len(base)
    d = [x - y for x, y in zip(vals, base, strict=True)]
    mean = sum(d) / n
    var = sum((x - mean) ** 2 for x in d) / max(1, n - 1)
    return mean + z * math.sqrt(var / n) >= 0.0


def rollout_value(st: State, rng: random.Random, policy: RivalModel | None, me: int,
                  wt: tuple[tuple[float, ...], ...], noise_seat: int = -1, noise: float = 0.0) -> float:
    """Play ``st`` (a one-deal state) to the end of its hand with ``policy``
    for both seats (uniformly random actions if None; ``noise_seat`` acting at
    random with probability ``noise``) and return team ``me``'s chance of
    winning the game from there."""
    while True:
        s = st.current_player()
        if s is None:
            break
        if policy is None or (noise and s == noise_seat and rng.random() < noise):
            st.apply(rng.choice(st.legal_actions()))
            continue
        st.apply(policy.decide(fast_observation(st, s), rng))
    if st.winner is not None:
        return 1.0 if st.winner == me else 0.0
    return wt[st.scores[me]][st.scores[1 - me]]


def main() -> None:
    """``python -m sample_bots.simulation --address HOST:PORT --token TOKEN [--seed N]
    [--worlds N | --time-ms MS]``"""
    import argparse

    from ._cli import add_budget, seeded_main

    def add_arguments(p: argparse.ArgumentParser) -> None:
        add_budget(p, DEFAULT_WORLDS, "sampled worlds")

    seeded_main(
        lambda seed, args: SimulationBot(seed, worlds=args.worlds, time_ms=args.time_ms),
        prog="simulation", seed_help="seed of the sampling", add_arguments=add_arguments,
    )


if __name__ == "__main__":
    main()
