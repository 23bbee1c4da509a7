"""The key file of a results database: what must never be in the results
file itself.

A results file gets copied: to a co-organizer, to the bot authors it is
published to. So the two keys that make it trustworthy live beside it, in
``DB.key`` (``weekly.sqlite`` -> ``weekly.sqlite.key``):

* the deal secret every deal seed, rng seed and game id derives from
  (``seeds.TournamentSecret``); whoever holds it can read every deal, past
  and future;
* the signing key every row's MAC is made with (``chain.py``); whoever holds
  it can write rows that verify.

The file is JSON, owner-only (0600), written whole to a temporary file and
renamed over (a crash leaves the old one or the new one, never half), never
through a link. Reading refuses a link, another user's file, a file with a
second hard link, and one that group or others may read (the keys may
already be out: say so rather than use them).
"""

from __future__ import annotations

import json
import os
import secrets
import stat
from dataclasses import dataclass, replace
from pathlib import Path

from arena.errors import DomainError

from .private_files import FILE_MODE, PrivateFileError, private_fd
from .seeds import TournamentSecret

FORMAT = "truco-arena keys 1"
SIGNING_KEY_BYTES = 32
_MAX_BYTES = 4096  # a key file is a few hundred bytes; a bigger one is not ours


class KeyFileError(DomainError, RuntimeError):
    """The key file cannot be used; the message is one line naming it."""


def key_path(db: Path) -> Path:
    """Where the keys of the results database ``db`` live."""
    return db.with_name(db.name + ".key")


@dataclass(frozen=True)
class Keys:
    """What the key file holds."""

    signing_key: bytes
    """The HMAC-SHA256 key every row and the chain head are signed with."""
    secret: TournamentSecret | None = None
    """The deal secret; None until a tournament's first run chooses it."""

    def __repr__(self) -> str:  # keep the keys out of logs and tracebacks
        return "Keys(<hidden>)"

    @classmethod
    def fresh(cls, secret: TournamentSecret | None = None) -> Keys:
        return cls(secrets.token_bytes(SIGNING_KEY_BYTES), secret)

    def with_secret(self, secret: TournamentSecret | None) -> Keys:
        return replace(self, secret=secret)

    def to_json(self) -> bytes:
        return json.dumps({"format": FORMAT, "signing_key": self.signing_key.hex(),
                           "secret": None if self.secret is None else self.secret.hex}, indent=1).encode() + b"\n"

    @classmethod
    def from_json(cls, data: bytes, path: Path) -> Keys:
        try:
            raw = json.loads(data)
            if not isinstance(raw, dict) or raw.get("format") != FORMAT:
                raise ValueError("not a truco-arena key file")
            signing = bytes.fromhex(raw["signing_key"])
            if len(signing) != SIGNING_KEY_BYTES:
                raise ValueError("the signing key is damaged")
            secret = raw.get("secret")
            return cls(signing, None if secret is None else TournamentSecret.from_hex(secret))
        except (ValueError, KeyError, TypeError, RecursionError) as exc:
            raise KeyFileError(f"{path}: not a usable key file ({exc})") from None


def read_keys(db: Path) -> Keys | None:
    """The keys of ``db``; None if it has no key file. KeyFileError for a
    key file that is a link, not a private regular file of ours, or damaged."""
    path = key_path(db)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if os.path.islink(path):
            raise KeyFileError(f"{path}: is a symbolic link; refusing to read keys through it "
                               f"(remove it if you did not make it)") from None
        raise KeyFileError(f"{path}: cannot open: {exc.strerror}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise KeyFileError(f"{path}: is not a regular file")
        if info.st_uid != os.geteuid():
            raise KeyFileError(f"{path}: belongs to another user (uid {info.st_uid}); refusing its keys")
        if info.st_nlink != 1:
            raise KeyFileError(f"{path}: has {info.st_nlink} hard links; refusing its keys")
        if stat.S_IMODE(info.st_mode) & 0o077:
            raise KeyFileError(f"{path}: group or others may read it (mode {stat.S_IMODE(info.st_mode):o}), "
                               f"so its keys may be out; refusing them (chmod 600 it if nobody else read it)")
        data = os.read(fd, _MAX_BYTES + 1)
    finally:
        os.close(fd)
    if len(data) > _MAX_BYTES:
        raise KeyFileError(f"{path}: too big to be a key file")
    return Keys.from_json(data, path)


def write_keys(db: Path, keys: Keys) -> None:
    """Write ``keys`` as the key file of ``db``: whole, owner-only, synced."""
    path = key_path(db)
    if os.path.islink(path):
        raise KeyFileError(f"{path}: is a symbolic link; refusing to write keys through it "
                           f"(remove it if you did not make it)")
    temp = path.with_name(path.name + ".new")
    try:
        fd = private_fd(temp, os.O_WRONLY)
    except PrivateFileError as exc:
        raise KeyFileError(str(exc)) from None
    try:
        os.ftruncate(fd, 0)
        os.fchmod(fd, FILE_MODE)
        os.write(fd, keys.to_json())
        os.fsync(fd)
    finally:
        os.close(fd)
    try:
        os.replace(temp, path)
        directory = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)
    except OSError as exc:
        raise KeyFileError(f"{path}: cannot write: {exc.strerror}") from None
