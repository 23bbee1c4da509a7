"""Files and folders the arena writes, made owner-only and never through a
link somebody else planted.

A bot that can write next to the results database (one run with ``sandbox =
"none"``, as the organizer, or anything else of the organizer's) could plant
``DB.lock -> ~/.bashrc`` or a ``CONFIG-logs`` link into the home folder and
have the arena write there. So what the arena writes goes through here:

* ``open_private(path, append=...)``: a binary file object for writing,
  created 0600. Refused (``PrivateFileError``, one line) when the path is a
  symbolic link (``O_NOFOLLOW``), not a regular file (a FIFO, a device), owned
  by another user, or has a second hard link (a hard link to the organizer's
  file is as good as a symlink to it, and ``O_NOFOLLOW`` does not see it).
  An existing file that other users may read is tightened to 0600.
* ``private_fd(path, flags)``: the same checks, for callers that need a raw
  descriptor (the run lock).
* ``make_private_dir(path, parents=...)``: a folder created 0700, or an existing one that
  is a real directory (not a link) of ours, tightened to 0700. Files inside
  it opened with ``open_private`` are then safe too.
* ``check_private_sidecar(path)``: for files another library creates (SQLite's
  ``-wal`` and ``-shm``): refuse one that is a link or not ours, tighten its
  mode; a missing one is fine (SQLite creates it with the database's mode).

Every check is made on the opened descriptor (``fstat``), not on the name,
so a link swapped in between a look and the open cannot slip through.
"""

from __future__ import annotations

import errno
import fcntl
import os
import stat
from pathlib import Path
from types import TracebackType
from typing import BinaryIO

from arena.errors import DomainError

FILE_MODE = 0o600
DIR_MODE = 0o700
_GROUP_OR_OTHER = 0o077


class PrivateFileError(DomainError, OSError):
    """A path the arena would write cannot be used safely; the message is one
    line. An OSError, so that code already handling a file it cannot open
    handles this one too."""


def private_fd(path: Path, flags: int = os.O_RDWR, *, create: bool = True) -> int:
    """An open descriptor on the regular file ``path`` (created 0600 if
    missing and ``create``), after the checks in the module docstring.
    ``flags`` are the access flags (``os.O_RDWR``, ``os.O_WRONLY | os.O_APPEND``...);
    ``O_TRUNC`` is refused: truncate with ``os.ftruncate`` once the file is checked."""
    if flags & os.O_TRUNC:
        raise ValueError("private_fd: O_TRUNC would cut a file before it is checked; use os.ftruncate after")
    # O_NONBLOCK: opening a planted FIFO for writing would otherwise wait forever for a reader.
    extra = os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK | (os.O_CREAT if create else 0)
    try:
        fd = os.open(path, flags | extra, FILE_MODE)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise PrivateFileError(f"{path}: is a symbolic link; refusing to write through it "
                                   f"(remove it if you did not make it)") from None
        raise PrivateFileError(f"{path}: cannot open: {exc.strerror}") from None
    try:
        _check_opened(fd, path)
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
    except BaseException:
        os.close(fd)
        raise
    return fd


def open_private(path: Path, *, append: bool = False) -> BinaryIO:
    """``path`` opened for writing as a binary file object, owner-only and not
    through a link: appended to with ``append``, emptied otherwise. Its
    descriptor can be handed to a child process as stdout or stderr."""
    fd = private_fd(path, os.O_WRONLY | (os.O_APPEND if append else 0))
    if not append:
        os.ftruncate(fd, 0)
    return os.fdopen(fd, "ab" if append else "wb")


def make_private_dir(path: Path, *, parents: bool = False) -> Path:
    """Create the folder ``path`` with mode 0700, or accept an existing one
    that is a real directory owned by this user, tightened to 0700. Its
    parent must exist, unless ``parents``: then missing ones are made the
    same way (existing ones are the operator's and left as they are).
    Returns ``path``."""
    if parents and not os.path.lexists(path.parent) and path.parent != path:
        make_private_dir(path.parent, parents=True)
    try:
        os.mkdir(path, DIR_MODE)
    except FileExistsError:
        pass
    except OSError as exc:
        raise PrivateFileError(f"{path}: cannot create the folder: {exc.strerror}") from None
    try:
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR) and os.path.islink(path):
            raise PrivateFileError(f"{path}: is a symbolic link; refusing to write through it "
                                   f"(remove it if you did not make it)") from None
        if exc.errno == errno.ENOTDIR:
            raise PrivateFileError(f"{path}: exists and is not a folder") from None
        raise PrivateFileError(f"{path}: cannot open the folder: {exc.strerror}") from None
    try:
        info = os.fstat(fd)
        if info.st_uid != os.geteuid():
            raise PrivateFileError(f"{path}: the folder belongs to another user (uid {info.st_uid})")
        if stat.S_IMODE(info.st_mode) != DIR_MODE:
            os.fchmod(fd, DIR_MODE)  # umask may have left bits off; an older folder may be open to others
    finally:
        os.close(fd)
    return path


def check_private_sidecar(path: Path) -> None:
    """Refuse ``path`` if it exists and is a link or not a private file of
    ours; tighten it to 0600. For files a library opens itself by name."""
    if not os.path.lexists(path):
        return
    os.close(private_fd(path, os.O_RDONLY, create=False))


def _check_opened(fd: int, path: Path) -> None:
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        raise PrivateFileError(f"{path}: is not a regular file; refusing to write to it")
    if info.st_uid != os.geteuid():
        raise PrivateFileError(f"{path}: belongs to another user (uid {info.st_uid}); refusing to write to it")
    if info.st_nlink != 1:
        raise PrivateFileError(f"{path}: has {info.st_nlink} hard links, so writing it would change another "
                               f"file; refusing (remove it if you did not make it)")
    if stat.S_IMODE(info.st_mode) & _GROUP_OR_OTHER:
        os.fchmod(fd, FILE_MODE)


class RunLockError(DomainError, RuntimeError):
    """The database is in use by another run, or its lock file cannot be made."""


def lock_path(db: Path) -> Path:
    return db.with_name(db.name + ".lock")


class RunLock:
    """One tournament process per results database at a time.

    An exclusive ``flock`` on ``DB.lock`` (next to the database) is held for the
    whole run. The kernel drops it when the process ends in any way, kill -9
    included, so a stale lock never blocks a resume.

    The lock file is created 0600 and never opened through a link
    (``private_fd``): a link planted at ``DB.lock`` would have the arena
    truncate and write whatever file it points to."""

    def __init__(self, db: Path) -> None:
        self.path = lock_path(db)
        self._fd: int | None = None

    def __enter__(self) -> RunLock:
        if not self.path.parent.is_dir():
            raise RunLockError(f"{self.path.parent}: no such directory")
        try:
            fd = private_fd(self.path, os.O_RDWR)
        except PrivateFileError as exc:
            raise RunLockError(f"cannot use the run lock: {exc}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pid = os.pread(fd, 32, 0).decode(errors="replace").strip()
            os.close(fd)
            who = f"tournament process {pid}" if pid.isdigit() else "another tournament process"
            raise RunLockError(f"{self.path.with_suffix('')} is in use by {who} "
                               f"(lock {self.path}); wait for it to end or stop it") from None
        except OSError as exc:
            os.close(fd)
            raise RunLockError(f"{self.path}: cannot lock: {exc.strerror}") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)  # who holds it, for the message above
        self._fd = fd
        return self

    def __exit__(self, et: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None) -> None:
        if self._fd is not None:
            os.close(self._fd)  # releases the lock; the file stays, harmlessly
            self._fd = None
