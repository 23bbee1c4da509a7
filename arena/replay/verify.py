"""Check one stored game against its own replay: the result a row claims must
be the one its seed and action log give.

Lean on purpose: the engine plays the action log again and nothing else (no
views, no per-deal shadow states as ``replayer.py`` builds for people to read),
so a whole results file is checked in seconds.

What a row must agree on:

* every action is legal and made by the seat to act;
* a game ended by the rules (``target_reached``) is over after its last
  action, and the replay's winner, scores and hands dealt are the row's;
* a game ended by a failure is not over by the rules; its winner is the side
  that did not fail (``faulty_bot`` is the loser), a timeout or an illegal
  action was the seat to act's, and scores and hands are the replay's;
* a forfeit (no hand dealt, no action) is an ``absent`` or ``crash`` of the
  loser (a ``disconnect`` in files written before those existed), 0-0;
* ``interrupted`` never is a stored result (such games are kept apart);
* a fault in a row written since schema version 7 has evidence
  (``games.evidence``): the seat at fault is on the loser's side, its
  ``moves`` are the whole action log, a timeout or an illegal action came
  when it was that seat's turn, and a timeout's measured wait reached the
  clock's limit (move time plus what was left of the bank); a game ended
  by the rules has none.
"""

from __future__ import annotations

from functools import lru_cache

from arena.errors import DomainError

from ..engine import Action, Game, State
from ..engine import events as ev
from ..engine.outcome import Termination
from ..games.game_record import GameRecord

REPLAY, EVIDENCE_MISSING, EVIDENCE = "replay mismatch", "evidence missing", "evidence inconsistent"
# The clock is measured on the event loop; a wait a hair short of its limit is rounding, not a forgery.
_CLOCK_SLACK = 0.005

_WHOLE_NUMBERS = ("seed", "score0", "score1", "hands")
# A failure the referee only notices while waiting on the seat to act.
_SEAT_TO_ACT_FAILURES = frozenset({Termination.TIMEOUT, Termination.ILLEGAL_ACTION})


@lru_cache(maxsize=1024)  # a game has a few dozen distinct action texts; a forged log cannot grow this
def _parse(text: str) -> Action:
    return Action.parse(text)


class TamperedError(DomainError, ValueError):
    """A stored game whose result its replay does not give; one line naming the game."""


def check_row(row: GameRecord, game: Game) -> None:
    """Raise ``TamperedError`` if ``row`` is not what replaying it on ``game``'s rules gives."""
    problem = row_problem(row, game)
    if problem is not None:
        raise TamperedError(f"game {row.game_key}: {problem[0]}: {problem[1]}")


def row_problem(row: GameRecord, game: Game) -> tuple[str, str] | None:
    """What is wrong with ``row`` against its replay: (kind, one line), kind
    ``REPLAY``, ``EVIDENCE_MISSING`` or ``EVIDENCE``; None if it holds."""
    problem = _shape_problem(row, game)
    if problem is not None:
        return REPLAY, problem
    state: State | None = None
    if row.actions or row.hands:  # a forfeit is never dealt: nothing to replay (_shape_problem checked it)
        replayed = _replay_problem(row, game)
        if isinstance(replayed, str):
            return REPLAY, replayed
        state = replayed
    return _evidence_problem(row, state)


def _evidence_problem(row: GameRecord, state: State | None) -> tuple[str, str] | None:
    """Whether the row's evidence fits its fault and its replay (``state``:
    after the last action; None for a forfeit, never dealt)."""
    evidence, termination = row.evidence, Termination(row.termination)
    if termination is Termination.TARGET_REACHED:
        return None if evidence is None else (EVIDENCE, "ended by the rules, yet it holds evidence of a fault")
    if evidence is None:
        if row.row_version < 7:
            return None  # written before evidence was kept (and signed as it was by the migration)
        return EVIDENCE_MISSING, f"stored as a {termination.value} of {row.faulty_bot!r} with no evidence of it"
    loser_team = 1 - (row.winner_seat or 0)
    if evidence.seat < 0 or evidence.seat % 2 != loser_team or (state is not None and evidence.seat >= state.game.options.seats):
        return EVIDENCE, f"the seat at fault {evidence.seat} is not a seat of the loser {row.faulty_bot!r}"
    if evidence.moves != len(row.actions):
        return EVIDENCE, f"the fault came after {evidence.moves} actions, the log holds {len(row.actions)}"
    if termination in _SEAT_TO_ACT_FAILURES and state is not None and state.current_player() != evidence.seat:
        return EVIDENCE, (f"a {termination.value} of seat {evidence.seat}, but its replay has seat "
                          f"{state.current_player()} to act there")
    if termination is Termination.TIMEOUT:
        clock = (evidence.move_time, evidence.bank, evidence.bank_used, evidence.waited)
        if any(v is None for v in clock):
            return EVIDENCE_MISSING, "a timeout with no measurement of the clock"
        move_time, bank, used, waited = (float(v or 0.0) for v in clock)
        limit = move_time + max(0.0, bank - used)
        if used > bank + _CLOCK_SLACK or waited + _CLOCK_SLACK < limit:
            return EVIDENCE, (f"a timeout after {waited:.3f} s on the clock, but its limit was {limit:.3f} s "
                              f"({move_time:g} s a move + {bank - used:.3f} s of bank left)")
    return None


def _shape_problem(row: GameRecord, game: Game) -> str | None:
    """What is wrong with the row on its face: types, its termination, who
    won and who failed, and the one shape a forfeit may have."""
    # SQLite keeps whatever type was written: a forged column may hold text where a number belongs.
    for name in _WHOLE_NUMBERS:
        if type(getattr(row, name)) is not int:
            return f"stored {name} {getattr(row, name)!r} is not a whole number"
    try:
        termination = Termination(row.termination)
    except ValueError:
        return f"termination {row.termination!r} is not one a game ends with"
    if termination is Termination.INTERRUPTED:
        return "stored as a result although it was interrupted"
    bots = (row.bot0, row.bot1)
    if row.winner_seat not in (0, 1) or row.winner != bots[row.winner_seat]:
        return f"winner {row.winner!r} (team {row.winner_seat}) is not one of the two sides"
    loser = bots[1 - row.winner_seat]
    if termination is Termination.TARGET_REACHED:
        if row.faulty_bot is not None:
            return f"ended by the rules but names {row.faulty_bot!r} as faulty"
    elif row.faulty_bot != loser:
        return f"ended by {termination.value} of {row.faulty_bot!r}, but the loser is {loser!r}"
    forfeit = termination in _FORFEITS
    if not row.actions and row.hands == 0 and (termination not in (*_FORFEITS, Termination.DISCONNECT)
                                               or (row.score0, row.score1) != (0, 0)):
        return (f"no hand dealt, yet stored as {termination.value} at {row.score0}-{row.score1} "
                f"(a forfeit is absent, crash or, in older files, a disconnect at 0-0)")
    if forfeit and (row.actions or row.hands):
        return f"stored as a forfeit ({termination.value}) of a game that was played"
    return None


# A game its loser never played: absent, or given up after crashes (older files: disconnect).
_FORFEITS = (Termination.ABSENT, Termination.CRASH)


def _replay_problem(row: GameRecord, game: Game) -> str | State:
    """Where the replay of the row's action log disagrees with what the row says;
    the state after its last action if it agrees."""
    state = game.new_state(seed=row.seed)
    for index, text in enumerate(row.actions):
        if not isinstance(text, str):
            return f"action {index} is not text"
        seat_text, _, action_text = text.partition(" ")
        to_act = state.current_player()
        if not seat_text.isdigit() or int(seat_text) != to_act:
            return f"action {index} ({text!r}) is not by the seat to act (seat {to_act})"
        try:
            state.apply(_parse(action_text))
        except ValueError as exc:  # a malformed action, or IllegalActionError (a ValueError)
            return f"action {index} ({text!r}) does not replay: {exc}"

    termination = Termination(row.termination)
    bots = (row.bot0, row.bot1)
    if termination is Termination.TARGET_REACHED:
        if state.winner is None:
            return f"stored as ended by the rules, but its replay is not over after {len(row.actions)} actions"
        if state.winner != row.winner_seat:
            return f"stored winner {row.winner!r}, its replay's winner is {bots[state.winner]!r}"
    else:
        if state.is_terminal():
            return f"stored as {termination.value}, but its replay ended by the rules"
        to_act = state.current_player()
        if termination in _SEAT_TO_ACT_FAILURES and to_act is not None and to_act % 2 == row.winner_seat:
            return (f"stored as a {termination.value} of {row.faulty_bot!r}, "
                    f"but seat {to_act} of the other side was to act")
    scores = state.scores
    if scores != (row.score0, row.score1):
        return f"stored score {row.score0}-{row.score1}, its replay gives {scores[0]}-{scores[1]}"
    hands = len({e.hand for e in state.events if isinstance(e, ev.HandStarted)})
    if hands != row.hands:
        return f"stored {row.hands} hands, its replay deals {hands}"
    return state
