"""Replay a stored game exactly, from its deal seed and action log.

The game is played again through the engine. Each deal gets a second state
that is dealt the same cards and stops when that deal is over, so the view
after a hand's last action is the finished hand (its last trick on the table)
rather than the next deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from arena.errors import DomainError

from ..engine import Action, Card, Deal, Game, IllegalActionError, Kind, Options, State
from ..engine import events as ev
from ..referee import public_events
from .model import (
    Announcement,
    Call,
    Category,
    GameInfo,
    GameReplay,
    HandRecord,
    PlayedCard,
    ScoreEntry,
    ShownCards,
    Step,
    Trick,
    Views,
)
from .table_views import views_of


class ReplayError(DomainError, ValueError):
    """The action log does not replay on this deal; the message is one line."""


def category_of(reason: str) -> Category:
    """The category of a ``Scored`` reason ("flor reservada", "envido declined", "mazo" ...)."""
    if reason.startswith("flor"):
        return Category.FLOR
    if reason.startswith("envido"):
        return Category.ENVIDO
    return Category.TRUCO  # truco, truco declined, mazo


@dataclass
class _HandBuilder:
    number: int
    mano: int
    seats: tuple[int, ...]
    pico: bool
    up_card: Card | None
    start_scores: tuple[int, int]
    first_step: int
    deal: dict[int, tuple[Card, ...]] = field(default_factory=dict)
    calls: list[Call] = field(default_factory=list)
    tricks: list[Trick] = field(default_factory=list)
    trick: list[PlayedCard] = field(default_factory=list)
    announced: list[Announcement] = field(default_factory=list)
    scored: list[ScoreEntry] = field(default_factory=list)
    shown: list[ShownCards] = field(default_factory=list)
    end_scores: tuple[int, int] | None = None
    last_step: int = -1
    start: Views | None = None


def replay(options: Options, seed: int, actions: Sequence[str], *, game_id: str = "",
           bots: Sequence[str] = (), mano: int = 0, termination: str = "target_reached",
           reason: str = "", winner_team: int | None = None) -> GameReplay:
    """Replay ``actions`` ("SEAT ACTION") on the deal of ``seed``. Raises
    ``ReplayError`` for an action log that does not fit the deal.
    ``winner_team`` is the recorded winner of a game a failure cut short (the
    rules name the winner of any other game)."""
    return _Replayer(options, seed, mano).run(actions, game_id, bots, termination, reason, winner_team)


class _Replayer:
    def __init__(self, options: Options, seed: int, mano: int) -> None:
        self.game = Game(options)
        self.mano = mano
        self.state = self.game.new_state(seed=seed, mano=mano)
        self.deals: list[Deal] = []
        self.deal_number = -1
        self.shadow: State = self.state
        self.hands: list[_HandBuilder] = []
        self.cursor = 0  # events of the main state already read
        self.scores = (self.state.scores[0], self.state.scores[1])
        self.applied: list[Action] = []

    def run(self, actions: Sequence[str], game_id: str, bots: Sequence[str], termination: str,
            reason: str, winner_team: int | None) -> GameReplay:
        self._absorb(step=0)
        steps: list[Step] = []
        for index, text in enumerate(actions):
            seat, action = self._parse(index, text)
            hand = len(self.hands) - 1
            try:
                self.state.apply(action)
            except IllegalActionError as exc:
                raise ReplayError(f"step {index} ({text!r}): {exc.reason}") from None
            self.shadow.apply(action)
            self.applied.append(action)
            if tuple(self.shadow.scores) != tuple(self.state.scores):  # pragma: no cover - same rules, same cards
                raise ReplayError(f"step {index}: the per-deal replay disagrees with the game's scores")
            views = views_of(self.shadow, hand, self.hands[hand].first_step)
            events_start = self.cursor
            self.hands[hand].last_step = index
            self._absorb(step=index)
            steps.append(Step(index, hand, seat, str(action), (self.state.scores[0], self.state.scores[1]),
                              public_events(self.state, events_start), views))
        if termination == "target_reached" and not self.state.is_terminal():
            raise ReplayError(f"the action log ends after {len(actions)} actions, before the game is over")
        scores = (self.state.scores[0], self.state.scores[1])
        info = GameInfo(
            game_id=game_id,
            bots=tuple(bots),
            variant=self.game.options.variant,
            options=tuple(sorted(self.game.options.to_dict().items())),
            seed=self.state.seed if self.state.seed is not None else 0,
            mano=self.mano,
            termination=termination,
            winner_team=self.state.winner if self.state.winner is not None else winner_team,
            reason=reason,
            scores=scores,
        )
        return GameReplay(info, tuple(self._freeze(h, scores, self.game.options.seats) for h in self.hands), tuple(steps))

    def _parse(self, index: int, text: str) -> tuple[int, Action]:
        seat_text, _, action_text = text.partition(" ")
        if not seat_text.isdigit():
            raise ReplayError(f"step {index}: {text!r} is not 'SEAT ACTION'")
        try:
            action = Action.parse(action_text)
        except ValueError as exc:
            raise ReplayError(f"step {index}: {exc}") from None
        seat = int(seat_text)
        to_act = self.state.current_player()
        if seat != to_act:
            raise ReplayError(f"step {index} ({text!r}): seat {seat} acted but seat {to_act} was to act")
        return seat, action

    def _absorb(self, step: int) -> None:
        """Read the main state's new events into the hand records."""
        events = self.state.events
        for e in events[self.cursor:]:
            hand = self.hands[-1] if self.hands else None
            if isinstance(e, ev.HandStarted):
                # A hand's first step is the next action; a hand that starts before any action starts at 0.
                first = step + 1 if self.applied else 0
                self.hands.append(_HandBuilder(len(self.hands), e.mano, e.seats, e.pico, e.up_card,
                                               self.scores, first))
                if e.hand != self.deal_number:
                    self._new_deal(e.hand)
            elif hand is None:
                continue
            elif isinstance(e, ev.Dealt):
                hand.deal[e.seat] = e.cards
            elif isinstance(e, ev.Acted):
                if e.action.kind is Kind.PLAY and e.action.card is not None:
                    hand.trick.append(PlayedCard(e.seat, e.action.card))
                else:
                    hand.calls.append(Call(step, e.seat, str(e.action)))
            elif isinstance(e, ev.TrickWon):
                hand.tricks.append(Trick(tuple(hand.trick), True, e.team))
                hand.trick = []
            elif isinstance(e, ev.PointsAnnounced):
                hand.announced.append(Announcement(e.what, e.seat, e.points))
            elif isinstance(e, ev.Scored):
                hand.scored.append(ScoreEntry(step, e.team, e.points, e.reason, category_of(e.reason)))
                totals = list(self.scores)
                totals[e.team] += e.points
                self.scores = (totals[0], totals[1])
            elif isinstance(e, ev.Shown):
                hand.shown.append(ShownCards(e.seat, e.cards))
            elif isinstance(e, (ev.HandEnded, ev.GameEnded)):
                hand.end_scores = self.scores
        self.cursor = len(events)
        for hand in self.hands:
            if hand.start is None:
                hand.start = views_of(self.shadow, hand.number, hand.first_step)

    def _new_deal(self, number: int) -> None:
        """A second state on the deals so far, caught up with the game: it stops when this deal ends."""
        seats = range(self.game.options.seats)
        observations = [self.state.observation(s, log=False) for s in seats]
        self.deals.append(Deal(tuple(o.dealt for o in observations), observations[0].up_card))
        self.deal_number = number
        shadow = self.game.new_state(deals=self.deals, mano=self.mano)
        for action in self.applied:
            shadow.apply(action)
        self.shadow = shadow

    @staticmethod
    def _freeze(h: _HandBuilder, final: tuple[int, int], seats: int) -> HandRecord:
        tricks = list(h.tricks)
        if h.trick:  # a hand that ended (mazo, a declined truco, the game) with a trick half played
            tricks.append(Trick(tuple(h.trick), False, None))
        assert h.start is not None
        return HandRecord(
            number=h.number, mano=h.mano, seats=h.seats, pico=h.pico,
            up_card=h.up_card, deal=tuple(h.deal.get(s) for s in range(seats)),
            calls=tuple(h.calls), tricks=tuple(tricks), announced=tuple(h.announced), scored=tuple(h.scored),
            shown=tuple(h.shown), start_scores=h.start_scores,
            end_scores=h.end_scores if h.end_scores is not None else final,
            first_step=h.first_step, last_step=h.last_step if h.last_step >= 0 else h.first_step - 1,
            start=h.start,
        )

