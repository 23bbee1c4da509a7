"""A cheap seeded random stream for rollouts (``yardstick``).

A search seeds a generator for every rollout, so that every candidate of a
world meets the same random numbers. ``random.Random(seed)`` fills a
Mersenne Twister's 624 words each time, about 4 µs: some 6% of a search on
the compiled build, for the one to three numbers a heuristic rollout draws.
``Stream`` is a ``random.Random`` (the heuristic takes one) whose numbers
come from splitmix64 instead: built in well under a microsecond, the same
numbers for the same seed in both builds (plain integer arithmetic). This
module stays interpreted: a compiled class cannot derive from
``random.Random``.
"""

from __future__ import annotations

import random

_MASK = 0xFFFFFFFFFFFFFFFF


class Stream(random.Random):
    """Uniform numbers from splitmix64 seeded with ``seed``; ``random()``,
    ``getrandbits()`` and what the standard methods build on them
    (``choice``, ``randrange``...). Never seeds the Mersenne Twister."""

    def __init__(self, seed: int = 0) -> None:
        # No super().__init__(): that would seed the twister, the cost saved.
        self._s = seed & _MASK

    def seed(self, a: object = None, version: int = 2) -> None:
        """Start again from the integer ``a`` (only integers: the stream is
        for reproducible rollouts)."""
        if not isinstance(a, int):
            raise TypeError(f"a Stream is seeded with an integer, not {type(a).__name__}")
        self._s = a & _MASK

    def _next(self) -> int:
        s = (self._s + 0x9E3779B97F4A7C15) & _MASK
        self._s = s
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def random(self) -> float:
        """A float in [0, 1) with 53 random bits."""
        return (self._next() >> 11) * (1.0 / 9007199254740992.0)

    def getrandbits(self, k: int) -> int:
        """``k`` random bits (what ``choice`` and ``randrange`` draw from)."""
        if k <= 64:
            return self._next() >> (64 - k) if k else 0
        out = 0
        for _ in range((k + 63) // 64):
            out = (out << 64) | self._next()
        return out >> (-k % 64)

    def getstate(self) -> tuple[int, ...]:
        return (self._s,)

    def setstate(self, state: tuple[int, ...]) -> None:
        self._s = state[0]
