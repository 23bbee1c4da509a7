"""Access tokens: which token lets which bot name into the arena.

The token file keeps a *verifier* of each token, never the token itself,
one bot per line, ``NAME scram:STORED:SERVER`` (two SHA-256 sized keys in
hex, arena/protocol/handshake.py) and optionally ``owner=OWNER``, separated by white
space; blank lines and lines starting with ``#`` are ignored::

    # truco-arena tokens (keep this file private: chmod 600)
    heuristic  scram:5d41402abc4b2a76...:7d793037a0760186...  owner=alice
    random     scram:0cc175b9c0f1b6a8...:92eb5ffee6ae2fec...

A verifier checks a bot's answer to the arena's challenge (docs/protocol.md,
"Authentication"), so the token never travels, and whoever reads the file
cannot log in with it. Derived keys without salt are enough because tokens
are 128 random bits: there is no dictionary to try.

A bot's *owner* (default: the bot's own name) is the person or team behind
it: a league never pairs two bots of one owner (docs/league.md).

``truco-arena token mint NAME --tokens FILE`` makes a fresh token, prints it
once and stores only its verifier.

Older formats: ``NAME TOKEN`` with the token in plain text is refused (the
error names the line and says to re-mint that bot's token with
``truco-arena token mint NAME --tokens FILE``, which replaces the old line;
the bot then needs its new token). ``NAME sha256:HEX`` lines (a hash, the
format before the challenge-response) are read, but cannot answer a
challenge: such a bot is refused with the same advice.

A token admits exactly the bot name on its line. A name may have several
tokens (e.g. while rotating one); a token may not belong to two names. The
file is re-read when it changes, so tokens minted while the arena runs work
at once, and revoked ones stop at once. Tokens given in memory
(``TokenStore.add``) live as long as the store.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import re
import secrets
import tempfile
from dataclasses import dataclass
from pathlib import Path

from arena.errors import UsageError
from arena.protocol.handshake import Verifier

NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-]{0,63}")
HASH_PREFIX = "sha256:"
_HASH_RE = re.compile(r"sha256:[0-9a-f]{64}")  # before the challenge-response: read, not usable
_SCRAM_RE = re.compile(r"scram:[0-9a-f]{64}:[0-9a-f]{64}")
log = logging.getLogger("arena.server")
_HEADER = "# truco-arena tokens: NAME scram:VERIFIER per line; only verifiers are kept (keep this file private)"


class TokenFileError(UsageError, ValueError):
    """A malformed token file; the message names the file and line."""


def new_token() -> str:
    """A fresh random token: 32 hex digits (128 bits). Hex, so it never starts
    with '-' and passes as a command-line argument."""
    return secrets.token_hex(16)


def token_verifier(token: str) -> str:
    """What the token file keeps of ``token``: ``scram:STORED:SERVER``."""
    return Verifier.of(token).text()


def parse_verifier(stored: str) -> Verifier | None:
    """The verifier of a token file entry; None for an old ``sha256:`` hash."""
    if not stored.startswith("scram:"):
        return None
    _, stored_key, server_key = stored.split(":")
    return Verifier(bytes.fromhex(stored_key), bytes.fromhex(server_key))


def token_hash(token: str) -> str:
    """What the token file keeps of ``token``: ``sha256:`` and 64 hex digits."""
    return HASH_PREFIX + hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class BadNameError(UsageError, ValueError):
    """A bot or owner name outside the allowed length and characters."""


def check_name(name: str, what: str = "bot name") -> str:
    if not NAME_RE.fullmatch(name):
        raise BadNameError(
            f"bad {what} {clip_text(name)!r}: use 1-64 letters, digits, '_', '.' or '-', "
            f"starting with a letter or digit"
        )
    return name


def _parse_line(line: str, where: str, mint_hint: str) -> tuple[str, str, str]:
    """(name, hash, owner) of one non-comment line."""
    parts = line.split()
    if len(parts) not in (2, 3):
        raise TokenFileError(f"{where}: expected 'NAME scram:VERIFIER [owner=OWNER]', got {len(parts)} fields")
    name, stored = parts[:2]
    owner = name
    try:
        check_name(name)
        if len(parts) == 3:
            key, _, owner = parts[2].partition("=")
            if key != "owner":
                raise ValueError(f"unknown field {clip_text(parts[2])!r} (expected owner=OWNER)")
            check_name(owner, "owner")
    except ValueError as exc:
        raise TokenFileError(f"{where}: {exc}") from None
    if not _HASH_RE.fullmatch(stored) and not _SCRAM_RE.fullmatch(stored):
        if stored.startswith("scram:"):
            raise TokenFileError(f"{where}: malformed verifier: expected 'scram:' and two times 64 lower-case "
                                 f"hex digits separated by ':'")
        if stored.startswith(HASH_PREFIX):
            raise TokenFileError(f"{where}: malformed hash: expected 'sha256:' and 64 lower-case hex digits")
        raise TokenFileError(
            f"{where}: the token of {name!r} is stored in plain text (an old token file); "
            f"re-mint it with `truco-arena token mint {name} --tokens {mint_hint}` and give the bot its new token"
        )
    return name, stored, owner


def clip_text(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


@dataclass(frozen=True, slots=True)
class TokenEntry:
    """One line of a token file."""

    name: str
    stored: str
    """What is kept of the token."""
    owner: str


def parse_entries(text: str, source: str = "tokens") -> list[TokenEntry]:
    """The lines of token file text, in order."""
    entries: list[TokenEntry] = []
    by_hash: dict[str, str] = {}
    owners: dict[str, str] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        name, stored, owner = _parse_line(line, f"{source}:{number}", source)
        holder = by_hash.get(stored)
        if holder is not None and holder != name:
            raise TokenFileError(f"{source}:{number}: this token already belongs to {holder!r}")
        if owners.get(name, owner) != owner:
            raise TokenFileError(f"{source}:{number}: {name!r} has owner {owners[name]!r} on an earlier line")
        by_hash[stored], owners[name] = name, owner
        entries.append(TokenEntry(name, stored, owner))
    return entries


def parse_tokens(text: str, source: str = "tokens") -> dict[str, str]:
    """Parse token file text into {token hash: name}."""
    return {e.stored: e.name for e in parse_entries(text, source)}


def _read_text(p: Path) -> str:
    """The token file's text; TokenFileError (one line) if it cannot be read."""
    try:
        return p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise TokenFileError(f"{p}: no such token file") from None
    except UnicodeDecodeError:
        raise TokenFileError(f"{p}: not a token file (not UTF-8 text)") from None
    except OSError as exc:
        raise TokenFileError(f"{p}: cannot read: {exc.strerror or exc}") from None


def read_entries(path: str | Path) -> list[TokenEntry]:
    """The lines of the token file at ``path``; TokenFileError if it is missing or malformed."""
    p = Path(path)
    return parse_entries(_read_text(p), str(p))


def load_tokens(path: str | Path) -> dict[str, str]:
    """Read a token file into {token hash: name}; a missing file has no tokens."""
    if not Path(path).exists():
        return {}
    return {e.stored: e.name for e in read_entries(path)}


def mint_token(path: str | Path, name: str, owner: str | None = None) -> str:
    """Give ``name`` a new token in the file at ``path`` and return it; the
    file keeps only its hash, so this is the one time the token is seen.

    Earlier tokens of ``name`` are replaced (this is also how a token is
    rotated, and how a plain-text line of the old format is replaced); other
    lines and comments are kept. ``owner`` defaults to ``name``. The file is
    created with mode 600 and replaced atomically, so a running arena never
    reads half of it.
    """
    check_name(name)
    if owner is not None:
        check_name(owner, "owner")
    token = new_token()
    suffix = "" if owner is None or owner == name else f" owner={owner}"
    _rewrite(path, name, f"{name} {token_verifier(token)}{suffix}")
    return token


def set_owner(path: str | Path, name: str, owner: str) -> int:
    """Make ``owner`` the owner of every token of ``name`` (merging it with
    ``owner``'s other bots: a league then never pairs them); the number of
    tokens changed (0: ``name`` has none). TokenFileError if the file is
    missing. Atomic, mode 600, as ``mint_token``."""
    check_name(name)
    check_name(owner, "owner")
    entries = [e for e in read_entries(path) if e.name == name]
    if not entries:
        return 0
    suffix = "" if owner == name else f" owner={owner}"
    _rewrite(path, name, "\n".join(f"{name} {e.stored}{suffix}" for e in entries))
    return len(entries)


def revoke_token(path: str | Path, name: str) -> bool:
    """Remove every token of ``name`` from the file; False if it had none.
    TokenFileError if the file is missing."""
    check_name(name)
    if not any(e.name == name for e in read_entries(path)):
        return False
    _rewrite(path, name, None)
    return True


def _rewrite(path: str | Path, name: str, line: str | None) -> None:
    """Replace ``name``'s lines with ``line`` (none if None), atomically, mode 600."""
    p = Path(path)
    lines = _read_text(p).splitlines() if p.exists() else [_HEADER]
    kept = [ln for ln in lines if ln.split()[:1] != [name]]
    parse_tokens("\n".join(kept), str(p))  # refuse to write a file we cannot read back
    if line is not None:
        kept.append(line)
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


class TokenStore:
    """Tokens from an operator's file (re-read when it changes) plus in-memory
    ones; both kept as verifiers (the file's old hashes as they are)."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self._memory: dict[str, str] = {}  # verifier text -> name
        self._families: dict[str, str] = {}  # verifier text -> family: the tokens of one launched bot
        self._file: dict[str, str] = {}  # verifier text (or an old sha256: hash) -> name
        self._owners: dict[str, str] = {}  # name -> owner, from the file (others own themselves)
        self._stamp: tuple[int, int] | None = None
        self._reload(strict=True)  # fail at start-up, not at the first Hello, on a bad file

    def add(self, name: str, token: str | None = None, family: str | None = None) -> str:
        """Admit ``name`` with ``token`` (a fresh one by default), in memory
        only. Tokens added with the same ``family`` are one bot's: the arena
        gives each process of a bot it launched a token of its own."""
        check_name(name)
        token = token or new_token()
        digest = token_verifier(token)
        owner = self._memory.get(digest) or self._file.get(digest)
        if owner is not None and owner != name:
            raise ValueError(f"this token already belongs to {owner!r}")
        self._memory[digest] = name
        if family is not None:
            self._families[digest] = family
        return token

    def same_bot(self, digest_a: str, digest_b: str) -> bool:
        """Whether two tokens (by their verifiers) admit the same bot: the same
        token, or two tokens added as one family."""
        if hmac.compare_digest(digest_a, digest_b):
            return True
        family = self._families.get(digest_a)
        return family is not None and self._families.get(digest_b) == family

    def owner_of(self, name: str) -> str:
        """Who ``name`` belongs to: its token file line's owner, else itself."""
        return self._owners.get(name, name)

    def names(self) -> set[str]:
        """Every bot name with a token now (the file re-read if it changed)."""
        self._reload()
        return set(self._memory.values()) | set(self._file.values())

    def name_for(self, token: str) -> str | None:
        """The bot name ``token`` admits, or None for an unknown token (an
        operator's check: the arena itself never sees tokens)."""
        if not token:
            return None
        self._reload()
        for digest in (token_verifier(token), token_hash(token)):
            name = self._memory.get(digest) or self._file.get(digest)
            if name is not None:
                return name
        return None

    def verifiers(self, name: str) -> tuple[list[tuple[str, Verifier]], bool]:
        """The verifiers of ``name``'s tokens (with their text, the token's
        identity), and whether it also has old hashes that cannot answer a challenge."""
        self._reload()
        found: list[tuple[str, Verifier]] = []
        legacy = False
        for table in (self._memory, self._file):
            for digest, owner in table.items():
                if owner != name:
                    continue
                verifier = parse_verifier(digest)
                if verifier is None:
                    legacy = True
                else:
                    found.append((digest, verifier))
        return found, legacy

    def admits(self, digest: str, name: str) -> bool:
        """Whether the token with verifier ``digest`` still admits ``name`` (False once revoked)."""
        return self._memory.get(digest, self._file.get(digest)) == name

    def reload(self) -> bool:
        """Re-read the file if it changed; True if it did."""
        before = self._stamp
        self._reload()
        return self._stamp != before

    def _reload(self, strict: bool = False) -> None:
        """Re-read the file if it changed. A file broken while the arena runs
        keeps the tokens read before (and is reported once), unless ``strict``."""
        if self.path is None:
            return
        try:
            st = self.path.stat()
        except FileNotFoundError:
            self._file, self._owners, self._stamp = {}, {}, None
            return
        stamp = (st.st_mtime_ns, st.st_size)
        if stamp != self._stamp:
            self._stamp = stamp
            try:
                entries = read_entries(self.path)
                self._file = {e.stored: e.name for e in entries}
                self._owners = {e.name: e.owner for e in entries}
            except TokenFileError as exc:
                if not self.path.exists():  # removed between the stat and the read: no tokens
                    self._file, self._owners, self._stamp = {}, {}, None
                    return
                if strict:
                    raise
                log.warning("token file not reloaded, keeping the tokens read before: %s", exc)
