"""Access tokens: which token lets which bot name into the arena.

The token file is plain text, one bot per line, ``NAME TOKEN`` separated by
white space; blank lines and lines starting with ``#`` are ignored::

    # truco-arena tokens (keep this file private: chmod 600)
    heuristic  3q2bXy0...
    random     Zk1v9Q...

A token admits exactly the bot name on its line. A name may have several
tokens (e.g. while rotating one); a token may not belong to two names. The
file is re-read when it changes, so tokens minted while the arena runs work
at once. Tokens given in memory (``TokenStore.add``) live as long as the store.
"""

from __future__ import annotations

import os
import re
import secrets
import tempfile
from pathlib import Path

NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-]{0,63}")


class TokenFileError(ValueError):
    """A malformed token file; the message names the file and line."""


def new_token() -> str:
    """A fresh random token: 32 hex digits (128 bits). Hex, so it never starts
    with '-' and passes as a command-line argument."""
    return secrets.token_hex(16)


def check_name(name: str) -> str:
    if not NAME_RE.fullmatch(name):
        raise ValueError(
            f"bad bot name {name!r}: use 1-64 letters, digits, '_', '.' or '-', starting with a letter or digit"
        )
    return name


def parse_tokens(text: str, source: str = "tokens") -> dict[str, str]:
    """Parse token file text into {token: name}."""
    by_token: dict[str, str] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split()
        if len(parts) != 2:
            raise TokenFileError(f"{source}:{number}: expected 'NAME TOKEN', got {len(parts)} fields")
        name, token = parts
        try:
            check_name(name)
        except ValueError as exc:
            raise TokenFileError(f"{source}:{number}: {exc}") from None
        owner = by_token.get(token)
        if owner is not None and owner != name:
            raise TokenFileError(f"{source}:{number}: this token already belongs to {owner!r}")
        by_token[token] = name
    return by_token


def load_tokens(path: str | Path) -> dict[str, str]:
    """Read a token file into {token: name}; a missing file has no tokens."""
    p = Path(path)
    try:
        text = p.read_text()
    except FileNotFoundError:
        return {}
    return parse_tokens(text, str(p))


def mint_token(path: str | Path, name: str) -> str:
    """Give ``name`` a new token in the file at ``path`` and return it.

    Earlier tokens of ``name`` are replaced (this is also how a token is
    rotated); other lines and comments are kept. The file is created with mode
    600 and replaced atomically, so a running arena never reads half of it.
    """
    check_name(name)
    p = Path(path)
    token = new_token()
    try:
        lines = p.read_text().splitlines()
    except FileNotFoundError:
        lines = ["# truco-arena tokens: NAME TOKEN per line (keep this file private)"]
    parse_tokens("\n".join(lines), str(p))  # refuse to rewrite a file we cannot read back
    kept = [ln for ln in lines if ln.split()[:1] != [name]]
    kept.append(f"{name} {token}")
    p.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=p.parent, prefix=f".{p.name}.")
    try:
        with os.fdopen(fd, "w") as f:
            f.write("\n".join(kept) + "\n")
        os.chmod(tmp, 0o600)
        os.replace(tmp, p)
    except BaseException:
        os.unlink(tmp)
        raise
    return token


class TokenStore:
    """Tokens from an operator's file (re-read when it changes) plus in-memory ones."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self._memory: dict[str, str] = {}
        self._file: dict[str, str] = {}
        self._stamp: tuple[int, int] | None = None
        self._reload()  # fail at start-up, not at the first Hello, on a bad file

    def add(self, name: str, token: str | None = None) -> str:
        """Admit ``name`` with ``token`` (a fresh one by default), in memory only."""
        check_name(name)
        token = token or new_token()
        owner = self._memory.get(token) or self._file.get(token)
        if owner is not None and owner != name:
            raise ValueError(f"this token already belongs to {owner!r}")
        self._memory[token] = name
        return token

    def name_for(self, token: str) -> str | None:
        """The bot name ``token`` admits, or None for an unknown token."""
        if not token:
            return None
        name = self._memory.get(token)
        if name is not None:
            return name
        self._reload()
        return self._file.get(token)

    def _reload(self) -> None:
        if self.path is None:
            return
        try:
            st = self.path.stat()
        except FileNotFoundError:
            self._file, self._stamp = {}, None
            return
        stamp = (st.st_mtime_ns, st.st_size)
        if stamp != self._stamp:
            self._file = load_tokens(self.path)
            self._stamp = stamp
