"""The referee loop of one game over the network: ask the seat to act, check
the answer and the clock, apply it to the engine, tell everybody what they
may see. A seat that fails ends the game and its side loses."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence

from arena.engine import events as ev
from arena.engine.actions import Action
from arena.engine.observation import Observation
from arena.engine.options import Options
from arena.engine.outcome import Outcome, Termination
from arena.engine.state import Game, State
from sdk.pb import arena_pb2 as pb

from .connection import Bad, Connection, ConnectionLost, Deadline, Gone, InboxItem, Interrupt, Reply
from .convert import FAULT_STATUS, decision_pb, game_end_pb, game_start_pb, hand_end_pb, status_pb
from .record import GameRecord, TimeControl

log = logging.getLogger("arena.server")


class SeatFault(Exception):
    """A seat failed; its side loses the game."""

    def __init__(self, seat: int, termination: Termination, detail: str) -> None:
        super().__init__(detail)
        self.seat, self.termination, self.detail = seat, termination, detail


class _Interrupted(Exception):
    pass


class GameRun:
    """One game between the streams ``conns`` (one per seat, in seat order)."""

    def __init__(
        self,
        game_id: str,
        conns: Sequence[Connection],
        options: Options,
        seed: int,
        time_control: TimeControl,
        rng_seeds: Sequence[int] | None = None,
    ) -> None:
        if len(conns) != options.seats:
            raise ValueError(f"{options.variant} with {options.seats} seats needs {options.seats} bots, got {len(conns)}")
        if rng_seeds is not None and len(rng_seeds) != len(conns):
            raise ValueError(f"one rng seed per seat: {len(conns)} seats, {len(rng_seeds)} seeds")
        self.rng_seeds = tuple(rng_seeds) if rng_seeds is not None else None
        self.game_id = game_id
        self.conns = list(conns)
        self.bots = tuple(c.name for c in conns)
        self.options = options
        self.seed = seed
        self.tc = time_control
        self.inbox: asyncio.Queue[InboxItem] = asyncio.Queue()
        self._seat_of = {c: s for s, c in enumerate(self.conns)}
        self._bank = [time_control.bank] * len(self.conns)
        self._interrupted = False
        self._hand_begin = 0  # index in state.events where the open hand's events begin
        self._scanned = 0  # events already scanned for HandEnded
        self.move_times: list[float] = []  # per answered Decision: seconds from send to Move

    def interrupt(self) -> None:
        """End the game as INTERRUPTED at the next opportunity (arena shutdown)."""
        self._interrupted = True
        self.inbox.put_nowait(Interrupt())

    async def run(self) -> GameRecord:
        loop = asyncio.get_running_loop()
        started = loop.time()
        state = Game(self.options).new_state(seed=self.seed)
        actions: list[str] = []
        for conn in self.conns:
            conn.begin_game(self.game_id, self.inbox)
        try:
            try:
                rng = self.rng_seeds or (None,) * len(self.conns)
                self._broadcast(
                    [game_start_pb(self.game_id, s, self.bots, self.options, self.tc, rng[s]) for s in range(len(rng))]
                )
                while not state.is_terminal():
                    if self._interrupted:
                        raise _Interrupted
                    to_act = state.current_player()
                    assert to_act is not None
                    action = await self._ask(state, to_act, state.observation(to_act))
                    state.apply(action)
                    actions.append(f"{to_act} {action.text}")
                    self._announce_hand_ends(state)
                final = state.outcome()
                assert final is not None
                outcome = final
                reason = f"team {outcome.winner} reached {self.options.target}"
            except SeatFault as f:
                outcome = self._outcome(state, f.termination, 1 - f.seat % 2, f.seat)
                reason = f"seat {f.seat} ({self.bots[f.seat]}) {f.detail}"
                code = FAULT_STATUS.get(f.termination)
                if code is not None:
                    self.conns[f.seat].post_quietly(status_pb(code, reason, game_id=self.game_id))
            except _Interrupted:
                outcome = self._outcome(state, Termination.INTERRUPTED, None, None)
                reason = "the arena shut down"
            except Exception as exc:  # an arena/engine bug must not take the arena down
                log.exception("game %s failed", self.game_id)
                outcome = self._outcome(state, Termination.INTERRUPTED, None, None)
                reason = f"arena error: {type(exc).__name__}: {exc}"
            self._finish(state, outcome, reason)
        finally:
            for conn in self.conns:
                conn.end_game()
        return GameRecord(
            game_id=self.game_id,
            bots=self.bots,
            options=self.options,
            seed=self.seed,
            rng_seeds=self.rng_seeds,
            time_control=self.tc,
            outcome=outcome,
            actions=tuple(actions),
            move_times=tuple(self.move_times[: len(actions)]),
            duration=loop.time() - started,
            reason=reason,
            hands=len({e.hand for e in state.events if isinstance(e, ev.HandStarted)}),
        )

    # ---------------------------------------------------------------- a move

    async def _ask(self, state: State, seat: int, obs: Observation) -> Action:
        """Send the Decision and wait for the seat's Move under its clock."""
        for s, c in enumerate(self.conns):
            if not c.alive:  # found out while another seat was thinking
                raise SeatFault(s, Termination.DISCONNECT, f"disconnected ({c.close_reason})")
        conn = self.conns[seat]
        move_time, bank = self.tc.move_time, self._bank[seat]
        legal = obs.legal
        texts = [a.text for a in legal]
        seq = conn.next_seq(self.game_id)
        msg = decision_pb(self.game_id, seq, obs, texts, move_time, bank)
        loop = asyncio.get_running_loop()
        start = loop.time()
        try:
            conn.post(msg)
        except ConnectionLost as exc:
            raise SeatFault(seat, Termination.DISCONNECT, f"disconnected ({exc})") from None
        # One deadline covers the Decision's way out and the Move's way back.
        # A timer that drops a marker into the inbox costs a fraction of an
        # asyncio.timeout() scope, and this runs for every decision.
        deadline = loop.call_at(start + move_time + bank, self.inbox.put_nowait, Deadline(conn, seq))
        try:
            while True:
                item = await self.inbox.get()
                if isinstance(item, Reply):
                    reply = item
                    break
                if isinstance(item, Deadline):
                    if item.seq != seq or item.conn is not conn:
                        continue  # the timer of an earlier decision that fired as its Move came in
                    conn.outstanding = None
                    self._bank[seat] = 0.0
                    raise SeatFault(
                        seat, Termination.TIMEOUT,
                        f"ran out of time (no answer within {move_time:g} s move time + {bank:.3f} s bank)",
                    )
                if isinstance(item, Bad):
                    seat_ = self._seat_of[item.conn]
                    raise SeatFault(seat_, Termination.PROTOCOL_ERROR, f"sent a bad message: {item.detail}")
                if isinstance(item, Gone):
                    seat_ = self._seat_of[item.conn]
                    raise SeatFault(seat_, Termination.DISCONNECT, f"disconnected ({item.conn.close_reason})")
                raise _Interrupted
        finally:
            deadline.cancel()
        conn.outstanding = None
        took = loop.time() - start
        self.move_times.append(took)
        over = took - move_time
        if over > 0:
            if over > bank:  # late, but it came in before the deadline's timer ran
                raise SeatFault(seat, Termination.TIMEOUT, f"answered after its time ({over - bank:.3f} s over)")
            self._bank[seat] = bank - over
        return self._check(state, seat, reply.move.action, legal, texts)

    @staticmethod
    def _check(state: State, seat: int, said: str, legal: Sequence[Action], texts: list[str]) -> Action:
        """The legal action ``said`` names; a fault otherwise."""
        if said in texts:  # the normal case: canonical text, verbatim
            return legal[texts.index(said)]
        if not said.strip():
            raise SeatFault(seat, Termination.PROTOCOL_ERROR, "sent an empty action")
        try:
            action = Action.parse(said)
        except ValueError as exc:
            raise SeatFault(seat, Termination.PROTOCOL_ERROR, f"sent a malformed action: {exc}") from None
        if action not in legal:
            why = state.why_illegal(action)
            raise SeatFault(seat, Termination.ILLEGAL_ACTION, f"played {said!r}, which is not legal: {why}")
        return action  # legal, in a tolerated spelling (case, spaces)

    # --------------------------------------------------------------- telling

    def _broadcast(self, msgs: Sequence[pb.PlayResponse], first: int | None = None) -> None:
        """Post ``msgs[s]`` to seat ``s`` for every seat (the streams' writers
        send them; the game does not wait). Seat ``first``, if given, is
        posted to first: its writer then runs first, and that seat's next
        Decision is the one the game will wait on."""
        order = list(range(len(msgs)))
        if first is not None:
            order.remove(first)
            order.insert(0, first)
        for seat in order:
            msg = msgs[seat]
            try:
                self.conns[seat].post(msg)
            except ConnectionLost as exc:
                raise SeatFault(seat, Termination.DISCONNECT, f"disconnected ({exc})") from None

    def _announce_hand_ends(self, state: State) -> None:
        events = state.events
        for i in range(self._scanned, len(events)):
            e = events[i]
            if isinstance(e, ev.HandEnded):
                begin, self._hand_begin = self._hand_begin, i + 1
                self._broadcast(self._hand_ends(state, begin, i + 1, e.hand, e.scores), first=state.current_player())
        self._scanned = len(events)

    def _hand_ends(
        self, state: State, begin: int, end: int, hand: int, scores: Sequence[int]
    ) -> list[pb.PlayResponse]:
        """Per seat, the HandEnd of the hand whose events are ``events[begin:end]``."""
        events, texts = state.events[begin:end], state.event_log()[0][begin:end]
        return [hand_end_pb(self.game_id, seat, hand, scores, events, texts) for seat in range(len(self.conns))]

    def _finish(self, state: State, outcome: Outcome, reason: str) -> None:
        """The summary of the hand the end cut short (if any), then GameEnd, to
        every seat still connected."""
        begin, end = self._hand_begin, len(state.events)
        cut_short = any(isinstance(e, ev.HandStarted) for e in state.events[begin:end])
        hand_ends = self._hand_ends(state, begin, end, state.hands_played, outcome.scores) if cut_short else None
        for seat, conn in enumerate(self.conns):
            if hand_ends is not None and not conn.post_quietly(hand_ends[seat]):
                continue
            conn.post_quietly(game_end_pb(self.game_id, seat, outcome, reason))

    @staticmethod
    def _outcome(state: State, term: Termination, winner: int | None, faulty: int | None) -> Outcome:
        scores = (state.scores[0], state.scores[1])
        return Outcome(term, winner, scores, state.hands_played, faulty)


def new_game_id() -> str:
    """Sortable and unique enough: start time in ms plus a counter."""
    global _counter
    _counter += 1
    return f"g{int(time.time() * 1000):x}-{_counter}"


_counter = 0
