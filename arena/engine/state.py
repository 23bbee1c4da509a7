"""The referee: ``Game`` holds the settings, ``State`` holds what changes.

Pure rules, no I/O and no global random state. ``legal_actions()`` is the one
source of legality; ``apply()`` rejects anything else with ``IllegalActionError``.
Rule numbers in comments refer to docs/rules.md.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any, TypeVar

from arena.errors import DomainError

from . import events as ev
from .actions import ENVIDO_CALLS, PLAYS, TRUCO_CALLS, Action, Kind, raise_by, simple
from .cards import DECK, Card
from .hierarchy import Table, envido_points, flor_kind, flor_points, table
from .observation import Observation, PendingCall, _observation
from .options import Options, make_options, variant_named, with_overrides
from .outcome import Outcome, Termination
from .variants import ContraflorResto, EnvidoMode, EnvidoState, FaltaMode, FlorKind, Variant
from .views import LiveList, ReadOnlyList

PARDA = -1
T = TypeVar("T")

# Enum members the rules read on every action, as module constants: in Python
# 3.11 reading a member through its class (``Kind.PLAY``) costs about ten
# times a global read, and an action reads several.
_PLAY, _FLOR, _MAZO, _RAISE = Kind.PLAY, Kind.FLOR, Kind.MAZO, Kind.RAISE
_QUIERO, _NO_QUIERO, _FALTA_ENVIDO = Kind.QUIERO, Kind.NO_QUIERO, Kind.FALTA_ENVIDO
_NOT_STARTED, _WAITING = EnvidoState.NOT_STARTED, EnvidoState.WAITING
_SETTLED, _CANCELLED = EnvidoState.SETTLED, EnvidoState.CANCELLED
_HOLDS_FLOR, _RESERVADA = FlorKind.FLOR, FlorKind.RESERVADA  # what a seat's hand holds
_RAISE_MODE = EnvidoMode.RAISE


class IllegalActionError(DomainError, ValueError):
    """An action that is not in ``legal_actions()``; ``reason`` says why."""

    def __init__(self, seat: int | None, action: Action | str, reason: str) -> None:
        super().__init__(reason)
        self.seat = seat
        self.action = action
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Deal:
    """The cards of one hand: ``hands[seat]`` and the muestra/vira (``up``)."""

    hands: tuple[tuple[Card, ...], ...]
    up: Card | None = None


def _check_deal(game: Game, deal: Deal) -> None:
    """``ValueError`` unless ``deal`` gives three distinct cards to every seat
    and has an up card exactly when the variant uses one."""
    n = game.options.seats
    if len(deal.hands) != n or any(len(h) != 3 for h in deal.hands):
        raise ValueError(f"a deal for {n} seats gives three cards to each seat")
    cards = [c for h in deal.hands for c in h]
    if game.needs_up != (deal.up is not None):
        need = "needs an up card" if game.needs_up else "has no up card"
        raise ValueError(f"{game.options.variant} {need}")
    if deal.up is not None:
        cards.append(deal.up)
    if not all(isinstance(c, Card) for c in cards) or len(set(cards)) != len(cards):
        raise ValueError("a deal's cards must be distinct cards of the deck")


class _GameOverError(Exception):
    """Raised inside ``apply`` the moment a side reaches the target (rule 6)."""


class Game:
    """The settings of a game: variant and options (docs/rules.md 7). Immutable, so
    every state of the game (and every copy of one) shares it."""

    __slots__ = ("options", "variant", "truco_values", "truco_calls", "needs_up", "seat_orders", "envido_worth",
                 "_tables", "_links", "_menus", "_turn_menus", "_cut")
    options: Options
    variant: Variant
    truco_values: tuple[int, int, int, int]
    truco_calls: tuple[Kind, Kind, Kind]
    needs_up: bool
    seat_orders: tuple[tuple[int, ...], ...]
    """[mano]: every seat in playing order from the mano."""
    envido_worth: dict[str, int]
    """Chained envido: what each call adds, by its text (Variant.envido_value)"""
    _links: dict[tuple[int, ...], tuple[dict[int, int], dict[int, int]]]
    """Caches filled as games are played, never changed once filled (so every state of the game
    shares them): per seat order, the links of _Hand.links; per situation key, the tuple of
    legal actions that follow the card plays; per up card index (-1: none), the card table.
    """
    _menus: dict[tuple[object, ...], tuple[Action, ...]]
    _turn_menus: list[tuple[Action, ...] | None]
    _cut: tuple[itemgetter[Any], ...]
    """Per seat, its three cards of a shuffled deck."""
    _tables: dict[int, Table]

    def __init__(self, options: Options | str = "argentino", **overrides: object) -> None:
        """``Game("uruguayo", target=15)``: a variant's preset with overrides;
        ``Game(options, target=15)``: given options with overrides. Either way
        the overrides are checked like ``make_options`` checks them."""
        if isinstance(options, str):
            options = make_options(options, overrides)
        elif overrides:
            options = with_overrides(options, overrides)
        variant = variant_named(options.variant)
        object.__setattr__(self, "options", options)
        object.__setattr__(self, "variant", variant)
        object.__setattr__(self, "truco_values", variant.truco_values)
        object.__setattr__(self, "truco_calls", variant.truco_calls)
        object.__setattr__(self, "needs_up", variant.up_card is not None)
        n = options.seats
        object.__setattr__(self, "seat_orders", tuple(tuple((mano + i) % n for i in range(n)) for mano in range(n)))
        object.__setattr__(self, "envido_worth", {k.value: points for k, points in variant.envido_values})
        object.__setattr__(self, "_tables", {})
        object.__setattr__(self, "_links", {})
        object.__setattr__(self, "_menus", {})
        # The menus of a seat on its turn, the most frequent situation, by a
        # small int (see State._refresh): a list index is cheaper than hashing
        # the tuple key.
        object.__setattr__(self, "_turn_menus", [None] * 16)
        object.__setattr__(self, "_cut", tuple(itemgetter(3 * s, 3 * s + 1, 3 * s + 2) for s in range(n)))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Game is immutable: cannot set {name}")

    # Immutable: copies share it, and pickling rebuilds it from its options.
    def __copy__(self) -> Game:
        return self

    def __deepcopy__(self, memo: object) -> Game:
        return self

    def __reduce__(self) -> tuple[type[Game], tuple[Options]]:
        return (Game, (self.options,))

    def __repr__(self) -> str:
        return f"Game({self.options!r})"

    def new_state(
        self,
        seed: int | None = None,
        deals: Sequence[Deal] | None = None,
        scores: tuple[int, int] = (0, 0),
        mano: int = 0,
    ) -> State:
        """A new game dealt from ``random.Random(seed)``, or from the explicit
        ``deals`` (one per hand; the state stops when they run out, and
        ``State.supply_deal`` gives it the next: ``deals=[]`` deals every hand
        that way)."""
        if deals is None and seed is None:
            raise ValueError("new_state needs a seed or explicit deals")
        return State(self, seed, deals, scores, mano)

    def deal(self, rng: random.Random) -> Deal:
        """Shuffle with ``rng`` and give three cards to each seat, then the up card."""
        cards = list(DECK)
        shuffle(cards, rng)
        hands = tuple([cut(cards) for cut in self._cut])
        return Deal(hands, cards[3 * len(hands)] if self.needs_up else None)

    def table(self, up: Card | None) -> Table:
        """The card table of a hand with ``up`` turned up (``hierarchy.table``)."""
        key = -1 if up is None else up.index
        found = self._tables.get(key)
        if found is None:
            found = self._tables[key] = table(self.variant, up)
        return found

    def links(self, seats: tuple[int, ...]) -> tuple[dict[int, int], dict[int, int]]:
        """For a hand played by ``seats`` (in order from the mano): each
        seat's next seat, and each seat's place in that order."""
        found = self._links.get(seats)
        if found is None:
            n = len(seats)
            found = ({s: seats[(i + 1) % n] for i, s in enumerate(seats)}, {s: i for i, s in enumerate(seats)})
            self._links[seats] = found
        return found


def _draws(size: int) -> tuple[tuple[int, int, int], ...]:
    """The steps of a Fisher-Yates shuffle of ``size`` items: (i, n, bits),
    swap item i with one drawn uniformly below n = i + 1, which takes bits
    = n.bit_length() random bits."""
    return tuple((n - 1, n, n.bit_length()) for n in range(size, 1, -1))


_DECK_DRAWS = _draws(len(DECK))


def shuffle(cards: list[T], rng: random.Random) -> None:
    """Shuffle ``cards`` in place exactly as ``rng.shuffle(cards)`` does, with
    the same draws from the generator (CPython's Fisher-Yates: for i from the
    end, j uniform below i + 1 by rejection on ``getrandbits``), so every
    seed deals the cards it always dealt. Written out because the library's
    version makes two Python calls per draw, which made dealing the costliest
    step of a hand. tests/engine/test_engine_deal.py holds it to the library."""
    getrandbits = rng.getrandbits
    for i, n, bits in _DECK_DRAWS if len(cards) == len(DECK) else _draws(len(cards)):
        j = getrandbits(bits)
        while j >= n:
            j = getrandbits(bits)
        cards[i], cards[j] = cards[j], cards[i]


_NO_LINKS: tuple[dict[int, int], dict[int, int]] = ({}, {})
_NO_SCORES = (0, 0)


class _Hand:
    """What changes during one hand (or one pico-a-pico mini hand).

    The collections a hand grows are tuples, replaced rather than appended
    to: they hold a few items each, and immutable ones cost nothing to
    create empty or to share with a copy. Only ``history``, which grows on
    every action, is a list."""

    __slots__ = (
        "seats", "nxt", "order", "plays", "dealt", "table", "flor", "played",
        "trick", "tricks", "trick_no", "results", "turn", "truco_level", "truco_right", "truco_call",
        "env_state", "env_chain", "env_caller", "env_stake", "env_prev", "flor_declared",
        "flor_void", "flor_closed", "contest", "reservada_paid", "proofs", "pico", "history",
        "announced", "env_texts", "start_scores",
    )

    def __init__(self, seats: tuple[int, ...], deal: Deal | None, t: Table, flor_on: bool, pico: bool,
                 links: tuple[dict[int, int], dict[int, int]], start_scores: tuple[int, int]) -> None:
        if deal is None:  # copy() sets every slot itself
            return
        self.seats = seats
        self.nxt, self.order = links  # next seat in playing order; place in that order
        self.dealt = deal.hands  # indexed by seat, as dealt
        # Per seat, the PLAY actions of its unplayed cards: the start of every
        # legal tuple on its turn.
        self.plays: list[tuple[Action, ...]] = [
            (PLAYS[a.index], PLAYS[b.index], PLAYS[c.index]) for a, b, c in deal.hands
        ]
        self.table = t
        self.flor: dict[int, FlorKind] = {}
        if flor_on:
            special = t.special
            for s in seats:
                a, b, c = deal.hands[s]
                # Every flor has three cards of one suit or a special card.
                if a.suit is b.suit is c.suit or special[a.index] or special[b.index] or special[c.index]:
                    kind = flor_kind(t, deal.hands[s])
                    if kind:
                        self.flor[s] = kind
        self.played: tuple[int, ...] = ()  # seats that played a card
        self.trick: tuple[tuple[int, Card], ...] = ()
        self.tricks: tuple[tuple[tuple[int, Card], ...], ...] = ()  # the finished tricks, for observations
        self.trick_no = 0
        self.results: tuple[int, ...] = ()  # per finished trick: winning team or PARDA
        self.turn = seats[0]
        self.truco_level = 0  # accepted level: 0 none, 1 truco, 2 retruco, 3 vale cuatro/nueve
        self.truco_right: int | None = None  # team allowed to raise; None: either
        self.truco_call: tuple[int, int, int] | None = None  # (level, caller, answerer)
        self.env_state = _NOT_STARTED
        self.env_chain: tuple[Kind, ...] = ()
        self.env_caller = -1
        self.env_stake = 0  # raise mode: the stake
        self.env_prev = 1  # raise mode: the value of a decline
        self.flor_declared: tuple[int, ...] = ()
        self.flor_void: tuple[int, ...] = ()
        self.flor_closed = False
        self.contest: _Contest | None = None
        self.reservada_paid = False
        self.proofs: tuple[tuple[int, tuple[Card, ...]], ...] = ()
        self.pico = pico
        self.history: list[tuple[int, Action]] = []
        self.announced: tuple[tuple[str, int, int], ...] = ()
        self.env_texts: tuple[str, ...] = ()  # the envido chain in canonical text
        self.start_scores = start_scores

    def copy(self) -> _Hand:
        """An independent copy: the tuples and what never changes after the
        deal (seat order, dealt cards, flor kinds, the card table) are
        shared; the two lists and the flor contest are copied."""
        # A constructor call, not _Hand.__new__: the compiled build runs
        # __init__ for either, and a blank one costs nothing.
        new = _Hand(self.seats, None, self.table, False, False, _NO_LINKS, _NO_SCORES)
        new.seats, new.nxt, new.order, new.dealt = self.seats, self.nxt, self.order, self.dealt
        new.table, new.flor, new.pico = self.table, self.flor, self.pico
        new.plays = self.plays[:]
        new.played, new.trick, new.trick_no, new.results = self.played, self.trick, self.trick_no, self.results
        new.tricks = self.tricks
        new.turn = self.turn
        new.truco_level, new.truco_right, new.truco_call = self.truco_level, self.truco_right, self.truco_call
        new.env_state, new.env_chain, new.env_caller = self.env_state, self.env_chain, self.env_caller
        new.env_stake, new.env_prev, new.env_texts = self.env_stake, self.env_prev, self.env_texts
        new.flor_declared, new.flor_void = self.flor_declared, self.flor_void
        new.flor_closed, new.reservada_paid = self.flor_closed, self.reservada_paid
        new.contest = None if self.contest is None else self.contest.copy()
        new.proofs, new.announced = self.proofs, self.announced
        new.history = self.history[:]
        new.start_scores = self.start_scores
        return new


class _Contest:
    """A declared flor that an opposing flor holder must answer (rule 5.3)."""

    __slots__ = ("declarer", "answerer", "last", "caller", "stake", "prev", "calls")

    def __init__(self, declarer: int, answerer: int) -> None:
        self.declarer = declarer
        self.answerer = answerer  # the opposing flor holder
        self.last: Kind | None = None  # the stake call waiting, None: the flor itself
        self.caller = declarer  # who made the call now waiting
        self.stake = 3
        self.prev = 3
        self.calls: list[str] = ["flor"]

    def facing(self) -> int:
        return self.answerer if self.caller == self.declarer else self.declarer

    def copy(self) -> _Contest:
        new = _Contest(self.declarer, self.answerer)
        new.last, new.caller = self.last, self.caller
        new.stake, new.prev, new.calls = self.stake, self.prev, self.calls[:]
        return new


class State:
    """A game in progress. Use ``Game.new_state``."""

    # Slots: every apply reads a dozen of these, and a state made by copy()
    # would otherwise get a materialized __dict__ whose attribute reads the
    # interpreter cannot specialize (search bots play mostly on copies).
    __slots__ = (
        "game", "options", "seed", "_rng", "_rng_shared", "_deals", "_scores", "mano", "hands_played",
        "winner", "termination", "out_of_deals", "_log", "_events", "_event_texts", "_event_private",
        "_hand_events", "_malas_hands", "_deal", "_pairs", "_legal", "_to_act", "_played", "hand",
    )

    def __init__(
        self,
        game: Game,
        seed: int | None,
        deals: Sequence[Deal] | None,
        scores: tuple[int, int],
        mano: int,
        *,
        blank: bool = False,
    ) -> None:
        if blank:  # copy() sets every slot itself
            return
        self.game = game
        self.options = game.options
        self.seed = seed
        self._rng = random.Random(seed) if deals is None else None
        # Copy on write: after copy() both states hold the same generator, and
        # each takes a private copy of it before dealing with it.
        self._rng_shared = False
        self._deals = list(deals) if deals is not None else None
        self._scores = [scores[0], scores[1]]
        self.mano = mano % self.options.seats
        self.hands_played = 0
        self.winner: int | None = None
        self.termination: Termination | None = None
        self.out_of_deals = False
        # The event log as records, (event class, *its fields): building the
        # frozen event objects themselves cost a tenth of an action, and only a
        # reader of ``events`` needs them. ``_events`` holds the events built
        # so far, index for index with the log.
        self._log: list[tuple[Any, ...]] = []
        self._events: list[ev.Event] = []
        self._event_texts: list[str] = []  # str() of events[i], filled lazily by event_log()
        self._event_private: list[int | None] = []  # events[i].private_to, filled alongside
        self._hand_events = 0  # index in events where the current hand's events begin
        self._malas_hands = 0
        self._deal: Deal | None = None
        self._pairs: list[tuple[int, ...]] = []
        self._legal: tuple[Action, ...] | None = None  # None: not worked out since the last change
        self._to_act: int | None = None  # valid while _legal is not None
        self._played = 0  # the cards played from the current deal, bit card.index set
        self.hand: _Hand = None  # type: ignore[assignment]  # set by _start_hand
        if max(self._scores) >= self.options.target:
            self._finish(0 if self._scores[0] >= self._scores[1] else 1)
        else:
            self._next_deal()

    def __repr__(self) -> str:
        """One line for a debugger or a log: variant, hand, scores, who acts
        and the call waiting for an answer. Shows no card."""
        o = self.options
        head = f"State({o.variant}, {o.seats} seats, hand {self.hands_played + 1}, scores {self._scores[0]}-{self._scores[1]}"
        if self.winner is not None:
            return f"{head}, over: team {self.winner} won)"
        if self.out_of_deals:
            return f"{head}, out of deals)"
        text = f"{head}, seat {self.current_player()} to act"
        p = pending_call(self)
        if p is not None:
            text += f", pending {p.chain} call {' '.join(p.calls)!r} by seat {p.caller}"
            if p.stake:
                text += f" for {p.stake}"
        return text + ")"

    # ------------------------------------------------------------------ queries

    def is_terminal(self) -> bool:
        """True when the game is over (or a scenario's deals ran out)."""
        return self.winner is not None or self.out_of_deals

    def current_player(self) -> int | None:
        """The seat to act, or None when nothing can be played."""
        if self._legal is None:
            self._refresh()
        return self._to_act

    def returns(self) -> tuple[float, ...]:
        """Per seat: +1 for the winning team's seats, -1 for the others, 0 while running."""
        if self.winner is None:
            return tuple(0.0 for _ in range(self.options.seats))
        return tuple(1.0 if s % 2 == self.winner else -1.0 for s in range(self.options.seats))

    def outcome(self) -> Outcome | None:
        if self.winner is None or self.termination is None:
            return None
        return Outcome(self.termination, self.winner, (self._scores[0], self._scores[1]), self.hands_played)

    def observation(self, seat: int, log: bool = True) -> Observation:
        """What ``seat`` may see now (docs/rules.md 9); the only view bots get.
        ``log=False`` skips the human-readable event log."""
        return observe(self, seat, log)

    @property
    def scores(self) -> tuple[int, int]:
        """The two teams' scores now."""
        return (self._scores[0], self._scores[1])

    @property
    def events(self) -> ReadOnlyList[ev.Event]:
        """Every event so far, in order: a read-only view of what has happened
        until now (a slice of it is a tuple)."""
        return LiveList(self._built_events(), self._built_events)

    def _built_events(self) -> list[ev.Event]:
        """The event objects of the whole log, building those not built yet."""
        events, log = self._events, self._log
        for i in range(len(events), len(log)):
            record = log[i]
            events.append(record[0](*record[1:]))
        return events

    def event_log(self) -> tuple[ReadOnlyList[str], ReadOnlyList[int | None]]:
        """``str()`` and ``private_to`` of every event so far, index for index
        with ``events``, as read-only views. Each event is formatted once
        (events never change)."""
        texts, private = self._event_lists()
        return ReadOnlyList(texts), ReadOnlyList(private)

    def _event_lists(self) -> tuple[list[str], list[int | None]]:
        texts, private, events = self._event_texts, self._event_private, self._built_events()
        for i in range(len(texts), len(events)):
            e = events[i]
            texts.append(str(e))
            private.append(e.private_to)
        return texts, private

    def hand_events_start(self) -> int:
        """Index in ``events`` of the current hand's HandStarted (0 before any)."""
        return self._hand_events

    def unplayed(self, seat: int) -> tuple[Card, ...]:
        """``seat``'s cards of the current deal that it has not played."""
        if self._deal is None:
            return ()
        played = self._played
        return tuple(c for c in self._deal.hands[seat] if not played >> c.index & 1)

    def truco_value(self) -> int:
        """What the hand's truco is worth now (the accepted level)."""
        return self.game.truco_values[self.hand.truco_level]

    # ------------------------------------------------- dealing hand by hand

    def needs_deal(self) -> bool:
        """True when the game is not over but its explicit deals ran out: the
        state waits for ``supply_deal`` (``is_terminal()`` is True meanwhile).
        A state built with ``deals=[]`` needs its first deal at once."""
        return self.out_of_deals and self.winner is None

    def supply_deal(self, deal: Deal) -> None:
        """Deal the next hand of a state that ``needs_deal()``, so a caller
        can deal each hand as the game reaches it (a search library that
        models the deal as chance, card by card). ``ValueError`` if the state
        needs no deal or ``deal`` is not a valid deal for this game."""
        if not self.needs_deal():
            raise ValueError("supply_deal: the state needs no deal now")
        _check_deal(self.game, deal)
        assert self._deals is not None  # out_of_deals is only set in explicit-deals mode
        # A new list: copies of this state share the old one.
        self._deals = self._deals[: self.hands_played] + [deal]
        self.out_of_deals = False
        self._legal = None
        self._next_deal()

    # ------------------------------------------------------------ legal actions

    def legal_actions(self) -> tuple[Action, ...]:
        """Every action the seat to act may take now (empty when terminal).

        The tuple is cached until the next ``apply`` and shared by every
        caller, which is safe because neither it nor its actions can change."""
        if self._legal is None:
            self._refresh()
        return self._legal  # type: ignore[return-value]  # set by _refresh

    def _refresh(self) -> None:
        """Work out the seat to act and its legal actions, kept until the
        state changes (every change sets ``_legal`` to None).

        Apart from the card plays the actions depend on a few facts only
        (which call is waiting, which calls the seat may still make), so each
        such situation's actions are built once per game (``Game._menus``,
        keyed by those facts) and looked up after that."""
        if self.winner is not None or self.out_of_deals:
            self._to_act, self._legal = None, ()
            return
        h = self.hand
        c = h.contest
        if c is not None:  # rare: built every time
            self._to_act, self._legal = c.facing(), tuple(self._contest_answers(h, c))
            return
        if h.env_state is _WAITING:
            seat = h.nxt[h.env_caller]
            if self.game.variant.envido_mode is _RAISE_MODE:
                key: tuple[object, ...] = ("envido", self._envido_cap() - h.env_stake, self._can_declare_flor(h, seat))
            else:
                key = ("envido", h.env_texts, self._can_declare_flor(h, seat))
            self._to_act, self._legal = seat, self._menu(key, h)
            return
        if h.truco_call is not None:
            seat = h.truco_call[2]
            key = ("truco", h.truco_call[0], self._can_start_envido(h, seat), self._can_declare_flor(h, seat))
            self._to_act, self._legal = seat, self._menu(key, h)
            return
        # A seat on its turn: the most frequent case, so the checks of
        # _can_start_envido and _can_declare_flor are written out here.
        seat = h.turn
        level = h.truco_level
        may_call = level < 3 and (h.truco_right is None or h.truco_right == seat % 2)
        can_envido = h.env_state is _NOT_STARTED and h.trick_no == 0 and level == 0 and seat not in h.played
        can_flor = bool(h.flor) and self._can_declare_flor(h, seat)
        # The situation as 4 * (truco level callable + 1, 0: none) + 2 * envido + flor.
        code = ((level + 1) * 4 if may_call else 0) + (2 if can_envido else 0) + (1 if can_flor else 0)
        menu = self.game._turn_menus[code]
        if menu is None:
            menu = self.game._turn_menus[code] = self._menu(("turn", level if may_call else -1, can_envido, can_flor), h)
        self._to_act, self._legal = seat, h.plays[seat] + menu

    def _menu(self, key: tuple[object, ...], h: _Hand) -> tuple[Action, ...]:
        menus = self.game._menus
        found = menus.get(key)
        if found is None:
            found = menus[key] = tuple(self._build_menu(key, h))
        return found

    def _build_menu(self, key: tuple[object, ...], h: _Hand) -> list[Action]:
        """The actions of the situation ``key`` (see ``_compute_legal``) other
        than card plays, in the order ``legal_actions`` lists them."""
        v = self.game.variant
        what = key[0]
        if what == "envido":
            _, chain, can_flor = key
            acts = [simple(_QUIERO), simple(_NO_QUIERO)]
            if v.envido_mode is _RAISE_MODE:
                assert isinstance(chain, int)  # the room left for raises
                acts += [raise_by(n) for n in range(1, chain + 1)]
            else:
                acts += [simple(k) for k in self._envido_next(h.env_chain)]
            if can_flor:
                acts.append(simple(_FLOR))
            return acts
        if what == "truco":
            _, level, can_envido, can_flor = key
            assert isinstance(level, int)
            con_flor = v.flor_with_truco and can_flor
            acts = [simple(_QUIERO), simple(_NO_QUIERO)]
            if con_flor:
                acts.append(simple(_QUIERO, True))
            if level < 3:
                raise_kind = self.game.truco_calls[level]
                acts.append(simple(raise_kind))
                if con_flor:
                    acts.append(simple(raise_kind, True))
            if can_envido:
                acts += self._envido_openers()
            if can_flor:
                acts.append(simple(_FLOR))
            return acts
        assert what == "turn"
        _, level, can_envido, can_flor = key  # level -1: the seat may not call truco
        assert isinstance(level, int)
        acts = []
        if level >= 0:
            call = self.game.truco_calls[level]
            acts.append(simple(call))
            if v.flor_with_truco and can_flor:
                acts.append(simple(call, True))
        if can_envido:
            acts += self._envido_openers()
        if can_flor:
            acts.append(simple(_FLOR))
        acts.append(simple(_MAZO))
        return acts

    def _contest_answers(self, h: _Hand, c: _Contest) -> list[Action]:
        v = self.game.variant
        raising = v.envido_mode is _RAISE_MODE  # "flor + N más" bets like the envido
        if c.last is None and c.caller == c.declarer:  # facing the declared flor itself
            acts = [simple(k) for k in v.flor_answers]
            if raising:
                acts += [raise_by(n) for n in range(1, self._envido_cap() - c.stake + 1)]
            return acts
        acts = [simple(_QUIERO), simple(_NO_QUIERO)]
        if raising:
            acts += [raise_by(n) for n in range(1, self._envido_cap() - c.stake + 1)]
        elif v.contraflor_resto is not None and c.last in (Kind.CON_FLOR_ENVIDO, Kind.CONTRAFLOR):
            acts.append(simple(Kind.CONTRAFLOR_AL_RESTO))
        return acts

    def _envido_next(self, chain: tuple[Kind, ...]) -> list[Kind]:
        """Calls that may follow ``chain`` (rule 4.2: E, E, R, F in that order)."""
        out = []
        if len(chain) < 2 and all(k is Kind.ENVIDO for k in chain):
            out.append(Kind.ENVIDO)
        if Kind.REAL_ENVIDO not in chain and _FALTA_ENVIDO not in chain:
            out.append(Kind.REAL_ENVIDO)
        if _FALTA_ENVIDO not in chain and self.game.variant.falta_modes:
            out.append(_FALTA_ENVIDO)
        return out

    def _envido_openers(self) -> list[Action]:
        return [simple(k) for k in self.game.variant.envido_openers]

    def _can_start_envido(self, h: _Hand, seat: int) -> bool:
        # Rule 4.2 window; rule 5.2: a declared flor cancels envido for the hand.
        # (Written out again in _refresh for a seat on its turn.)
        return h.env_state is _NOT_STARTED and h.trick_no == 0 and seat not in h.played and h.truco_level == 0

    def _can_declare_flor(self, h: _Hand, seat: int) -> bool:
        # Rule 5.2: before the seat's first card, once; a flor reservada needs no
        # declaration. Decision: after a flor contest is settled no new flor is
        # declared in that hand (it only matters in team games).
        return (
            bool(h.flor)  # most hands have no flor at all
            and h.flor.get(seat) is _HOLDS_FLOR
            and seat not in h.played
            and seat not in h.flor_void
            and seat not in h.flor_declared
            and not h.flor_closed
        )

    def _envido_cap(self) -> int:
        """Raise mode (4.3 Decision): no stake above what the leader still needs."""
        return self.options.target - max(self._scores)

    def _falta(self) -> int:
        o = self.options
        leader = max(self._scores)
        if o.falta_envido == FaltaMode.MALAS_BUENAS and leader < o.half:
            return o.half - leader
        return o.target - leader

    # -------------------------------------------------------------------- apply

    def apply(self, action: Action) -> None:
        """Apply ``action`` for the seat to act; raise ``IllegalActionError`` if it
        is not one of ``legal_actions()``."""
        legal = self._legal
        if legal is None:
            self._refresh()
            legal = self._legal
            assert legal is not None
        # Actions are interned, so the one applied is nearly always one of the
        # legal tuple's own objects: look for it by identity first, since
        # comparing values runs the dataclass's __eq__ for every action passed.
        for candidate in legal:
            if candidate is action:
                break
        else:
            if action not in legal:
                raise IllegalActionError(self.current_player(), action, self.why_illegal(action))
        seat = self._to_act
        assert seat is not None
        self._legal = None
        h = self.hand
        h.history.append((seat, action))
        self._log.append((ev.Acted, seat, action))
        try:
            if action.kind is _PLAY:  # most actions: skip the dispatch
                assert action.card is not None
                self._play(h, seat, action.card)
            else:
                self._dispatch(h, seat, action)
        except _GameOverError:
            pass

    def _dispatch(self, h: _Hand, seat: int, a: Action) -> None:
        k = a.kind
        if k is _PLAY:
            assert a.card is not None
            self._play(h, seat, a.card)
        elif h.contest is not None:
            self._contest_action(h, h.contest, seat, a)
        elif k is _FLOR:
            self._declare_flor(h, seat)
        elif h.env_state is _WAITING or k in ENVIDO_CALLS or (k is _RAISE):
            self._envido_action(h, seat, a)
        elif k in TRUCO_CALLS or k in (_QUIERO, _NO_QUIERO):
            self._truco_action(h, seat, a)
        elif k is _MAZO:
            self._end_hand(1 - seat % 2, self.truco_value(), "mazo")
        else:  # pragma: no cover - legal_actions never offers anything else
            raise AssertionError(a)

    # ------------------------------------------------------------ trick play

    def _play(self, h: _Hand, seat: int, card: Card) -> None:
        plays, played = h.plays[seat], PLAYS[card.index]
        # Found by identity (comparing would run Action.__eq__); one slice
        # when it is the first or the last.
        if plays[0] is played:
            h.plays[seat] = plays[1:]
        elif plays[-1] is played:
            h.plays[seat] = plays[:-1]
        else:
            i = 1
            while plays[i] is not played:
                i += 1
            h.plays[seat] = plays[:i] + plays[i + 1 :]
        self._played |= 1 << card.index
        if seat not in h.played:
            h.played += (seat,)
        trick = h.trick = h.trick + ((seat, card),)
        if len(trick) < len(h.seats):
            h.turn = h.nxt[seat]
            return
        # Rule 3.2: the single highest card wins; a tie across sides is parda;
        # a tie within one side goes to that side, led on by its first card.
        rank = h.table.rank
        best, top = -1, [0]  # the best rank, and the seats holding it in playing order
        for s, c in trick:
            r = rank[c.index]
            if r > best:
                best, top = r, [s]
            elif r == best:
                top.append(s)
        first = top[0]
        if len(top) > 1 and any(s % 2 != first % 2 for s in top):
            result, leader = PARDA, trick[0][0]
        else:
            result, leader = first % 2, first
        h.results += (result,)
        self._log.append((ev.TrickWon, h.trick_no, None if result == PARDA else result))
        h.tricks += (trick,)
        h.trick = ()
        h.trick_no += 1
        h.turn = leader
        winner = self._truco_winner(h)
        if winner is not None:
            self._end_hand(winner, self.truco_value(), "truco")

    def _truco_winner(self, h: _Hand) -> int | None:
        """The team that won the hand's tricks, once certain (rule 3.2)."""
        r = h.results
        mano_team = h.seats[0] % 2
        if len(r) < 2:
            return None
        first, second = r[0], r[1]
        if first == PARDA:
            if second != PARDA:
                return second
            if len(r) < 3:
                return None
            return mano_team if r[2] == PARDA else r[2]
        if second == PARDA or second == first:
            return first
        if len(r) < 3:
            return None
        return first if r[2] == PARDA else r[2]

    # ------------------------------------------------------------------ truco

    def _truco_action(self, h: _Hand, seat: int, a: Action) -> None:
        k = a.kind
        if self.game.variant.flor_with_truco and h.flor.get(seat) is _HOLDS_FLOR and seat not in h.played:
            # Rule 5.2 (venezolano, flor_with_truco): a truco call or quiero must carry the flor.
            if not a.con_flor and k is not _NO_QUIERO:
                h.flor_void += (seat,)
        if k is _NO_QUIERO:
            assert h.truco_call is not None
            level, caller, _ = h.truco_call
            h.truco_call = None
            self._end_hand(caller % 2, self.game.truco_values[level - 1], "truco declined")
            return
        if k is _QUIERO:
            assert h.truco_call is not None
            h.truco_level = h.truco_call[0]
            h.truco_right = seat % 2
            h.truco_call = None
            if a.con_flor:
                self._declare_flor(h, seat)
            return
        # A call: truco on the seat's turn, or a raise ("quiero retruco") as an answer.
        if h.truco_call is not None:
            h.truco_level = h.truco_call[0]
        h.truco_right = None
        h.truco_call = (h.truco_level + 1, seat, h.nxt[seat])
        if a.con_flor:
            self._declare_flor(h, seat)

    # ----------------------------------------------------------------- envido

    def _envido_action(self, h: _Hand, seat: int, a: Action) -> None:
        k = a.kind
        if h.flor.get(seat) is _HOLDS_FLOR and seat not in h.flor_declared:
            h.flor_void += (seat,)  # rule 5.2: taking part in envido voids the flor
        v = self.game.variant
        raising = v.envido_mode is _RAISE_MODE
        if k is _QUIERO:
            h.env_state = _SETTLED
            if raising:
                value = h.env_stake
            elif h.env_chain[-1] is _FALTA_ENVIDO:
                value = self._falta()
            else:
                worth = self.game.envido_worth
                value = sum(worth.get(text, 0) for text in h.env_texts)
            self._settle_envido(h, value)
            return
        if k is _NO_QUIERO:
            h.env_state = _SETTLED
            if raising:
                value = h.env_prev
            elif len(h.env_chain) == 1:
                value = 1
            else:
                worth = self.game.envido_worth
                value = sum(worth.get(text, 0) for text in h.env_texts[:-1])
            self._score(h.env_caller % 2, value, "envido declined")
            return
        # A call that opens or raises the chain.
        if h.env_state is _NOT_STARTED:
            h.env_state = _WAITING
            h.env_stake, h.env_prev = 2, 1  # raise mode: "envido" stakes 2, declined it pays 1
        elif k is _RAISE:
            h.env_prev = h.env_stake
            h.env_stake += a.amount
        h.env_chain += (k,)
        h.env_texts += (a.text,)
        h.env_caller = seat

    def _settle_envido(self, h: _Hand, value: int) -> None:
        # Counted only now: most hands never compare an envido.
        env = {s: envido_points(h.table, h.dealt[s]) for s in h.seats}
        pts = {s: env[s][0] for s in h.seats}
        # Announce each side's best points (rule 4.4 "Information").
        for team in (h.seats[0] % 2, 1 - h.seats[0] % 2):
            seat = self._best_seat(h, [s for s in h.seats if s % 2 == team], pts)
            h.announced += (("envido", seat, pts[seat]),)
            self._log.append((ev.PointsAnnounced, "envido", seat, pts[seat]))
        winner = self._best_seat(h, list(h.seats), pts)
        h.proofs += ((winner, env[winner][1]),)
        self._score(winner % 2, value, "envido")

    @staticmethod
    def _best_seat(h: _Hand, seats: list[int], pts: dict[int, int]) -> int:
        """Highest points; a tie goes to the seat first in playing order from the mano."""
        best = seats[0]
        for s in seats[1:]:
            if pts[s] > pts[best] or (pts[s] == pts[best] and h.order[s] < h.order[best]):
                best = s
        return best

    # ------------------------------------------------------------------- flor

    def _declare_flor(self, h: _Hand, seat: int) -> None:
        h.flor_declared += (seat,)
        if h.env_state in (_NOT_STARTED, _WAITING):
            # Rule 5.2: la flor anula el envido (a waiting chain is unpaid).
            h.env_state = _CANCELLED
        team = seat % 2
        # The first opposing seat after the declarer that can still show a flor.
        s = h.nxt[seat]
        while s != seat:
            if s % 2 != team and (
                h.flor.get(s) is _RESERVADA and not h.reservada_paid or self._can_declare_flor(h, s)
            ):
                h.contest = _Contest(seat, s)
                return
            s = h.nxt[s]
        h.proofs += ((seat, h.dealt[seat]),)  # rule 9: a won flor is shown at the end
        self._score(team, 3, "flor")

    def _contest_action(self, h: _Hand, c: _Contest, seat: int, a: Action) -> None:
        k = a.kind
        v = self.game.variant
        if c.last is None and c.caller == c.declarer and k is not _RAISE:
            # The answer to the declared flor itself.
            if k is Kind.CON_FLOR_ME_ACHICO:
                h.proofs += ((c.declarer, h.dealt[c.declarer]),)
                self._close_contest(h, c, c.declarer % 2, 3, "flor (con flor me achico)")
                return
            self._mark_declared(h, seat)
            if k is _FLOR:
                per = 3 * (2 if v.flor_pays_every_declared else 1)
                self._close_contest(h, c, self._flor_winner(h, c), per, "flor")
                return
            c.last, c.caller = k, seat
            c.calls.append(str(a))
            c.stake = v.flor_stake(k)
            return
        if k is _RAISE:  # raise mode: "flor + N más"
            if c.last is None:
                self._mark_declared(h, seat)
            c.last, c.caller = k, seat
            c.calls.append(str(a))
            c.prev, c.stake = c.stake, c.stake + a.amount
            return
        if k is Kind.CONTRAFLOR_AL_RESTO:
            c.last, c.caller = k, seat
            c.calls.append(str(a))
            return
        if k is _NO_QUIERO:
            value = c.prev  # 3, unless a "raise N" raised the stake since
            h.proofs += ((c.caller, h.dealt[c.caller]),)
            self._close_contest(h, c, c.caller % 2, value, "flor declined")
            return
        assert k is _QUIERO
        winner = self._flor_winner(h, c)
        if c.last is Kind.CONTRAFLOR_AL_RESTO:
            if v.contraflor_resto is ContraflorResto.WINNER_NEEDS:
                stake = self.options.target - self._scores[winner]
            else:
                stake = self._falta()
        else:
            stake = c.stake
        self._close_contest(h, c, winner, stake, "flor")

    def _mark_declared(self, h: _Hand, seat: int) -> None:
        if h.flor.get(seat) is _HOLDS_FLOR and seat not in h.flor_declared:
            h.flor_declared += (seat,)

    def _flor_winner(self, h: _Hand, c: _Contest) -> int:
        cards = h.dealt
        pts = {s: flor_points(h.table, cards[s]) for s in (c.declarer, c.answerer)}
        for s in (c.declarer, c.answerer):
            if h.flor.get(s) is _RESERVADA:
                pts[s] = 1000  # rule 5.4: a flor reservada always wins the comparison
        for s in sorted(pts, key=h.order.__getitem__):
            shown = flor_points(h.table, cards[s])
            h.announced += (("flor", s, shown),)
            self._log.append((ev.PointsAnnounced, "flor", s, shown))
        winner = self._best_seat(h, [c.declarer, c.answerer], pts)
        h.proofs += ((winner, cards[winner]),)
        return winner % 2

    def _close_contest(self, h: _Hand, c: _Contest, team: int, points: int, reason: str) -> None:
        h.contest = None
        h.flor_closed = True
        reserved = next((s for s in (c.declarer, c.answerer) if h.flor.get(s) is _RESERVADA), None)
        self._score(team, points, reason)
        if reserved is not None and not h.reservada_paid:
            # Rule 5.4: answering a flor, the reservada collects the envido of 2 too.
            h.reservada_paid = True
            if h.env_state is not _SETTLED:
                self._score(reserved % 2, 2, "envido (flor reservada)")

    # ------------------------------------------------------- scoring and hands

    def _score(self, team: int, points: int, reason: str) -> None:
        if points <= 0:
            return
        self._scores[team] += points
        self._log.append((ev.Scored, team, points, reason))
        if self._scores[team] >= self.options.target:
            self._show_proofs(self.hand)
            self._finish(team)
            raise _GameOverError

    def _finish(self, team: int) -> None:
        self.winner = team
        self.termination = Termination.TARGET_REACHED
        self._legal = None
        self._log.append((ev.GameEnded, team, (self._scores[0], self._scores[1])))

    def _show_proofs(self, h: _Hand | None) -> None:
        """Show every seat's proving cards once, as dealt (rule 9)."""
        if h is None or not h.proofs:
            return
        cards: dict[int, set[Card]] = {}
        for seat, proof in h.proofs:
            cards.setdefault(seat, set()).update(proof)
        for seat, shown in cards.items():
            self._log.append((ev.Shown, seat, tuple(c for c in h.dealt[seat] if c in shown)))
        h.proofs = ()

    def _end_hand(self, truco_team: int, points: int, reason: str) -> None:
        """Score the hand in the order of rule 6: flor, envido, then truco."""
        h = self.hand
        h.truco_call = None
        for seat in h.seats if h.flor else ():
            if h.flor.get(seat) is _RESERVADA and not h.reservada_paid:
                # Rule 5.4: 3 for the flor + 1 "envite asegurado" unless an envido was played.
                h.reservada_paid = True
                h.proofs += ((seat, h.dealt[seat]),)
                self._score(seat % 2, 3, "flor reservada")
                if h.env_state is not _SETTLED:
                    self._score(seat % 2, 1, "envido (flor reservada)")
        self._score(truco_team, points, reason)
        self._show_proofs(h)
        self._next_hand()

    def _next_hand(self) -> None:
        if self._pairs:
            self._start_hand(self._pairs.pop(0), pico=True)
            return
        self._log.append((ev.HandEnded, self.hands_played, (self._scores[0], self._scores[1])))
        self.hands_played += 1
        self.mano = (self.mano + 1) % self.options.seats
        self._next_deal()

    def _next_deal(self) -> None:
        if self._deals is not None:
            if self.hands_played >= len(self._deals):
                self.out_of_deals = True
                return
            self._deal = self._deals[self.hands_played]
        else:
            assert self._rng is not None
            if self._rng_shared:
                # Seeded with a constant, then given the shared state: the
                # cheapest construction that works in both builds (the
                # compiled one cannot call Random.__new__ alone).
                own = random.Random(0)
                own.setstate(self._rng.getstate())
                self._rng, self._rng_shared = own, False
            self._deal = self.game.deal(self._rng)
        self._played = 0
        n, mano = self.options.seats, self.mano
        if self._is_pico_hand():
            # Rule 8: three 1-against-1 mini hands on one deal, starting with the
            # mano's pair; in each pair the seat nearer the mano is mano.
            self._pairs = [
                tuple(sorted(((mano + i) % n, (mano + i + 3) % n), key=lambda s: (s - mano) % n))
                for i in range(3)
            ]
            self._start_hand(self._pairs.pop(0), pico=True)
        else:
            self._start_hand(self.game.seat_orders[mano], pico=False)

    def _is_pico_hand(self) -> bool:
        o = self.options
        if not o.pico_a_pico or o.seats != 6 or max(self._scores) >= o.half:
            return False
        self._malas_hands += 1
        return self._malas_hands % 2 == 0  # rule 8: normal hand first, then alternate

    def _start_hand(self, seats: tuple[int, ...], pico: bool) -> None:
        deal = self._deal
        assert deal is not None
        t = self.game.table(deal.up)
        scores = (self._scores[0], self._scores[1])
        self.hand = _Hand(seats, deal, t, self.options.flor, pico, self.game.links(seats), scores)
        self._legal = None
        self._hand_events = len(self._log)
        self._log.append((ev.HandStarted, self.hands_played, seats[0], seats, deal.up, pico))
        for s in seats:
            self._log.append((ev.Dealt, s, deal.hands[s]))

    # ------------------------------------------------------------- explaining

    def why_illegal(self, action: Action, seat: int | None = None) -> str:
        """A human reason why ``seat`` (default: the seat to act) may not take ``action``."""
        to_act = self.current_player()
        if to_act is None:
            return "the game is over" if self.winner is not None else "no deals left"
        h = self.hand
        k = action.kind
        pending = h.contest is not None or h.env_state is EnvidoState.WAITING or h.truco_call is not None
        if seat is not None and seat != to_act:
            return self._why_not_your_turn(h, seat, to_act, action, pending)
        seat = to_act
        if k is Kind.PLAY:
            if pending:
                return f"seat {seat} must answer the pending call before playing a card"
            return f"seat {seat} does not hold {action.card}"
        if k is Kind.MAZO:
            return f"seat {seat} cannot go to the mazo while a call waits for an answer"
        if k in (Kind.QUIERO, Kind.NO_QUIERO) and not pending:
            return "there is no call to answer"
        if k in TRUCO_CALLS:
            if h.truco_call is not None and h.truco_call[1] % 2 == seat % 2:
                return f"seat {seat} cannot raise its own call"
            if k not in self.game.truco_calls:
                return f"{k.value} does not exist in {self.options.variant}"
            if h.truco_level >= 3:
                return "the truco is already at its highest level"
            if h.truco_right is not None and h.truco_right != seat % 2:
                return (f"seat {seat} cannot raise its own call: the side that accepted "
                        "the truco holds the right to raise")
            expected = self.game.truco_calls[h.truco_level if h.truco_call is None else h.truco_call[0]]
            if k is not expected:
                return f"the next truco call is {expected.value}, not {k.value}"
            if action.con_flor:
                return f"seat {seat} has no flor to declare"
            if pending:
                return f"seat {seat} must answer the pending call first"
        if k in ENVIDO_CALLS or k is Kind.RAISE:
            if h.env_state is EnvidoState.CANCELLED or h.flor_declared:
                return "a declared flor cancels the envido for this hand"
            if h.env_state is EnvidoState.SETTLED:
                return "only one envido chain per hand"
            if h.env_state is EnvidoState.WAITING:
                return f"{action} cannot follow {'-'.join(c.value for c in h.env_chain)} here"
            if h.trick_no > 0:
                return "envido is only possible in the first trick"
            if seat in h.played:
                return f"seat {seat} has already played its first card"
            if h.truco_level > 0:
                return "no envido once a truco has been accepted"
        if k is Kind.FLOR or k in (Kind.CON_FLOR_ENVIDO, Kind.CONTRAFLOR, Kind.CONTRAFLOR_AL_RESTO, Kind.CON_FLOR_ME_ACHICO):
            if h.flor.get(seat) is None:
                return f"seat {seat} holds no flor" if self.options.flor else "flor is off in this game"
            if seat in h.played or seat in h.flor_void:
                return f"seat {seat}'s flor is void"
        if pending:
            return f"{action} is not an answer to the pending call"
        return f"{action} is not legal now"

    def _why_not_your_turn(self, h: _Hand, seat: int, to_act: int, action: Action, pending: bool) -> str:
        if seat not in h.order:
            return f"seat {seat} does not take part in this pico-a-pico mini hand"
        if pending:
            callers = [h.truco_call[1] if h.truco_call else None, h.env_caller if h.env_state is EnvidoState.WAITING else None,
                       h.contest.caller if h.contest else None]
            if seat in callers or any(c is not None and c % 2 == seat % 2 for c in callers):
                if action.kind in TRUCO_CALLS or action.kind in ENVIDO_CALLS or action.kind is Kind.RAISE:
                    return f"seat {seat} cannot raise its own call"
                if action.kind is Kind.MAZO:
                    return f"seat {seat} cannot go to the mazo while its own call waits for an answer"
                if action.kind is Kind.PLAY:
                    return f"no card may be played while a call waits for seat {to_act}'s answer"
            return f"seat {to_act} must answer the pending call, not seat {seat}"
        return f"it is seat {to_act}'s turn, not seat {seat}'s"

    # ---------------------------------------------------------------- copying

    def copy(self) -> State:
        """An independent copy for search, in microseconds: the ``Game``, the
        options, the deals and the (immutable) events are shared, and only what
        play mutates is copied. The deal's random generator is copied when one
        of the two next deals, so both deal the same cards from here on."""
        # A constructor call, not State.__new__: the compiled build runs
        # __init__ for either.
        new = State(self.game, None, None, _NO_SCORES, 0, blank=True)
        # Scalars and immutable values, shared.
        new.game, new.options, new.seed, new._rng, new._deals = self.game, self.options, self.seed, self._rng, self._deals
        new.mano, new.hands_played, new.winner, new.termination = self.mano, self.hands_played, self.winner, self.termination
        new.out_of_deals, new._hand_events, new._malas_hands = self.out_of_deals, self._hand_events, self._malas_hands
        new._deal, new._legal, new._to_act, new._played = self._deal, self._legal, self._to_act, self._played
        new.hand = self.hand
        new._scores = self._scores[:]
        new._log = self._log[:]
        new._events = self._events[:]
        new._event_texts = self._event_texts[:]
        new._event_private = self._event_private[:]
        new._pairs = self._pairs[:]
        self._rng_shared = new._rng_shared = self._rng is not None
        if self.hand is not None:
            new.hand = self.hand.copy()
        return new

    def __deepcopy__(self, memo: dict[int, object]) -> State:
        """``copy()``, which is already independent: what it shares never
        changes. Spelled out because the compiled build cannot rebuild a
        state through ``__reduce_ex__``."""
        return self.copy()

    def clone(self) -> State:
        """The same as ``copy()``: the name search code used before it existed."""
        return self.copy()


# The observer: what a seat sees of a state, built from the state's named parts.

def pending_call(state: State) -> PendingCall | None:
    """The bet of ``state``'s hand waiting for an answer, if any (public)."""
    h = state.hand
    c = h.contest
    if c is not None:
        stake = c.stake if c.last is not None else 3
        if c.last is Kind.CONTRAFLOR_AL_RESTO:
            # The falta, or what the winner needs: 0, as it depends on the comparison.
            falta = state.game.variant.contraflor_resto is ContraflorResto.FALTA
            stake = state._falta() if falta else 0
        return PendingCall("flor", tuple(c.calls), c.caller, c.facing(), stake)
    if h.env_state is EnvidoState.WAITING:
        stake = h.env_stake if state.game.variant.envido_mode is EnvidoMode.RAISE else 0
        return PendingCall("envido", tuple(h.env_texts), h.env_caller, h.nxt[h.env_caller], stake)
    if h.truco_call is not None:
        level, caller, answerer = h.truco_call
        calls = tuple(k.value for k in state.game.truco_calls[:level])
        return PendingCall("truco", calls, caller, answerer, state.game.truco_values[level])
    return None


def observe(state: State, seat: int, log: bool = True) -> Observation:
    """``seat``'s view of ``state``. ``log=False`` leaves ``events`` empty: the
    text log is the costly part, and searching bots do not read it."""
    h = state.hand
    pending = pending_call(state)
    tricks = h.tricks + (h.trick,) if h.trick else h.tricks
    to_act = state.current_player()
    lines = _log(state, seat) if log else ()
    deal = state._deal
    return _observation(
        seat,  # seat
        state.options.variant,  # variant
        state.options.seats,  # seats
        state.options.target,  # target
        state.scores,  # scores
        state.hands_played,  # hand_number
        h.seats[0],  # mano
        h.seats,  # hand_seats
        h.pico,  # pico
        deal.up if deal else None,  # up_card
        state.unplayed(seat),  # hand
        deal.hands[seat] if deal else (),  # dealt
        h.start_scores,  # hand_start_scores
        tuple(h.history),  # history
        tricks,  # tricks
        tuple(None if r < 0 else r for r in h.results),  # trick_winners
        h.truco_level,  # truco_level
        state.game.truco_values[h.truco_level],  # truco_value
        pending,  # pending
        tuple(h.announced),  # announced
        tuple(h.flor_declared),  # flor_declared
        to_act,  # to_act
        state.legal_actions() if to_act == seat else (),  # legal
        lines,  # events
    )


def _log(state: State, seat: int) -> tuple[str, ...]:
    """This hand's events that ``seat`` may see, as text."""
    texts, private = state._event_lists()
    return tuple([
        texts[i] for i in range(state.hand_events_start(), len(texts))
        if private[i] is None or private[i] == seat
    ])
