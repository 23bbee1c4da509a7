"""Engine values -> protocol messages. Only what ``State.observation(seat)``
and the public event log show goes out; the ``State`` itself never does."""

from __future__ import annotations

from collections.abc import Sequence

from arena.engine import events as ev
from arena.engine.actions import Action
from arena.engine.cards import Card
from arena.engine.observation import Observation
from arena.engine.options import Options
from arena.engine.outcome import Outcome, Termination
from sdk.pb import arena_pb2 as pb

from .record import TimeControl

TERMINATION_PB: dict[Termination, pb.Termination] = {
    Termination.TARGET_REACHED: pb.TERMINATION_TARGET_REACHED,
    Termination.TIMEOUT: pb.TERMINATION_TIMEOUT,
    Termination.DISCONNECT: pb.TERMINATION_DISCONNECT,
    Termination.ILLEGAL_ACTION: pb.TERMINATION_ILLEGAL_ACTION,
    Termination.PROTOCOL_ERROR: pb.TERMINATION_PROTOCOL_ERROR,
    Termination.INTERRUPTED: pb.TERMINATION_INTERRUPTED,
}

# The Status that tells a seat why it lost (the GameEnd follows it).
FAULT_STATUS: dict[Termination, pb.StatusCode] = {
    Termination.TIMEOUT: pb.STATUS_CODE_TIMEOUT,
    Termination.ILLEGAL_ACTION: pb.STATUS_CODE_ILLEGAL_ACTION,
    Termination.PROTOCOL_ERROR: pb.STATUS_CODE_PROTOCOL_ERROR,
}

# Parda is an absent team; one shared message per case saves allocations.
_PARDA = pb.TrickResult()
_TEAM = (pb.TrickResult(team=0), pb.TrickResult(team=1))


# Text of cards and actions, by object identity: the engine interns both, so
# this is a dict hit instead of str() on dataclasses and enums for every card
# and action of every observation. Entries keep their object alive, so an id
# cannot be reused while cached; the size cap guards against non-interned ones.
_TEXT: dict[int, tuple[object, str]] = {}
_TEXT_MAX = 16384


def text(x: Card | Action) -> str:
    hit = _TEXT.get(id(x))
    if hit is not None and hit[0] is x:
        return hit[1]
    s = str(x)
    if len(_TEXT) < _TEXT_MAX:
        _TEXT[id(x)] = (x, s)
    return s


def ms(seconds: float) -> int:
    return max(0, int(seconds * 1000))


def options_pb(o: Options) -> pb.VariantOptions:
    return pb.VariantOptions(
        variant=o.variant,
        seats=o.seats,
        target=o.target,
        flor=o.flor,
        falta_envido=o.falta_envido or "",
        pico_a_pico=o.pico_a_pico,
    )


def game_start_pb(
    game_id: str, seat: int, bots: Sequence[str], options: Options, tc: TimeControl, rng_seed: int | None = None
) -> pb.PlayResponse:
    return pb.PlayResponse(
        game_start=pb.GameStart(
            game_id=game_id,
            seat=seat,
            seats=[pb.SeatInfo(seat=s, team=s % 2, bot_name=b) for s, b in enumerate(bots)],
            options=options_pb(options),
            time_control=pb.TimeControl(move_time_ms=ms(tc.move_time), bank_ms=ms(tc.bank)),
            rng_seed=rng_seed,
        )
    )


def _trick_results(winners: Sequence[int | None]) -> list[pb.TrickResult]:
    return [_PARDA if w is None else _TEAM[w] for w in winners]


def observation_pb(obs: Observation) -> pb.Observation:
    p = obs.pending
    up = obs.up_card
    return pb.Observation(
        seat=obs.seat,
        variant=obs.variant,
        seats=obs.seats,
        target=obs.target,
        scores=obs.scores,
        hand_number=obs.hand_number,
        mano=obs.mano,
        hand_seats=obs.hand_seats,
        pico=obs.pico,
        up_card=text(up) if up is not None else "",
        hand=[text(c) for c in obs.hand],
        dealt=[text(c) for c in obs.dealt],
        hand_start_scores=obs.hand_start_scores,
        history=[pb.SeatAction(seat=s, action=text(a)) for s, a in obs.history],
        tricks=[pb.Trick(cards=[pb.PlayedCard(seat=s, card=text(c)) for s, c in t]) for t in obs.tricks],
        trick_winners=_trick_results(obs.trick_winners),
        truco_level=obs.truco_level,
        truco_value=obs.truco_value,
        pending=None
        if p is None
        else pb.PendingCall(chain=p.chain, calls=p.calls, caller=p.caller, answerer=p.answerer, stake=p.stake),
        announced=[pb.Announcement(kind=k, seat=s, points=n) for k, s, n in obs.announced],
        flor_declared=obs.flor_declared,
        to_act=obs.to_act,
        events=obs.events,
    )


def decision_pb(
    game_id: str, seq: int, obs: Observation, legal: Sequence[str], move_time: float, bank: float
) -> pb.PlayResponse:
    return pb.PlayResponse(
        decision=pb.Decision(
            game_id=game_id,
            seq=seq,
            observation=observation_pb(obs),
            legal_actions=legal,
            move_time_ms=ms(move_time),
            bank_ms=ms(bank),
        )
    )


def hand_end_pb(
    game_id: str, seat: int, hand_number: int, scores: Sequence[int], events: Sequence[ev.Event]
) -> pb.PlayResponse:
    """The summary of one hand for ``seat``, from that hand's slice of the event
    log: public events plus the seat's own private ones (RULES.md 9)."""
    shown: list[pb.ShownCards] = []
    history: list[pb.SeatAction] = []
    winners: list[int | None] = []
    lines: list[str] = []
    for e in events:
        private = e.private_to
        if private is not None and private != seat:
            continue
        lines.append(str(e))
        if isinstance(e, ev.Acted):
            history.append(pb.SeatAction(seat=e.seat, action=text(e.action)))
        elif isinstance(e, ev.TrickWon):
            winners.append(e.team)
        elif isinstance(e, ev.Shown):
            shown.append(pb.ShownCards(seat=e.seat, cards=[text(c) for c in e.cards]))
    return pb.PlayResponse(
        hand_end=pb.HandEnd(
            game_id=game_id,
            hand_number=hand_number,
            scores=scores,
            shown=shown,
            history=history,
            trick_winners=_trick_results(winners),
            events=lines,
        )
    )


def game_end_pb(game_id: str, seat: int, outcome: Outcome, reason: str) -> pb.PlayResponse:
    w = outcome.winner
    return pb.PlayResponse(
        game_end=pb.GameEnd(
            game_id=game_id,
            scores=outcome.scores,
            winner_team=w,
            won=None if w is None else w == seat % 2,
            termination=TERMINATION_PB[outcome.termination],
            faulty_seat=outcome.faulty_seat,
            hands_played=outcome.hands_played,
            reason=reason,
        )
    )


def status_pb(
    code: pb.StatusCode, message: str, *, game_id: str = "", seq: int = 0, closing: bool = False
) -> pb.PlayResponse:
    return pb.PlayResponse(status=pb.Status(code=code, message=message, game_id=game_id, seq=seq, closing=closing))
