"""The key file as an organizer who is not root keeps it: created owner-only,
read back, refused once group or others may read it, and refused when it
belongs to someone else. CI runs as root, where ownership checks are easy to
get wrong (root can open anything), so the code runs here as an unprivileged
uid (``setpriv``) on Debian's own Python, with the few stdlib-only modules
it needs copied into a folder that uid owns."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

import arena

pytestmark = pytest.mark.integration

NOBODY = 65534
PYTHON = "/usr/bin/python3.11"  # outside /root: an unprivileged uid can run it
MODULES = ("__init__.py", "errors.py", "games/__init__.py", "games/keyfile.py", "games/private_files.py",
           "games/seeds.py")

SCRIPT = """
import json, os, sys
from pathlib import Path
from arena.games.keyfile import KeyFileError, Keys, key_path, read_keys, write_keys
here = Path(sys.argv[1])
out = {"uid": os.geteuid()}
db = here / "t.sqlite"
write_keys(db, Keys.fresh())
out["mode"] = oct(os.stat(key_path(db)).st_mode & 0o777)
out["owner"] = os.stat(key_path(db)).st_uid
out["read_back"] = read_keys(db) is not None
os.chmod(key_path(db), 0o640)
try:
    read_keys(db)
    out["group_readable"] = "accepted"
except KeyFileError as exc:
    out["group_readable"] = str(exc)
try:
    read_keys(here / "other.sqlite")
    out["someone_elses"] = "accepted"
except KeyFileError as exc:
    out["someone_elses"] = str(exc)
print(json.dumps(out))
"""


@pytest.fixture
def folder() -> Iterator[Path]:
    """A folder under /tmp (not the test's own, which only root may enter) owned by the uid."""
    path = Path(tempfile.mkdtemp(prefix="truco-keys-"))
    try:
        source = Path(arena.__file__).parent
        for module in MODULES:
            (path / "arena" / module).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(source / module, path / "arena" / module)
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


@pytest.mark.skipif(not Path(PYTHON).exists() or shutil.which("setpriv") is None,
                    reason="needs Debian's python3.11 and setpriv")
def test_an_unprivileged_organizers_key_file(folder: Path) -> None:
    other = folder / "other.sqlite.key"
    other.write_text("{}")
    other.chmod(0o644)  # someone else's (root's, as the test runs in CI), readable by all
    if os.geteuid() == 0:
        for path in [folder, *folder.rglob("*")]:
            if path != other:
                os.chown(path, NOBODY, NOBODY)
        command = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", PYTHON]
    else:  # already unprivileged: the other user's file cannot be made; it is the test's own
        command = [PYTHON]
    run = subprocess.run([*command, "-c", SCRIPT, str(folder)], capture_output=True, text=True, timeout=60,
                         env={"PYTHONPATH": str(folder), "PATH": "/usr/bin:/bin"}, cwd=folder)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["mode"] == "0o600" and out["owner"] == out["uid"] and out["read_back"], out
    assert "group or others may read it" in out["group_readable"], out
    if os.geteuid() == 0:
        assert out["uid"] == NOBODY
        assert "belongs to another user" in out["someone_elses"], out
