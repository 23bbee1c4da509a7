"""A rule-based sample bot: card strength, envido/flor points and a little bluff.

Policy (docs/rules.md terms):

- **Flor**: declared as soon as it is legal (in venezolano with ``truco con_flor``
  / ``quiero con_flor`` when the bot calls or accepts a truco at that moment).
  Facing an opposing flor it answers by the strength of its own flor points
  (contraflor / con flor envido / contraflor al resto when strong, ``flor``
  otherwise, ``con flor me achico`` only where a lost comparison costs more).
- **Envido**: the chance of winning against a random (or, when answering, a
  stronger-than-random) opposing hand, from the variant's envido distribution.
  Calls envido / real envido / falta envido above thresholds; answers by
  comparing the accepted and declined stakes; falta envido when it leads and
  is strong, or when the rival is about to win; a seeded occasional bluff.
- **Truco**: an equity estimate (probability of winning the hand's tricks) from
  the hierarchy ranks of its cards against the unseen cards, the tricks so far
  and the cards on the table. Calls/raises when the equity is high, accepts by
  thresholds that grow with the level (or always when declining loses the
  game), occasionally bluffs a truco with a weak hand or accepts one a little
  under its threshold. In team games the equity of its own cards is pulled
  towards 1/2 (the partner's cards are unknown).
- **Team games** (4 and 6 seats): the partner's public play counts. A
  partner already winning the trick is not overtaken (the bot throws its
  lowest card) unless an opponent still to play could beat the partner's card
  while the bot holds a card no unseen card beats; a partner's envido is let
  stand (the bot answers the rivals' raise of it but never raises it
  further); it does not bluff an envido (a partner may hold the real points).
- **Cards**: leads its middle card in the first trick, its lowest after winning
  a trick, its highest otherwise; answers with the lowest card that wins the
  trick (or ties where a parda is enough), else its lowest card; its lowest
  card when its partner already wins the trick. Never goes to the mazo.

All randomness comes from the bot's own ``random.Random(seed)``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from math import comb

from mypy_extensions import mypyc_attr

from arena.engine import hierarchy
from arena.engine.actions import ENVIDO_CALLS, Action, Kind
from arena.engine.cards import DECK, RANKS, Card
from arena.engine.observation import Observation
from sdk.bot import Bot, GameInfo

_TRUCO_VALUES = {"venezolano": (1, 3, 6, 9)}
_ENV_VALUE = {"envido": 2, "real_envido": 3}


@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass(frozen=True)
class Params:
    """Thresholds of the heuristic policy (probabilities in [0, 1])."""

    truco_call: tuple[float, float, float] = (0.70, 0.80, 0.88)
    """Equity to call truco/retruco/vale."""
    truco_accept: tuple[float, float, float] = (0.42, 0.50, 0.56)
    truco_raise: tuple[float, float, float] = (0.80, 0.86, 1.1)
    envido_call: float = 0.62
    """P(win vs a random hand) to open envido."""
    real_call: float = 0.84
    falta_call: float = 0.92
    envido_raise: float = 0.78
    """P(win vs the caller's range) to raise."""
    bluff_truco: float = 0.05
    """Per decision, with a weak hand, level 0."""
    bluff_envido: float = 0.05
    bluff_accept: float = 0.15
    """Accept a call a bit under the threshold."""
    team_play: bool = True
    """Read the partner's public play in team games (off: each seat alone)"""


DEFAULT_PARAMS = Params()


# --------------------------------------------------------------------- tables


def envido_distribution(
    variant: str, up: Card | None, flor_on: bool = True
) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """(pmf of envido points of a random hand without flor, pmf of flor points of a
    random flor hand), estimated from a fixed sample of hands. Only the up
    card's rank matters (suits are symmetric)."""
    return _envido_distribution(variant, up.rank if up is not None else 0, flor_on)


@lru_cache(maxsize=128)
def _envido_distribution(variant: str, up_rank: int, flor_on: bool) -> tuple[tuple[float, ...], tuple[float, ...]]:
    up = DECK[RANKS.index(up_rank)] if up_rank else None
    t = hierarchy.table(variant, up)
    rng = random.Random(90210)
    cards = [c for c in DECK if c != up]
    env = [0] * 64
    flo = [0] * 64
    for _ in range(4000):
        h = tuple(rng.sample(cards, 3))
        if flor_on and hierarchy.flor_kind(t, h):
            flo[min(63, hierarchy.flor_points(t, h))] += 1
        else:
            env[hierarchy.envido_points(t, h)[0]] += 1
    se, sf = sum(env) or 1, sum(flo) or 1
    return tuple(x / se for x in env), tuple(x / sf for x in flo)


def p_beat(pmf: Sequence[float], points: int, ties_win: bool, top: float = 1.0) -> float:
    """P(our ``points`` beat a hand drawn from ``pmf``) when the rival's hand is
    in the best ``top`` fraction of the distribution (``top`` = 1: any hand)."""
    lose = sum(pmf[points + 1:]) + (0.0 if ties_win else pmf[points] if points < len(pmf) else 0.0)
    return max(0.0, 1.0 - min(1.0, lose / top))


@cache
def _hyper_at_most(n: int, g: int, k: int, j: int) -> float:
    """P(at most j-1 of k cards drawn from n fall in a group of g)."""
    total = comb(n, k)
    if total == 0:
        return 1.0
    return sum(comb(g, m) * comb(n - g, k - m) for m in range(min(j, k + 1))) / total


def resolve(results: Sequence[str], mano_mine: bool) -> bool | None:
    """Who wins the hand's truco from these trick results ('W', 'L', 'P' from our
    side's view), docs/rules.md 3.2; None while undecided."""
    if len(results) < 2:
        return None
    a, b = results[0], results[1]
    if a == "P":
        if b != "P":
            return b == "W"
        if len(results) < 3:
            return None
        return mano_mine if results[2] == "P" else results[2] == "W"
    if b == "P" or b == a:
        return a == "W"
    if len(results) < 3:
        return None
    return a == "W" if results[2] == "P" else results[2] == "W"


def respond_index(mine: Sequence[int], x: int, results: Sequence[str]) -> int:
    """Which of our ranks (sorted strongest first) to play against a best rival
    card of rank ``x``: the cheapest winner, a tie where a parda is as good or
    useful, else the lowest."""
    first = results[0] if results else None
    need_tie_ok = first == "W"  # after winning the first trick a parda wins the hand
    best_idx = None
    for i in range(len(mine) - 1, -1, -1):  # weakest first
        v = mine[i]
        if v > x or (need_tie_ok and v == x):
            best_idx = i
            break
    if best_idx is not None:
        return best_idx
    if first != "L":  # parda useful: first trick, after a first-trick parda, third trick
        for i in range(len(mine) - 1, -1, -1):
            if mine[i] == x:
                return i
    return len(mine) - 1


def lead_index(mine: Sequence[int], results: Sequence[str]) -> int:
    """Which rank to lead (sorted strongest first)."""
    if len(mine) == 3:
        return 1
    if results and results[0] == "W":
        return len(mine) - 1
    return 0


# -------------------------------------------------------------------- context


def _base(variant: str, up: Card | None) -> tuple[hierarchy.Table, tuple[int, ...], int]:
    """The hand's table and the rank histogram of the deck without the up card."""
    return _base_i(variant, up.index if up is not None else -1)


@lru_cache(maxsize=256)
def _base_i(variant: str, up_index: int) -> tuple[hierarchy.Table, tuple[int, ...], int]:
    up = DECK[up_index] if up_index >= 0 else None
    t = hierarchy.table(variant, up)
    hist = [0] * 32
    n = 0
    for c in DECK:
        if c != up:
            hist[t.rank[c.index]] += 1
            n += 1
    return t, tuple(hist), n


@mypyc_attr(allow_interpreted_subclasses=True)
class Ctx:
    """Facts about one observation used by the policy."""

    def __init__(self, obs: Observation, flor_on: bool = True, falta_mode: str = "leader",
                 team_play: bool = True, memo: dict[tuple[object, ...], float] | None = None) -> None:
        self.obs = obs
        # Equities already worked out, by everything they depend on (2 seats;
        # a search that asks the policy thousands of times per decision
        # meets the same few situations again and again).
        self.memo = memo
        self.variant = obs.variant
        self.flor_on = flor_on
        self.falta_mode = falta_mode
        t, base_hist, base_n = _base(obs.variant, obs.up_card)
        self.table = t
        self.rank = rank = t.rank
        self.seat = obs.seat
        self.team = obs.seat % 2
        self.my_score = obs.scores[self.team]
        self.opp_score = obs.scores[1 - self.team]
        self.target = obs.target
        self.mano_mine = obs.mano % 2 == self.team
        self.two = len(obs.hand_seats) == 2
        self.truco_values = _TRUCO_VALUES.get(obs.variant, (1, 2, 3, 4))
        self._base_hist = base_hist
        self._base_n = base_n
        self._hist: list[int] | None = None
        done = len(obs.trick_winners)
        self.results = ["P" if w is None else ("W" if w == self.team else "L") for w in obs.trick_winners]
        self.current = obs.tricks[done] if len(obs.tricks) > done else ()
        self.mine = sorted(obs.hand, key=lambda c: -rank[c.index])
        self.mine_r = [rank[c.index] for c in self.mine]
        self._eq: float | None = None
        self._env: int | None = None
        # Team games: this seat's partners in the current hand (none in 1 v 1 and pico a pico).
        self.partners = tuple(s for s in obs.hand_seats if s % 2 == self.team and s != self.seat) \
            if team_play else ()

    # --------------------------------------------------------------- partners

    def partner_called(self, kinds: Sequence[Kind]) -> bool:
        """A partner made one of these calls in this hand (public history)."""
        return any(s in self.partners and a.kind in kinds for s, a in self.obs.history)

    def still_to_play(self) -> tuple[int, ...]:
        """Seats that play after this one in the current trick."""
        played = {s for s, _ in self.current}
        order = self.obs.hand_seats
        return tuple(s for s in order if s not in played and s != self.seat)

    # ---------------------------------------------------------- truco equity

    def _unseen(self) -> None:
        """Histogram by rank of the cards this seat has not seen."""
        hist = list(self._base_hist)
        n = self._base_n
        rank = self.rank
        for c in self.obs.dealt:
            hist[rank[c.index]] -= 1
            n -= 1
        me = self.seat
        for trick in self.obs.tricks:
            for s, c in trick:
                if s != me:  # own played cards are among the dealt ones
                    hist[rank[c.index]] -= 1
                    n -= 1
        gt = [0] * 33
        for v in range(30, -1, -1):
            gt[v] = gt[v + 1] + hist[v + 1]
        self._hist = hist
        self.hist = hist
        self.gt = gt
        self.n_unseen = n

    def gt_count(self, rank: int) -> int:
        """Unseen cards that beat a card of hierarchy rank ``rank``."""
        if self._hist is None:
            self._unseen()
        return self.gt[rank]

    def opp_cards_left(self) -> int:
        opp = next(s for s in self.obs.hand_seats if s % 2 != self.team)
        played = sum(1 for trick in self.obs.tricks for s, _ in trick if s == opp)
        return 3 - played

    def equity(self) -> float:
        """Estimated probability that our side wins the hand's truco."""
        if self._eq is None and self.memo is not None and self.two:
            key = self._equity_key()
            eq = self.memo.get(key)
            if eq is None:
                eq = self.memo[key] = self._equity()
            self._eq = eq
        return self._equity()

    def _equity_key(self) -> tuple[object, ...]:
        """Everything the 2-seat equity depends on: the rank histogram of the
        unseen cards (from the up card, the dealt cards and the rival's
        played ones), this seat's ranks, the trick results and the cards on
        the table."""
        obs, rank, me = self.obs, self.rank, self.seat
        up = obs.up_card.index if obs.up_card is not None else -1
        dealt = tuple(sorted(rank[c.index] for c in obs.dealt))
        theirs = tuple(sorted(rank[c.index] for trick in obs.tricks for s, c in trick if s != me))
        table = tuple((s == me, rank[c.index]) for s, c in self.current)
        return (self.variant, up, dealt, theirs, tuple(self.mine_r), tuple(self.results), table, self.mano_mine)

    def _equity(self) -> float:
        if self._eq is None:
            if self._hist is None:
                self._unseen()
            if self.two:
                opp_tab = my_tab = None
                for s, c in self.current:
                    if s == self.seat:
                        my_tab = self.rank[c.index]
                    else:
                        opp_tab = self.rank[c.index]
                if my_tab is not None and opp_tab is not None:  # cannot happen mid-trick in 2 seats
                    my_tab = opp_tab = None
                self._eq = self._eq2(self.results, self.mine_r, self.opp_cards_left(), opp_tab, my_tab)
            else:
                e = self._eq2(self.results, self.mine_r, len(self.mine_r), None, None)
                self._eq = 0.5 + 0.6 * (e - 0.5)
        return self._eq

    def _q(self, v: int, j: int, k: int) -> tuple[float, float]:
        """(P(win), P(tie)) of rank v against the rival's j-th best of k cards."""
        n = self.n_unseen
        gt = self.gt[v]
        ge = gt + self.hist[v]
        p_lt = _hyper_at_most(n, ge, k, j)
        p_le = _hyper_at_most(n, gt, k, j)
        return p_lt, p_le - p_lt

    def _eq2(self, results: list[str], mine: list[int], k: int, opp_tab: int | None, my_tab: int | None) -> float:
        d = resolve(results, self.mano_mine)
        if d is not None:
            return 1.0 if d else 0.0
        if not mine and my_tab is None:
            return 0.5
        if opp_tab is not None:
            i = respond_index(mine, opp_tab, results)
            v = mine[i]
            res = "W" if v > opp_tab else "P" if v == opp_tab else "L"
            return self._eq2(results + [res], mine[:i] + mine[i + 1:], k, None, None)
        if my_tab is not None:
            n = self.n_unseen
            if k <= 0:
                return 0.5
            tot = comb(n, k)
            gt = self.gt[my_tab]
            ge = gt + self.hist[my_tab]
            none_gt = comb(n - gt, k) / tot
            none_ge = comb(n - ge, k) / tot
            out = 0.0
            for res, p in (("W", none_ge), ("P", none_gt - none_ge), ("L", 1.0 - none_gt)):
                if p > 1e-9:
                    out += p * self._eq2(results + [res], mine, k - 1, None, None)
            return out
        # fresh tricks: ours (strongest first) against theirs, matched in order
        k = min(k, len(mine)) or len(mine)
        probs = []
        for i, v in enumerate(mine):
            w, t = self._q(v, i + 1, k)
            probs.append((w, t, max(0.0, 1.0 - w - t)))
        total = 0.0

        def walk(i: int, res: list[str], p: float) -> None:
            nonlocal total
            d = resolve(res, self.mano_mine)
            if d is not None:
                total += p if d else 0.0
                return
            if i == len(probs):
                total += p * 0.5
                return
            w, t, lo = probs[i]
            if w:
                walk(i + 1, res + ["W"], p * w)
            if t:
                walk(i + 1, res + ["P"], p * t)
            if lo:
                walk(i + 1, res + ["L"], p * lo)

        walk(0, list(results), 1.0)
        return total

    # ----------------------------------------------------------------- envido

    def envido(self) -> int:
        if self._env is None:
            self._env = hierarchy.envido_points(self.table, self.obs.dealt)[0]
        return self._env

    def p_envido(self, top: float = 1.0) -> float:
        pmf = envido_distribution(self.variant, self.obs.up_card, self.flor_on)[0]
        return p_beat(pmf, self.envido(), self.mano_mine, top)

    def p_flor(self, top: float = 1.0) -> float:
        pmf = envido_distribution(self.variant, self.obs.up_card, self.flor_on)[1]
        pts = min(63, hierarchy.flor_points(self.table, self.obs.dealt))
        if hierarchy.flor_kind(self.table, self.obs.dealt) == "reservada":
            return 1.0
        return p_beat(pmf, pts, self.mano_mine, top)

    def falta(self) -> int:
        leader = max(self.obs.scores)
        half = (self.target + 1) // 2
        if self.falta_mode == "malas_buenas" and leader < half:
            return half - leader
        return self.target - leader


# --------------------------------------------------------------------- policy


def _find(legal: Sequence[Action], kind: Kind, con_flor: bool = False) -> Action | None:
    for a in legal:
        if a.kind is kind and a.con_flor == con_flor:
            return a
    return None


def _play(legal: Sequence[Action], card: Card) -> Action:
    for a in legal:
        if a.kind is Kind.PLAY and a.card == card:
            return a
    raise LookupError(card)


def _envido_values(calls: Sequence[str], falta: int) -> tuple[int, int]:
    """(accepted, declined) value of an argentino/uruguayo envido chain."""
    if calls[-1] == "falta_envido":
        acc = falta
    else:
        acc = sum(_ENV_VALUE[c] for c in calls)
    dec = 1 if len(calls) == 1 else sum(_ENV_VALUE.get(c, 0) for c in calls[:-1])
    return acc, dec


def _venezolano_envido_values(calls: Sequence[str]) -> tuple[int, int]:
    stake, prev = 2, 1
    for c in calls[1:]:
        prev, stake = stake, stake + int(c.split()[1])
    return stake, prev


def decide(obs: Observation, rng: random.Random, p: Params = DEFAULT_PARAMS,
           flor_on: bool = True, falta_mode: str = "leader",
           memo: dict[tuple[object, ...], float] | None = None) -> Action:
    """The heuristic policy: one of ``obs.legal``. ``memo``: a dict the
    truco equities are kept in between calls (the same choices, cheaper)."""
    legal = obs.legal
    if len(legal) == 1:
        return legal[0]
    ctx = Ctx(obs, flor_on, falta_mode, p.team_play, memo)
    pend = obs.pending
    if pend is not None:
        if pend.chain == "flor":
            return _answer_flor(ctx, rng, p)
        if pend.chain == "envido":
            return _answer_envido(ctx, rng, p)
        return _answer_truco(ctx, rng, p)
    return _own_turn(ctx, rng, p)


def _own_turn(ctx: Ctx, rng: random.Random, p: Params) -> Action:
    legal = ctx.obs.legal
    venezolano = ctx.variant == "venezolano"
    flor = _find(legal, Kind.FLOR)
    if flor is not None:
        if venezolano:
            for a in legal:
                if a.con_flor and a.kind is Kind.TRUCO and ctx.equity() >= p.truco_call[0]:
                    return a
        return flor
    env = _open_envido(ctx, rng, p)
    if env is not None:
        return env
    call = next((a for a in legal if a.kind in (Kind.TRUCO, Kind.RETRUCO, Kind.VALE_CUATRO, Kind.VALE_NUEVE)
                 and not a.con_flor), None)
    if call is not None:
        level = ctx.obs.truco_level
        eq = ctx.equity()
        if eq >= p.truco_call[level] or eq > 0.999:
            return call
        if level == 0 and eq < 0.3 and rng.random() < p.bluff_truco:
            return call
    return _choose_card(ctx)


def _open_envido(ctx: Ctx, rng: random.Random, p: Params) -> Action | None:
    legal = ctx.obs.legal
    env = _find(legal, Kind.ENVIDO)
    if env is None:
        return None
    pw = ctx.p_envido()
    if ctx.partners and pw < 0.35:
        return None  # no bluff in a team: a partner may hold real points and call them
    if ctx.variant == "venezolano":
        if pw >= p.envido_call or (pw < 0.35 and rng.random() < p.bluff_envido):
            return env
        return None
    real = _find(legal, Kind.REAL_ENVIDO)
    falta = _find(legal, Kind.FALTA_ENVIDO)
    fv = ctx.falta()
    if falta is not None:
        leading = ctx.my_score >= ctx.opp_score
        if (leading and pw >= p.falta_call and fv >= 4) or (fv <= 3 and pw >= p.envido_call):
            return falta
        if ctx.opp_score >= ctx.target - 3 and pw >= 0.55:
            return falta
    if real is not None and pw >= p.real_call:
        return real
    if pw >= p.envido_call or (pw < 0.35 and rng.random() < p.bluff_envido):
        return env
    return None


def _choose_card(ctx: Ctx) -> Action:
    legal = ctx.obs.legal
    mine, mine_r = ctx.mine, ctx.mine_r
    if not mine:  # pragma: no cover - a turn without cards offers only calls/mazo
        return next(a for a in legal if a.kind is not Kind.MAZO)
    if not ctx.current:
        return _play(legal, mine[lead_index(mine_r, ctx.results)])
    rank = ctx.rank
    best = max(rank[c.index] for _, c in ctx.current)
    top_teams = {s % 2 for s, c in ctx.current if rank[c.index] == best}
    if top_teams == {ctx.team}:
        # Our side already wins the trick: do not overtake the partner...
        opponents_left = [s for s in ctx.still_to_play() if s % 2 != ctx.team]
        if ctx.partners and opponents_left and mine_r[0] > best and ctx.gt_count(mine_r[0]) == 0 and ctx.gt_count(best) > 0:
            # ...unless an opponent still to play could beat the partner's card
            # and this seat holds a card nobody can beat: it secures the trick.
            return _play(legal, mine[0])
        return _play(legal, mine[-1])
    return _play(legal, mine[respond_index(mine_r, best, ctx.results)])


def _answer_truco(ctx: Ctx, rng: random.Random, p: Params) -> Action:
    obs = ctx.obs
    legal = obs.legal
    pend = obs.pending
    assert pend is not None
    level = len(pend.calls)  # the level called, 1..3
    accept_value = pend.stake
    decline_value = obs.truco_value
    # el envido esta primero
    env = _open_envido(ctx, rng, p)
    if env is not None and ctx.variant != "venezolano":
        return env
    if env is not None and ctx.variant == "venezolano" and _find(legal, Kind.FLOR) is None:
        return env
    eq = ctx.equity()
    must = ctx.opp_score + decline_value >= ctx.target
    accept = eq >= p.truco_accept[level - 1] or must or (
        eq >= p.truco_accept[level - 1] - 0.15 and rng.random() < p.bluff_accept)
    if accept_value >= ctx.target - ctx.opp_score and not must:
        accept = accept and eq >= 0.5  # losing it loses the game
    raise_ok = eq >= p.truco_raise[level - 1]
    flor = _find(legal, Kind.FLOR)
    raises = [a for a in legal if a.kind in (Kind.RETRUCO, Kind.VALE_CUATRO, Kind.VALE_NUEVE)]
    if flor is not None:
        if ctx.variant == "venezolano":
            if raise_ok:
                a = next((a for a in raises if a.con_flor), None)
                if a is not None:
                    return a
            if accept:
                a = _find(legal, Kind.QUIERO, True)
                if a is not None:
                    return a
        return flor
    if raise_ok:
        a = next((a for a in raises if not a.con_flor), None)
        if a is not None:
            return a
    if accept:
        a = _find(legal, Kind.QUIERO)
        assert a is not None
        return a
    a = _find(legal, Kind.NO_QUIERO)
    assert a is not None
    return a


def _answer_envido(ctx: Ctx, rng: random.Random, p: Params) -> Action:
    obs = ctx.obs
    legal = obs.legal
    pend = obs.pending
    assert pend is not None
    flor = _find(legal, Kind.FLOR)
    if flor is not None:
        return flor
    calls = pend.calls
    venezolano = ctx.variant == "venezolano"
    if venezolano:
        acc, dec = _venezolano_envido_values(calls)
        top = 0.5 if len(calls) == 1 else 0.3
    else:
        acc, dec = _envido_values(calls, ctx.falta())
        top = {1: 0.5, 2: 0.3}.get(len(calls), 0.2)
        if calls[-1] == "falta_envido":
            top = min(top, 0.3)
        elif calls[-1] == "real_envido":
            top = min(top, 0.35)
    pw = 0.85 * ctx.p_envido(top) + 0.15 * ctx.p_envido()
    quiero = _find(legal, Kind.QUIERO)
    no = _find(legal, Kind.NO_QUIERO)
    assert quiero is not None and no is not None
    if ctx.opp_score + dec >= ctx.target:
        return quiero
    # raise? Not over a partner's envido: let it stand, the partner's points
    # are unknown and the rivals' raise already says theirs are good.
    partner_call = bool(ctx.partners) and ctx.partner_called(ENVIDO_CALLS)
    if pw >= p.envido_raise and not partner_call:
        if venezolano:
            raises = [a for a in legal if a.kind is Kind.RAISE]
            if raises:
                return min(raises, key=lambda a: abs(a.amount - 3))
        else:
            leading = ctx.my_score >= ctx.opp_score
            f = _find(legal, Kind.FALTA_ENVIDO)
            if f is not None and ((leading and pw >= 0.9) or ctx.falta() <= acc + 2):
                return f
            r = _find(legal, Kind.REAL_ENVIDO)
            if r is not None:
                return r
            e = _find(legal, Kind.ENVIDO)
            if e is not None:
                return e
    if acc >= ctx.target - ctx.opp_score or acc >= ctx.target - ctx.my_score:
        need = 0.5  # the envido decides the game
    else:
        need = (acc - dec) / (2 * acc)
    if pw >= need or (pw >= need - 0.1 and rng.random() < p.bluff_accept):
        return quiero
    return no


def _answer_flor(ctx: Ctx, rng: random.Random, p: Params) -> Action:
    obs = ctx.obs
    legal = obs.legal
    pend = obs.pending
    assert pend is not None
    var = ctx.variant
    kinds = {a.kind for a in legal}
    leading = ctx.my_score >= ctx.opp_score
    if Kind.QUIERO not in kinds:  # facing the declared flor itself
        pf = ctx.p_flor(0.8)
        if var == "venezolano":
            raises = [a for a in legal if a.kind is Kind.RAISE]
            if pf >= 0.75 and raises:
                return min(raises, key=lambda a: abs(a.amount - 2))
            return _find(legal, Kind.FLOR) or legal[0]
        al_resto = _find(legal, Kind.CONTRAFLOR_AL_RESTO)
        if al_resto is not None and pf >= 0.9 and leading:
            return al_resto
        if var == "argentino":
            cf = _find(legal, Kind.CONTRAFLOR)
            if cf is not None and pf >= 0.7:
                return cf
            if pf < 0.4:
                return _find(legal, Kind.CON_FLOR_ME_ACHICO) or legal[0]
        cfe = _find(legal, Kind.CON_FLOR_ENVIDO)
        if cfe is not None and pf >= 0.7:
            return cfe
        return _find(legal, Kind.FLOR) or legal[0]
    # facing a stake: quiero / no quiero / a raise
    pf = ctx.p_flor(0.5)
    last = pend.calls[-1]
    if last == "contraflor_al_resto":
        stake = ctx.target - (ctx.my_score if pf >= 0.5 else ctx.opp_score) if var == "argentino" else ctx.falta()
    else:
        stake = pend.stake
    decline = 3
    if var == "venezolano":
        decline = _venezolano_envido_values(["envido"] + list(pend.calls[1:]))[1] + 1 if len(pend.calls) > 1 else 3
        raises = [a for a in legal if a.kind is Kind.RAISE]
        if pf >= 0.85 and raises:
            return min(raises, key=lambda a: abs(a.amount - 2))
    else:
        al_resto = _find(legal, Kind.CONTRAFLOR_AL_RESTO)
        if al_resto is not None and pf >= 0.9 and leading:
            return al_resto
    quiero = _find(legal, Kind.QUIERO)
    no = _find(legal, Kind.NO_QUIERO)
    assert quiero is not None and no is not None
    if ctx.opp_score + decline >= ctx.target:
        return quiero
    need = 0.5 if stake >= ctx.target - ctx.opp_score else (stake - decline) / (2 * stake) if stake > 0 else 0.5
    return quiero if pf >= need else no


# ------------------------------------------------------------------------ bot


@mypyc_attr(allow_interpreted_subclasses=True)
class HeuristicBot(Bot):
    """Rule-based bot; ``seed`` fixes its bluffs. ``options`` (variant option
    overrides, e.g. ``{"flor": False}``) tells it rules the observation does not
    carry."""

    name = "heuristic"
    version = "1.0.0"

    def __init__(self, seed: int | None = None, params: Params = DEFAULT_PARAMS,
                 options: dict[str, object] | None = None) -> None:
        self.rng = random.Random(seed)
        self.params = params
        opts = options or {}
        self.flor_on = bool(opts.get("flor", True))
        self.falta_mode = str(opts.get("falta_envido", "leader") or "leader")

    def on_game_info(self, info: GameInfo) -> None:
        self.flor_on = info.options.flor
        self.falta_mode = info.options.falta_envido or "leader"

    def choose(self, obs: Observation) -> Action:
        return decide(obs, self.rng, self.params, self.flor_on, self.falta_mode)


def main() -> None:
    """``python -m sample_bots.heuristic --address HOST:PORT --token TOKEN [--seed N]``"""
    from ._cli import seeded_main

    seeded_main(lambda seed, args: HeuristicBot(seed), prog="heuristic", seed_help="seed of the bluffs")


if __name__ == "__main__":
    main()
