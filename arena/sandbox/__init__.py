"""The sandbox every bot process the arena launches runs in (docs/sandbox.md).

A launched bot is code the organizer was handed: it gets its own namespaces
(no network, no other process, its own view of the files), its own user id
where the arena runs as root, its own control groups (memory, processes,
CPU quota or cores of its own) and resource limits. It reaches the arena
only through a Unix socket bound into its sandbox.

``Sandbox`` (one per run) wraps each bot command; ``Limits`` and
``SandboxMode`` are what a config sets. Nothing here knows about Truco.
"""

from .bwrap import SandboxUnavailableError, find_bwrap
from .cgroups import Box
from .limits import BOUNDS, LIMIT_KEYS, Containment, Limits, SandboxMode
from .session import GUARANTEES, SOCKET_ADDRESS, Sandbox, Wrapped, probe

__all__ = ["BOUNDS", "GUARANTEES", "LIMIT_KEYS", "SOCKET_ADDRESS", "Box", "Containment", "Limits", "Sandbox",
           "SandboxMode", "SandboxUnavailableError", "Wrapped", "find_bwrap", "probe"]
