"""Protocol messages -> the engine's typed values, for ``Bot.choose``.

Card and action texts repeat endlessly, so each distinct text is parsed once
and looked up after that (this runs for every decision).
"""

from __future__ import annotations

from collections.abc import Iterable

from arena.engine.actions import Action
from arena.engine.cards import CARD_BY_TEXT, Card
from arena.engine.observation import Observation, PendingCall
from arena.engine.options import Options
from arena.protocol import arena_pb2 as pb

from .bot import GameInfo, HandSummary

_ACTIONS: dict[str, Action] = {}
_ACTIONS_MAX = 4096  # bounds the cache against an arena that sends junk


def card(text: str) -> Card:
    c = CARD_BY_TEXT.get(text)
    return c if c is not None else Card.parse(text)


def action(text: str) -> Action:
    a = _ACTIONS.get(text)
    if a is None:
        a = Action.parse(text)
        if len(_ACTIONS) < _ACTIONS_MAX:
            _ACTIONS[text] = a
    return a


def _cards(texts: Iterable[str]) -> tuple[Card, ...]:
    return tuple([card(t) for t in texts])


def pair(values: Iterable[int]) -> tuple[int, int]:
    a, b = values
    return (a, b)


def _winners(results: Iterable[pb.TrickResult]) -> tuple[int | None, ...]:
    return tuple([r.team if r.HasField("team") else None for r in results])


def _history(actions: Iterable[pb.SeatAction]) -> tuple[tuple[int, Action], ...]:
    return tuple([(a.seat, action(a.action)) for a in actions])


def observation(d: pb.Decision) -> Observation:
    """The engine ``Observation`` of a Decision, ``legal`` included."""
    o = d.observation
    p = o.pending if o.HasField("pending") else None
    return Observation(
        seat=o.seat,
        variant=o.variant,
        seats=o.seats,
        target=o.target,
        scores=pair(o.scores),
        hand_number=o.hand_number,
        mano=o.mano,
        hand_seats=tuple(o.hand_seats),
        pico=o.pico,
        up_card=card(o.up_card) if o.up_card else None,
        hand=_cards(o.hand),
        dealt=_cards(o.dealt),
        hand_start_scores=pair(o.hand_start_scores),
        history=_history(o.history),
        tricks=tuple([tuple([(c.seat, card(c.card)) for c in t.cards]) for t in o.tricks]),
        trick_winners=_winners(o.trick_winners),
        truco_level=o.truco_level,
        truco_value=o.truco_value,
        pending=None if p is None else PendingCall(p.chain, tuple(p.calls), p.caller, p.answerer, p.stake),
        announced=tuple([(a.kind, a.seat, a.points) for a in o.announced]),
        flor_declared=tuple(o.flor_declared),
        to_act=o.to_act if o.HasField("to_act") else None,
        legal=tuple([action(t) for t in d.legal_actions]),
        events=tuple(o.events),
    )


def hand_summary(h: pb.HandEnd) -> HandSummary:
    return HandSummary(
        hand_number=h.hand_number,
        scores=pair(h.scores),
        shown=tuple([(s.seat, _cards(s.cards)) for s in h.shown]),
        history=_history(h.history),
        trick_winners=_winners(h.trick_winners),
        events=tuple(h.events),
    )


def game_info(g: pb.GameStart) -> GameInfo:
    o = g.options
    options = Options(o.variant, o.seats, o.target, o.flor, o.falta_envido or None, o.pico_a_pico)
    bots = [""] * len(g.seats)
    for s in g.seats:
        if s.seat < len(bots):
            bots[s.seat] = s.bot_name
    tc = g.time_control
    rng_seed = g.rng_seed if g.HasField("rng_seed") else None
    return GameInfo(g.game_id, g.seat, options, tuple(bots), tc.move_time_ms / 1000, tc.bank_ms / 1000, rng_seed)
