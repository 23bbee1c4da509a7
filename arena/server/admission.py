"""The streams that have not said Hello yet, and which of them make room.

A stream costs memory from the moment it opens, and opening one is free, so
the streams waiting for a Hello are capped: per gRPC connection, per peer
host, and arena-wide, each cap below the next. A new stream is never
refused for a cap. It makes room instead: the oldest waiting stream of the
connection holding the most waiting streams (within the host when the host
is at its cap, arena-wide otherwise) is evicted. A flood therefore only ever
evicts itself: a bot that opens a stream and says Hello at once holds one or
a few waiting streams on its connection, far fewer than any connection of a
flood, and is admitted within a round trip however many silent streams are
open, from other hosts or its own.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Generic, TypeVar

from .throttle import peer_host

S = TypeVar("S", bound=Hashable)


@dataclass(frozen=True, slots=True)
class AdmissionCaps:
    per_connection: int = 64
    """A bot rarely opens more streams at once on one connection."""
    per_host: int = 250
    total: int = 1000

    def __post_init__(self) -> None:
        if not 1 <= self.per_connection <= self.per_host <= self.total:
            raise ValueError(f"admission caps must be 1 <= per connection <= per host <= total, got {self}")


class WaitingRoom(Generic[S]):
    """Waiting streams by peer (one gRPC connection, ``Connection.peer``) and host."""

    def __init__(self, caps: AdmissionCaps = AdmissionCaps()) -> None:
        self.caps = caps
        self._by_host: dict[str, dict[str, OrderedDict[S, int]]] = {}
        self._where: dict[S, tuple[str, str]] = {}  # stream -> (host, peer)
        self.evicted = 0  # streams evicted so far
        self._arrivals = 0  # numbers the streams in arrival order
        self._host_counts: dict[str, int] = {}

    def __len__(self) -> int:
        return len(self._where)

    def __contains__(self, stream: object) -> bool:
        return stream in self._where

    def host_count(self, host: str) -> int:
        return self._host_counts.get(host, 0)

    def add(self, stream: S, peer: str) -> list[S]:
        """Let ``stream`` (from ``peer``) wait; return the streams it evicts
        (already removed from the room), oldest first."""
        host = peer_host(peer)
        evict: list[S] = []
        peers = self._by_host.get(host, {})
        if len(peers.get(peer, ())) >= self.caps.per_connection:
            evict.append(self._oldest_of(host, peer))
        elif self.host_count(host) >= self.caps.per_host:
            evict.append(self._oldest_of(host, self._fullest_peer(host)))
        elif len(self._where) >= self.caps.total:
            fullest = max(self._by_host, key=lambda h: (self.host_count(h), -self._oldest_arrival(h)))
            evict.append(self._oldest_of(fullest, self._fullest_peer(fullest)))
        for old in evict:
            self.remove(old)
        self.evicted += len(evict)
        self._arrivals += 1
        self._by_host.setdefault(host, {}).setdefault(peer, OrderedDict())[stream] = self._arrivals
        self._where[stream] = (host, peer)
        self._host_counts[host] = self.host_count(host) + 1
        return evict

    def remove(self, stream: S) -> None:
        """``stream`` said Hello, was refused, ended or was evicted. Idempotent."""
        where = self._where.pop(stream, None)
        if where is None:
            return
        host, peer = where
        self._host_counts[host] -= 1
        if not self._host_counts[host]:
            del self._host_counts[host]
        peers = self._by_host[host]
        queue = peers[peer]
        del queue[stream]
        if not queue:
            del peers[peer]
            if not peers:
                del self._by_host[host]

    def _fullest_peer(self, host: str) -> str:
        """The peer of ``host`` with the most waiting streams; of equals, the
        one whose oldest stream came first."""
        peers = self._by_host[host]
        return max(peers, key=lambda p: (len(peers[p]), -next(iter(peers[p].values()))))

    def _oldest_arrival(self, host: str) -> int:
        return min(next(iter(q.values())) for q in self._by_host[host].values())

    def _oldest_of(self, host: str, peer: str) -> S:
        return next(iter(self._by_host[host][peer]))
