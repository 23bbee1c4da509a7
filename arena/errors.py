"""The one error hierarchy of the arena.

Every error the arena raises for a person to read is an ``ArenaError``: its
message is one line, and its ``exit_code`` is what the command line exits
with (docs: README, "Exit codes"). ``UsageError`` (2) means the input was
wrong (an argument, a config, a file that is not what it should be);
``DomainError`` (1) means the input was fine but the thing cannot be done (a
bot would not start, a results file is damaged, a replay does not match).
The CLI turns them into its one-line messages in one place
(``arena.cli.ArenaGroup``). Errors that never leave the arena (a stream that
closed, a game that cannot start yet) are ``ArenaError`` too, so that one
``except ArenaError`` sees everything the arena meant to raise.

This module imports nothing, so every layer can use it.
"""

from __future__ import annotations


class ArenaError(Exception):
    """An error of the arena; ``str()`` is one line for people."""

    exit_code = 1


class UsageError(ArenaError):
    """The input was wrong: an argument, a config key, a malformed file."""

    exit_code = 2


class DomainError(ArenaError):
    """The input was fine, but the thing cannot be done."""

    exit_code = 1
