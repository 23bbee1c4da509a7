"""The ``--http HOST:PORT`` option, checked before anything starts and
without importing the page's templates (so a broken install is one clear line)."""

from __future__ import annotations

import importlib.util
import os
import stat
from pathlib import Path

from ..errors import UsageError
from .http import login_digest

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


def read_login(path: Path) -> str:
    """The live page's login from ``path``: one line ``USER:PASSWORD``, in a
    file only its owner may read; its ``login_digest``. UsageError (one
    line) for a missing, unreadable, shared or malformed file."""
    where = f"--http-login {path}"
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError as exc:
        raise UsageError(f"{where}: cannot read it: {exc.strerror}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UsageError(f"{where}: not a regular file")
        if info.st_mode & 0o077:
            raise UsageError(f"{where}: others may read it: chmod 600 {path}")
        raw = os.read(fd, 4097)
    finally:
        os.close(fd)
    lines = raw.decode("utf-8", "replace").splitlines()
    user, colon, password = (lines[0] if lines else "").partition(":")
    if len(raw) > 4096 or len([ln for ln in lines if ln.strip()]) != 1 or not colon or not user or not password:
        raise UsageError(f"{where}: expected one line USER:PASSWORD")
    return login_digest(user, password)
