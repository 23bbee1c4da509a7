"""What crosses a worker's pipes is data, never code: a hostile frame
(a pickle that would create a file when unpickled) is refused without
running anything, and a worker that sends one is counted lost, not obeyed."""

from __future__ import annotations

import asyncio
import json
import os
import pickle
import struct
import subprocess
from pathlib import Path

import pytest
from workers_helpers import CLI, results, write_config

from arena.engine.outcome import Termination
from arena.games.game_record import GameRecord
from arena.tournament.scaleout.frames import (
    FROM_WORKER,
    MAX_REPORT,
    TO_WORKER,
    Crash,
    FrameError,
    encode,
    read_frame,
)

ATTACKER = Path(__file__).with_name("pipe_attacker.py")


class _Payload:
    def __init__(self, path: Path) -> None:
        self.path = str(path)

    def __reduce__(self) -> tuple[object, tuple[str, str]]:
        return (open, (self.path, "w"))


def _read_from_pipe(data: bytes, table: dict[str, type], limit: int = MAX_REPORT) -> object:
    """Write ``data`` into a real pipe and read one frame from it, as the coordinator does."""
    async def read() -> object:
        r, w = os.pipe()
        os.write(w, data)
        os.close(w)
        reader = asyncio.StreamReader()
        loop = asyncio.get_running_loop()
        transport, _ = await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader),
                                                    os.fdopen(r, "rb"))
        try:
            return await asyncio.wait_for(read_frame(reader, table, limit), 10)
        finally:
            transport.close()
    return asyncio.run(read())


def _framed(body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + body


def test_a_pickle_frame_is_refused_and_runs_nothing(tmp_path: Path) -> None:
    target = tmp_path / "pwned"
    hostile = pickle.dumps(_Payload(target))
    with pytest.raises(FrameError, match="malformed frame: not JSON"):
        _read_from_pipe(_framed(hostile), FROM_WORKER)
    with pytest.raises(FrameError, match="malformed frame"):
        _read_from_pipe(_framed(hostile), TO_WORKER, 2**20)
    assert not target.exists()
    pickle.loads(hostile)  # the payload is live: the old reader would have run it
    assert target.exists()


@pytest.mark.parametrize(("body", "why"), [
    (b'{"kind": "unplayed", "body": {"game_key": 1, "reason": ""}}', "unplayed.game_key: Expected `str`, got `int`"),
    (b'{"kind": "game", "body": {"game_key": "k"}}', "game: Object missing required field"),
    (b'{"kind": "eval", "body": {}}', "unknown kind 'eval'"),
    (b'{"kind": "ready", "body": {"x": 1}}', "ready: Object contains unknown field `x`"),
    (b'{"kind": "ready", "body": {}, "code": "x"}', "frame: Object contains unknown field `code`"),
    (b'{"kind": "crash", "body": {"ask": 1, "bot": "a", "code": 1.5, "last_line": ""}}', "crash.code"),
    (b'{"kind": "batch_done", "body": {"number": true}}', "batch_done.number: Expected `int`, got `bool`"),
    (b'{"kind": "batch_done", "body": {"number": 1e400}}', "batch_done.number: Number out of range"),
    (b'{"kind": "game", "body": {"duration": NaN}}', "not JSON"),
    (b'[' * 20_000 + b']' * 20_000, "frame: Expected `object`, got `array`"),  # refused by its type, not parsed
    (b'{"kind": "ready", "body": ' + b'[' * 20_000 + b']' * 20_000 + b'}', "not JSON"),  # deeper than allowed
    (b'\xff\xfe', "not JSON"),
])
def test_a_frame_of_the_wrong_shape_is_refused(body: bytes, why: str) -> None:
    with pytest.raises(FrameError) as caught:
        _read_from_pipe(_framed(body), FROM_WORKER)
    assert why in str(caught.value) and "\n" not in str(caught.value)


def test_a_setup_nested_too_deep_is_refused() -> None:
    deep = b'[' * 20_000 + b']' * 20_000  # where the config's free-form tables hold any JSON value
    body = b'{"kind": "setup", "body": {"config": {"raw": ' + deep + b'}}}'
    with pytest.raises(FrameError, match="malformed frame"):
        _read_from_pipe(_framed(body), TO_WORKER, 2**20)


def test_a_frame_over_the_bound_is_refused_before_it_is_read() -> None:
    with pytest.raises(FrameError, match=f"a frame of {MAX_REPORT + 1} bytes"):
        _read_from_pipe(struct.pack(">I", MAX_REPORT + 1), FROM_WORKER)


def test_what_a_worker_sends_reads_back_as_it_was() -> None:
    row = GameRecord(game_key="a|b#0a", seq=3, matchup="a|b", pair_index=0, bot0="a", bot1="b", seed=99, score0=30, score1=12, winner="a", winner_seat=0, termination=Termination.TARGET_REACHED, faulty_bot=None, hands=7, duration=1.5,
                  actions=("0 play 1o", "1 truco"), finished_at=1.0e9, reason="reached 30", version0="1.0", version1="")
    for msg in (row, Crash(4, "a", None, "Traceback (most recent call last):")):
        assert _read_from_pipe(encode(msg), FROM_WORKER) == msg
    assert json.loads(encode(row)[4:])["kind"] == "game"


def _config(tmp_path: Path, name: str, r1: str) -> Path:
    path = tmp_path / f"{name}.toml"
    # No sandbox: it would hide the worker from the bot (its own PID namespace),
    # and this test is about the layer under it, should a bot get through.
    write_config(path, 'sandbox = "none"', "games_per_pairing = 8", "[options]", "target = 9",
                 bots={"r0": "sample_bots.random_bot"})
    with path.open("a") as f:
        f.write(f'[[bots]]\nname = "r1"\ncommand = {json.dumps(r1)}\n')
    return path


def test_a_bot_writing_a_pickle_into_its_workers_pipes_runs_nothing(tmp_path: Path) -> None:
    marks = tmp_path / "marks"
    marks.mkdir()
    reference = _config(tmp_path, "reference", "python -m sample_bots.random_bot")
    attacked = _config(tmp_path, "attacked", f"python {ATTACKER} {marks}")
    for cfg in (reference, attacked):
        proc = subprocess.run([*CLI, "tournament", "run", str(cfg), "--workers", "2", "--no-progress", "--json"],
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr
    log = (marks / "attack.log").read_text()
    assert "wrote" in log, log  # the frame did reach the worker's pipes
    assert not (marks / "pwned").exists()  # and nothing of it ran, in the coordinator or a worker
    assert "malformed frame: not JSON" in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr
    # The worker it reached was counted lost and started again; every game was played once.
    assert results(tmp_path / "attacked.sqlite") == results(tmp_path / "reference.sqlite")
    assert len(results(tmp_path / "attacked.sqlite")) == 8
