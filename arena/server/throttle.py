"""Slowing down repeated failed Hellos from one peer host.

Each refusal of a Hello that was actually sent (a bad token, a first message
that is not a Hello) counts against the peer's host. The first few in a row
cost nothing, then every refusal waits longer before it goes out: ``base``
seconds, doubling, at most ``cap``. A host with no failure for
``forget_after`` seconds starts again from zero. At most ``max_hosts`` hosts
are remembered (the least recently failing are forgotten first), so a flood
from many addresses cannot grow the table without bound.

Tokens have 128 random bits, so this is not what keeps a guesser out; it
keeps a misconfigured or hostile client from spinning the arena's CPU and
log with refusals.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ThrottlePolicy:
    free: int = 3
    """Failures in a row refused at once."""
    base: float = 0.25
    """Delay of the first slowed refusal, seconds."""
    cap: float = 5.0
    """The longest delay, seconds."""
    forget_after: float = 60.0
    """A host with no failure for this long starts afresh."""
    max_hosts: int = 4096

    def delay(self, failures: int) -> float:
        """Seconds to wait before refusing the ``failures``-th failure in a row."""
        over = failures - self.free
        if over <= 0:
            return 0.0
        return min(self.cap, self.base * 2.0 ** min(over - 1, 32))


def peer_host(peer: str) -> str:
    """The host part of a gRPC peer string ("ipv4:1.2.3.4:5678",
    "ipv6:[::1]:5678"): what a client cannot change by reconnecting."""
    kind, _, rest = peer.partition(":")
    if kind in ("ipv4", "ipv6") and ":" in rest:
        return f"{kind}:{rest.rsplit(':', 1)[0]}"
    return peer


class HelloThrottle:
    def __init__(self, policy: ThrottlePolicy = ThrottlePolicy(), clock: Callable[[], float] = time.monotonic) -> None:
        self.policy = policy
        self._clock = clock
        self._hosts: OrderedDict[str, tuple[int, float]] = OrderedDict()  # host -> (failures, last failure)

    def __len__(self) -> int:
        return len(self._hosts)

    def failures(self, host: str) -> int:
        """Failures in a row remembered for ``host`` (0 once forgotten)."""
        entry = self._hosts.get(host)
        if entry is None or self._clock() - entry[1] > self.policy.forget_after:
            return 0
        return entry[0]

    def record_failure(self, host: str) -> float:
        """Count a failure of ``host``; return the delay before its refusal."""
        now = self._clock()
        self._forget_old(now)
        count = self.failures(host) + 1
        self._hosts[host] = (count, now)
        self._hosts.move_to_end(host)
        while len(self._hosts) > self.policy.max_hosts:
            self._hosts.popitem(last=False)
        return self.policy.delay(count)

    def _forget_old(self, now: float) -> None:
        # Entries are in order of their last failure: the stale ones are in front.
        while self._hosts:
            host, (_, last) = next(iter(self._hosts.items()))
            if now - last <= self.policy.forget_after:
                break
            del self._hosts[host]

    def forgive(self, host: str) -> None:
        """A good Hello from ``host``: its count starts again from zero."""
        self._hosts.pop(host, None)
