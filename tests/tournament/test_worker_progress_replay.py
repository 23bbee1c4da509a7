"""The coordinator's replay of a worker's game in progress (``scaleout/progress.py``):
the actions a worker reports, in any number of frames, rebuild the game its
referee plays; actions out of order, out of turn, illegal (a card the seat
does not hold) or after the end are a FrameError, which makes the worker lost."""

from __future__ import annotations

import random

import pytest

from arena.engine import Game
from arena.engine.actions import play
from arena.games.orders import GameOrder
from arena.games.schedule import ScheduledGame
from arena.referee import Referee
from arena.server import Arena
from arena.tournament.scaleout.frames import FrameError, Progress
from arena.tournament.scaleout.progress import LiveGames, MirroredGame

OPTIONS = Game("uruguayo").options
GAME = ScheduledGame("a|b#0a", "a|b", 0, "a", "b", "a|b#0")
ORDER = GameOrder(seq=0, game=GAME, deal_seed=77, game_id="g77", rng_seeds=(1, 2), rank=0)


def _played() -> Referee:
    """A game to its end, random legal actions, as a worker's referee plays it."""
    referee, rng = Referee(OPTIONS, ORDER.deal_seed), random.Random(5)
    while (decision := referee.decision()) is not None:
        referee.play(rng.choice(decision.legal))
    return referee


def test_actions_in_several_frames_rebuild_the_workers_game() -> None:
    played = _played()
    log = played.actions
    mirror = MirroredGame(ORDER, OPTIONS)
    assert mirror.bots == ("a", "b") and mirror.game_id == "g77"
    for at in range(0, len(log), 7):
        mirror.extend(at, tuple(log[at:at + 7]))
    assert mirror.referee is not None
    assert mirror.referee.actions == log
    state = mirror.referee.state
    assert state.is_terminal() and state.scores == played.state.scores
    assert state.observation(0).legal == played.state.observation(0).legal


@pytest.mark.parametrize("forge", ["skipped", "repeated", "out of turn", "unheld card", "after the end"])
def test_a_frame_that_does_not_follow_the_game_is_refused(forge: str) -> None:
    played = _played()
    log, state = played.actions, Referee(OPTIONS, ORDER.deal_seed).state
    mirror = MirroredGame(ORDER, OPTIONS)
    mirror.extend(0, tuple(log[:4]))
    for text in log[:4]:
        state.apply(next(a for a in state.legal_actions() if a.text == text.partition(" ")[2]))
    seat = state.current_player()
    assert seat is not None
    other = state.unplayed(1 - seat)[0]
    frame = {"skipped": (5, tuple(log[5:9])), "repeated": (3, tuple(log[3:9])),
             "out of turn": (4, (f"{1 - seat} {log[4].partition(' ')[2]}",)),
             "unheld card": (4, (f"{seat} {play(other).text}",)),
             "after the end": (4, (*log[4:], log[-1]))}[forge]
    with pytest.raises(FrameError):
        mirror.extend(*frame)


def test_the_coordinator_shows_a_workers_game_until_it_ends() -> None:
    games = LiveGames(Arena(None), OPTIONS)  # not started: none of its own
    games.progress(ORDER, Progress("g77", 0, ()))
    games.progress(ORDER, Progress("g77", 0, tuple(_played().actions[:3])))
    [shown] = games.running_games()
    assert shown.game_id == "g77" and shown.referee is not None and len(shown.referee.actions) == 3
    games.end(GAME.key)
    assert games.running_games() == ()
