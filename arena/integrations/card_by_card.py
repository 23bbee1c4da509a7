"""An engine game whose every deal is dealt one card at a time, so that a
search library sees the deal as chance: each chance outcome is one card of
the cards not yet dealt in this hand, all equally likely.

The dealer deals like at a table: the k-th card (k = 0 .. 3n-1) goes to seat
``(mano + k) % n``, starting with the mano; then, where the variant has one,
the up card is turned. The engine gets the whole deal through
``State.supply_deal`` once its last card is out.

No library here: both the OpenSpiel and the PettingZoo integration use it,
and ``resample`` (a world consistent with what one seat saw) is the belief
sampler that information-set search needs.
"""

from __future__ import annotations

import random

from arena.engine import DECK, Action, Card, Deal, Game, IllegalActionError, State

from .seat_view import visible_log


class CardByCard:
    """An engine ``State`` plus the deal in progress. ``copy()`` is cheap."""

    __slots__ = ("game", "state", "incoming", "deal_start", "since_deal", "steps", "deal_start_step")

    def __init__(self, game: Game) -> None:
        self.game = game
        self.state: State = game.new_state(deals=[])
        self.incoming: list[Card] = []  # cards dealt so far in this deal, in order
        # The engine state just before this deal's first card, and every
        # player action since its last card: what resampling replays.
        self.deal_start: State = self.state.copy()
        self.since_deal: list[Action] = []
        self.steps = 0  # cards dealt and actions taken so far
        self.deal_start_step = 0  # ``steps`` when this deal's first card came

    def copy(self) -> CardByCard:
        new = CardByCard.__new__(CardByCard)
        new.game = self.game
        new.state = self.state.copy()
        new.incoming = self.incoming[:]
        new.deal_start = self.deal_start  # never mutated: replays copy it first
        new.since_deal = self.since_deal[:]
        new.steps, new.deal_start_step = self.steps, self.deal_start_step
        return new

    def __deepcopy__(self, memo: object) -> CardByCard:
        return self.copy()

    @property
    def deal_size(self) -> int:
        return 3 * self.game.options.seats + (1 if self.game.needs_up else 0)

    def is_dealing(self) -> bool:
        return self.state.needs_deal()

    def undealt(self) -> list[Card]:
        """The cards chance may deal next, in deck order."""
        taken = set(self.incoming)
        return [c for c in DECK if c not in taken]

    def receiver(self, k: int) -> int | None:
        """The seat the k-th card of a deal goes to; None for the up card."""
        n = self.game.options.seats
        return (self.state.mano + k) % n if k < 3 * n else None

    def received(self, seat: int) -> tuple[Card, ...]:
        """The cards of the deal in progress that reached ``seat`` so far."""
        return tuple(c for k, c in enumerate(self.incoming) if self.receiver(k) == seat)

    def deal_card(self, card: Card) -> None:
        if not self.is_dealing():
            raise ValueError("no deal is in progress")
        if card in self.incoming:
            raise ValueError(f"{card} is already dealt")
        if not self.incoming:
            self.deal_start = self.state.copy()
            self.since_deal = []
            self.deal_start_step = self.steps
        self.incoming.append(card)
        self.steps += 1
        if len(self.incoming) == self.deal_size:
            self.state.supply_deal(self._deal_of(self.incoming))
            self.incoming = []

    def _deal_of(self, cards: list[Card]) -> Deal:
        n = self.game.options.seats
        hands: list[list[Card]] = [[] for _ in range(n)]
        for k, c in enumerate(cards[: 3 * n]):
            hands[(self.state.mano + k) % n].append(c)
        up = cards[3 * n] if self.game.needs_up else None
        return Deal(tuple(tuple(h) for h in hands), up)

    def apply(self, action: Action) -> None:
        self.state.apply(action)
        self.since_deal.append(action)
        self.steps += 1

    def deal_order(self, deal: Deal) -> list[Card]:
        """The chance outcomes, in order, that deal ``deal`` from ``deal_start``."""
        n = self.game.options.seats
        mano = self.deal_start.mano
        order = [deal.hands[(mano + k) % n][k // n] for k in range(3 * n)]
        return order + ([deal.up] if deal.up is not None else [])

    def resample(self, seat: int, rng: random.Random, tries: int = 20000) -> Deal:
        """A deal for the current hand drawn uniformly among those consistent
        with everything ``seat`` saw: its own cards, the up card and the cards
        played stay; the other cards are redealt, and a redeal is kept only if
        replaying the hand's actions is legal and shows ``seat`` exactly what
        it saw (points said aloud, flor declarations and contests, scores).
        The other seats' choices are not weighted by how likely they were
        with each deal: the usual determinization of information-set search.
        Earlier hands no longer affect the game and are left as they were.
        ``RuntimeError`` if ``tries`` redeals all fail."""
        if self.is_dealing():
            raise ValueError("resample needs a dealt hand, not a deal in progress")
        real = _current_deal(self.state)
        n = self.game.options.seats
        # Per seat, the cards it must keep where they are (None: redealt):
        # all of ``seat``'s own, the played ones of the others.
        kept: list[list[Card | None]] = []
        for s in range(n):
            unplayed = set(self.state.unplayed(s)) if s != seat else set()
            kept.append([None if c in unplayed else c for c in real.hands[s]])
        fixed = {c for cards in kept for c in cards if c is not None}
        if real.up is not None:
            fixed.add(real.up)
        pool = [c for c in DECK if c not in fixed]
        since = len(self.deal_start.events)
        want = visible_log(self.state, seat, since)
        for _ in range(tries):
            rng.shuffle(pool)
            fresh = iter(pool)
            hands = tuple(tuple(c if c is not None else next(fresh) for c in cards) for cards in kept)
            deal = Deal(hands, real.up)
            if self._replays_to(deal, seat, want, since):
                return deal
        raise RuntimeError(f"no consistent deal found in {tries} tries")

    def _replays_to(self, deal: Deal, seat: int, want: list[str], since: int) -> bool:
        state = self.deal_start.copy()
        state.supply_deal(deal)
        try:
            for a in self.since_deal:
                state.apply(a)
        except IllegalActionError:
            return False
        return visible_log(state, seat, since) == want


def _current_deal(state: State) -> Deal:
    """The deal of ``state``'s current hand (the one observation shows)."""
    hands = tuple(state.observation(s, log=False).dealt for s in range(state.options.seats))
    return Deal(hands, state.observation(0, log=False).up_card)
