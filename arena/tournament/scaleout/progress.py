"""Games in progress on workers, for the live page: each worker reports the
actions its running games apply (``Progress`` frames, only when a live page
watches the run), and the coordinator replays them here on a referee of its
own, dealt from the game's seed, so the page reads a worker's game as it
reads one of the coordinator's arena (``games.playing.GamesInProgress``).

The worker sends actions only, never a view: what the page shows of a game
is computed here, by the same spectator view as for the coordinator's own
games, so no frame can put a card on the page that a seat has not played. A
worker's frames are hostile: an action out of turn, illegal, after the
game's end, or out of order is a ``FrameError`` (the worker is counted lost:
an honest worker sends its own referee's log, in order, on an ordered pipe;
its games are played again, and nothing of a progress frame is recorded).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from ...engine.options import Options
from ...games.orders import GameOrder, GameResult
from ...games.playing import RunningGame, seats_of
from ...referee import Referee
from ...server import Arena
from .coordinator import WorkerLostError, check_outcome
from .frames import MAX_PROGRESS_ACTIONS, FrameError, Progress, printable

PROGRESS_PERIOD = 0.5  # seconds between two reports of a worker: the live page's own period


class MirroredGame:
    """A worker's game replayed here from the actions it reported."""

    def __init__(self, order: GameOrder, options: Options) -> None:
        self.game_id = order.game_id
        self.bots = seats_of(order.game, options.seats)
        self.options = options
        self.referee: Referee | None = Referee(options, order.deal_seed)

    def extend(self, start: int, actions: tuple[str, ...]) -> None:
        """Apply ``actions``, which follow the first ``start``; FrameError if they do not, or one is not legal."""
        referee = self.referee
        assert referee is not None
        if start != len(referee.actions):
            raise FrameError(f"sent actions from {start} on of game {self.game_id}, "
                             f"which has {len(referee.actions)} so far")
        state = referee.state
        for text in actions:
            # The engine's legal actions, not the referee's decision: that builds
            # the seat's observation too, three times the cost of an action here.
            seat, _, said = text.partition(" ")
            action = next((a for a in state.legal_actions() if a.text == said), None) \
                if seat == str(state.current_player()) else None
            if action is None:
                raise FrameError(f"sent {printable(text, 40)!r} in game {self.game_id}, not a legal action there")
            state.apply(action)
            referee.actions.append(text)


class LiveGames:
    """The coordinator's arena and the games in progress on its workers."""

    def __init__(self, arena: Arena, options: Options) -> None:
        self.arena, self.options = arena, options
        self._mirrored: dict[str, MirroredGame] = {}  # game key -> its replay

    @property
    def closing(self) -> bool:
        return self.arena.closing

    def running_games(self) -> tuple[RunningGame, ...]:
        return (*self.arena.running_games(), *self._mirrored.values())

    def progress(self, order: GameOrder, msg: Progress) -> None:
        """``msg`` about the game of ``order``, which the worker was given and has not reported."""
        game = self._mirrored.get(order.game.key)
        if game is None:
            game = self._mirrored[order.game.key] = MirroredGame(order, self.options)
        game.extend(msg.start, msg.actions)

    def end(self, *keys: str) -> None:
        """The games of ``keys`` ended, or their worker was lost or finished its batch."""
        for key in keys:
            self._mirrored.pop(key, None)


def follow(live: LiveGames | None, msg: Progress, by_id: dict[str, GameOrder], orders: dict[str, GameOrder]
           ) -> None:
    """Apply ``msg``, from a worker playing the games ``by_id`` (game id ->
    order) of which those in ``orders`` (game key -> order) are not reported
    yet, as ``check_outcome`` takes an outcome. An honest worker sends
    progress only when asked (``live`` given), only for a game of its batch
    before that game's outcome, and in order: anything else makes it lost
    (WorkerLostError)."""
    order = by_id.get(msg.game)
    if live is None or order is None or order.game.key not in orders:
        raise WorkerLostError(f"sent the progress of game {printable(msg.game, 40)!r}, which it is not "
                              f"playing" + ("" if live is not None else ", unasked"))
    try:
        live.progress(order, msg)
    except FrameError as exc:
        raise WorkerLostError(str(exc)) from None


class BatchReports:
    """What a worker (local or a Ray task) sends back about one batch, taken
    frame by frame: its games' progress for the live page, if one watches,
    and each game's outcome once."""

    def __init__(self, orders: dict[str, GameOrder], live: LiveGames | None) -> None:
        self.orders = orders  # game key -> order, those not reported yet
        self.by_id = {o.game_id: o for o in orders.values()}
        self.live = live

    def take(self, msg: object) -> GameResult | None:
        """The outcome ``msg`` reports, or None for progress; WorkerLostError if it is neither."""
        if isinstance(msg, Progress):
            follow(self.live, msg, self.by_id, self.orders)
            return None
        outcome = check_outcome(msg, self.orders)
        if self.live is not None:
            self.live.end(outcome.game_key)
        return outcome

    def close(self) -> None:
        """The batch is over, or its worker lost: the page stops showing its games."""
        if self.live is not None:
            self.live.end(*self.orders)


async def report_progress(arena: Arena, send: Callable[[object], None]) -> None:
    """A worker's side: every ``PROGRESS_PERIOD``, the actions each running
    game of ``arena`` applied since the last report (a first, empty one for
    a game dealt but not yet played). Never after the game's outcome: the
    arena drops a game before its outcome is sent, on this same loop."""
    sent: dict[str, int] = {}  # game id -> actions reported
    while True:
        await asyncio.sleep(PROGRESS_PERIOD)
        now = {}
        for run in arena.running_games():
            if run.referee is None:
                continue
            actions = run.referee.actions
            done, have = sent.get(run.game_id), len(actions)
            for at in range(done or 0, have, MAX_PROGRESS_ACTIONS):
                send(Progress(run.game_id, at, tuple(actions[at:at + MAX_PROGRESS_ACTIONS])))
            if done is None and have == 0:
                send(Progress(run.game_id, 0, ()))
            now[run.game_id] = have
        sent = now
