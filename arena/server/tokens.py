"""Access tokens: which token lets which bot name into the arena.

The token file keeps only a SHA-256 hash of each token, never the token
itself, one bot per line, ``NAME sha256:HEX`` separated by white space; blank
lines and lines starting with ``#`` are ignored::

    # truco-arena tokens (keep this file private: chmod 600)
    heuristic  sha256:5d41402abc4b2a76b9719d911017c592...
    random     sha256:7d793037a0760186574b0282f2f435e7...

``truco-arena token mint NAME --tokens FILE`` makes a fresh token, prints it
once and stores only its hash; whoever reads the file cannot log in with it.
A plain SHA-256 without salt is enough because tokens are 128 random bits:
there is no dictionary to try.

The old format, ``NAME TOKEN`` with the token in plain text, is refused: the
error names the line and says to re-mint that bot's token with
``truco-arena token mint NAME --tokens FILE`` (which replaces the old line;
the bot then needs its new token).

A token admits exactly the bot name on its line. A name may have several
tokens (e.g. while rotating one); a token may not belong to two names. The
file is re-read when it changes, so tokens minted while the arena runs work
at once. Tokens given in memory (``TokenStore.add``) live as long as the store.

A presented token is looked up by its hash, so the time the lookup takes does
not depend on how many characters of a real token it got right.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import re
import secrets
import tempfile
from pathlib import Path

NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-]{0,63}")
HASH_PREFIX = "sha256:"
_HASH_RE = re.compile(r"sha256:[0-9a-f]{64}")
log = logging.getLogger("arena.server")
_HEADER = "# truco-arena tokens: NAME sha256:HASH per line; only hashes are kept (keep this file private)"


class TokenFileError(ValueError):
    """A malformed token file; the message names the file and line."""


def new_token() -> str:
    """A fresh random token: 32 hex digits (128 bits). Hex, so it never starts
    with '-' and passes as a command-line argument."""
    return secrets.token_hex(16)


def token_hash(token: str) -> str:
    """What the token file keeps of ``token``: ``sha256:`` and 64 hex digits."""
    return HASH_PREFIX + hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def check_name(name: str) -> str:
    if not NAME_RE.fullmatch(name):
        raise ValueError(
            f"bad bot name {name!r}: use 1-64 letters, digits, '_', '.' or '-', starting with a letter or digit"
        )
    return name


def _parse_line(line: str, where: str, mint_hint: str) -> tuple[str, str]:
    """(name, hash) of one non-comment line."""
    parts = line.split()
    if len(parts) != 2:
        raise TokenFileError(f"{where}: expected 'NAME sha256:HASH', got {len(parts)} fields")
    name, stored = parts
    try:
        check_name(name)
    except ValueError as exc:
        raise TokenFileError(f"{where}: {exc}") from None
    if not _HASH_RE.fullmatch(stored):
        if stored.startswith(HASH_PREFIX):
            raise TokenFileError(f"{where}: malformed hash: expected 'sha256:' and 64 lower-case hex digits")
        raise TokenFileError(
            f"{where}: the token of {name!r} is stored in plain text (an old token file); "
            f"re-mint it with `truco-arena token mint {name} --tokens {mint_hint}` and give the bot its new token"
        )
    return name, stored


def parse_tokens(text: str, source: str = "tokens") -> dict[str, str]:
    """Parse token file text into {token hash: name}."""
    by_hash: dict[str, str] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        name, stored = _parse_line(line, f"{source}:{number}", source)
        owner = by_hash.get(stored)
        if owner is not None and owner != name:
            raise TokenFileError(f"{source}:{number}: this token already belongs to {owner!r}")
        by_hash[stored] = name
    return by_hash


def load_tokens(path: str | Path) -> dict[str, str]:
    """Read a token file into {token hash: name}; a missing file has no tokens."""
    p = Path(path)
    try:
        text = p.read_text()
    except FileNotFoundError:
        return {}
    return parse_tokens(text, str(p))


def mint_token(path: str | Path, name: str) -> str:
    """Give ``name`` a new token in the file at ``path`` and return it; the
    file keeps only its hash, so this is the one time the token is seen.

    Earlier tokens of ``name`` are replaced (this is also how a token is
    rotated, and how a plain-text line of the old format is replaced); other
    lines and comments are kept. The file is created with mode 600 and
    replaced atomically, so a running arena never reads half of it.
    """
    check_name(name)
    p = Path(path)
    token = new_token()
    try:
        lines = p.read_text().splitlines()
    except FileNotFoundError:
        lines = [_HEADER]
    kept = [ln for ln in lines if ln.split()[:1] != [name]]
    parse_tokens("\n".join(kept), str(p))  # refuse to write a file we cannot read back
    kept.append(f"{name} {token_hash(token)}")
    p.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=p.parent, prefix=f".{p.name}.")  # mkstemp creates it with mode 600
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
    """Tokens from an operator's file (re-read when it changes) plus in-memory
    ones; both kept as hashes."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self._memory: dict[str, str] = {}  # token hash -> name
        self._file: dict[str, str] = {}  # token hash -> name
        self._stamp: tuple[int, int] | None = None
        self._reload(strict=True)  # fail at start-up, not at the first Hello, on a bad file

    def add(self, name: str, token: str | None = None) -> str:
        """Admit ``name`` with ``token`` (a fresh one by default), in memory only."""
        check_name(name)
        token = token or new_token()
        digest = token_hash(token)
        owner = self._memory.get(digest) or self._file.get(digest)
        if owner is not None and owner != name:
            raise ValueError(f"this token already belongs to {owner!r}")
        self._memory[digest] = name
        return token

    def same_bot(self, digest_a: str, digest_b: str) -> bool:
        """Whether two token hashes admit the same connection owner: the same
        token, or two in-memory tokens of one name (the arena gives each
        process of a bot it launched a token of its own)."""
        if hmac.compare_digest(digest_a, digest_b):
            return True
        name = self._memory.get(digest_a)
        return name is not None and self._memory.get(digest_b) == name

    def name_for(self, token: str) -> str | None:
        """The bot name ``token`` admits, or None for an unknown token."""
        if not token:
            return None
        digest = token_hash(token)
        name = self._memory.get(digest)
        if name is not None:
            return name
        self._reload()
        return self._file.get(digest)

    def _reload(self, strict: bool = False) -> None:
        """Re-read the file if it changed. A file broken while the arena runs
        keeps the tokens read before (and is reported once), unless ``strict``."""
        if self.path is None:
            return
        try:
            st = self.path.stat()
        except FileNotFoundError:
            self._file, self._stamp = {}, None
            return
        stamp = (st.st_mtime_ns, st.st_size)
        if stamp != self._stamp:
            self._stamp = stamp
            try:
                self._file = load_tokens(self.path)
            except TokenFileError as exc:
                if strict:
                    raise
                log.warning("token file not reloaded, keeping the tokens read before: %s", exc)
