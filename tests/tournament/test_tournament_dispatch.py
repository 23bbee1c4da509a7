"""Which game goes out next: a duplicate pair's second game waits for its first."""

from __future__ import annotations

import asyncio

from arena.games.dispatch import Dispatcher
from arena.games.schedule import Pairing
from arena.games.seeds import TournamentSecret
from arena.tournament.formats.round_robin import round_robin


def test_second_halves_wait_for_their_first_half_to_end() -> None:
    async def scenario() -> None:
        games = round_robin(["a", "b"], 4, Pairing.DUPLICATE)  # a|b#0a, #0b, #1a, #1b
        d = Dispatcher(list(enumerate(games)), set(), TournamentSecret.from_seed(1))
        firsts = [await d.next(), await d.next()]
        assert {item[1].key for item in firsts if item} == {"a|b#0a", "a|b#1a"}
        waiting = asyncio.ensure_future(d.next())
        await asyncio.sleep(0.01)
        assert not waiting.done()  # both second halves blocked: their first halves are running
        first = firsts[1]
        assert first is not None
        d.finished(first[1], recorded=True)
        item = await asyncio.wait_for(waiting, 1)
        assert item is not None and item[1].after == first[1].key
        d.close()
        assert await d.next() is None

    asyncio.run(scenario())


def test_on_resume_a_second_half_whose_first_is_recorded_is_ready() -> None:
    async def scenario() -> None:
        games = round_robin(["a", "b"], 2, Pairing.DUPLICATE)
        d = Dispatcher([(1, games[1])], {games[0].key}, TournamentSecret.from_seed(1))
        assert await d.next() == (1, games[1])
        assert await d.next() is None

    asyncio.run(scenario())


def test_independent_games_go_out_in_a_secret_order() -> None:
    async def order(seed: int) -> list[str]:
        games = round_robin(["a", "b"], 20, Pairing.INDEPENDENT)
        d = Dispatcher(list(enumerate(games)), set(), TournamentSecret.from_seed(seed))
        keys = []
        while (item := await d.next()) is not None:
            keys.append(item[1].key)
        return keys

    one, two = asyncio.run(order(1)), asyncio.run(order(2))
    assert sorted(one) == sorted(two) and len(one) == 20 and one != two
