"""The id people type for a stored game: its key made shell-safe.

A game's key (``mybot|random#3a``: the matchup, then the game within it) is
what the schedule, resume and the seeds rely on, and never changes. Its
``|`` and ``#`` mean a pipe and a comment to a shell, so the id shown and
typed replaces both with ``:`` (``mybot:random:3a``). Bot names cannot hold
``:`` (nor ``|`` or ``#``), so the id names one game as its key does. The
old form is accepted wherever an id is read.
"""

from __future__ import annotations

from collections.abc import Sequence

from arena.errors import DomainError

# The same mapping in SQL, for the migration that stores the ids of older rows.
SQL_ID_OF_KEY = "REPLACE(REPLACE(game_key, '|', ':'), '#', ':')"


def id_of_key(key: str) -> str:
    """The shell-safe id of the game stored under ``key``."""
    return key.replace("|", ":").replace("#", ":")


class GameIdError(DomainError, LookupError):
    """No stored game, or more than one, answers to what was typed; the message says which."""


def find_by_id(ids: Sequence[str], typed: str) -> int:
    """The index in ``ids`` (every stored game's id) of the game ``typed``
    names: its id, its key in the old form, or a prefix of the id that only
    one game has. GameIdError otherwise."""
    wanted = id_of_key(typed)
    exact = [i for i, game_id in enumerate(ids) if game_id == wanted]
    if exact:
        return exact[0]
    matches = [i for i, game_id in enumerate(ids) if game_id.startswith(wanted)] if wanted else []
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise GameIdError(f"no game {typed!r}")
    shown = ", ".join(ids[i] for i in matches[:5]) + (", ..." if len(matches) > 5 else "")
    raise GameIdError(f"{typed!r} is the start of {len(matches)} games' ids ({shown}): type more of it")
