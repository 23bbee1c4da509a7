"""Rules helpers against hands worked out by hand from the rule book
(3.1 card hierarchy, 4.4 envido points, 5.1 flor and its points)."""

from __future__ import annotations

import pytest

import sdk
from arena.engine import Action, Card, FlorKind, Game, PointsAnnounced, card_rank, envido_points, flor_kind, flor_points
from sdk import rules


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


def ranks(text: str, up: str | None, variant: str) -> list[int]:
    upc = Card.parse(up) if up else None
    return [card_rank(c, upc, variant) for c in cards(text)]


# ------------------------------------------------------------------ argentino


def test_argentino_hierarchy_rows_in_order_with_ties() -> None:
    rows = ["1E", "1B", "7E", "7O", "3E 3B 3O 3C", "2E 2B 2O 2C", "1O 1C", "12E 12B 12O 12C",
            "11E 11B 11O 11C", "10E 10B 10O 10C", "7B 7C", "6E 6B 6O 6C", "5E 5B 5O 5C", "4E 4B 4O 4C"]
    per_row = [set(ranks(row, None, "argentino")) for row in rows]
    assert all(len(r) == 1 for r in per_row), "cards in one row tie (parda)"
    values = [r.pop() for r in per_row]
    assert values == sorted(values, reverse=True) and len(set(values)) == len(values)


@pytest.mark.parametrize(("hand", "points"), [
    ("7O 6O 1E", 33),  # two of one suit: 20 + 7 + 6
    ("12O 3O 1E", 23),  # a figure counts 0: 20 + 0 + 3
    ("4E 5B 7C", 7),  # no two of one suit: the highest card
    ("12E 11B 10O", 0),
    ("7C 6C 5C", 33),  # three of one suit (flor off or void): 20 + the best two
])
def test_argentino_envido(hand: str, points: int) -> None:
    assert envido_points(cards(hand), None, "argentino") == points


def test_argentino_flor() -> None:
    assert flor_kind(cards("1E 7E 3E"), None, "argentino") is FlorKind.FLOR
    assert flor_points(cards("1E 7E 3E"), None, "argentino") == 31
    assert flor_points(cards("12C 11C 10C"), None, "argentino") == 20
    assert flor_kind(cards("1E 1B 7E"), None, "argentino") is None


# ------------------------------------------------------------------- uruguayo


def test_uruguayo_piezas_of_the_muestra_rank_above_the_1e() -> None:
    r = ranks("2O 4O 5O 11O 10O 1E 1B 7E 7O 3C", "1O", "uruguayo")
    assert r == sorted(r, reverse=True) and len(set(r)) == len(r)
    # A 2 of another suit is no pieza: it ranks as any 2.
    assert ranks("2C 2E", "1O", "uruguayo")[0] == ranks("2E", "1O", "uruguayo")[0] < ranks("3E", "1O", "uruguayo")[0]


def test_uruguayo_muestra_that_is_a_pieza_is_replaced_by_the_12() -> None:
    # Muestra 4O: the 12O takes the 4's place, between the 2O and the 5O.
    two, twelve, five, twelve_c = ranks("2O 12O 5O 12C", "4O", "uruguayo")
    assert two > twelve > five > twelve_c
    assert envido_points(cards("12O 7C 1E"), Card.parse("4O"), "uruguayo") == 29 + 7


@pytest.mark.parametrize(("hand", "points"), [
    ("2O 7C 12E", 37),  # pieza 2 = 30 + the best other card, whatever its suit
    ("10O 5B 4B", 32),  # pieza 10 = 27 + 5 (the pieza counts, not the pair 20 + 9)
    ("7C 6C 1E", 33),  # without a pieza: as argentino
])
def test_uruguayo_envido(hand: str, points: int) -> None:
    assert envido_points(cards(hand), Card.parse("1O"), "uruguayo") == points


@pytest.mark.parametrize(("hand", "points"), [
    ("2O 4O 5O", 47),  # the rule book's example: 30 + 9 + 8
    ("2O 7C 6C", 43),  # one pieza and two of one suit: 30 + 7 + 6
    ("4O 11O 3E", 39),  # two piezas and any card: 29 + 7 + 3
    ("7E 6E 5E", 38),  # three of one suit: 20 + 18
])
def test_uruguayo_flor(hand: str, points: int) -> None:
    muestra = Card.parse("1O")
    assert flor_kind(cards(hand), muestra, "uruguayo") is FlorKind.FLOR
    assert flor_points(cards(hand), muestra, "uruguayo") == points


def test_uruguayo_no_flor() -> None:
    assert flor_kind(cards("2O 7C 6E"), Card.parse("1O"), "uruguayo") is None


# ----------------------------------------------------------------- venezolano


def test_venezolano_perico_and_perica_rank_above_the_1e() -> None:
    perico, perica, ace, eleven, twelve = ranks("11O 10O 1E 11C 12C", "1O", "venezolano")
    assert perico > perica > ace and twelve > eleven
    assert ranks("11C 11E", "1O", "venezolano")[0] == ranks("11E", "1O", "venezolano")[0]


def test_venezolano_vira_11_makes_the_12_perico_and_vira_10_the_12_perica() -> None:
    twelve, perica, ace = ranks("12O 10O 1E", "11O", "venezolano")
    assert twelve > perica > ace
    perico, twelve, ace = ranks("11O 12O 1E", "10O", "venezolano")
    assert perico > twelve > ace
    # That 12 no longer counts as a 12.
    assert ranks("12O", "11O", "venezolano") != ranks("12C", "11O", "venezolano")
    assert envido_points(cards("12O 7E 3C"), Card.parse("11O"), "venezolano") == 37


@pytest.mark.parametrize(("hand", "points"), [
    ("11O 7E 3C", 37),  # perico 30 + 7, whatever the suit
    ("10O 5B 4B", 34),  # perica 29 + 5
    ("7C 6C 1E", 33),  # without them: two of one suit, 20 + 13
])
def test_venezolano_envido(hand: str, points: int) -> None:
    assert envido_points(cards(hand), Card.parse("1O"), "venezolano") == points


def test_venezolano_flor_and_flor_reservada() -> None:
    vira = Card.parse("1O")
    assert flor_kind(cards("11O 10O 3E"), vira, "venezolano") is FlorKind.RESERVADA
    assert flor_points(cards("11O 10O 3E"), vira, "venezolano") == 30 + 9 + 3
    assert flor_kind(cards("11O 7C 6C"), vira, "venezolano") is FlorKind.FLOR
    assert flor_points(cards("11O 7C 6C"), vira, "venezolano") == 43
    assert flor_kind(cards("11O 7C 6E"), vira, "venezolano") is None


# ---------------------------------------------------------------- bad input


def test_bad_input_is_refused_with_the_reason() -> None:
    with pytest.raises(ValueError, match="uruguayo needs the muestra"):
        envido_points(cards("7O 6O 1E"), None, "uruguayo")
    with pytest.raises(ValueError, match="1O is the vira"):
        card_rank(Card.parse("1O"), Card.parse("1O"), "venezolano")
    with pytest.raises(ValueError, match="appears twice"):
        envido_points(cards("7O 7O 1E"), None, "argentino")
    with pytest.raises(ValueError, match="expected 3 cards"):
        flor_kind(cards("7O 6O"), None, "argentino")
    with pytest.raises(ValueError, match="not a flor"):
        flor_points(cards("7O 6O 1E"), None, "argentino")
    with pytest.raises(ValueError, match="unknown variant"):
        envido_points(cards("7O"), None, "chileno")


# ------------------------------------------------------------------------ SDK


def test_sdk_rules_take_texts_and_are_exported() -> None:
    assert sdk.rules is rules and "rules" in sdk.__all__
    assert rules.flor_points(["2O", "4O", "5O"], "1O", "uruguayo") == 47
    assert rules.card_rank("11O", "1O", "venezolano") > rules.card_rank("1E", "1O", "venezolano")
    assert rules.flor_kind(["11O", "10O", "3E"], "1O", "venezolano") is rules.FlorKind.RESERVADA
    assert rules.envido_points(["7O", "6O"], None, "argentino") == 33


@pytest.mark.parametrize("variant", ["argentino", "uruguayo", "venezolano"])
def test_sdk_envido_from_an_observation_matches_what_the_referee_announces(variant: str) -> None:
    checked = 0
    for seed in range(40):
        state = Game(variant, flor=False).new_state(seed=seed)
        seen = {seat: state.observation(seat) for seat in (0, 1)}
        state.apply(Action.parse("envido"))
        state.apply(Action.parse("quiero"))
        announced = {e.seat: e.points for e in state.events if isinstance(e, PointsAnnounced)}
        for seat, obs in seen.items():
            assert rules.envido_points(obs.dealt, obs.up_card, obs.variant) == announced[seat]
            checked += 1
    assert checked == 80
