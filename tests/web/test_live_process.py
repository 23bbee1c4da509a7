"""The live page runs in a process of its own beside ``serve``: it answers
while the league runs, it goes when the league goes, after a clean stop
and after a kill -9 of the league (its input pipe ends with the league),
leaving its port free, and a page that stalls never holds the league up."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from click.testing import CliRunner

from arena.cli import main
from arena.games.store import ResultsStore, StoreError
from arena.server import mint_token

from .live_run import CLI, _read_url

REPO = Path(__file__).resolve().parents[2]
GONE_WITHIN = 15.0  # seconds for the page's process to stop once the league is gone
STALLED = 4.0  # seconds of each window with the page stopped


def _recorded(db: Path) -> int:
    try:
        with ResultsStore.open_existing(db) as store:
            return store.count()
    except StoreError:
        return 0


def _wait_recorded(db: Path, games: int) -> None:
    deadline = time.monotonic() + 120
    while _recorded(db) < games:
        assert time.monotonic() < deadline, f"the league recorded fewer than {games} games"
        time.sleep(0.2)


def _arena_port(workdir: Path) -> int:
    return int(re.findall(r"listening on 127\.0\.0\.1:(\d+)", (workdir / "serve.err").read_text())[0])


def _parent_of(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def _page_processes(parent: int) -> list[int]:
    """The live page's processes whose parent is ``parent``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or _parent_of(int(entry.name)) != parent:
            continue
        try:
            command = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"arena.web.page_main" in command:
            found.append(int(entry.name))
    return found


def _running(pid: int) -> bool:
    """Whether ``pid`` is alive (a zombie nobody reaped yet counts as gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return fields[0] != "Z"


def _wait_gone(pid: int, what: str) -> None:
    deadline = time.monotonic() + GONE_WITHIN
    while _running(pid):
        assert time.monotonic() < deadline, f"the live page's process {pid} still runs {GONE_WITHIN:g} s after {what}"
        time.sleep(0.1)


def _port_free(url: str) -> bool:
    host, port = url.removeprefix("http://").rstrip("/").rsplit(":", 1)
    with socket.socket() as s:
        return s.connect_ex((host, int(port))) != 0


def _serve(tmp_path: Path) -> tuple[subprocess.Popen[str], str, int]:
    """``serve --http`` on free ports: the process, its page's URL and the page's pid."""
    tokens = tmp_path / "tokens.txt"
    assert CliRunner().invoke(main, ["token", "mint", "bot", "--tokens", str(tokens)]).exit_code == 0
    process = subprocess.Popen(
        [str(CLI), "serve", "--address", "127.0.0.1:0", "--tokens", str(tokens), "--db", str(tmp_path / "league.sqlite"),
         "--http", "127.0.0.1:0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    first = process.stderr.readline()  # "arena listening on ..."
    (tmp_path / "serve.err").write_text(first)
    url = _read_url(process)
    with urllib.request.urlopen(url + "api/live.json", timeout=30) as reply:
        assert json.loads(reply.read())["finished"] is False
    pages = _page_processes(process.pid)
    assert len(pages) == 1, f"expected one live page process under serve, found {pages}"
    assert pages[0] != process.pid
    return process, url, pages[0]


def test_the_page_stops_with_a_clean_stop_of_serve(tmp_path: Path) -> None:
    process, url, page = _serve(tmp_path)
    try:
        process.send_signal(signal.SIGTERM)
        assert process.wait(60) == 0  # not communicate(): a page still running would hold serve's stderr open
        _wait_gone(page, "serve stopped")
        assert _port_free(url), f"{url} still answers after serve stopped"
        _, err = process.communicate(timeout=30)
        assert "Traceback" not in err
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()


def test_the_page_stops_when_serve_is_killed(tmp_path: Path) -> None:
    process, url, page = _serve(tmp_path)
    try:
        os.kill(process.pid, signal.SIGKILL)
        process.wait(60)
        _wait_gone(page, "serve was killed")
        assert _port_free(url), f"{url} still answers after serve was killed"
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
        if _running(page):
            os.kill(page, signal.SIGKILL)


def test_a_stalled_page_never_holds_the_league_up(tmp_path: Path) -> None:
    """The page's process stopped dead (SIGSTOP: it reads no snapshot, the
    pipe fills): the league plays on, and stops cleanly, killing the page."""
    process, url, page = _serve(tmp_path)
    bots: list[subprocess.Popen[bytes]] = []
    try:
        tokens = tmp_path / "tokens.txt"
        secrets = {n: mint_token(tokens, n) for n in ("r0", "r1")}
        port = _arena_port(tmp_path)
        for name, secret in secrets.items():
            bots.append(subprocess.Popen(
                [sys.executable, "-m", "sample_bots.random_bot", "--address", f"127.0.0.1:{port}", "--name", name,
                 "--streams", "4"], env={**os.environ, "TRUCO_ARENA_TOKEN": secret},
                cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        db = tmp_path / "league.sqlite"
        _wait_recorded(db, 1)
        os.kill(page, signal.SIGSTOP)
        time.sleep(STALLED)  # several snapshots of four running games: more than the pipe holds
        first = _recorded(db)
        time.sleep(STALLED)
        assert _recorded(db) >= first + 5, "the league stopped playing while its page was stalled"
        process.send_signal(signal.SIGTERM)
        assert process.wait(60) == 0
        _wait_gone(page, "serve stopped")
    finally:
        for bot in bots:
            bot.kill()
            bot.wait(10)
        if process.poll() is None:
            process.kill()
            process.communicate()
        if _running(page):
            os.kill(page, signal.SIGKILL)
