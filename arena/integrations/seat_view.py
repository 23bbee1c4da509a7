"""One seat's view of a game as a fixed-size float tensor and as a string.

Both are built from the engine's ``State.observation(seat)`` only (the one
observer of hidden information: what docs/rules.md section 9 lets a seat
see), plus, while a deal is being dealt card by card, the cards that reached
this seat so far. They describe the current hand; the information-state
string of ``openspiel.py`` adds the whole game's visible history.

Tensor layout for ``n`` seats and an action-id space of ``A`` ids (float32,
one-hot unless said otherwise), in this order:

    seat            n       the observing seat
    to_act          n       the seat to act (all zero at a chance node or the end)
    mano            n       the mano of the current hand (or of the next, while dealing)
    hand_seats      n       the seats taking part in this hand (pico a pico: two)
    pico            1       1 in a pico-a-pico mini hand
    hand            40      own cards not yet played (DECK index)
    dealt           40      own cards as dealt
    up_card         40      the muestra or vira
    played          n x 40  the cards each seat has played in this hand
    trick_winners   3 x 3   per trick: team 0 won, team 1 won, parda
    scores          2       each team's score / target
    start_scores    2       each team's score at the start of the hand / target
    truco_level     4       the accepted truco level 0..3
    pending_chain   3       the call waiting for an answer: truco, envido, flor
    pending_caller  n       the seat that made it
    pending_stake   1       what accepting it is worth / target (0 when unknown)
    calls           n x (A - 40)  per seat, the non-card action ids it took this hand
    envido_said     n x 2   per seat: 1 if it said its envido points, the points / 100
    flor_said       n x 2   per seat: 1 if it said its flor points, the points / 100
    flor_declared   n       seats that declared a flor this hand
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from arena.engine import Card, Kind, Observation, State

from .action_ids import NUM_CARDS, ActionIds

CHAINS = ("truco", "envido", "flor")
POINTS_SCALE = 100.0  # above any envido or flor points in every variant


@dataclass(frozen=True, slots=True)
class Piece:
    name: str
    shape: tuple[int, ...]

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))


def pieces_for(seats: int, ids: ActionIds) -> tuple[Piece, ...]:
    n = seats
    return (
        Piece("seat", (n,)), Piece("to_act", (n,)), Piece("mano", (n,)), Piece("hand_seats", (n,)),
        Piece("pico", (1,)), Piece("hand", (NUM_CARDS,)), Piece("dealt", (NUM_CARDS,)),
        Piece("up_card", (NUM_CARDS,)), Piece("played", (n, NUM_CARDS)), Piece("trick_winners", (3, 3)),
        Piece("scores", (2,)), Piece("start_scores", (2,)), Piece("truco_level", (4,)),
        Piece("pending_chain", (len(CHAINS),)), Piece("pending_caller", (n,)), Piece("pending_stake", (1,)),
        Piece("calls", (n, ids.size - NUM_CARDS)), Piece("envido_said", (n, 2)), Piece("flor_said", (n, 2)),
        Piece("flor_declared", (n,)),
    )


class SeatViewWriter:
    """Writes one seat's view into a flat float32 tensor with named views."""

    def __init__(self, seats: int, target: int, ids: ActionIds) -> None:
        self.seats = seats
        self.target = target
        self.ids = ids
        self.pieces = pieces_for(seats, ids)
        self.size = sum(p.size for p in self.pieces)
        self.tensor: npt.NDArray[np.float32] = np.zeros(self.size, np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        at = 0
        for p in self.pieces:
            self.dict[p.name] = self.tensor[at : at + p.size].reshape(p.shape)
            at += p.size

    def write(self, state: State, seat: int, incoming: tuple[Card, ...] = ()) -> None:
        """Fill ``tensor`` with ``seat``'s view of ``state``. While the state
        waits for a deal, ``incoming`` are the cards this seat has received
        so far and nothing of the last hand is shown."""
        self.tensor.fill(0.0)
        d = self.dict
        d["seat"][seat] = 1.0
        scores = state.scores
        d["scores"][:] = (scores[0] / self.target, scores[1] / self.target)
        if state.needs_deal():
            d["mano"][state.mano] = 1.0
            d["start_scores"][:] = d["scores"]
            for c in incoming:
                d["hand"][c.index] = d["dealt"][c.index] = 1.0
            return
        obs = state.observation(seat, log=False)
        self._write_hand(obs)

    def _write_hand(self, obs: Observation) -> None:
        d = self.dict
        if obs.to_act is not None:
            d["to_act"][obs.to_act] = 1.0
        d["mano"][obs.mano] = 1.0
        for s in obs.hand_seats:
            d["hand_seats"][s] = 1.0
        d["pico"][0] = float(obs.pico)
        for c in obs.hand:
            d["hand"][c.index] = 1.0
        for c in obs.dealt:
            d["dealt"][c.index] = 1.0
        if obs.up_card is not None:
            d["up_card"][obs.up_card.index] = 1.0
        for trick in obs.tricks:
            for s, c in trick:
                d["played"][s, c.index] = 1.0
        for i, team in enumerate(obs.trick_winners):
            d["trick_winners"][i, 2 if team is None else team] = 1.0
        d["start_scores"][:] = (obs.hand_start_scores[0] / self.target, obs.hand_start_scores[1] / self.target)
        d["truco_level"][obs.truco_level] = 1.0
        if obs.pending is not None:
            d["pending_chain"][CHAINS.index(obs.pending.chain)] = 1.0
            d["pending_caller"][obs.pending.caller] = 1.0
            d["pending_stake"][0] = obs.pending.stake / self.target
        for s, a in obs.history:
            if a.kind is not Kind.PLAY:
                d["calls"][s, self.ids.id_of(a) - NUM_CARDS] = 1.0
        for what, s, points in obs.announced:
            piece = d["envido_said"] if what == "envido" else d["flor_said"]
            piece[s] = (1.0, points / POINTS_SCALE)
        for s in obs.flor_declared:
            d["flor_declared"][s] = 1.0


def seat_view_text(state: State, seat: int, incoming: tuple[Card, ...] = ()) -> str:
    """``seat``'s view of the current hand as one line (the same facts as the
    tensor): what a player at the table knows now."""
    scores = state.scores
    head = f"seat {seat} | scores {scores[0]}-{scores[1]}"
    if state.needs_deal():
        cards = " ".join(map(str, incoming)) or "-"
        return f"{head} | dealing hand {state.hands_played + 1}, mano {state.mano} | received {cards}"
    obs = state.observation(seat, log=False)
    parts = [head, f"hand {obs.hand_number + 1} mano {obs.mano}" + (" pico" if obs.pico else "")]
    if obs.up_card is not None:
        parts.append(f"up {obs.up_card}")
    parts.append("holds " + (" ".join(map(str, obs.hand)) or "-"))
    parts.append("dealt " + " ".join(map(str, obs.dealt)))
    parts.append("actions " + (", ".join(f"{s}:{a}" for s, a in obs.history) or "-"))
    if obs.trick_winners:
        parts.append("tricks " + " ".join("parda" if t is None else f"team{t}" for t in obs.trick_winners))
    parts.append(f"truco level {obs.truco_level}")
    if obs.pending is not None:
        p = obs.pending
        parts.append(f"pending {p.chain} {'-'.join(p.calls)} by {p.caller} stake {p.stake}")
    if obs.announced:
        parts.append("said " + ", ".join(f"{what} {s}:{pts}" for what, s, pts in obs.announced))
    if obs.flor_declared:
        parts.append("flor " + " ".join(map(str, obs.flor_declared)))
    if obs.to_act is not None:
        parts.append(f"to act {obs.to_act}")
    return " | ".join(parts)


def visible_log(state: State, seat: int, since: int = 0, own_cards: bool = True) -> list[str]:
    """The text of every event from index ``since`` on that ``seat`` may see:
    the public ones and its own private ones (its cards), the filter the
    engine's observation applies to its log. ``own_cards=False`` keeps the
    public ones only."""
    texts, private = state.event_log()
    return [
        texts[i] for i in range(since, len(texts))
        if private[i] is None or (own_cards and private[i] == seat)
    ]
