"""What a Decision says that does not depend on the seat's cards: the key
under which the message-size tests group Decisions (tests/fairplay for the
encoder, tests/arena for what the arena sends)."""

from __future__ import annotations

from arena.protocol import arena_pb2 as pb


def public_key(decision: pb.Decision) -> bytes:
    """``decision`` without its padding, the seat's cards (hand, dealt, its
    "holds" events) and which card each play action names."""
    d = pb.Decision()
    d.CopyFrom(decision)
    seat = d.observation.seat
    del d.padding[:]
    del d.observation.hand[:]
    del d.observation.dealt[:]
    events = [e for e in d.observation.events if not e.startswith(f"seat {seat} holds ")]
    del d.observation.events[:]
    d.observation.events.extend(events)
    legal = ["play ?" if t.startswith("play ") else t for t in d.legal_actions
             if t != "flor" and not t.endswith(" con_flor")]
    del d.legal_actions[:]
    d.legal_actions.extend(legal)
    key: bytes = d.SerializeToString(deterministic=True)
    return key
