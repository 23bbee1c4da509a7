"""docs/rules.md 9 on the wire: every message each seat received (recorded by the
bot process itself) shows another seat's unplayed cards only once played,
or in a HandEnd's proof of a won envido/flor."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from arena_harness import Harness

from arena.engine import Action, Game
from arena.engine import events as ev
from arena.engine.outcome import Termination
from arena.server import PlayedGame

CARD = re.compile(r"(?<![0-9A-Za-z])(?:1[0-2]|[1-7])[EBOC](?![0-9A-Za-z])")


def dealt_per_hand(r: PlayedGame) -> dict[int, dict[int, set[str]]]:
    """Replay the game: hand number -> seat -> the three cards dealt."""
    state = Game(r.options).new_state(seed=r.seed)
    for line in r.actions:
        state.apply(Action.parse(line.split(" ", 1)[1]))
    out: dict[int, dict[int, set[str]]] = defaultdict(dict)
    hand = 0
    for e in state.events:
        if isinstance(e, ev.HandStarted):
            hand = e.hand
        elif isinstance(e, ev.Dealt):
            out[hand][e.seat] = {str(c) for c in e.cards}
    return out


def leaks(msg: dict[str, Any], seat: int, dealt: dict[int, dict[int, set[str]]]) -> set[str]:
    """Cards of other seats in ``msg`` that ``seat`` had no right to see."""
    kind, body = next(iter(msg.items()))
    if kind == "decision":
        hand = int(body["observation"].get("hand_number", 0))
        history = body["observation"].get("history", [])
    elif kind == "hand_end":
        hand = int(body.get("hand_number", 0))
        history = body.get("history", [])
    else:
        return set()
    seen = set(CARD.findall(json.dumps(msg)))
    allowed = {a["action"].split()[1] for a in history if a.get("action", "").startswith("play ")}
    for shown in body.get("shown", []):
        allowed |= set(shown.get("cards", []))
    others = set().union(*(cards for s, cards in dealt[hand].items() if s != seat))
    return (seen & others) - allowed


def test_leak_check_catches_a_leak() -> None:
    dealt = {0: {0: {"1E", "2E", "3E"}, 1: {"7O", "7E", "4C"}}}
    clean = {"decision": {"observation": {"hand": ["1E"], "history": [{"seat": 1, "action": "play 7O"}],
                                          "events": ["1 play 7O"]}}}
    assert leaks(clean, 0, dealt) == set()
    leaky = {"decision": {"observation": {"hand": ["1E"], "events": ["seat 1 holds 7O 7E 4C"]}}}
    assert leaks(leaky, 0, dealt) == {"7O", "7E", "4C"}


def test_no_seat_sees_unplayed_cards_of_another(harness: Harness, tmp_path: Path) -> None:
    files = {n: tmp_path / f"{n}.jsonl" for n in ("spy-a", "spy-b")}
    procs = [harness.spawn("sample_bots.random_bot", n, "--seed", "9", "--record", str(f)) for n, f in files.items()]
    harness.wait_for(list(files), procs)
    records = {}
    for i, variant in enumerate(("argentino", "uruguayo", "venezolano") * 2):
        r = harness.play("spy-a", "spy-b", variant, seed=200 + i, flor=True)
        assert r.termination is Termination.TARGET_REACHED, r.reason
        records[r.game_id] = r
    for p in procs:
        p.kill()

    dealt = {gid: dealt_per_hand(r) for gid, r in records.items()}
    checked = shown = 0
    for name, path in files.items():
        seat_of: dict[str, int] = {}
        for line in path.read_text().splitlines():
            msg = json.loads(line)["message"]
            kind, body = next(iter(msg.items()))
            if kind == "game_start":
                seat_of[body["game_id"]] = int(body.get("seat", 0))
                assert records[body["game_id"]].bots[seat_of[body["game_id"]]] == name
            game_id = body.get("game_id")
            if kind not in ("decision", "hand_end") or game_id not in records:
                continue
            seat = seat_of[game_id]
            bad = leaks(msg, seat, dealt[game_id])
            assert not bad, f"{name} (seat {seat}) saw {sorted(bad)} in {kind}: {body}"
            checked += 1
            shown += len(body.get("shown", []))
    assert checked > 100
    assert shown > 0  # proofs of envido/flor did travel, and were allowed
