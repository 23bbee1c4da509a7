"""A person's seat in a game: the desk between the arena and a browser page.

``truco-arena play`` seats a person as an ordinary client of the arena: the
person's side of the protocol is an SDK bot whose ``choose`` waits on a
``Desk``; the page served here shows the desk and sends the person's clicks
to it. The desk holds only what the arena sent that seat (its observation,
the hand summaries, the game's end), so the page can show nothing a bot in
that seat could not see.

Every route of the page lies below the session's key (in the address the
command prints), so another local user who finds the port can neither watch
the person's cards nor play for them. An action is
taken only for the decision it was clicked on: a double click, a click on a
decision already answered or an action that is not legal is refused with a
message, and a reload shows the seat as it is.
"""

from __future__ import annotations

import hmac
import json
import threading
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from http import HTTPStatus
from importlib import resources
from urllib.parse import unquote

from ..engine import Action, Card, Kind, Observation
from .http import Response, text_response

MAX_SUMMARIES = 64  # hand summaries kept for the page: a game has far fewer hands
MAX_SESSION_GAMES = 100  # games of one session, those asked for on the page included

SUIT_NAMES = {"E": "espadas", "B": "bastos", "O": "oros", "C": "copas"}

# The rule book's Spanish names (docs/rules.md appendix A) for the buttons.
KIND_LABELS = {
    Kind.ENVIDO: "Envido",
    Kind.REAL_ENVIDO: "Real envido",
    Kind.FALTA_ENVIDO: "Falta envido",
    Kind.FLOR: "Flor",
    Kind.CON_FLOR_ENVIDO: "Con flor envido",
    Kind.CONTRAFLOR: "Contraflor",
    Kind.CONTRAFLOR_AL_RESTO: "Contraflor al resto",
    Kind.CON_FLOR_ME_ACHICO: "Con flor me achico",
    Kind.TRUCO: "Truco",
    Kind.RETRUCO: "Retruco",
    Kind.VALE_CUATRO: "Vale cuatro",
    Kind.VALE_NUEVE: "Vale nueve",
    Kind.QUIERO: "Quiero",
    Kind.NO_QUIERO: "No quiero",
    Kind.MAZO: "Me voy al mazo",
}


def card_label(card: Card) -> str:
    """``7 de oros``."""
    return f"{card.rank} de {SUIT_NAMES[card.suit.value]}"


def action_label(action: Action) -> str:
    """The button's text: the rule book's name of the action."""
    if action.kind is Kind.PLAY:
        assert action.card is not None
        return card_label(action.card)
    if action.kind is Kind.RAISE:
        return f"Envido {action.amount}"
    label = KIND_LABELS[action.kind]
    return f"{label} (con flor)" if action.con_flor else label


def _card(card: Card | None) -> dict[str, object] | None:
    if card is None:
        return None
    return {"text": card.text, "rank": card.rank, "suit": card.suit.value, "label": card_label(card)}


@dataclass
class _Game:
    """What the seat was told of one game."""

    number: int
    """1-based, in this session."""
    game_id: str
    seat: int
    variant: str
    bots: tuple[str, ...] = ()
    move_time: float = 0.0
    summaries: deque[dict[str, object]] = field(default_factory=lambda: deque(maxlen=MAX_SUMMARIES))
    result: dict[str, object] | None = None
    """Set at the game's end."""


class Desk:
    """One person's seat. The SDK's threads call ``decide`` and the ``on_*``
    methods; the page's handler calls ``snapshot``, ``answer``, ``more`` and
    ``end``; the command asks ``wanted`` and waits in ``await_choice``. All
    state is behind one lock; ``decide`` blocks its (executor) thread until
    the person answers or the desk closes."""

    def __init__(self, games: int, *, league: bool = False) -> None:
        self.league = league  # a league's seat: it pairs the games; the person only ends the session
        self._lock = threading.Lock()
        self._answered = threading.Condition(self._lock)
        self._wanted = games  # games the person has asked for so far
        self._game: _Game | None = None
        self._previous: dict[str, object] | None = None  # the last finished game's end, for the page
        self._played = 0  # games started
        self._finished = 0  # games ended
        self._obs: Observation | None = None
        self._decision = 0  # numbers the decisions of the session, for stale clicks
        self._answer: Action | None = None
        self._ended = False  # the person ended the session
        self._closed = False

    # ------------------------------------------------------------ arena side

    def on_game_info(self, game_id: str, seat: int, variant: str, bots: tuple[str, ...], move_time: float) -> None:
        with self._lock:
            self._played += 1
            self._game = _Game(self._played, game_id, seat, variant, bots, move_time)
            self._obs = None

    def on_hand_end(self, hand_number: int, scores: tuple[int, int], shown: tuple[tuple[int, tuple[Card, ...]], ...],
                    events: tuple[str, ...]) -> None:
        with self._lock:
            if self._game is None:
                return
            self._game.summaries.append({
                "hand": hand_number + 1,
                "scores": list(scores),
                "shown": [{"seat": s, "cards": [_card(c) for c in cards]} for s, cards in shown],
                "events": list(events[-40:]),
            })

    def on_game_end(self, won: bool | None, scores: tuple[int, int]) -> None:
        with self._lock:
            if self._game is not None and self._game.result is None:
                self._game.result = {"won": won, "scores": list(scores)}
                self._previous = {"number": self._game.number, "seat": self._game.seat, **self._game.result}
                self._finished += 1
                self._answered.notify_all()
            self._obs = None

    def decide(self, obs: Observation) -> Action:
        """Wait for the person's action on ``obs`` (called on an SDK thread)."""
        with self._lock:
            self._decision += 1
            self._obs, self._answer = obs, None
            while self._answer is None and not self._closed:
                self._answered.wait(timeout=1.0)
            answer, self._obs = self._answer, None
        if answer is None:  # the session is ending: any legal action, the game is over anyway
            return obs.legal[0]
        return answer

    def close(self) -> None:
        """Release a waiting ``decide``: the session is over."""
        with self._lock:
            self._closed = True
            self._answered.notify_all()

    # ---------------------------------------------------------- command side

    def wanted(self) -> int:
        """How many games the person has asked for so far."""
        with self._lock:
            return self._wanted

    def await_end(self) -> None:
        """Wait until the person ends the session (or the desk closes)."""
        with self._lock:
            while not (self._ended or self._closed):  # woken each second: a signal is seen at once
                self._answered.wait(timeout=1.0)

    def await_choice(self, timeout: float) -> bool:
        """After the games asked for: wait until the person asks for another
        (True) or ends the session, or ``timeout`` seconds pass (False)."""
        with self._lock:
            self._answered.wait_for(lambda: self._wanted > self._finished or self._ended or self._closed, timeout)
            return self._wanted > self._finished and not self._ended and not self._closed

    # ------------------------------------------------------------- page side

    def answer(self, decision: int, action_text: str) -> str | None:
        """Take the person's action for decision number ``decision``; None
        when taken, else why not (a stale or illegal click)."""
        with self._lock:
            obs = self._obs
            if obs is None or decision != self._decision or self._answer is not None:
                return "that decision is no longer open (already answered, or the game moved on)"
            for action in obs.legal:
                if action.text == action_text:
                    self._answer = action
                    self._answered.notify_all()
                    return None
            return f"not a legal action now: {action_text[:40]!r}"

    def more(self, after: int) -> str | None:
        """Another game after game ``after``, the last one asked for; None when
        granted, else why not (a second click, or the session is over)."""
        with self._lock:
            if self._ended or self._closed:
                return "the session is over"
            if after != self._wanted or self._finished < self._wanted:
                return "another game is already on its way"
            if self._wanted >= MAX_SESSION_GAMES:
                return f"a session has at most {MAX_SESSION_GAMES} games: run `truco-arena play` again"
            self._wanted += 1
            self._answered.notify_all()
            return None

    def end(self) -> None:
        """The person ends the session (after its last game)."""
        with self._lock:
            self._ended = True
            self._answered.notify_all()

    def snapshot(self) -> dict[str, object]:
        """The page's view: exactly what the seat was told, as JSON values."""
        with self._lock:
            game, obs = self._game, self._obs
            state: dict[str, object] = {"games": self._wanted, "played": self._played, "closed": self._closed,
                                        "ended": self._ended, "previous": self._previous, "league": self.league}
            if game is None:
                state["game"] = None
                return state
            state["game"] = {
                "number": game.number, "id": game.game_id, "seat": game.seat, "variant": game.variant,
                "bots": list(game.bots), "summaries": list(game.summaries), "result": game.result,
                "move_seconds": game.move_time,
            }
            if obs is not None:
                state["decision"] = self._decision
                state["obs"] = _observation(obs)
            return state


def _observation(obs: Observation) -> dict[str, object]:
    pending = obs.pending
    return {
        "seat": obs.seat, "seats": obs.seats, "target": obs.target, "scores": list(obs.scores),
        "team": obs.seat % 2, "hand_number": obs.hand_number + 1, "mano": obs.mano,
        "up_card": _card(obs.up_card), "hand": [_card(c) for c in obs.hand],
        "tricks": [[{"seat": s, "card": _card(c)} for s, c in trick] for trick in obs.tricks],
        "trick_winners": list(obs.trick_winners),
        "history": [{"seat": s, "action": a.text, "label": action_label(a)} for s, a in obs.history],
        "truco_value": obs.truco_value,
        "pending": None if pending is None else {"chain": pending.chain, "caller": pending.caller},
        "announced": [{"what": w, "seat": s, "points": p} for w, s, p in obs.announced],
        "legal": [{"action": a.text, "label": action_label(a), "card": a.kind is Kind.PLAY} for a in obs.legal],
    }


def _asset(name: str) -> bytes:
    return resources.files("arena.web").joinpath(name).read_bytes()


def play_handler(desk: Desk, key: str) -> Callable[[str], Awaitable[Response]]:
    """The routes of the play page, all below ``/s/KEY/`` (the session's key;
    the server passes no query string): the page, ``play.js``, ``state`` and
    ``act/DECISION/ACTION`` (the action's canonical text, URL-encoded),
    ``more/GAME`` (another game after game GAME, the last asked for) and
    ``end`` (the person ends the session)."""
    page = _asset("static/play.html")
    script = _asset("static/play.js")

    async def handle(path: str) -> Response:
        parts = path.split("/")  # "", "s", KEY, route...
        if len(parts) < 4 or parts[1] != "s" or not hmac.compare_digest(parts[2].encode(), key.encode()):
            return text_response(HTTPStatus.FORBIDDEN, "this page needs the address `truco-arena play` printed")
        route = parts[3:]
        if route == [""]:
            return Response(HTTPStatus.OK, page, "text/html; charset=utf-8")
        if route == ["play.js"]:
            return Response(HTTPStatus.OK, script, "text/javascript; charset=utf-8")
        if route == ["state"]:
            return _json(HTTPStatus.OK, desk.snapshot())
        if len(route) == 2 and route[0] == "more" and route[1].isdigit() and len(route[1]) < 9:
            refused = desk.more(int(route[1]))
            return _json(HTTPStatus.CONFLICT, {"error": refused}) if refused else _json(HTTPStatus.OK, {"ok": True})
        if route == ["end"]:
            desk.end()
            return _json(HTTPStatus.OK, {"ok": True})
        if len(route) == 3 and route[0] == "act":
            decision, action = route[1], unquote(route[2])
            if not decision.isdigit() or len(decision) > 9:
                return _json(HTTPStatus.BAD_REQUEST, {"error": "no decision number"})
            refused = desk.answer(int(decision), action[:64])
            if refused is not None:
                return _json(HTTPStatus.CONFLICT, {"error": refused})
            return _json(HTTPStatus.OK, {"ok": True})
        return text_response(HTTPStatus.NOT_FOUND)

    return handle


def _json(status: HTTPStatus, value: object) -> Response:
    return Response(status, json.dumps(value, separators=(",", ":")).encode(), "application/json")
