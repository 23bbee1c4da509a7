"""Every stored row authenticated and chained, and the file's public digest.

Each row of ``games`` carries ``mac``: HMAC-SHA256, with the signing key of
the key file (``keyfile.py``, never in the results file), over the row's
content in a canonical encoding and over ``prev_mac``, the MAC of the row
stored before it (rowid order; '' for the first). Changing a row breaks its
own MAC; inserting, deleting or reordering rows breaks a link. The chain
head (``meta.chain_head``: how many rows, the last MAC, and the stored config)
is signed too, so the last rows cannot be cut off and the config cannot be
swapped. The head is written in the same transaction as the rows.

The digest is a SHA-256 over the same canonical bytes and MACs, with no key:
anyone holding a published copy recomputes it, so an organizer can announce
it and the file cannot be swapped afterwards.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterable, Sequence
from typing import Any

# The columns a row's MAC covers, in this order: all of its content.
SIGNED_COLUMNS = (
    "game_key", "seq", "pairing", "pair_index", "bot0", "bot1", "mano", "seed", "score0", "score1", "winner",
    "winner_seat", "termination", "faulty_bot", "hands", "duration", "actions", "finished_at", "reason",
    "version0", "version1", "cpu0", "cpu1", "fallbacks0", "fallbacks1", "game_id", "evidence", "row_version",
)
# Columns SQLite stores as REAL: a whole number written there reads back as a float.
REAL_COLUMNS = frozenset({"duration", "finished_at", "cpu0", "cpu1"})
HEAD_META = "chain_head"
_ROW, _HEAD, _DIGEST = b"truco-arena row 1\x00", b"truco-arena head 1\x00", b"truco-arena digest 1\x00"


def canonical(values: Sequence[Any]) -> bytes:
    """The bytes a row's content is signed as: its SQL values (as SQLite reads
    them back: int, float, str, None) as compact JSON, in ``SIGNED_COLUMNS`` order."""
    return json.dumps(list(values), separators=(",", ":"), ensure_ascii=True, allow_nan=True).encode()


def normalized(column: str, value: Any) -> Any:
    """``value`` as SQLite will read it back from ``column``."""
    return float(value) if column in REAL_COLUMNS and value is not None else value


def row_mac(key: bytes, content: bytes, prev_mac: str) -> str:
    return hmac.new(key, _ROW + prev_mac.encode() + b"\x00" + content, hashlib.sha256).hexdigest()


def head_tag(key: bytes, rows: int, last_mac: str, config: str | None) -> str:
    """The signature of the chain head: how many rows, the last MAC, the stored config text."""
    message = _HEAD + f"{rows}\x00{last_mac}\x00".encode() + (config or "").encode()
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def same(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode(), b.encode())


def digest(config: str | None, rows: Iterable[tuple[bytes, str]]) -> str:
    """The public digest of a results file: its config and every row's
    canonical content and MAC, in chain order."""
    h = hashlib.sha256(_DIGEST + (config or "").encode() + b"\x00")
    for content, mac in rows:
        h.update(len(content).to_bytes(8, "big") + content + mac.encode())
    return h.hexdigest()
