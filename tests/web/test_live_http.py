"""The live page's HTTP server under bad requests: each gets a 4xx (or 503
when full) and the server keeps serving. Run in this process's event loop
over a real recorded tournament (the browser tests' ``report_db``)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from arena.games.game_record import GameRecord
from arena.games.store import ResultsStore
from arena.report.summary import page_name
from arena.web.http import MAX_CONNECTIONS, MAX_HEADERS, MAX_LINE, READ_DEADLINE, HttpServer
from arena.web.server import LiveSite


@asynccontextmanager
async def _server(db: Path | None, read_deadline: float = READ_DEADLINE,
                  max_connections: int = MAX_CONNECTIONS) -> AsyncIterator[tuple[HttpServer, int]]:
    server = HttpServer(LiveSite(None, db).handle, max_connections, read_deadline)
    port = await server.start("127.0.0.1", 0)
    try:
        yield server, port
    finally:
        await server.stop()


async def _exchange(port: int, request: bytes, *, eof: bool = False) -> bytes:
    """Send ``request`` (then end the stream, with ``eof``) and read the whole reply."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(request)
        if eof:
            writer.write_eof()
        await writer.drain()
        return await asyncio.wait_for(reader.read(), 60)
    finally:
        writer.close()


def _status(reply: bytes) -> int:
    return int(reply.split(b" ", 2)[1])


def _get(path: str, *headers: str) -> bytes:
    return (f"GET {path} HTTP/1.1\r\nHost: x\r\n" + "".join(h + "\r\n" for h in headers) + "\r\n").encode()


def test_bad_requests_get_4xx_and_the_server_keeps_serving(report_db: Path) -> None:
    async def main() -> None:
        async with _server(report_db) as (_, port):
            bad = {
                "POST": (b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n", 405),
                "PUT": (b"PUT /x HTTP/1.1\r\n\r\n", 405),
                "huge header": (_get("/", "X-Big: " + "a" * (2 * MAX_LINE)), 431),
                "huge path": (_get("/" + "a" * (2 * MAX_LINE)), 431),
                "too many headers": (_get("/", *(f"X-{i}: y" for i in range(MAX_HEADERS + 1))), 431),
                "body": (_get("/", "Content-Length: 5") + b"hello", 400),
                "chunked": (_get("/", "Transfer-Encoding: chunked"), 400),
                "garbage": (b"\x00\xff\xfe nonsense\r\n\r\n", 400),
                "no version": (b"GET /\r\n\r\n", 400),
                "absolute URL": (b"GET http://evil/ HTTP/1.1\r\n\r\n", 400),
                "cut short": (b"GET / HTTP/1.1\r\nHost:", 400),
                "unknown path": (_get("/nothing-here"), 404),
                "traversal": (_get("/../../etc/passwd"), 404),
                "traversal in games": (_get("/games/../../../etc/passwd.html"), 404),
                "encoded traversal": (_get("/games/%2e%2e%2fpyproject.toml"), 404),
                "unknown game page": (_get("/games/99999-nope.html"), 404),
                "unknown live game": (_get("/api/game/nope.json"), 404),
                "bad live game id": (_get("/live/a%20b"), 404),
            }
            for name, (request, expected) in bad.items():
                assert _status(await _exchange(port, request, eof=True)) == expected, name
            ok = await _exchange(port, _get("/index.html?x=1"))
            assert _status(ok) == 200 and b"game-link" in ok and b"id=\"live\"" in ok
    asyncio.run(main())


def test_pages_and_endpoints_of_a_recorded_tournament(report_db: Path) -> None:
    async def main() -> None:
        async with _server(report_db) as (_, port):
            live = await _exchange(port, _get("/api/live.json"))
            assert _status(live) == 200 and live.endswith(b'"games":[],"finished":true}')
            body = json.loads(live.split(b"\r\n\r\n", 1)[1])
            assert body["recorded"] == 2 and len(body["latest"]) == 2
            assert {r["winner"] for r in body["latest"]} <= {"random", "heuristic"}
            index = (await _exchange(port, _get("/"))).decode()
            with ResultsStore.open_existing(report_db) as store:
                assert f"<code>{store.digest()[1]}</code>" in index  # the digest people recompute
            page = index.split('class="game-link" href="', 1)[1].split('"', 1)[0]
            viewer = await _exchange(port, _get("/" + page))
            assert _status(viewer) == 200 and b'id="game-data"' in viewer
            for static in ("/style.css", "/viewer.js", "/live.js", "/live-game.js", "/plotly.min.js"):
                assert _status(await _exchange(port, _get(static))) == 200, static
            head = await _exchange(port, b"HEAD / HTTP/1.1\r\n\r\n")
            assert _status(head) == 200 and head.endswith(b"\r\n\r\n")
    asyncio.run(main())


def test_no_database_shows_games_in_progress_only(tmp_path: Path) -> None:
    async def main() -> None:
        async with _server(tmp_path / "not-yet.sqlite") as (_, port):
            index = await _exchange(port, _get("/"))
            assert _status(index) == 200 and b"Games in progress" in index and b"Standings" not in index
            live = await _exchange(port, _get("/api/live.json"))
            assert live.endswith(b'{"recorded":null,"latest":[],"games":[],"finished":true}')
            assert _status(await _exchange(port, _get("/games/00000-x.html"))) == 404
    asyncio.run(main())


def test_slow_and_surplus_clients_are_cut_off(report_db: Path) -> None:
    async def main() -> None:
        async with _server(report_db, read_deadline=0.5, max_connections=2) as (server, port):
            # A client that sends half a request and waits: 408 once the read deadline passes.
            assert _status(await _exchange(port, b"GET / HTTP/1.1\r\n")) == 408
            # Two idle connections fill the server (a slowloris); a third evicts
            # the oldest of them and is answered at once.
            idle = [await asyncio.open_connection("127.0.0.1", port) for _ in range(2)]
            while server.open < 2:
                await asyncio.sleep(0.01)
            assert _status(await _exchange(port, _get("/api/live.json"))) == 200
            assert server.evicted == 1
            first, second = idle
            assert await asyncio.wait_for(first[0].read(), 60) == b""  # evicted: closed, nothing said
            assert _status(await asyncio.wait_for(second[0].read(), 60)) == 408  # the other timed out
            for _, writer in idle:
                writer.close()
            while server.open:
                await asyncio.sleep(0.01)
            assert _status(await _exchange(port, _get("/api/live.json"))) == 200
    asyncio.run(main())


def test_a_replay_is_held_back_until_its_twin_is_recorded(report_db: Path, tmp_path: Path) -> None:
    # The two games of report_db are a duplicate pair (same deal, seats swapped).
    with ResultsStore.open_existing(report_db) as source:
        config, rows = source.get_meta("config"), list(source.games())
    assert len(rows) == 2 and rows[0].pair_id == rows[1].pair_id is not None
    db = tmp_path / "half.sqlite"
    with ResultsStore.create_or_open(db) as store:
        store.set_meta("config", config)
        store.record(rows[0])

    async def page_of(row: GameRecord) -> bytes:
        async with _server(db) as (_, port):
            return await _exchange(port, _get("/" + page_name(row)))

    held = asyncio.run(page_of(rows[0]))
    assert _status(held) == 200 and b'id="held-back"' in held and b"game-data" not in held
    assert str(rows[0].seed).encode() not in held
    with ResultsStore.create_or_open(db) as store:
        store.record(rows[1])
    for row in rows:
        shown = asyncio.run(page_of(row))
        assert _status(shown) == 200 and b'id="game-data"' in shown
