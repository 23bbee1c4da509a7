"""The Hello refusals are collected from the arena's log without making
anybody else's log louder, and the logger is left as it was."""

from __future__ import annotations

import logging

from arena.compliance.context import RejectionLog


class _Keep(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def test_refusals_are_collected_and_info_records_stay_where_they_were() -> None:
    root, arena_log = logging.getLogger(), logging.getLogger("arena.server")
    keep = _Keep()
    saved = root.level, arena_log.level, arena_log.propagate
    root.addHandler(keep)
    root.setLevel(logging.WARNING)
    try:
        with RejectionLog() as rejections:
            arena_log.info("%r closed: %s", "<stream s1>", "rejected: unknown token")
            arena_log.info("%r closed: %s", "<stream s2>", "the bot closed the stream")
            arena_log.warning("%d game(s) did not stop in time", 1)
        arena_log.info("%r closed: %s", "<stream s3>", "rejected: after the check")
        assert rejections.reasons == ["unknown token"]
        assert keep.messages == ["1 game(s) did not stop in time"]
        assert (arena_log.level, arena_log.propagate) == saved[1:]
    finally:
        root.removeHandler(keep)
        root.setLevel(saved[0])
