"""Referee and engine values -> protocol messages. Only what the referee
addresses to a seat (``State.observation(seat)``, its hand summaries) goes
out; the ``State`` itself never does."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from arena.engine.observation import Observation
from arena.engine.options import Options
from arena.engine.outcome import Termination
from arena.engine.variants import VARIANT_BY_NAME
from arena.protocol import arena_pb2 as pb
from arena.referee import GameEnd, HandEnd

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


REASON_MAX_CHARS = 200  # a reason or Status message echoed to a seat is cut to this


def clip(text: str, limit: int = REASON_MAX_CHARS) -> str:
    """``text`` cut to at most ``limit`` characters ("..." marks a cut). Reasons
    quote what bots sent (an action, a name), so they are as long as a bot likes."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


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


def _fill_observation(x: pb.Observation, obs: Observation) -> None:
    """Write ``obs`` into the empty message ``x``, in place. Filling a message
    through its fields is about twice as fast as building submessages and
    passing them to constructors, which copies each one."""
    x.seat = obs.seat
    x.variant = obs.variant
    x.seats = obs.seats
    x.target = obs.target
    x.scores.extend(obs.scores)
    x.hand_number = obs.hand_number
    x.mano = obs.mano
    x.hand_seats.extend(obs.hand_seats)
    x.pico = obs.pico
    if obs.up_card is not None:
        x.up_card = obs.up_card.text
    x.hand.extend([c.text for c in obs.hand])
    x.dealt.extend([c.text for c in obs.dealt])
    x.hand_start_scores.extend(obs.hand_start_scores)
    history = x.history
    for s, a in obs.history:
        history.add(seat=s, action=a.text)
    tricks = x.tricks
    for t in obs.tricks:
        cards = tricks.add().cards
        for s, c in t:
            cards.add(seat=s, card=c.text)
    _fill_winners(x.trick_winners, obs.trick_winners)
    x.truco_level = obs.truco_level
    x.truco_value = obs.truco_value
    p = obs.pending
    if p is not None:
        pending = x.pending
        pending.chain = p.chain
        pending.calls.extend(p.calls)
        pending.caller = p.caller
        pending.answerer = p.answerer
        pending.stake = p.stake
    announced = x.announced
    for k, s, n in obs.announced:
        announced.add(kind=k, seat=s, points=n)
    x.flor_declared.extend(obs.flor_declared)
    if obs.to_act is not None:
        x.to_act = obs.to_act
    x.events.extend(obs.events)


class _TrickResults(Protocol):  # a repeated TrickResult field
    def add(self, *, team: int = ...) -> pb.TrickResult: ...


def _fill_winners(field: _TrickResults, winners: Sequence[int | None]) -> None:
    for w in winners:
        if w is None:
            field.add()  # parda: no team
        else:
            field.add(team=w)


# Padding (docs/fair-play.md, "Message sizes"). A card's text has 2
# characters or 3 ("10E", "11B", "12O"), so without padding the size of a
# Decision or HandEnd tells whoever sees only the encrypted stream how many
# 10s, 11s and 12s the seat holds, and a flor shows as extra legal actions.
# Every message is padded to the size it would have if each card the seat
# holds had 3 characters and every flor action it might have were offered.
_LONGEST_CARD = 3
_FLOR = "flor"
_CON_FLOR = " con_flor"
_MAY_CARRY_FLOR = frozenset({"quiero", "truco", "retruco", "vale_cuatro", "vale_nueve"})
_PAD_MIN = 2  # every padded message carries at least one (empty) padding field
_PAD_CHUNK = 127  # bytes of one padding entry at most: its length is one byte


def _field(n: int) -> int:
    """Bytes of a length-delimited field with a one-byte tag and ``n`` bytes."""
    return 2 + n if n < 128 else 1 + (n.bit_length() + 6) // 7 + n


def _holds_slack(events: Sequence[str], seat: int) -> int:
    """Bytes the seat's private "seat N holds ..." line is short of its longest form."""
    prefix = f"seat {seat} holds "
    for e in events:
        if e.startswith(prefix):
            return sum(_LONGEST_CARD - len(c) for c in e[len(prefix):].split())
    return 0


def _pad(padding: Any, extra: int) -> None:
    """Add padding entries that take exactly ``extra`` (>= 2) bytes."""
    while extra > _field(_PAD_CHUNK):
        chunk = _PAD_CHUNK if extra - _field(_PAD_CHUNK) >= _PAD_MIN else _PAD_CHUNK - 1
        padding.append(bytes(chunk))
        extra -= _field(chunk)
    padding.append(bytes(extra - 2))


def hidden_slack(obs: Observation, legal: Sequence[str], obs_size: int, flor: bool, con_flor: bool) -> int:
    """How many bytes the unpadded Decision for ``obs`` with actions
    ``legal`` (its Observation message ``obs_size`` bytes long) is short of
    the size it would have if each card the seat holds had the longest text
    and every flor action it might be offered were there. Its size plus this
    is a function of what is public; never negative. Read off the engine's
    values, not the message: the same figure at a fraction of the cost."""
    slack = sum([_LONGEST_CARD - len(c.text) for c in obs.hand])
    slack += sum([_LONGEST_CARD - len(c.text) for c in obs.dealt])
    slack += _holds_slack(obs.events, obs.seat)
    out = _field(obs_size + slack) - _field(obs_size)
    for t in legal:
        if t == _FLOR or t.endswith(_CON_FLOR):
            out -= _field(len(t))  # counted below, for every hand alike
        elif t.startswith("play "):
            out += _LONGEST_CARD - (len(t) - 5)
        elif con_flor and t in _MAY_CARRY_FLOR:
            out += _field(len(t) + len(_CON_FLOR))
    if flor:
        out += _field(len(_FLOR))
    return out


def decision_pb(
    game_id: str, seq: int, obs: Observation, legal: Sequence[str], move_time: float, bank: float,
    options: Options | None = None,
) -> pb.PlayResponse:
    """The Decision for ``obs``, padded so that its size does not depend on
    the seat's cards (``options``: the game's, to leave out flor padding when
    flor is off; None: as if on)."""
    msg = pb.PlayResponse()
    d = msg.decision
    d.game_id = game_id
    d.seq = seq
    _fill_observation(d.observation, obs)
    d.legal_actions.extend(legal)
    d.move_time_ms = ms(move_time)
    d.bank_ms = ms(bank)
    flor = options.flor if options is not None else True
    con_flor = flor and VARIANT_BY_NAME[obs.variant].flor_with_truco
    _pad(d.padding, hidden_slack(obs, legal, d.observation.ByteSize(), flor, con_flor) + _PAD_MIN)
    return msg


def hand_end_pb(game_id: str, h: HandEnd) -> pb.PlayResponse:
    """The referee's summary of a hand for ``h.seat``; the referee already left
    out everything that seat may not see. Padded as a Decision is: its own
    cards in its private line count at their longest."""
    msg = pb.PlayResponse()
    x = msg.hand_end
    x.game_id = game_id
    x.hand_number = h.hand_number
    x.scores.extend(h.scores)
    history = x.history
    for s, a in h.history:
        history.add(seat=s, action=a.text)
    shown = x.shown
    for s, cards in h.shown:
        shown.add(seat=s, cards=[c.text for c in cards])
    _fill_winners(x.trick_winners, h.trick_winners)
    x.events.extend(h.events)
    _pad(x.padding, _holds_slack(x.events, h.seat) + _PAD_MIN)
    return msg


def batch_pb(held: Sequence[pb.PlayResponse], last: pb.PlayResponse) -> pb.PlayResponse:
    """``held`` then ``last`` in one Batch (protocol 3). Each message keeps its
    own padding, and a Batch adds to each only its tag and length, which
    depend on the message's size alone: a Batch's size says no more about
    hidden cards than its messages' sizes would."""
    out = pb.PlayResponse()
    messages = out.batch.messages
    messages.extend(held)
    messages.append(last)
    return out


def game_end_pb(game_id: str, end: GameEnd, reason: str) -> pb.PlayResponse:
    outcome = end.outcome
    return pb.PlayResponse(
        game_end=pb.GameEnd(
            game_id=game_id,
            scores=outcome.scores,
            winner_team=outcome.winner,
            won=end.won,
            termination=TERMINATION_PB[outcome.termination],
            faulty_seat=outcome.faulty_seat,
            hands_played=outcome.hands_played,
            reason=clip(reason),
        )
    )


def status_pb(
    code: pb.StatusCode, message: str, *, game_id: str = "", seq: int = 0, closing: bool = False,
    restarting: bool = False,
) -> pb.PlayResponse:
    return pb.PlayResponse(status=pb.Status(code=code, message=clip(message), game_id=game_id, seq=seq, closing=closing,
                                            restarting=restarting))
