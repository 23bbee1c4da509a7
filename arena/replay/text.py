"""A replayed game as plain text for a terminal, hand by hand."""

from __future__ import annotations

from collections.abc import Callable

from arena.protocol.stdio import printable

from .model import Category, GameReplay, HandRecord, Trick


def render_text(replay: GameReplay) -> str:
    info = replay.info
    options = dict(info.options)

    def who(seat: int) -> str:
        name = info.bots[seat] if seat < len(info.bots) else "?"
        return f"seat {seat} ({name})"

    def team(t: int | None) -> str:
        return "parda" if t is None else info.bots[t] if t < len(info.bots) else f"team {t}"

    lines = [
        f"game {info.game_id}: {' vs '.join(who(s) for s in range(len(info.bots)))}",
        f"{info.variant} to {options.get('target')}, seed {info.seed}; ended by {info.termination}"
        + (f" ({info.reason})" if info.reason else "") + f"; final score {info.scores[0]}-{info.scores[1]}",
    ]
    if replay.viewer is not None:
        lines.append(f"as seen by {who(replay.viewer)}: other seats' cards are hidden until played or shown")
    for hand in replay.hands:
        lines += [""] + _hand_lines(replay, hand, who, team)
    if replay.stderr_unanswered:
        lines += ["", "stderr while deciding the move it never made:", *_stderr_lines(replay.stderr_unanswered)]
    return "\n".join(lines)


def _stderr_lines(text: str) -> list[str]:
    """A bot's stderr under its move, one indented line per line, made
    printable: what a bot wrote cannot move the cursor or forge lines."""
    return [f"          stderr| {printable(line)}" for line in text.splitlines()]


def _hand_lines(replay: GameReplay, hand: HandRecord, who: Callable[[int], str],
                team: Callable[[int | None], str]) -> list[str]:
    up = f" · up card {hand.up_card}" if hand.up_card is not None else ""
    pico = " · pico a pico" if hand.pico else ""
    out = [f"Hand {hand.number + 1} · mano {who(hand.mano)}{up}{pico} · "
           f"score {hand.start_scores[0]}-{hand.start_scores[1]}"]
    out.append("  deal: " + " | ".join(
        f"{who(s)} {' '.join(map(str, cards)) if cards is not None else '? ? ?'}"
        for s, cards in enumerate(hand.deal) if s in hand.seats))
    scored: dict[int, list[str]] = {}
    for entry in hand.scored:
        scored.setdefault(entry.step, []).append(f"{team(entry.team)} +{entry.points} ({entry.reason})")
    for step in replay.steps[hand.first_step:hand.last_step + 1]:
        extra = f"   => {'; '.join(scored[step.index])}" if step.index in scored else ""
        out.append(f"  {step.index + 1:>4}. {who(step.seat)}: {step.action}{extra}")
        out += _stderr_lines(step.stderr)
    for announcement in hand.announced:
        out.append(f"  {announcement.what}: {who(announcement.seat)} says {announcement.points}")
    for i, trick in enumerate(hand.tricks):
        out.append(f"  trick {i + 1}: {_trick(trick)} -> "
                   f"{team(trick.winner_team) if trick.finished else 'not finished'}")
    for shown in hand.shown:
        out.append(f"  shown: {who(shown.seat)} {' '.join(map(str, shown.cards))}")
    points = ", ".join(f"{c.value} {hand.points(c)[0]}-{hand.points(c)[1]}" for c in Category)
    out.append(f"  points: {points}; score after the hand {hand.end_scores[0]}-{hand.end_scores[1]}")
    return out


def _trick(trick: Trick) -> str:
    return ", ".join(f"s{p.seat} {p.card}" for p in trick.cards)
