"""Sampled worlds: complete deals consistent with what one seat knows (2-seat hands).

Shared by the search bots (``simulation``, ``ismcts``). A world gives the
rival three cards drawn from the cards this seat has not seen (own dealt
cards, the up card and every card played are excluded), keeping the cards the
rival already played. Hard facts are enforced by rejection: every envido and
flor point total the rival announced, a flor it declared, and the whole hand's
history must replay legally on the sampled deal up to this seat's decision
with the same legal actions. Soft facts come from an opponent model: at each
of the rival's past decisions that offered more than card plays, the
heuristic policy is asked what it would have done with the sampled cards; a
mismatch keeps the world only with probability ``soft`` (1.0: hard facts only).

All randomness comes from the ``rng`` passed in, so a seeded bot samples the
same worlds every run.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from mypy_extensions import mypyc_attr

from arena.engine import Deal, Game, IllegalActionError, State, hierarchy, make_options
from arena.engine.actions import Action, Kind
from arena.engine.cards import DECK, Card
from arena.engine.observation import Observation

from .heuristic import DEFAULT_PARAMS, Params, decide


@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass(frozen=True)
class RivalModel:
    """The policy the rival's past decisions are compared with."""

    params: Params = DEFAULT_PARAMS
    flor_on: bool = True
    falta_mode: str = "leader"
    memo: dict[tuple[object, ...], float] | None = field(default=None, compare=False, hash=False)
    """Where the policy keeps the truco equities it works out (the same choices, cheaper when
    the same situations come back); None: nowhere.
    """

    def decide(self, obs: Observation, rng: random.Random) -> Action:
        return decide(obs, rng, self.params, self.flor_on, self.falta_mode, self.memo)

    def stream(self) -> random.Random:
        """The random numbers of the policy's bluffs when a world's history
        is replayed against it: the same for every replay."""
        return random.Random(0)


@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass(frozen=True)
class World:
    """One consistent deal and the hand replayed on it up to the observer's
    decision. ``state`` is shared: take ``state.copy()`` before playing on."""

    deal: Deal
    rival_hand: tuple[Card, ...]
    state: State


def action_class(a: Action) -> str:
    """Coarse kind of an action, for comparing a rival's choice with the model's
    (the size of a raise or which truco level does not matter)."""
    k = a.kind
    if k is Kind.PLAY:
        return "play"
    if k in (Kind.ENVIDO, Kind.REAL_ENVIDO, Kind.FALTA_ENVIDO, Kind.RAISE):
        return "raise-env"
    if k in (Kind.TRUCO, Kind.RETRUCO, Kind.VALE_CUATRO, Kind.VALE_NUEVE):
        return "truco"
    return str(k.value)


def unseen_cards(obs: Observation) -> tuple[list[Card], list[Card]]:
    """(cards ``obs.seat`` has not seen, cards the rival already played)."""
    opp = 1 - obs.seat
    known = [False] * len(DECK)
    for c in obs.dealt:
        known[c.index] = True
    if obs.up_card is not None:
        known[obs.up_card.index] = True
    opp_played: list[Card] = []
    for trick in obs.tricks:
        for s, c in trick:
            known[c.index] = True
            if s == opp:
                opp_played.append(c)
    return [c for c in DECK if not known[c.index]], opp_played


def agrees_with_announcements(obs: Observation, rival_hand: tuple[Card, ...]) -> bool:
    """Whether ``rival_hand`` has every envido and flor total the rival
    announced in this hand, and a flor if it declared one."""
    opp = 1 - obs.seat
    t = hierarchy.table(obs.variant, obs.up_card)
    for what, s, pts in obs.announced:
        if s != opp:
            continue
        if what == "envido" and hierarchy.envido_points(t, rival_hand)[0] != pts:
            return False
        if what == "flor" and hierarchy.flor_points(t, rival_hand) != pts:
            return False
    return opp not in obs.flor_declared or hierarchy.flor_kind(t, rival_hand) == "flor"


def drawn(rng: random.Random, population: list[Card], k: int) -> list[Card]:
    """``rng.sample(population, k)``: the same cards from the same numbers
    (CPython's algorithm over ``getrandbits``, for a ``random.Random`` or a
    ``Stream``), compiled with this module. The stdlib's ``sample`` is
    interpreted, and its calls were the largest interpreted part of a search
    on the compiled build."""
    n = len(population)
    if not 0 <= k <= n:
        raise ValueError("Sample larger than population or is negative")
    result: list[Card] = []
    setsize = 21  # as the stdlib chooses between its two ways
    if k > 5:
        setsize += 4 ** math.ceil(math.log(k * 3, 4))
    if n <= setsize:
        pool = list(population)
        for i in range(k):
            j = _below(rng, n - i)
            result.append(pool[j])
            pool[j] = pool[n - i - 1]
    else:
        selected: set[int] = set()
        for _ in range(k):
            j = _below(rng, n)
            while j in selected:
                j = _below(rng, n)
            selected.add(j)
            result.append(population[j])
    return result


def _below(rng: random.Random, n: int) -> int:
    """A number in [0, n), as ``random.Random._randbelow_with_getrandbits`` draws it."""
    bits = n.bit_length()
    r = rng.getrandbits(bits)
    while r >= n:
        r = rng.getrandbits(bits)
    return r


def sample_world(obs: Observation, game: Game, rng: random.Random, soft: float = 1.0,
                 model: RivalModel = RivalModel(), early: bool = False, play_soft: float = 1.0,
                 compiled_draw: bool = False) -> World | None:
    """One world consistent with what ``obs.seat`` knows, or None (rejected:
    call again). ``game`` must be a 2-seat game of the observation's variant,
    target and options.

    ``early``: draw the soft-rejection number before the replay and stop at
    the first disagreement that pushes the weight below it. A world is kept
    with the same probability as without, but a rejected one costs only the
    replay up to that disagreement (the random numbers are drawn in another
    order, so the worlds differ from ``early=False`` for the same seed).

    ``compiled_draw``: the rival's unseen cards come from ``drawn`` instead
    of ``rng.sample``: the same world, faster on the compiled build.

    ``play_soft`` < 1 makes the rival's card plays evidence too: at each of
    its past decisions between cards of different strength, a card of
    another strength than the model's choice multiplies the weight by it."""
    seat = obs.seat
    pool, opp_played = unseen_cards(obs)
    k = 3 - len(opp_played)
    hand = tuple(opp_played + (drawn(rng, pool, k) if compiled_draw else rng.sample(pool, k)))
    if not agrees_with_announcements(obs, hand):
        return None
    deal = Deal((obs.dealt, hand) if seat == 0 else (hand, obs.dealt), obs.up_card)
    st = game.new_state(deals=[deal], scores=obs.hand_start_scores, mano=obs.mano)
    threshold = rng.random() if early and soft < 1.0 else -1.0
    weight = _replay(st, obs, 0, soft, model, threshold, play_soft)
    if weight is None:
        return None
    if threshold < 0.0 and weight < 1.0 and rng.random() >= weight:
        return None
    return World(deal, hand, st)


def _replay(st: State, obs: Observation, since: int, soft: float, model: RivalModel,
            threshold: float, play_soft: float = 1.0) -> float | None:
    """Apply ``obs.history[since:]`` to ``st`` and return the world's soft
    weight (``soft`` per rival decision the model would have taken otherwise,
    ``play_soft`` per card play of another strength than the model's), or
    None if the history does not replay legally up to ``obs.seat``'s
    decision with its legal actions, or the weight fell to ``threshold``."""
    seat = obs.seat
    opp = 1 - seat
    weight = 1.0
    model_rng = model.stream()
    rank = hierarchy.table(obs.variant, obs.up_card).rank if play_soft < 1.0 else ()
    for s, a in obs.history[since:]:
        if st.current_player() != s:
            return None
        if soft < 1.0 and s == opp:
            legal = st.legal_actions()
            if any(x.kind is not Kind.PLAY and x.kind is not Kind.MAZO for x in legal):
                pred = model.decide(st.observation(s, log=False), model_rng)
                if action_class(pred) != action_class(a):
                    weight *= soft
                elif play_soft < 1.0 and a.card is not None and pred.card is not None \
                        and rank[pred.card.index] != rank[a.card.index]:
                    weight *= play_soft
            elif play_soft < 1.0 and a.card is not None and _strengths(legal, rank) > 1:
                pred = model.decide(st.observation(s, log=False), model_rng)
                if pred.card is not None and rank[pred.card.index] != rank[a.card.index]:
                    weight *= play_soft
            if weight <= threshold:
                return None
        try:
            st.apply(a)
        except IllegalActionError:
            return None
    legal_now = st.legal_actions()
    if st.current_player() != seat or len(legal_now) != len(obs.legal) or any(
            a not in obs.legal for a in legal_now):
        return None
    return weight


def _strengths(legal: tuple[Action, ...], rank: tuple[int, ...]) -> int:
    """How many card strengths the card plays in ``legal`` offer."""
    return len({rank[x.card.index] for x in legal if x.card is not None})


def game_for(obs: Observation, options: dict[str, object], cache: dict[tuple[str, int], Game]) -> Game:
    """The 2-seat ``Game`` a world of ``obs`` is played on (cached in ``cache``):
    the observation's variant and target with the table's flor and falta
    envido options."""
    key = (obs.variant, obs.target)
    g = cache.get(key)
    if g is None:
        over = {k: v for k, v in options.items() if k in ("flor", "falta_envido")}
        if obs.variant == "venezolano":
            over.pop("falta_envido", None)
        g = Game(make_options(obs.variant, {"seats": 2, "target": obs.target, **over}))
        cache[key] = g
    return g


def extend_world(world: World, obs: Observation, since: int, rng: random.Random, soft: float = 1.0,
                 model: RivalModel = RivalModel()) -> World | None:
    """``world``, sampled for an earlier decision of ``obs.seat`` in this hand
    (when the history had ``since`` actions), carried to this decision, or None
    if what happened since rules it out. The new actions are replayed on a
    copy of its state; a world is kept with the probability the soft facts of
    the new actions give it (as in ``sample_world``, with ``early``), so a
    world that was a draw from what this seat knew then becomes a draw from
    what it knows now."""
    if not agrees_with_announcements(obs, world.rival_hand):
        return None
    st = world.state.copy()
    threshold = rng.random() if soft < 1.0 else -1.0
    if _replay(st, obs, since, soft, model, threshold) is None:
        return None
    return World(world.deal, world.rival_hand, st)
