"""The person's desk: a decision is answered once, only with a legal action,
and the page's view holds what the seat was told and nothing else."""

from __future__ import annotations

import asyncio
import json
import threading
from http import HTTPStatus

from arena.engine import Game, Kind
from arena.web.person_seat import KIND_LABELS, Desk, action_label, play_handler


def _open_decision(desk: Desk) -> tuple[threading.Thread, list[object]]:
    state = Game("uruguayo").new_state(seed=3)
    seat = state.current_player()
    assert seat is not None
    obs = state.observation(seat)
    got: list[object] = []
    thread = threading.Thread(target=lambda: got.append(desk.decide(obs)))
    thread.start()
    while "obs" not in desk.snapshot():
        threading.Event().wait(0.01)
    return thread, got


def test_one_answer_per_decision_and_only_a_legal_one() -> None:
    desk = Desk(games=1)
    desk.on_game_info("g1", 0, "uruguayo", ("you", "bot"), 5.0)
    thread, got = _open_decision(desk)
    snap = desk.snapshot()
    decision = snap["decision"]
    assert isinstance(decision, int)
    assert desk.answer(decision + 1, "mazo") is not None  # a stale number
    assert "not a legal action" in (desk.answer(decision, "raise 99") or "")
    legal = [a["action"] for a in snap["obs"]["legal"]]  # type: ignore[index]
    assert desk.answer(decision, legal[0]) is None
    assert desk.answer(decision, legal[0]) is not None  # a double click
    thread.join(timeout=5)
    assert [str(a) for a in got] == [legal[0]]
    assert "obs" not in desk.snapshot()


def test_closing_releases_a_waiting_decision() -> None:
    desk = Desk(games=1)
    desk.on_game_info("g1", 0, "uruguayo", ("you", "bot"), 5.0)
    thread, got = _open_decision(desk)
    desk.close()
    thread.join(timeout=5)
    assert len(got) == 1


def test_routes_need_the_key() -> None:
    desk = Desk(games=1)
    handle = play_handler(desk, "k3y")

    async def status(path: str) -> tuple[HTTPStatus, bytes]:
        r = await handle(path)
        return r.status, r.body

    assert asyncio.run(status("/state"))[0] == HTTPStatus.FORBIDDEN
    assert asyncio.run(status("/s/nope/state"))[0] == HTTPStatus.FORBIDDEN
    code, body = asyncio.run(status("/s/k3y/state"))
    assert code == HTTPStatus.OK and json.loads(body)["game"] is None
    assert asyncio.run(status("/s/k3y/act/x/mazo"))[0] == HTTPStatus.BAD_REQUEST
    assert asyncio.run(status("/s/k3y/act/1/mazo"))[0] == HTTPStatus.CONFLICT
    assert asyncio.run(status("/s/k3y/"))[0] == HTTPStatus.OK


def test_every_action_has_a_spanish_label() -> None:
    state = Game("argentino").new_state(seed=1)
    labels = {action_label(a) for a in state.legal_actions()}
    assert "Truco" in labels and "Envido" in labels and "Me voy al mazo" in labels
    assert set(KIND_LABELS) == set(Kind) - {Kind.PLAY, Kind.RAISE}  # those two are spelled from their card, amount


def test_another_game_once_the_last_has_ended_and_only_once() -> None:
    desk = Desk(games=1)
    desk.on_game_info("g1", 1, "uruguayo", ("bot", "you"), 5.0)
    assert desk.more(1) is not None  # the game is still on
    assert desk.await_choice(0.01) is True  # a game asked for is still to be played
    desk.on_game_end(True, (0, 15))
    assert desk.more(2) is not None  # not after the last game asked for
    assert desk.more(1) is None
    assert desk.more(1) is not None  # a double click asks for one game only
    assert desk.wanted() == 2 and desk.await_choice(0.01) is True
    desk.on_game_info("g2", 1, "uruguayo", ("bot", "you"), 5.0)
    desk.on_game_end(False, (15, 3))
    desk.end()
    assert desk.await_choice(5.0) is False
    assert desk.more(2) == "the session is over"
    assert desk.snapshot()["ended"] is True
