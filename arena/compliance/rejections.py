"""The reasons the arena gave for refusing a Hello, so that a bot that never
got in hears why (wrong protocol version, a name that does not match the
token, no Hello in time...).

The arena tells a refused stream why in a closing Status and logs it; it
keeps no list. This handler collects those log records of the
``arena.server`` logger: when a stream is dropped, ``Connection.drop`` logs
``(stream, reason)`` at INFO and the servicer's refusals start with
"rejected: ". If that wording ever changes, the hello check still fails a
bot that does not get in; it only loses the arena's explanation.
"""

from __future__ import annotations

import logging
from types import TracebackType
from typing import Self

_REJECTED = "rejected: "
_KEPT = 10  # reasons kept: a bot that retries in a loop must not grow the list
_CLIP = 300  # characters per reason: it may quote what the bot sent


class RejectionLog(logging.Handler):
    """Collects the arena's Hello refusals while installed (``with``).

    The logger's level is lowered to INFO meanwhile; records below the level
    it had are kept from propagating, so nobody else's log gets louder."""

    def __init__(self) -> None:
        super().__init__(level=logging.INFO)
        self.reasons: list[str] = []
        self._logger = logging.getLogger("arena.server")
        self._saved_level = self._logger.level
        self._saved_propagate = self._logger.propagate
        self._passed = self._logger.getEffectiveLevel()  # what reached other handlers before

    def emit(self, record: logging.LogRecord) -> None:
        reason = _refusal(record)
        if reason is not None and len(self.reasons) < _KEPT:
            self.reasons.append(reason)
        parent = self._logger.parent
        if self._saved_propagate and record.levelno >= self._passed and parent is not None:
            parent.handle(record)  # propagation as it was before

    def __enter__(self) -> Self:
        logger = self._logger
        self._saved_level, self._saved_propagate = logger.level, logger.propagate
        self._passed = logger.getEffectiveLevel()
        logger.setLevel(min(self._passed, logging.INFO))
        logger.propagate = False
        logger.addHandler(self)
        return self

    def __exit__(
        self, et: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._logger.removeHandler(self)
        self._logger.setLevel(self._saved_level)
        self._logger.propagate = self._saved_propagate


def _refusal(record: logging.LogRecord) -> str | None:
    """The reason of a refused Hello, if ``record`` is the log of one."""
    args = record.args
    if isinstance(args, tuple) and len(args) == 2 and isinstance(args[1], str) and args[1].startswith(_REJECTED):
        return args[1].removeprefix(_REJECTED)[:_CLIP]
    return None
