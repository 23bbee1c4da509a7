"""A local worker that forges progress frames: each process takes the next
forgery not yet used in MARKS (one file each) and, once a game of its batch
is two actions in, sends it in place of that game's progress, then goes on
as an honest worker (the coordinator has counted it lost by then). When all
are used, the workers it starts are honest.

    forging_worker.py MARKS   (started in place of ``python -m arena.tournament.scaleout.worker``)"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Callable
from pathlib import Path

from arena.engine.actions import play
from arena.server import Arena
from arena.tournament.scaleout import worker
from arena.tournament.scaleout.frames import Progress
from arena.tournament.scaleout.progress import report_progress

FORGERIES = ("unknown-game", "out-of-order", "out-of-turn", "unheld-card")


def _claim(marks: Path) -> str | None:
    for kind in FORGERIES:
        try:
            os.close(os.open(marks / kind, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            continue
        return kind
    return None


def forged(kind: str, game_id: str, actions: list[str], seat: int, held_by_another: str) -> Progress:
    if kind == "unknown-game":
        return Progress("a-game-it-was-not-given", 0, ())
    if kind == "out-of-order":  # its first action skipped
        return Progress(game_id, 1, tuple(actions[1:]))
    if kind == "out-of-turn":  # the last action, said by the other seat
        last_seat, _, text = actions[-1].partition(" ")
        return Progress(game_id, 0, (*actions[:-1], f"{1 - int(last_seat) % 2} {text}"))
    # The seat to act plays a card its opponent holds: on the page it would show that card.
    return Progress(game_id, 0, (*actions, f"{seat} {held_by_another}"))


def forging(marks: Path) -> Callable[[Arena, Callable[[object], None]], object]:
    async def report(arena: Arena, send: Callable[[object], None]) -> None:
        kind = _claim(marks)
        while kind is not None:
            await asyncio.sleep(0.005)
            for run in arena.running_games():
                referee = run.referee
                seat = None if referee is None else referee.state.current_player()
                if referee is None or seat is None or len(referee.actions) < 2:
                    continue
                opponent = referee.state.unplayed((seat + 1) % run.options.seats)
                if not opponent:
                    continue
                send(forged(kind, run.game_id, list(referee.actions), seat, play(opponent[0]).text))
                with (marks / "sent.log").open("a") as log:
                    log.write(f"{kind}\n")
                kind = None
                break
        await report_progress(arena, send)
    return report


if __name__ == "__main__":
    vars(worker)["report_progress"] = forging(Path(sys.argv[1]))  # what the worker calls when asked for progress
    sys.argv[1:] = []
    worker.main()
