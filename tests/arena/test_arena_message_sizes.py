"""Decision sizes on the wire (docs/fair-play.md, "Message sizes"): every
Decision two random bots received over real gRPC, recorded by the bot
process itself (Batches opened), is grouped by everything public about it;
within a group, every hand gives the same size. tests/fairplay/
test_message_sizes.py shows the same of the encoder over many more states;
this shows that what the arena sends is that encoding, padding included.

The fields whose size varies for reasons other than the cards (the game
id, the sequence number and the seat's time bank, all public to whoever
sees the stream's timing) are set to constants before measuring.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

from arena_harness import Harness
from google.protobuf import json_format  # type: ignore[import-untyped,unused-ignore]
from public_state import public_key

from arena.engine.outcome import Termination
from arena.protocol import arena_pb2 as pb

GAMES = 24
LONG = ("10", "11", "12")


def decisions(path: Path) -> list[pb.Decision]:
    out = []
    for line in path.read_text().splitlines():
        msg = json_format.ParseDict(json.loads(line)["message"], pb.PlayResponse())
        for m in (msg.batch.messages if msg.HasField("batch") else [msg]):
            if m.HasField("decision"):
                out.append(m.decision)
    return out


def measured(d: pb.Decision) -> pb.Decision:
    """``d`` with the fields that vary for public reasons set to constants."""
    m = pb.Decision()
    m.CopyFrom(d)
    m.game_id, m.seq, m.bank_ms = "0" * 24, 7, 0
    return m


def test_decisions_received_have_one_size_per_public_state(harness: Harness, tmp_path: Path) -> None:
    files = {n: tmp_path / f"{n}.jsonl" for n in ("size-a", "size-b")}
    procs = [harness.spawn("sample_bots.random_bot", n, "--seed", str(i), "--record", str(f))
             for i, (n, f) in enumerate(files.items())]
    harness.wait_for(list(files), procs)
    for i in range(GAMES):
        r = harness.play("size-a", "size-b", "argentino", seed=500 + i, flor=True, target=6)
        assert r.termination is Termination.TARGET_REACHED, r.reason
    for p in procs:
        p.kill()
    groups: dict[bytes, dict[int, set[int]]] = defaultdict(lambda: defaultdict(set))
    unpadded: dict[bytes, set[int]] = defaultdict(set)
    received = [d for path in files.values() for d in decisions(path)]
    for d in received:
        held = sum(c[:2] in LONG for c in d.observation.hand)
        m = measured(d)
        key = public_key(m)
        groups[key][held].add(m.ByteSize())
        del m.padding[:]
        unpadded[key].add(m.ByteSize())
    shared = {k: g for k, g in groups.items() if len(g) > 1}
    print(f"{len(received)} Decisions, {len(groups)} public states, {len(shared)} seen with different hands")
    assert len(shared) >= 5, "too few public states seen with different hands"
    for g in shared.values():
        assert len(set().union(*g.values())) == 1, f"sizes by number of 10/11/12 held: {dict(g)}"
    # The check would see a leak: without their padding, the same messages'
    # sizes differ within some of these groups.
    assert any(len(unpadded[k]) > 1 for k in shared)
