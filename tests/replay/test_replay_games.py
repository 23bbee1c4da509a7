"""Every game of a real tournament replays to the stored result, the views
show each seat only what the engine's observer showed it, and the JSON export
reads back equal."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from arena.engine import Action, Game, Kind, Options
from arena.games.game_record import GameRecord
from arena.games.store import ResultsStore
from arena.replay import (
    Category,
    ExportError,
    GameReplay,
    ReplayError,
    from_json,
    options_of,
    replay,
    replay_row,
    restrict_to_seat,
    to_json,
)


def _stored(db: Path) -> tuple[Options, list[GameRecord]]:
    with ResultsStore.open_existing(db) as store:
        return options_of(store.get_meta("config")), list(store.games())


def _replays(db: Path) -> list[tuple[GameRecord, GameReplay]]:
    options, rows = _stored(db)
    return [(row, replay_row(row, options)) for row in rows]


def test_every_game_replays_to_the_stored_scores(small_db: Path) -> None:
    pairs = _replays(small_db)
    assert len(pairs) == 6
    assert {row.termination for row, _ in pairs} >= {"target_reached", "illegal_action"}
    for row, record in pairs:
        assert record.info.scores == (row.score0, row.score1), row.game_key
        assert record.info.winner_team == row.winner_seat
        assert len(record.steps) == len(row.actions)
        assert [f"{s.seat} {s.action}" for s in record.steps] == list(row.actions)
        assert len(record.hands) == row.hands
        if record.steps:
            assert record.steps[-1].scores == (row.score0, row.score1)
        # Points per category over the hands add up to the final score.
        for team in (0, 1):
            total = sum(h.points(c)[team] for h in record.hands for c in Category)
            assert total == record.info.scores[team]
        for before, after in zip(record.hands, record.hands[1:], strict=False):
            assert before.end_scores == after.start_scores
            assert after.first_step == before.last_step + 1


def test_seat_views_are_the_engines_observations(small_db: Path) -> None:
    options, rows = _stored(small_db)
    for row in rows:
        record = replay_row(row, options)
        state = Game(options).new_state(seed=row.seed)
        for step, text in zip(record.steps, row.actions, strict=True):
            hands_before = state.hands_played
            before = [state.observation(seat) for seat in (0, 1)]
            action = Action.parse(text.partition(" ")[2])
            state.apply(action)
            views = step.views
            assert all(cards is None for cards in views.public.cards)
            for seat in (0, 1):
                view = views.seats[seat]
                assert view is not None
                assert [c is None for c in view.cards] == [s != seat for s in (0, 1)]
                if state.hands_played == hands_before and not state.is_terminal():
                    # Mid-hand the view is the observation of the game itself.
                    obs = state.observation(seat)
                    assert view.cards[seat] == obs.hand
                    assert view.log == obs.events
                    assert view.scores == obs.scores
                else:
                    # After a hand's (or the game's) last action the view is that hand finished, not
                    # the next deal: the seat's cards before it, less the card just played.
                    played = action.card if action.kind is Kind.PLAY else None
                    assert view.cards[seat] == tuple(c for c in before[seat].hand if c != played)
                    assert view.hand == step.hand and view.to_act is None
                    on_table = [p.card for t in view.tricks for p in t.cards]
                    assert on_table == [c for t in before[seat].tricks for _, c in t] + ([played] if played else [])


def test_spectator_sees_nothing_unplayed_and_unshown(small_db: Path) -> None:
    for _row, record in _replays(small_db):
        for step in record.steps:
            hand = record.hands[step.hand]
            view = step.views.public
            played = {p.card for t in view.tricks for p in t.cards}
            shown = {c for s in view.shown for c in s.cards}
            hidden = {c for cards in hand.deal if cards for c in cards} - played - shown
            text = " ".join(view.log)
            for card in hidden:
                assert not re.search(rf"\b{card}\b", text), (record.info.game_id, step.index, card)
            assert "holds" not in text


def test_json_export_round_trips(small_db: Path) -> None:
    ended = 0
    for _row, record in _replays(small_db):
        data = json.loads(json.dumps(to_json(record)))
        assert data["schema_version"] == 2
        assert from_json(data) == record
        # Hands are numbered from 1, as the text replay and the referee's events number them.
        assert [h["number"] for h in data["hands"]] == list(range(1, len(record.hands) + 1))
        assert all(data["hands"][st["hand"] - 1]["first_step"] <= st["index"] <= data["hands"][st["hand"] - 1]
                   ["last_step"] for st in data["steps"])
        assert all(st["views"]["public"]["hand"] == st["hand"] for st in data["steps"])
        over = [(st["hand"], e) for st in data["steps"] for e in st["events"] if re.match(r"hand \d+ over", e)]
        # Each hand but the last says it is over (the last ends the game,
        # at the target or cut short: a game its cheater ends in the first hand has none).
        assert len(over) == len(record.hands) - 1 and all(e.startswith(f"hand {n} over") for n, e in over)
        ended += len(over)
        for seat in (0, 1):
            mine = restrict_to_seat(record, seat)
            assert from_json(json.loads(json.dumps(to_json(mine)))) == mine
            assert all(cards is None for h in mine.hands for s, cards in enumerate(h.deal) if s != seat)
            assert [h.deal[seat] for h in mine.hands] == [h.deal[seat] for h in record.hands]
            assert all(v is None for st in mine.steps for s, v in enumerate(st.views.seats) if s != seat)
    assert ended  # the check above saw hands end


def test_a_version_1_export_numbered_from_0_is_still_read(small_db: Path) -> None:
    _row, record = _replays(small_db)[0]
    data = json.loads(json.dumps(to_json(record)))

    def from_0(value: Any) -> Any:  # the same export as version 1 wrote it
        if isinstance(value, dict):
            out: dict[str, Any] = {k: from_0(v) for k, v in value.items()}
            if "first_step" in out and "number" in out:  # a hand
                out["number"] -= 1
            if "action" in out and "index" in out or "cards_left" in out:  # a step, a view
                out["hand"] -= 1
            return out
        return [from_0(v) for v in value] if isinstance(value, list) else value

    old = {**from_0(data), "schema_version": 1}
    assert old["hands"][0]["number"] == 0 and old["steps"][0]["hand"] == 0
    assert from_json(old) == record
    with pytest.raises(ExportError, match=r"numbered from 1"):
        from_json({**data, "hands": [{**data["hands"][0], "number": 0}, *data["hands"][1:]]})


def test_export_rejects_what_it_does_not_read(small_db: Path) -> None:
    _row, record = _replays(small_db)[0]
    data = to_json(record)
    with pytest.raises(ExportError, match="schema_version"):
        from_json({**data, "schema_version": 99})
    bad_card = json.loads(json.dumps(data))
    bad_card["hands"][0]["up_card"] = "9X"
    with pytest.raises(ExportError, match=r"hands\[0\]\.up_card"):
        from_json(bad_card)
    with pytest.raises(ExportError, match="unknown field"):
        from_json({**data, "extra": 1})


def test_a_log_that_does_not_fit_the_deal_is_refused(small_db: Path) -> None:
    options, rows = _stored(small_db)
    row = rows[0]
    with pytest.raises(ReplayError, match="seat 1 acted but seat 0 was to act"):
        replay(options, row.seed, ["1 " + row.actions[0].partition(" ")[2]])
    with pytest.raises(ReplayError, match="not 'SEAT ACTION'"):
        replay(options, row.seed, ["mazo"])
    with pytest.raises(ReplayError, match="before the game is over"):
        replay(options, row.seed, row.actions[:3])
