"""Seeds derived from one master seed: tournament -> pairing -> game.

Derivation hashes labels instead of drawing from a shared generator, so a
game's seed does not depend on the order or concurrency games run in.
"""

from __future__ import annotations

import hashlib


def derive(master: int, *labels: object) -> int:
    """A 63-bit seed from ``master`` and a path of labels."""
    text = "/".join([str(master), *map(str, labels)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1
