"""A game the arena played to a result, as a row of the results store; the
one conversion tournaments and the league share."""

from __future__ import annotations

from ..server import PlayedGame
from .store import GameRow


def played_row(
    rec: PlayedGame,
    *,
    key: str,
    seq: int,
    pairing: str,
    pair_index: int,
    bots: tuple[str, str],
    reason: str,
    finished_at: float,
    versions: tuple[str, str] = ("", ""),
    cpu: tuple[float | None, float | None] = (None, None),
) -> GameRow:
    """The row of ``rec`` (``rec.winner_team`` set); ``bots`` are the bots of
    team 0 and team 1, ``versions`` what each announced, if recorded."""
    fallbacks = [0, 0]
    for seat, count in enumerate(rec.fallbacks):  # seat s plays for team s % 2
        fallbacks[seat % 2] += count
    return GameRow(
        game_key=key,
        seq=seq,
        pairing=pairing,
        pair_index=pair_index,
        bot0=bots[0],
        bot1=bots[1],
        mano=0,
        seed=rec.seed,
        score0=rec.scores[0],
        score1=rec.scores[1],
        winner=rec.winner_bot,
        winner_seat=rec.winner_seat,
        termination=rec.termination.value,
        faulty_bot=rec.faulty_bot,
        hands=rec.hands,
        duration=rec.duration,
        actions=rec.actions,
        reason=reason,
        finished_at=finished_at,
        version0=versions[0],
        version1=versions[1],
        cpu0=cpu[0],
        cpu1=cpu[1],
        fallbacks0=fallbacks[0],
        fallbacks1=fallbacks[1],
    )
