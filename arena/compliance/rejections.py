"""The reasons the arena gave for refusing a Hello, so that a bot that never
got in hears why (wrong protocol version, a name that does not match the
token, no Hello in time...).

The arena tells a refused stream why in a closing Status and logs it; it
keeps no list. This handler collects those log records of the
``arena.server`` logger: when a stream is dropped, ``Connection.drop`` logs
``(stream, reason)`` and the servicer's refusals start with "rejected: ".
If that wording ever changes, the hello check still fails a bot that does
not get in; it only loses the arena's explanation.
"""

from __future__ import annotations

import logging
from types import TracebackType
from typing import Self

_REJECTED = "rejected: "


class RejectionLog(logging.Handler):
    """Collects the arena's Hello refusals while installed (``with``)."""

    def __init__(self) -> None:
        super().__init__(level=logging.INFO)
        self.reasons: list[str] = []
        self._logger = logging.getLogger("arena.server")
        self._saved_level = self._logger.level

    def emit(self, record: logging.LogRecord) -> None:
        args = record.args
        if isinstance(args, tuple) and len(args) == 2 and isinstance(args[1], str) and args[1].startswith(_REJECTED):
            self.reasons.append(args[1].removeprefix(_REJECTED))

    def __enter__(self) -> Self:
        self._saved_level = self._logger.level
        if self._logger.getEffectiveLevel() > logging.INFO:
            self._logger.setLevel(logging.INFO)
        self._logger.addHandler(self)
        return self

    def __exit__(
        self, et: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._logger.removeHandler(self)
        self._logger.setLevel(self._saved_level)
