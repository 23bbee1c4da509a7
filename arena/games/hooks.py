"""What a runner (tournament, match, league) lets the layers above plug in
without importing them: the live page is one."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from ..server import Arena

# Called once the arena is up; returns what to call when the run ends (after
# the arena has stopped): the live page says "finished" or closes then.
ArenaHook = Callable[[Arena], Awaitable[Callable[[], Awaitable[None]]]]
