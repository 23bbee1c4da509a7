"""An information-set Monte Carlo tree search sample bot (2-seat games).

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012) on the engine,
with the root handled as the simulation bot handles its candidates
(``root="paired"``, the default). For each decision with more than one
sensible action (``simulation.candidates`` plus the heuristic's choice):

1. **Worlds** consistent with what this seat knows (``sample_bots/worlds.py``:
   every envido and flor total the rival announced, a flor it declared, the
   hand's history replayed legally, the rival's earlier choices weighed by
   the heuristic opponent model as in the simulation bot). Two savings make
   a world cheaper than the simulation bot's: a world the model rules out is
   dropped at the first disagreement that decides it (``early``), and the
   worlds of this seat's last search in the hand are carried to this decision
   first (``extend_world``: only the actions since are replayed and weighed),
   so most later decisions of a hand sample few new worlds.
2. **Paired iterations**: each world serves one iteration under every root
   candidate still in the race, all with the same random numbers, so that
   the deal's luck cancels out of the comparison. Below a root candidate
   the iteration walks one tree of this seat's information sets (nodes
   reached by the actions of both seats): the rival moves as the opponent
   model says (the heuristic with its cards of this world, at random with
   the probability the model's agreement suggests); this seat plays the
   heuristic's move of this world until a node has ``widen`` visits, then
   UCB1 (``exploration``) among that move and the actions tried so far, one
   more tried each time the visits pass ``widen`` times the square of the
   children (progressive widening). The rest of the hand is a heuristic
   rollout; the chance of winning the game from the end-of-hand scores (the
   simulation bot's win table) is backed up for the seat that acted at each
   node.
3. **Racing**: from ``race_after`` worlds on, a candidate (never the
   heuristic's choice) whose paired deficit to the leader exceeds
   ``race_z`` standard errors is dropped, and its share of the budget goes
   to more worlds for the others.
4. **Choice** as in the simulation bot: the best mean, but the heuristic's
   choice is left only for a candidate whose paired advantage over it
   exceeds ``margin`` standard errors.

Budget: ``iterations`` per root candidate and decision (a decision with more
candidates, often a bet, gets more, as in the simulation bot), so the moves
depend only on the seed (all randomness comes from ``Bot.rng``) and a
tournament replays exactly on any machine; ``time_ms`` instead searches until
that many milliseconds have passed. The default costs about the CPU of the
simulation bot's default worlds.

Measured against the simulation bot at its default 18 worlds, uruguayo,
``benchmarks/bot_strength.py``: the plain search below (``root="ucb"``, 64
iterations, equal CPU) 0.38 over 330 games. Tuning runs of 200 duplicate
games (deal seeds from 5000): paired root, 55 iterations in all per decision
0.41; worlds made cheaper, 70 in all 0.45; the budget per candidate (20)
with racing 0.535, the same without widening 0.540, without racing 0.465,
widening sooner (``widen=1``) 0.475 - at this budget a node below the root
seldom gets enough visits to widen, and exploring alternatives there sooner
makes the root's estimates noisier than it improves them. At the defaults
over 1,000 games (deal seeds from 0), 29.0 against 29.2 CPU ms per searched
decision: 0.499 [0.477, 0.521], even with the simulation bot; against the
heuristic 0.718 [0.695, 0.741] over 1,000 games.

``root="ucb"`` is the plain single-observer ISMCTS: ``iterations`` in all per
decision, each world serving ``per_world`` iterations; UCB1 selection down
one tree from the root, each child's exploration term counting the
iterations in which it was available; the rival's moves from the opponent
model (``rival="model"``) or by UCB1 on its own rewards (``rival="tree"``);
one untried action expanded per iteration, the heuristic's choice in this
world first (``guided``); the root action with most visits is played unless
the heuristic's choice had ``keep_ratio`` times fewer.

Games with more than two seats in the hand, or a deal where too few
consistent worlds are found, fall back to the heuristic. Inherits the
opponent-model bookkeeping (agreement from revealed hands, the edge from the
game's points) from the simulation bot.
"""

from __future__ import annotations

import math
import random
import time

from arena.engine import State, hierarchy
from arena.engine.actions import Action
from arena.engine.observation import Observation

from .heuristic import DEFAULT_PARAMS, Params
from .simulation import (
    CPU_MS_PER_WORLD,
    SimulationBot,
    candidates,
    clock_cap,
    fast_observation,
    rollout_value,
    win_table,
)
from .worlds import RivalModel, World, extend_world, sample_world

# Iterations per root candidate by default: the CPU cost of the simulation
# bot's default 18 worlds (28-31 against 27-31 CPU ms per searched decision,
# measured with benchmarks/bot_strength.py in uruguayo against it): a world
# costs less here (early rejection, worlds carried from the last decision)
# and racing spends the budget of dropped candidates on more worlds.
DEFAULT_ITERATIONS = 20


class _Node:
    """Statistics of one action in the tree; ``value`` is the summed reward for
    the seat that took the action."""

    __slots__ = ("children", "visits", "avail", "value")

    def __init__(self) -> None:
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.avail = 1
        self.value = 0.0


class ISMCTSBot(SimulationBot):
    """Single-observer ISMCTS with heuristic rollouts."""

    name = "ismcts"
    version = "1.0.0"

    def __init__(
        self,
        seed: int | None = None,
        iterations: int = DEFAULT_ITERATIONS,
        time_ms: float | None = None,
        exploration: float = 0.7,
        rollout: str = "heuristic",
        keep_ratio: float = 1.0,
        per_world: int = 3,
        rival: str = "model",
        guided: bool = True,
        root: str = "paired",
        widen: float = 4.0,
        race_z: float = 2.0,
        race_after: int = 6,
        reuse: bool = True,
        params: Params = DEFAULT_PARAMS,
        options: dict[str, object] | None = None,
        infer: bool = True,
    ) -> None:
        super().__init__(seed, params=params, options=options, infer=infer)
        if rollout not in ("heuristic", "random"):
            raise ValueError(f"rollout must be 'heuristic' or 'random', not {rollout!r}")
        self.iterations = iterations
        self.time_ms = time_ms
        self.exploration = exploration
        self.rollout = rollout
        self.keep_ratio = keep_ratio
        self.per_world = max(1, per_world)
        if rival not in ("tree", "model"):
            raise ValueError(f"rival must be 'tree' or 'model', not {rival!r}")
        self.rival = rival
        self.guided = guided
        if root not in ("paired", "ucb"):
            raise ValueError(f"root must be 'paired' or 'ucb', not {root!r}")
        self.root = root
        self.widen = widen
        self.race_z = race_z
        self.race_after = race_after
        self.reuse = reuse
        # The worlds of this seat's last search in the current hand, to be
        # carried to its next decision: (hand, history length, soft weight
        # they were drawn with, worlds).
        self._particles: tuple[tuple[int, tuple[int, int]], int, float, list[World]] | None = None
        self.stats["iterations"] = 0
        self.stats["carried"] = 0

    def on_game_start(self, game_id: str, seat: int, variant: str) -> None:
        super().on_game_start(game_id, seat, variant)
        self._particles = None

    def _carried(self, obs: Observation, soft: float) -> tuple[int, list[World]]:
        """The worlds of the last search that may be carried to this decision
        (same hand, drawn with the same soft weight) and the history length
        they were drawn at."""
        kept = self._particles
        self._particles = None
        if not self.reuse or kept is None:
            return 0, []
        hand, since, kept_soft, worlds = kept
        if hand != (obs.hand_number, obs.hand_start_scores) or kept_soft != soft or since > len(obs.history):
            return 0, []
        return since, worlds

    def _decide(self, obs: Observation, base: Action, cands: list[Action], start: float) -> Action:
        if self.root == "paired":
            if base not in cands:
                cands.append(base)
            return self._choose_paired(obs, base, cands, start)
        root = self._search(obs, base, start)
        if root is None:
            self.stats["fallbacks"] += 1
            return base
        self.stats["searched"] += 1
        self.stats["seconds"] += time.perf_counter() - start
        best = max(root.children.items(), key=lambda kv: kv[1].visits)
        kept = root.children.get(base)
        if kept is not None and best[1].visits <= self.keep_ratio * kept.visits:
            return base
        return best[0]

    def _choose_paired(self, obs: Observation, base: Action, cands: list[Action], start: float) -> Action:
        """Search every root candidate on the same worlds with the same random
        numbers (as the simulation bot does), racing out the clearly worse
        ones, and pick as the simulation bot picks."""
        game = self._game(obs)
        me = obs.seat % 2
        wt = win_table(obs.variant, obs.target, self._edge(obs))
        rank = hierarchy.table(obs.variant, obs.up_card).rank
        mismatch, noise = self._model_trust()
        soft = mismatch if self.infer else 1.0
        model = self._model()
        budget = min(self.time_ms, self._time_cap_ms) if self.time_ms is not None else math.inf
        # ``iterations`` per root candidate, as the simulation bot spends one
        # playout per candidate and world: a decision with more candidates
        # (often a bet) gets a proportionally larger budget. The clock cap
        # counts worlds at the simulation bot's pessimistic cost.
        limit = 1 << 30 if self.time_ms is not None else len(cands) * min(
            self.iterations, clock_cap(self._time_cap_ms, CPU_MS_PER_WORLD))
        subtrees = {a: _Node() for a in cands}
        values: dict[Action, list[float]] = {a: [] for a in cands}
        alive = list(cands)
        done = tries = worlds = 0
        relax_at = 40
        max_tries = 40 * (limit // len(cands)) + 200
        since, carried = self._carried(obs, soft)
        carried.reverse()  # popped from the end: oldest first
        drawn: list[World] = []  # drawn with the starting soft weight: carried to the next decision
        start_soft = soft
        while done + len(alive) <= limit and tries < max_tries:
            if budget < math.inf and tries & 3 == 0:
                spent = (time.perf_counter() - start) * 1000
                if (worlds >= 8 and spent >= budget) or spent >= 4 * budget:
                    break
            if soft < 1.0 and tries >= relax_at and tries >= 30 * (worlds + 1):
                soft = soft ** 0.5 if soft < 0.5 else 1.0  # few worlds fit the model: trust it less
                relax_at = tries + 40
                self.stats["relaxed"] += 1
                carried.clear()
            tries += 1
            if carried:
                world = extend_world(carried.pop(), obs, since, self.rng, soft, model)
                self.stats["carried"] += world is not None
            else:
                world = sample_world(obs, game, self.rng, soft, model, early=True)
            if world is None:
                continue
            if soft == start_soft:
                drawn.append(world)
            worlds += 1
            seed = self.rng.getrandbits(32)
            for a in alive:
                st = world.state.copy()
                st.apply(a)
                values[a].append(self._descend(subtrees[a], st, obs.seat, rank, wt, me, model, noise,
                                               random.Random(seed)))
            done += len(alive)
            if worlds >= self.race_after and len(alive) > 2:
                alive = self._race(alive, values, base)
            if len(alive) == 1 and worlds >= 3:
                break  # the heuristic's choice led all the others clearly
        self.stats["tries"] += tries
        self.stats["iterations"] += done
        self.stats["worlds"] += worlds
        self._particles = ((obs.hand_number, obs.hand_start_scores), len(obs.history), start_soft, drawn)
        if worlds < 3:
            self.stats["fallbacks"] += 1
            return base
        self.stats["searched"] += 1
        self.stats["seconds"] += time.perf_counter() - start
        return alive[self._pick(alive, [values[a] for a in alive], alive.index(base))]

    def _race(self, alive: list[Action], values: dict[Action, list[float]], base: Action) -> list[Action]:
        """Drop the candidates (never the heuristic's) whose paired deficit to
        the leader exceeds ``race_z`` standard errors: the rest of the budget
        goes to telling the close ones apart."""
        n = len(values[base])
        means = {a: sum(values[a]) / n for a in alive}
        leader = max(alive, key=lambda a: means[a])
        keep = []
        for a in alive:
            if a == base or a == leader:
                keep.append(a)
                continue
            d = [x - y for x, y in zip(values[a], values[leader], strict=True)]
            mean = sum(d) / n
            var = sum((x - mean) ** 2 for x in d) / (n - 1)
            if mean + self.race_z * (var / n) ** 0.5 >= 0.0 and mean > -0.5:
                keep.append(a)
        return keep

    def _descend(self, node: _Node, st: State, seat: int, rank: tuple[int, ...],
                 wt: tuple[tuple[float, ...], ...], me: int, model: RivalModel, noise: float,
                 rng: random.Random) -> float:
        """One iteration below a root candidate (already applied to ``st``):
        the rival's moves from the opponent model; this seat's from its
        information-set nodes, which start with the heuristic's move and widen
        to another action each time their visits pass ``widen`` times the
        square of their children; then a heuristic rollout, backed up. With
        ``rollout="random"`` every move outside the tree's choices is uniformly
        random instead."""
        policy = model if self.rollout == "heuristic" else None  # None: uniformly random moves
        path: list[tuple[_Node, int]] = [(node, seat)]
        while True:
            s = st.current_player()
            if s is None:
                break
            if s != seat:
                if policy is None or (noise and rng.random() < noise):
                    a = rng.choice(st.legal_actions())
                else:
                    a = model.decide(fast_observation(st, s), rng)
                node = node.children.setdefault(a, _Node())
                st.apply(a)
                path.append((node, s))
                continue
            acts = candidates(st.legal_actions(), rank)
            if len(acts) == 1:
                node = node.children.setdefault(acts[0], _Node())
                st.apply(acts[0])
                path.append((node, s))
                continue
            # This seat's move: the heuristic's in this world (as in a
            # rollout) until the node has had ``widen`` visits; then UCB1
            # among the heuristic's move and the actions tried so far, one
            # more of which is tried each time the visits pass ``widen``
            # times the square of the children.
            a = policy.decide(fast_observation(st, s), rng) if policy is not None else rng.choice(acts)
            if node.visits >= self.widen:
                untried = [b for b in acts if b not in node.children and b != a]
                if untried and len(node.children) < 1 + int(math.sqrt(node.visits / self.widen)):
                    pick = untried[rng.randrange(len(untried))]
                    for b in acts:
                        if b in node.children:
                            node.children[b].avail += 1
                    node = node.children[pick] = _Node()
                    st.apply(pick)
                    path.append((node, s))
                    break
                a = self._ucb(node, [b for b in acts if b in node.children or b == a])
            node = node.children.setdefault(a, _Node())
            st.apply(a)
            path.append((node, s))
        value = rollout_value(st, rng, policy, me, wt, 1 - seat, noise)
        for n, s in path:
            n.visits += 1
            n.value += value if s % 2 == me else 1.0 - value
        return value

    def _ucb(self, node: _Node, acts: list[Action]) -> Action:
        """UCB1 among ``acts`` (an untried one first), each child's exploration
        term counting the iterations in which it was available."""
        best_a, best_u = acts[0], -math.inf
        for b in acts:
            ch = node.children.get(b)
            if ch is None or ch.visits == 0:
                return b
            ch.avail += 1
            u = ch.value / ch.visits + self.exploration * math.sqrt(math.log(ch.avail) / ch.visits)
            if u > best_u:
                best_a, best_u = b, u
        return best_a

    def _search(self, obs: Observation, base: Action, start: float) -> _Node | None:
        game = self._game(obs)
        me = obs.seat % 2
        wt = win_table(obs.variant, obs.target, self._edge(obs))
        rank = hierarchy.table(obs.variant, obs.up_card).rank
        mismatch, noise = self._model_trust()
        soft = mismatch if self.infer else 1.0
        model = self._model()
        timed = self.time_ms is not None
        # As in the simulation bot, a counted budget never reads the clock.
        budget = min(self.time_ms, self._time_cap_ms) if self.time_ms is not None else math.inf
        limit = 100_000 if timed else min(self.iterations, clock_cap(self._time_cap_ms, CPU_MS_PER_WORLD / 2))
        root = _Node()
        done = tries = worlds = 0
        relax_at = 40
        while done < limit and tries < 40 * (limit // self.per_world) + 200:
            if budget < math.inf and tries & 3 == 0:
                spent = (time.perf_counter() - start) * 1000
                if (done >= 8 and spent >= budget) or spent >= 4 * budget:
                    break
            if soft < 1.0 and tries >= relax_at and tries >= 30 * (worlds + 1):
                soft = soft ** 0.5 if soft < 0.5 else 1.0  # few worlds fit the model: trust it less
                relax_at = tries + 40
                self.stats["relaxed"] += 1
            tries += 1
            world = sample_world(obs, game, self.rng, soft, model)
            if world is None:
                continue
            worlds += 1
            for _ in range(min(self.per_world, limit - done)):
                done += 1
                self._iterate(root, world.state.copy(), obs.seat, base, rank, wt, me, model, noise)
        self.stats["tries"] += tries
        self.stats["iterations"] += done
        self.stats["worlds"] += worlds
        enough = min(3, -(-limit // self.per_world))  # a tiny budget may plan fewer worlds
        return root if worlds >= enough and root.children else None

    def _iterate(self, root: _Node, st: State, seat: int, base: Action, rank: tuple[int, ...],
                 wt: tuple[tuple[float, ...], ...], me: int, model: RivalModel, noise: float) -> None:
        rng = self.rng
        node = root
        path: list[tuple[_Node, int]] = []
        while True:
            s = st.current_player()
            if s is None:
                break
            if s != seat and self.rival == "model":
                # The rival's move comes from the opponent model; its node only
                # separates the histories that follow.
                if noise and rng.random() < noise:
                    a = rng.choice(st.legal_actions())
                else:
                    a = model.decide(fast_observation(st, s), rng)
                node = node.children.setdefault(a, _Node())
                st.apply(a)
                continue
            acts = candidates(st.legal_actions(), rank)
            untried = [a for a in acts if a not in node.children]
            if untried:
                if node is not root and self.guided:
                    # The heuristic's move in this world first: in-tree play
                    # starts from the policy the rollouts use.
                    base = model.decide(fast_observation(st, s), rng)
                a = base if (node is root or self.guided) and base in untried else untried[rng.randrange(len(untried))]
                child = node.children[a] = _Node()
                for b in acts:
                    if b is not a and b in node.children:
                        node.children[b].avail += 1
                st.apply(a)
                path.append((child, s))
                break
            c = self.exploration
            best_a, best_u = acts[0], -math.inf
            for b in acts:
                ch = node.children[b]
                ch.avail += 1
                u = ch.value / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                if u > best_u:
                    best_a, best_u = b, u
            node = node.children[best_a]
            st.apply(best_a)
            path.append((node, s))
        policy = model if self.rollout == "heuristic" else None
        value = rollout_value(st, rng, policy, me, wt, 1 - seat, noise)
        for n, s in path:
            n.visits += 1
            n.value += value if s % 2 == me else 1.0 - value


def main() -> None:
    """``python -m sample_bots.ismcts --address HOST:PORT --token TOKEN [--seed N]
    [--iterations N | --time-ms MS]``"""
    import argparse

    from ._cli import seeded_main

    def add_arguments(p: argparse.ArgumentParser) -> None:
        p.add_argument("--iterations", type=int, default=DEFAULT_ITERATIONS,
                       help="search iterations per root candidate and decision (default %(default)s; reproducible)")
        p.add_argument("--time-ms", type=float,
                       help="search for this many ms per decision instead (not reproducible)")
        p.add_argument("--rollout", choices=("heuristic", "random"), default="heuristic",
                       help="policy of the playouts (default %(default)s)")

    seeded_main(
        lambda seed, args: ISMCTSBot(seed, iterations=args.iterations, time_ms=args.time_ms,
                                     rollout=args.rollout),
        prog="ismcts", seed_help="seed of the search", add_arguments=add_arguments,
    )


if __name__ == "__main__":
    main()
