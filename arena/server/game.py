"""One game over the network. The referee (``arena.referee``) decides what
each seat is told; this module delivers it as protocol messages, runs the
clocks and turns a seat's failure (timeout, disconnect, bad message) into
the end of the game, which its side loses.

A stream of protocol version 3 gets what its seat learns between two of its
Decisions (the GameStart, HandEnds) in one Batch with the next Decision, and
the rest of the game (the last HandEnd, a Status, the GameEnd) in one Batch
at its end: one write per Decision plus one per game, where version 2 takes
a write per message. A message costs the arena's loop mostly its write (a
sendmsg and gRPC's completion), whatever its size."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence

from arena.engine.options import Options
from arena.engine.outcome import Outcome, Termination
from arena.errors import DomainError
from arena.protocol import BATCH_VERSION
from arena.protocol import arena_pb2 as pb
from arena.protocol.stdio import STDERR_GAME_MAX, STDERR_MAX, printable
from arena.referee import BadMoveError, Decision, HandEnd, Referee

from .connection import (
    Bad,
    Connection,
    ConnectionLostError,
    Deadline,
    Gone,
    Inbox,
    Interrupt,
    Reply,
)
from .convert import (
    FAULT_STATUS,
    REASON_MAX_CHARS,
    batch_pb,
    decision_pb,
    game_end_pb,
    game_start_pb,
    hand_end_pb,
    status_pb,
)
from .record import PlayedGame, TimeControl

log = logging.getLogger("arena.server")


class SeatFaultError(DomainError):
    """A seat failed; its side loses the game."""

    def __init__(self, seat: int, termination: Termination, detail: str) -> None:
        super().__init__(detail)
        self.seat, self.termination, self.detail = seat, termination, detail


class _InterruptedError(Exception):
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
        self.inbox = Inbox()
        self._alarm = _Alarm(self.inbox)  # the deadline of the Decision on the clock
        self._seat_of = {c: s for s, c in enumerate(self.conns)}
        self._bank = [time_control.bank] * len(self.conns)
        self._interrupted = False
        self.move_times: list[float] = []  # per answered Decision: seconds on its clock (written to Move read)
        self.fallbacks = [0] * len(self.conns)  # per seat: Moves marked Move.fallback
        self.waited: float | None = None  # a timeout: the faulty seat's time on its clock (PlayedGame.waited)
        self.stderr: list[tuple[int, str]] = []  # (decision index, Move.stderr), bounded per seat
        self._stderr_left = [STDERR_GAME_MAX] * len(self.conns)
        self.referee: Referee | None = None  # while running: read by the live page (arena.web), never changed
        # Per seat: None when its stream takes every message as it comes
        # (version 2), else what it has not been sent yet, for its next Batch.
        self._held: list[list[pb.PlayResponse] | None] = [
            [] if c.protocol >= BATCH_VERSION else None for c in self.conns
        ]

    def interrupt(self) -> None:
        """End the game as INTERRUPTED at the next opportunity (arena shutdown)."""
        self._interrupted = True
        self.inbox.put_nowait(Interrupt())

    async def run(self) -> PlayedGame:
        loop = asyncio.get_running_loop()
        started = loop.time()
        referee = self.referee = Referee(self.options, self.seed)
        for conn in self.conns:
            conn.begin_game(self.game_id, self.inbox)
        try:
            try:
                rng = self.rng_seeds or (None,) * len(self.conns)
                self._broadcast([
                    game_start_pb(self.game_id, g.seat, self.bots, g.options, self.tc, rng[g.seat])
                    for g in referee.start()
                ])
                while (decision := referee.decision()) is not None:
                    if self._interrupted:
                        raise _InterruptedError
                    said = await self._ask(decision)
                    try:
                        summaries = referee.play(referee.resolve(said))
                    except BadMoveError as bad:
                        raise SeatFaultError(bad.seat, bad.termination, bad.detail) from None
                    if summaries:
                        self._tell_hand_ends(summaries, referee.state.current_player())
                outcome = referee.outcome()
                reason = f"team {outcome.winner} reached {self.options.target}"
            except SeatFaultError as f:
                outcome = referee.forfeit(f.seat, f.termination)
                reason = f"seat {f.seat} ({self.bots[f.seat]}) {f.detail}"
                code = FAULT_STATUS.get(f.termination)
                if code is not None:
                    self._tell_quietly(f.seat, status_pb(code, reason, game_id=self.game_id))
            except _InterruptedError:
                outcome = referee.interrupted()
                reason = "the arena shut down"
            except Exception as exc:  # an arena/engine bug must not take the arena down
                log.exception("game %s failed", self.game_id)
                outcome = referee.interrupted()
                reason = f"arena error: {type(exc).__name__}: {exc}"
            self._finish(referee, outcome, reason)
        finally:
            self._alarm.close()
            for conn in self.conns:
                conn.end_game()
        return PlayedGame(
            game_id=self.game_id,
            bots=self.bots,
            options=self.options,
            seed=self.seed,
            rng_seeds=self.rng_seeds,
            time_control=self.tc,
            outcome=outcome,
            actions=tuple(referee.actions),
            move_times=tuple(self.move_times[: len(referee.actions)]),
            duration=loop.time() - started,
            reason=reason,
            hands=referee.hands_dealt(),
            fallbacks=tuple(self.fallbacks),
            waited=self.waited,
            stderr=tuple(self.stderr),
        )

    # ---------------------------------------------------------------- a move

    async def _ask(self, decision: Decision) -> str:
        """Send the Decision and wait for the seat's Move under its clock; the
        Move's action text."""
        for s, c in enumerate(self.conns):
            if not c.alive:  # found out while another seat was thinking
                raise SeatFaultError(s, Termination.DISCONNECT, f"disconnected ({c.close_reason})")
        seat = decision.seat
        conn = self.conns[seat]
        move_time, bank = self.tc.move_time, self._bank[seat]
        seq = conn.next_seq(self.game_id)
        msg = decision_pb(self.game_id, seq, decision.observation, decision.legal_texts, move_time, bank,
                         self.options)
        loop = asyncio.get_running_loop()
        clock = _MoveClock(loop, self._alarm, conn, seq, move_time + bank, loop.time())
        try:
            conn.post(self._with_held(seat, msg), written=clock.written)
        except ConnectionLostError as exc:
            raise SeatFaultError(seat, Termination.DISCONNECT, f"disconnected ({exc})") from None
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
                    self.waited = clock.took(loop.time())
                    raise SeatFaultError(
                        seat, Termination.TIMEOUT,
                        f"ran out of time (no answer within {move_time:g} s move time + {bank:.3f} s bank)",
                    )
                if isinstance(item, Bad):
                    seat_ = self._seat_of[item.conn]
                    raise SeatFaultError(seat_, Termination.PROTOCOL_ERROR, f"sent a bad message: {item.detail}")
                if isinstance(item, Gone):
                    seat_ = self._seat_of[item.conn]
                    raise SeatFaultError(seat_, Termination.DISCONNECT, f"disconnected ({item.conn.close_reason})")
                raise _InterruptedError
        finally:
            clock.stop()
        conn.outstanding = None
        took = clock.took(loop.time())
        self.move_times.append(took)
        over = took - move_time
        if over > 0:
            if over > bank:  # late, but it came in before the deadline's timer ran
                self.waited = took
                raise SeatFaultError(seat, Termination.TIMEOUT, f"answered after its time ({over - bank:.3f} s over)")
            self._bank[seat] = bank - over
        if reply.move.stderr and self._stderr_left[seat] > 0:
            text = reply.move.stderr[: min(STDERR_MAX, self._stderr_left[seat])]
            self._stderr_left[seat] -= len(text)
            self.stderr.append((len(self.move_times) - 1, text))
        if reply.move.forfeit:
            raise SeatFaultError(seat, Termination.PROTOCOL_ERROR, f"gave up: {printable(reply.move.forfeit[:REASON_MAX_CHARS])}")
        if reply.move.fallback:
            self.fallbacks[seat] += 1
        return reply.move.action

    # --------------------------------------------------------------- telling

    def _tell(self, seat: int, msg: pb.PlayResponse) -> None:
        """Tell seat ``seat`` something that needs no answer: held for its
        next Batch, or posted at once (version 2; the streams' writers send
        it, the game does not wait)."""
        held = self._held[seat]
        if held is not None:
            held.append(msg)
            return
        try:
            self.conns[seat].post(msg)
        except ConnectionLostError as exc:
            raise SeatFaultError(seat, Termination.DISCONNECT, f"disconnected ({exc})") from None

    def _tell_quietly(self, seat: int, msg: pb.PlayResponse) -> bool:
        """``_tell`` when the stream may already be gone; False if it is."""
        try:
            self._tell(seat, msg)
            return True
        except SeatFaultError:
            return False

    def _with_held(self, seat: int, msg: pb.PlayResponse) -> pb.PlayResponse:
        """``msg``, after whatever is held for ``seat``: one Batch if anything is."""
        held = self._held[seat]
        if not held:
            return msg
        out = batch_pb(held, msg)
        held.clear()
        return out

    def _broadcast(self, msgs: Sequence[pb.PlayResponse]) -> None:
        """Tell ``msgs[s]`` to seat ``s`` for every seat."""
        for seat, msg in enumerate(msgs):
            self._tell(seat, msg)

    def _tell_hand_ends(self, summaries: Sequence[HandEnd], first: int | None) -> None:
        """Tell each seat its summaries. Seat ``first`` (the next to act), if
        any, is told first: posted (version 2), its writer then runs first,
        and its next Decision is the one the game will wait on."""
        for h in summaries if first is None else sorted(summaries, key=lambda h: h.seat != first):
            self._tell(h.seat, hand_end_pb(self.game_id, h))

    def _finish(self, referee: Referee, outcome: Outcome, reason: str) -> None:
        """The summary of the hand the end cut short (if any), then GameEnd, to
        every seat still connected (in version 3 one Batch with all it was
        not told yet)."""
        cut_short = referee.cut_short(outcome)
        for end in referee.end(outcome):
            seat = end.seat
            if cut_short is not None and not self._tell_quietly(seat, hand_end_pb(self.game_id, cut_short[seat])):
                continue
            self.conns[seat].post_quietly(self._with_held(seat, game_end_pb(self.game_id, end, reason)))


class _MoveClock:
    """The clock of one Decision. It starts when the Decision's write to the
    stream completes (the writer calls ``written``), not when the game queues
    it: messages queued ahead of it, and the arena's own backlog, are not the
    bot's time. The game's deadline timer is set at that moment; until then a
    write that never completes is the write watchdog's business (the stream
    is dropped, the game hears Gone).

    A bot that reads just fast enough for each single write to beat the
    watchdog could still hold its Decision back for several write timeouts
    and stall the game without ever being on the clock; a Decision whose
    write completes more than ``write_timeout`` after it was posted therefore
    drops the stream, as the watchdog would."""

    __slots__ = ("alarm", "conn", "limit", "loop", "posted", "seq", "start", "stopped")

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        alarm: _Alarm,
        conn: Connection,
        seq: int,
        limit: float,
        posted: float,
    ) -> None:
        self.loop, self.alarm, self.conn, self.seq, self.limit = loop, alarm, conn, seq, limit
        self.posted = posted
        self.start: float | None = None
        self.stopped = False

    def written(self, at: float) -> None:
        if self.stopped:
            return  # the game already moved on (fault, shutdown)
        waited = at - self.posted
        if waited > self.conn.write_timeout:
            self.conn.drop(f"its Decision waited {waited:.1f} s to be written: the bot is not reading")
            return
        self.start = at
        self.alarm.set(self.loop, at + self.limit, self.conn, self.seq)

    def stop(self) -> None:
        self.stopped = True
        self.alarm.clear(self.conn, self.seq)

    def took(self, now: float) -> float:
        """Seconds on the clock at ``now``. A Move read before the writer saw
        its Decision's write complete (both finish on the loop, in either
        order) took no measurable time."""
        return 0.0 if self.start is None else max(0.0, now - self.start)


class _Alarm:
    """A game's one deadline timer: it drops ``Deadline(conn, seq)`` into the
    inbox when the Decision on the clock runs out of time. A loop timer armed
    and cancelled for every Decision costs a timer handle and two heap
    operations each time, and nearly every Decision is answered long before
    its deadline; so the timer armed for an answered Decision is left running
    and, when it rings, put forward to the deadline of the Decision on the
    clock then, if any. It is armed anew only for a deadline earlier than
    the one it is armed for (a shrunk bank)."""

    __slots__ = ("conn", "due", "handle", "inbox", "seq")

    # A timer may ring this early (the loop runs timers due within its
    # clock's resolution): the deadline counts as reached.
    _EARLY = 1e-6

    def __init__(self, inbox: Inbox) -> None:
        self.inbox = inbox
        self.handle: asyncio.TimerHandle | None = None
        self.conn: Connection | None = None  # the Decision on the clock: its stream and seq
        self.seq = 0
        self.due = 0.0

    def set(self, loop: asyncio.AbstractEventLoop, due: float, conn: Connection, seq: int) -> None:
        """Decision ``seq`` on ``conn`` runs out of time at loop time ``due``."""
        self.conn, self.seq, self.due = conn, seq, due
        handle = self.handle
        if handle is None or due < handle.when():
            if handle is not None:
                handle.cancel()
            self.handle = loop.call_at(due, self._ring, loop)

    def clear(self, conn: Connection, seq: int) -> None:
        """Decision ``seq`` on ``conn`` is off the clock (answered or the game moved on)."""
        if self.conn is conn and self.seq == seq:
            self.conn = None

    def close(self) -> None:
        self.conn = None
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None

    def _ring(self, loop: asyncio.AbstractEventLoop) -> None:
        self.handle = None
        conn = self.conn
        if conn is None:
            return
        if loop.time() + self._EARLY < self.due:
            self.handle = loop.call_at(self.due, self._ring, loop)
            return
        self.conn = None
        self.inbox.put_nowait(Deadline(conn, self.seq))


def new_game_id() -> str:
    """Sortable and unique enough: start time in ms plus a counter."""
    global _counter
    _counter += 1
    return f"g{int(time.time() * 1000):x}-{_counter}"


_counter = 0
