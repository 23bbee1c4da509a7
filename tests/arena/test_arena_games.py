"""Full games through the arena between two random bot processes."""

from __future__ import annotations

from arena_harness import Harness

from arena.engine import Action, Game
from arena.engine.outcome import Termination
from arena.server import PlayedGame


def replay(r: PlayedGame) -> None:
    """The record's action log replays on the engine to the recorded result."""
    state = Game(r.options).new_state(seed=r.seed)
    for line in r.actions:
        seat, text = line.split(" ", 1)
        assert state.current_player() == int(seat), line
        state.apply(Action.parse(text))
    assert state.is_terminal()
    assert state.outcome() == r.outcome


def test_full_length_game_in_every_variant(harness: Harness) -> None:
    for seed, variant in enumerate(("argentino", "uruguayo", "venezolano")):
        r = harness.play("good-a", "good-b", variant, seed=100 + seed)
        assert r.termination is Termination.TARGET_REACHED, r.reason
        assert r.bots == ("good-a", "good-b")
        assert max(r.scores) >= r.options.target == {"venezolano": 24}.get(variant, 30)
        assert r.winner_bot == r.bots[r.winner_seat]  # type: ignore[index]
        assert r.faulty_seat is None and r.hands >= 1 and r.duration > 0
        replay(r)


def test_short_games_both_seatings(harness: Harness) -> None:
    for variant in ("argentino", "uruguayo", "venezolano"):
        for seed in range(3):
            a, b = ("good-a", "good-b") if seed % 2 == 0 else ("good-b", "good-a")
            r = harness.play(a, b, variant, seed=seed, target=9)
            assert r.termination is Termination.TARGET_REACHED, r.reason
            assert r.bots == (a, b)
            replay(r)


def test_concurrent_games_share_the_streams(harness: Harness) -> None:
    """Six games at once on two streams per bot: they queue for idle streams."""
    import asyncio

    from arena.engine.options import make_options

    async def many() -> list[PlayedGame]:
        opts = make_options("uruguayo", {"target": 9})
        games = [
            harness.arena.play_game(*(("good-a", "good-b") if i % 2 else ("good-b", "good-a")), opts, seed=i)
            for i in range(6)
        ]
        return await asyncio.gather(*games)

    records = harness.call(many())
    assert [r.termination for r in records] == [Termination.TARGET_REACHED] * 6
    assert len({r.game_id for r in records}) == 6
    for r in records:
        replay(r)


def test_a_bot_can_play_itself_on_two_streams(harness: Harness) -> None:
    r = harness.play("good-a", "good-a", "argentino", seed=5, target=9)
    assert r.termination is Termination.TARGET_REACHED, r.reason
    replay(r)



def test_four_seats_work_too(harness: Harness) -> None:
    """Only 2 seats are required over the network; team games are not ruled
    out: two streams of each good bot fill the four seats."""
    from arena.engine.options import make_options

    bots = ("good-a", "good-b", "good-a", "good-b")
    opts = make_options("argentino", {"seats": 4, "target": 15})
    r = harness.call(harness.arena.play_seats(bots, opts, seed=4))
    assert r.termination is Termination.TARGET_REACHED, r.reason
    assert r.bots == bots
    replay(r)


def test_rng_seeds_make_a_game_repeatable(harness: Harness) -> None:
    """GameStart carries a per-seat seed; the random bot reseeds from it, so the
    same deal seed and rng seeds replay the same game on any stream."""
    from arena.engine.options import make_options

    opts = make_options("uruguayo", {"target": 15})
    runs = [
        harness.call(harness.arena.play_game("good-a", "good-b", opts, 77, rng_seeds=(5, 6))) for _ in range(3)
    ]
    assert all(r.rng_seeds == (5, 6) for r in runs)
    assert runs[0].actions == runs[1].actions == runs[2].actions
    other = harness.call(harness.arena.play_game("good-a", "good-b", opts, 77, rng_seeds=(5, 7)))
    assert other.actions != runs[0].actions
