"""One tournament process per results database at a time.

An exclusive ``flock`` on ``DB.lock`` (next to the database) is held for the
whole run. The kernel drops it when the process ends in any way, kill -9
included, so a stale lock never blocks a resume.

The lock file is created 0600 and never opened through a link
(``private_files.private_fd``): a link planted at ``DB.lock`` would have
the arena truncate and write whatever file it points to.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from types import TracebackType

from arena.errors import DomainError

from .private_files import PrivateFileError, private_fd


class RunLockError(DomainError, RuntimeError):
    """The database is in use by another run, or its lock file cannot be made."""


def lock_path(db: Path) -> Path:
    return db.with_name(db.name + ".lock")


class RunLock:
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
