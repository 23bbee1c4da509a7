"""The referee over random games never tells a seat a card it may not see.

Decisions must be exactly the engine's own ``State.observation(seat)``. Hand
summaries are checked against the rule of ``arena.referee.hand_end``, worked
out here again from the raw event log: a seat's summary holds the hand's
public events and the seat's own private ones, in order, and no card other
than its own, the up card, cards played in the hand and cards shown as proof.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import pytest

from arena.engine import events as ev
from arena.engine.options import make_options
from arena.engine.outcome import Termination
from arena.referee import Decision, GameEnd, HandEnd, Referee

CARD = re.compile(r"(?<![0-9A-Za-z])(?:1[0-2]|[1-7])[EBOC](?![0-9A-Za-z])")

CASES = [
    ("argentino", {}),
    ("argentino", {"seats": 4}),
    ("argentino", {"seats": 6, "pico_a_pico": True}),
    ("uruguayo", {}),
    ("venezolano", {}),
]


@dataclass
class Transcript:
    """Everything the referee said in one game, and the game it said it of."""

    referee: Referee
    summaries: list[HandEnd] = field(default_factory=list)
    decisions: int = 0
    forfeited: bool = False
    ends: tuple[GameEnd, ...] = ()


def play(variant: str, overrides: dict[str, object], seed: int, stop_after: int | None) -> Transcript:
    """A game of random legal choices; ``stop_after`` actions, if given, ends
    it there with a forfeit, as a fault would."""
    referee = Referee(make_options(variant, {"target": 15, **overrides}), seed)
    rng = random.Random(seed)
    t = Transcript(referee)
    starts = referee.start()
    assert [s.seat for s in starts] == list(range(referee.options.seats))
    while (d := referee.decision()) is not None:
        check_decision(referee, d)
        t.decisions += 1
        if stop_after is not None and t.decisions > stop_after:
            outcome = referee.forfeit(d.seat, Termination.TIMEOUT)
            t.forfeited = True
            break
        t.summaries.extend(referee.play(rng.choice(d.legal)))
    else:
        outcome = referee.outcome()
    cut = referee.cut_short(outcome)
    if cut is not None:
        t.summaries.extend(cut)
    t.ends = referee.end(outcome)
    return t


def check_decision(referee: Referee, d: Decision) -> None:
    state = referee.state
    assert d.seat == state.current_player()
    assert d.observation == state.observation(d.seat)
    assert tuple(d.legal) == state.legal_actions()
    assert d.legal_texts == tuple(a.text for a in d.legal)


def hand_slices(events: Sequence[ev.Event]) -> list[list[ev.Event]]:
    """The event log cut into hands: each ends with its HandEnded, the last
    one possibly cut short by the game's end."""
    out: list[list[ev.Event]] = []
    current: list[ev.Event] = []
    for e in events:
        current.append(e)
        if isinstance(e, ev.HandEnded):
            out.append(current)
            current = []
    if any(isinstance(e, ev.HandStarted) for e in current):
        out.append(current)
    return out


def cards_in(h: HandEnd) -> set[str]:
    seen = {c for line in h.events for c in CARD.findall(line)}
    seen |= {str(c) for _, cards in h.shown for c in cards}
    seen |= {str(a.card) for _, a in h.history if a.card is not None}
    return seen


def check_summaries(t: Transcript) -> int:
    seats = t.referee.options.seats
    hands = hand_slices(t.referee.state.events)
    assert len(t.summaries) == seats * len(hands)
    for n, hand in enumerate(hands):
        mine = t.summaries[n * seats:(n + 1) * seats]
        assert [h.seat for h in mine] == list(range(seats))
        dealt: dict[int, set[str]] = {}
        public: set[str] = set()
        for e in hand:
            if isinstance(e, ev.Dealt):
                dealt.setdefault(e.seat, set()).update(str(c) for c in e.cards)
            elif isinstance(e, ev.HandStarted) and e.up_card is not None:
                public.add(str(e.up_card))
            elif isinstance(e, ev.Acted) and e.action.card is not None:
                public.add(str(e.action.card))
            elif isinstance(e, ev.Shown):
                public.update(str(c) for c in e.cards)
        for h in mine:
            assert h.events == tuple(str(e) for e in hand if e.private_to in (None, h.seat))
            assert h.cut_short == (not isinstance(hand[-1], ev.HandEnded))
            allowed = public | dealt.get(h.seat, set())
            assert cards_in(h) <= allowed, f"seat {h.seat} told {cards_in(h) - allowed}"
            for other, cards in dealt.items():
                if other != h.seat:
                    assert not (cards - public) & cards_in(h), f"seat {h.seat} saw seat {other}'s hidden cards"
    return len(hands)


@pytest.mark.parametrize("variant,overrides", CASES)
def test_full_games_tell_each_seat_only_what_it_may_see(variant: str, overrides: dict[str, object]) -> None:
    hands = 0
    for seed in range(12):
        t = play(variant, overrides, seed, None)
        hands += check_summaries(t)
        winner = t.referee.state.winner
        assert [e.won for e in t.ends] == [s % 2 == winner for s in range(t.referee.options.seats)]
    assert hands > 12


@pytest.mark.parametrize("variant,overrides", CASES)
def test_games_cut_short_by_a_fault_summarise_the_open_hand(variant: str, overrides: dict[str, object]) -> None:
    cut = 0
    for seed in range(12):
        t = play(variant, overrides, 1000 + seed, stop_after=random.Random(seed).randrange(1, 20))
        check_summaries(t)
        if t.forfeited:
            cut += 1
            assert t.summaries[-1].cut_short
            assert all(e.outcome.termination is Termination.TIMEOUT for e in t.ends)
            faulty = t.ends[0].outcome.faulty_seat
            assert faulty is not None
            assert [e.won for e in t.ends] == [s % 2 != faulty % 2 for s in range(len(t.ends))]
    assert cut > 6, cut
