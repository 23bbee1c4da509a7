"""The live page of a running league behind a login (``serve --http
--http-login FILE``): without the right HTTP Basic credentials every path
gets 401 and nothing of the league (not even the games in progress, which a
bot choosing when to play would watch); with them the page as usual. The
password is on no process's command line, and a login file others may read,
or one that is malformed, is refused in one line before anything starts."""

from __future__ import annotations

import base64
import json
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from league_harness import League, free_port, run_cli, wait_until

pytestmark = pytest.mark.integration

PASSWORD = "s3cret-Truco-42"


def _get(port: int, path: str, credentials: str | None) -> tuple[int, bytes, str]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}")
    if credentials is not None:
        request.add_header("Authorization", "Basic " + base64.b64encode(credentials.encode()).decode())
    try:
        with urllib.request.urlopen(request, timeout=10) as page:
            return page.status, page.read(), ""
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read(), exc.headers.get("WWW-Authenticate", "")


def _login_file(path: Path, text: str, mode: int = 0o600) -> Path:
    path.write_text(text)
    path.chmod(mode)
    return path


def test_the_live_page_shows_nothing_without_the_login(tmp_path: Path) -> None:
    league = League(tmp_path)
    http = free_port()
    login = _login_file(tmp_path / "login.txt", f"organizer:{PASSWORD}\n")
    league.serve_args = ("--http", f"127.0.0.1:{http}", "--http-login", str(login))
    tokens = {name: league.token(name) for name in ("a", "b")}
    try:
        league.start()

        def up() -> bool:
            try:
                return _get(http, "/api/live.json", f"organizer:{PASSWORD}")[0] == 200
            except OSError:
                return False

        wait_until(up, 30, "the live page")
        for name, token in tokens.items():
            league.bot(name, token)
        wait_until(lambda: len(league.rows()) >= 2, 60, "two games")
        asks = [(path, credentials) for path in ("/", "/api/live.json", "/style.css", "/no-such-page")
                for credentials in (None, "organizer:wrong", f"someone:{PASSWORD}", "organizer", "",
                                    f"organizer:{PASSWORD}x")]
        with ThreadPoolExecutor(8) as pool:  # each refusal waits a second: asked together
            answers = list(pool.map(lambda ask: _get(http, *ask), asks))
        for ask, (status, body, challenge) in zip(asks, answers, strict=True):
            assert status == 401, (ask, status)
            assert challenge.startswith("Basic realm="), challenge
            assert body == b"log in to see this page\n", body
        status, body, _ = _get(http, "/api/live.json", f"organizer:{PASSWORD}")
        assert status == 200 and "games" in json.loads(body)
        assert _get(http, "/", f"organizer:{PASSWORD}")[0] == 200
        # Nobody learns the password from `ps`: no command line holds it.
        for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
            try:
                assert PASSWORD.encode() not in cmdline.read_bytes(), cmdline
            except OSError:
                continue  # a process that ended meanwhile
    finally:
        league.close()


@pytest.mark.parametrize(("text", "mode", "says"), [
    ("organizer:pw\n", 0o644, "others may read it: chmod 600"),
    ("organizer\n", 0o600, "expected one line USER:PASSWORD"),
    ("organizer:\n", 0o600, "expected one line USER:PASSWORD"),
    ("a:b\nc:d\n", 0o600, "expected one line USER:PASSWORD"),
    ("", 0o600, "expected one line USER:PASSWORD"),
])
def test_a_bad_login_file_is_one_line_and_exit_2(tmp_path: Path, text: str, mode: int, says: str) -> None:
    login = _login_file(tmp_path / "login.txt", text, mode)
    (tmp_path / "tokens.txt").write_text("")
    done = run_cli("serve", "--tokens", str(tmp_path / "tokens.txt"), "--db", str(tmp_path / "l.sqlite"),
                   "--address", "127.0.0.1:0", "--http", "127.0.0.1:0", "--http-login", str(login))
    assert done.returncode == 2, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and says in lines[0] and "Traceback" not in done.stderr, done.stderr
    assert not (tmp_path / "l.sqlite").exists()


def test_a_login_without_a_page_is_a_usage_error(tmp_path: Path) -> None:
    login = _login_file(tmp_path / "login.txt", "organizer:pw\n")
    done = run_cli("serve", "--tokens", str(tmp_path / "tokens.txt"), "--http-login", str(login))
    assert done.returncode == 2 and done.stderr.splitlines() == ["error: --http-login goes with --http"], done.stderr
