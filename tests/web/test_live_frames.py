"""The frames the arena sends its live page's process: JSON objects with a
length in front, bounded, and anything else refused with FrameError (never
run, never half-read as a snapshot)."""

from __future__ import annotations

import io
import struct

import pytest

from arena.web.page_frames import MAX_FRAME, FrameError, encode_frame, read_frame
from arena.web.snapshot import LiveState


def test_frames_round_trip_and_end_cleanly_between_two_frames() -> None:
    state = LiveState([{"id": "g1", "bots": ["a", "b"], "scores": [3, 1]}], {"g1": {"id": "g1", "view": {}}},
                      False, 12.5)
    stream = io.BytesIO(encode_frame(state.to_json()) + encode_frame(LiveState(finished=True, at=13.0).to_json()))
    first, second = read_frame(stream), read_frame(stream)
    assert first is not None and second is not None
    assert LiveState.from_json(first) == state
    assert LiveState.from_json(second).finished
    assert read_frame(stream) is None


@pytest.mark.parametrize("raw, why", [
    (b"\x00\x00", "inside a frame's length"),
    (struct.pack(">I", 10) + b"{}", "inside a frame"),
    (struct.pack(">I", MAX_FRAME + 1), "over the"),
    (struct.pack(">I", 3) + b"{x}", "not JSON"),
    (struct.pack(">I", 2) + b"\xff\xfe", "not JSON"),
    (struct.pack(">I", 2) + b"[]", "not a JSON object"),
])
def test_a_bad_frame_is_refused(raw: bytes, why: str) -> None:
    with pytest.raises(FrameError, match=why):
        read_frame(io.BytesIO(raw))


def test_a_frame_over_the_limit_is_not_sent() -> None:
    with pytest.raises(FrameError, match="over the"):
        encode_frame({"games": ["x" * MAX_FRAME]})


@pytest.mark.parametrize("value", [
    {}, {"games": {}, "views": {}, "finished": False, "at": 1.0},
    {"games": [1], "views": {}, "finished": False, "at": 1.0},
    {"games": [], "views": {"g": 1}, "finished": False, "at": 1.0},
    {"games": [], "views": {}, "finished": "no", "at": 1.0},
    {"games": [], "views": {}, "finished": False, "at": "now"},
])
def test_a_frame_that_is_not_a_live_state_is_refused(value: dict[str, object]) -> None:
    with pytest.raises(ValueError, match="not a live state"):
        LiveState.from_json(value)
