"""The ``--http HOST:PORT`` option, checked before anything starts and
without importing the page's templates (so a broken install is one clear line)."""

from __future__ import annotations

import importlib.util

from ..errors import UsageError

# Dependencies of the package itself; Plotly is optional (the page then has no charts).
EXTRA_MODULES = ("jinja2", "markupsafe")


def split_address(address: str) -> tuple[str, int]:
    """HOST:PORT (port 0 picks one); UsageError with a one-line message otherwise."""
    host, colon, port = address.rpartition(":")
    if not colon or not port.isdigit() or int(port) > 65535:
        raise UsageError(f"--http {address!r}: expected HOST:PORT, e.g. 127.0.0.1:8080")
    return host.strip("[]") or "127.0.0.1", int(port)


def missing_extra() -> str | None:
    """Why the live page cannot run here, or None if it can."""
    for name in EXTRA_MODULES:
        if importlib.util.find_spec(name) is None:
            return f"--http needs {name}, a dependency of truco-arena that is missing here: pip install ."
    return None
