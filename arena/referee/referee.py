"""The referee loop of one game: deal, ask the seat to act, check and apply
its answer, tell every seat what it may see, end the game. It has no clock,
no I/O and no notion of a network: callers deliver its messages (the arena
server over gRPC, ``sample_bots._play`` in process) and report faults."""

from __future__ import annotations

from arena.engine import events as ev
from arena.engine.actions import Action
from arena.engine.options import Options
from arena.engine.outcome import Outcome, Termination
from arena.engine.state import Game, State
from arena.errors import DomainError

from .hand_end import hand_ends
from .messages import Decision, GameEnd, GameStart, HandEnd


class BadMoveError(DomainError):
    """An answer that is not one of the legal actions; the seat loses with
    ``termination`` (malformed text is a protocol error, a well-formed but
    illegal action an illegal action)."""

    def __init__(self, seat: int, termination: Termination, detail: str) -> None:
        super().__init__(detail)
        self.seat, self.termination, self.detail = seat, termination, detail


class Referee:
    """One game from its deal (``Game(options).new_state(seed=seed)``) to its end.

    Use: ``start()`` once; then while ``decision()`` is not None, deliver it,
    get the seat's answer and ``play`` it (``resolve`` first when the answer
    is text), delivering the summaries ``play`` returns; finally ``end`` with
    ``outcome()``, ``forfeit(...)`` or ``interrupted()``.
    """

    def __init__(self, options: Options, seed: int) -> None:
        self.options = options
        self.seed = seed
        self.state: State = Game(options).new_state(seed=seed)
        self.actions: list[str] = []  # "SEAT ACTION" per applied action: replays the game
        self._hand_begin = 0  # index in state.events where the open hand's events begin
        self._scanned = 0  # events already scanned for HandEnded
        self._hands_ended = 0  # state.hands_played when they were last scanned
        self._pending: Decision | None = None

    # ------------------------------------------------------------- the loop

    def start(self) -> tuple[GameStart, ...]:
        return tuple(GameStart(seat, self.options) for seat in range(self.options.seats))

    def decision(self) -> Decision | None:
        """The Decision for the seat to act, or None when the game is over."""
        state = self.state
        seat = state.current_player()
        if seat is None:
            self._pending = None
            return None
        obs = state.observation(seat)
        legal = obs.legal
        self._pending = Decision(seat, obs, legal, tuple([a.text for a in legal]))
        return self._pending

    def resolve(self, said: str) -> Action:
        """The legal action the seat to act names with ``said``; BadMoveError otherwise."""
        d = self._pending
        assert d is not None, "resolve() without an open decision"
        texts = d.legal_texts
        if said in texts:  # the normal case: canonical text, verbatim
            return d.legal[texts.index(said)]
        if not said.strip():
            raise BadMoveError(d.seat, Termination.PROTOCOL_ERROR, "sent an empty action")
        try:
            action = Action.parse(said)
        except ValueError as exc:
            raise BadMoveError(d.seat, Termination.PROTOCOL_ERROR, f"sent a malformed action: {exc}") from None
        return self._legal(d, action, said)

    def play(self, action: Action) -> tuple[HandEnd, ...]:
        """Apply the open decision's ``action`` (BadMoveError if it is not legal).
        Returns the summaries of the hands it ended, hand by hand, one per
        seat in seat order within a hand (usually none or one hand)."""
        d = self._pending
        assert d is not None, "play() without an open decision"
        if action not in d.legal:
            self._legal(d, action, action.text)
        self._pending = None
        self.state.apply(action)
        self.actions.append(f"{d.seat} {action.text}")
        return self._hand_ends()

    # ------------------------------------------------------------ the end

    def outcome(self) -> Outcome:
        """How the game ended by the rules (after ``decision()`` returned None)."""
        out = self.state.outcome()
        assert out is not None, "the game is not over"
        return out

    def forfeit(self, seat: int, termination: Termination) -> Outcome:
        """The game ends because ``seat`` failed: its team loses."""
        return self._stopped(termination, 1 - seat % 2, seat)

    def interrupted(self) -> Outcome:
        """The game ends without a winner (the arena stopped, or broke)."""
        return self._stopped(Termination.INTERRUPTED, None, None)

    def cut_short(self, outcome: Outcome) -> tuple[HandEnd, ...] | None:
        """Per seat, the summary of the hand the end cut short, if a hand was
        in progress (scored with the final scores); None otherwise."""
        state = self.state
        begin, end = self._hand_begin, len(state.events)
        if not any(isinstance(e, ev.HandStarted) for e in state.events[begin:end]):
            return None
        return self._summaries(begin, end, state.hands_played, outcome.scores, cut_short=True)

    def end(self, outcome: Outcome) -> tuple[GameEnd, ...]:
        return tuple(GameEnd(seat, outcome) for seat in range(self.options.seats))

    def hands_dealt(self) -> int:
        """Hands dealt so far, the one in progress included (a pico-a-pico deal
        is one hand however many mini hands it has)."""
        return len({e.hand for e in self.state.events if isinstance(e, ev.HandStarted)})

    # -------------------------------------------------------------- helpers

    def _legal(self, d: Decision, action: Action, said: str) -> Action:
        if action not in d.legal:
            why = self.state.why_illegal(action)
            raise BadMoveError(d.seat, Termination.ILLEGAL_ACTION, f"played {said!r}, which is not legal: {why}")
        return action  # legal, in a tolerated spelling (case, spaces)

    def _hand_ends(self) -> tuple[HandEnd, ...]:
        # The engine counts a hand in hands_played as it logs its HandEnded:
        # most actions end no hand, and the log need not be read for them.
        if self.state.hands_played == self._hands_ended:
            return ()
        self._hands_ended = self.state.hands_played
        events = self.state.events[self._scanned:]  # one read of the log (a tuple)
        out: tuple[HandEnd, ...] = ()
        for k, e in enumerate(events):
            if isinstance(e, ev.HandEnded):
                i = self._scanned + k
                begin, self._hand_begin = self._hand_begin, i + 1
                out += self._summaries(begin, i + 1, e.hand, e.scores, cut_short=False)
        self._scanned += len(events)
        return out

    def _summaries(
        self, begin: int, end: int, hand: int, scores: tuple[int, int], cut_short: bool
    ) -> tuple[HandEnd, ...]:
        state = self.state
        texts, private = state.event_log()
        return hand_ends(
            self.options.seats, hand, scores, state.events[begin:end], texts[begin:end], private[begin:end], cut_short
        )

    def _stopped(self, termination: Termination, winner: int | None, faulty: int | None) -> Outcome:
        state = self.state
        return Outcome(termination, winner, (state.scores[0], state.scores[1]), state.hands_played, faulty)
