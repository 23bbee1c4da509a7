"""The primitives every arena-written file goes through: owner-only modes, and
no write through a link, a FIFO or a second hard link somebody planted."""

from __future__ import annotations

import os
import stat
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.games.private_files import (
    PrivateFileError,
    check_private_sidecar,
    make_private_dir,
    open_private,
    private_fd,
)

PRECIOUS = b"export PATH=/usr/bin\n"


@pytest.fixture(autouse=True)
def _usual_umask() -> Iterator[None]:
    old = os.umask(0o022)  # what a login shell usually has: files 0644 unless made otherwise
    yield
    os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def _victim(tmp_path: Path) -> Path:
    victim = tmp_path / "bashrc"
    victim.write_bytes(PRECIOUS)
    victim.chmod(0o644)
    return victim


def test_new_files_and_folders_are_owner_only(tmp_path: Path) -> None:
    logs = make_private_dir(tmp_path / "t-logs")
    assert _mode(logs) == 0o700
    with open_private(logs / "bot.log", append=True) as log:
        log.write(b"one\n")
    with open_private(logs / "bot.log", append=True) as log:
        log.write(b"two\n")
    assert (logs / "bot.log").read_bytes() == b"one\ntwo\n"  # append keeps what was there
    assert _mode(logs / "bot.log") == 0o600
    with open_private(logs / "bot.log") as log:
        log.write(b"three\n")
    assert (logs / "bot.log").read_bytes() == b"three\n"  # without append: emptied first
    os.close(private_fd(tmp_path / "db.lock"))
    assert _mode(tmp_path / "db.lock") == 0o600


def test_existing_files_and_folders_open_to_others_are_tightened(tmp_path: Path) -> None:
    (tmp_path / "old-logs").mkdir(mode=0o755)
    (tmp_path / "old-logs").chmod(0o755)
    make_private_dir(tmp_path / "old-logs")
    assert _mode(tmp_path / "old-logs") == 0o700
    old = tmp_path / "old.log"
    old.write_bytes(b"kept\n")
    old.chmod(0o644)
    with open_private(old, append=True) as log:
        log.write(b"more\n")
    assert _mode(old) == 0o600 and old.read_bytes() == b"kept\nmore\n"
    wal = tmp_path / "db.sqlite-wal"
    wal.write_bytes(b"")
    wal.chmod(0o644)
    check_private_sidecar(wal)
    assert _mode(wal) == 0o600
    check_private_sidecar(tmp_path / "missing-wal")  # absent: fine, and not created
    assert not (tmp_path / "missing-wal").exists()


@pytest.mark.parametrize("append", [True, False])
def test_a_planted_symlink_is_refused_and_its_target_untouched(tmp_path: Path, append: bool) -> None:
    victim = _victim(tmp_path)
    link = tmp_path / "bot.log"
    link.symlink_to(victim)
    with pytest.raises(PrivateFileError, match=r"bot\.log: is a symbolic link") as err:
        open_private(link, append=append)
    assert "\n" not in str(err.value)
    assert victim.read_bytes() == PRECIOUS and _mode(victim) == 0o644
    with pytest.raises(PrivateFileError, match="symbolic link"):
        check_private_sidecar(link)
    assert victim.read_bytes() == PRECIOUS and _mode(victim) == 0o644


def test_a_dangling_symlink_does_not_create_its_target(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere" / "created-by-nobody"
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "db.lock").symlink_to(target)
    with pytest.raises(PrivateFileError, match="symbolic link"):
        private_fd(tmp_path / "db.lock")
    assert not target.exists()


def test_a_second_hard_link_is_refused_before_anything_is_cut(tmp_path: Path) -> None:
    victim = _victim(tmp_path)
    os.link(victim, tmp_path / "bot.log")
    with pytest.raises(PrivateFileError, match="2 hard links"):
        open_private(tmp_path / "bot.log")  # would empty the file if it truncated before checking
    assert victim.read_bytes() == PRECIOUS and _mode(victim) == 0o644


def test_a_fifo_is_refused_without_waiting_for_a_reader(tmp_path: Path) -> None:
    fifo = tmp_path / "bot.log"
    os.mkfifo(fifo)
    outcome: list[BaseException] = []

    def attempt() -> None:
        try:
            open_private(fifo, append=True)
        except BaseException as exc:  # noqa: BLE001 - handed to the test thread
            outcome.append(exc)

    worker = threading.Thread(target=attempt, daemon=True)
    worker.start()
    worker.join(10)
    assert not worker.is_alive(), "opening a planted FIFO blocked"
    assert len(outcome) == 1 and isinstance(outcome[0], PrivateFileError)


def test_a_folder_that_is_a_link_or_a_file_is_refused(tmp_path: Path) -> None:
    elsewhere = tmp_path / "home"
    elsewhere.mkdir()
    (tmp_path / "t-logs").symlink_to(elsewhere)
    with pytest.raises(PrivateFileError, match=r"t-logs: is a symbolic link"):
        make_private_dir(tmp_path / "t-logs")
    assert _mode(elsewhere) == 0o755 and not list(elsewhere.iterdir())
    (tmp_path / "plain").write_bytes(b"")
    with pytest.raises(PrivateFileError, match="not a folder"):
        make_private_dir(tmp_path / "plain")
    with pytest.raises(PrivateFileError, match="cannot create the folder"):
        make_private_dir(tmp_path / "no" / "such" / "parent")
    made = make_private_dir(tmp_path / "made" / "for" / "logs", parents=True)
    assert [_mode(p) for p in (made, made.parent, made.parent.parent)] == [0o700] * 3


def test_truncating_on_open_is_not_offered(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="O_TRUNC"):
        private_fd(tmp_path / "x", os.O_WRONLY | os.O_TRUNC)
