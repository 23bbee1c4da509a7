"""The waiting room of streams before their Hello: which stream a new one evicts."""

from __future__ import annotations

import pytest

from arena.server.admission import AdmissionCaps, WaitingRoom

A1, A2, B1 = "ipv4:10.0.0.1:1000", "ipv4:10.0.0.1:1001", "ipv4:10.0.0.2:2000"


def test_a_connection_at_its_cap_evicts_its_own_oldest() -> None:
    room: WaitingRoom[str] = WaitingRoom(AdmissionCaps(per_connection=2, per_host=10, total=10))
    assert room.add("a", A1) == [] and room.add("b", A1) == []
    assert room.add("c", A1) == ["a"]
    assert room.add("x", A2) == []  # another connection of the host is not touched
    assert len(room) == 3 and "a" not in room and room.evicted == 1


def test_a_host_at_its_cap_evicts_from_its_fullest_connection() -> None:
    room: WaitingRoom[str] = WaitingRoom(AdmissionCaps(per_connection=3, per_host=4, total=10))
    for s in ("f1", "f2", "f3"):
        room.add(s, A1)  # the flood's connection
    room.add("bot", A2)  # a bot of the same host
    assert room.add("bot2", A2) == ["f1"]
    assert room.add("bot3", A2) == ["f2"]  # equal counts: the connection whose oldest came first
    assert "bot" in room and room.host_count("ipv4:10.0.0.1") == 4


def test_the_arena_at_its_cap_evicts_from_the_fullest_host() -> None:
    room: WaitingRoom[str] = WaitingRoom(AdmissionCaps(per_connection=3, per_host=4, total=4))
    for s in ("f1", "f2", "f3"):
        room.add(s, A1)
    room.add("b", B1)
    assert room.add("b2", B1) == ["f1"]
    room.remove("b")
    room.remove("b")  # idempotent
    assert len(room) == 3 and room.host_count("ipv4:10.0.0.2") == 1


def test_a_flood_never_evicts_a_bot_that_said_hello_at_once() -> None:
    room: WaitingRoom[str] = WaitingRoom()
    room.add("bot", "ipv4:127.0.0.1:9")
    # Ten times the host's cap: past the cap every add evicts, each round of
    # the 200 flood connections like the last (the arena-level flood test
    # sends 20,000 streams).
    for i in range(10 * AdmissionCaps().per_host):
        room.add(f"f{i}", f"ipv4:127.0.0.1:{100 + i % 200}")
        assert "bot" in room
    assert len(room) <= AdmissionCaps().per_host


def test_caps_must_nest() -> None:
    with pytest.raises(ValueError):
        AdmissionCaps(per_connection=10, per_host=5, total=100)
