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

# The columns a row's MAC covers, in this order: all of its content. ``mano``
# was a column until schema version 9, always 0 (seat 0 is mano in the first
# hand): its place in the signed content stays, holding 0, so that every row
# signed before still verifies and the public digest of a file is unchanged.
SIGNED_COLUMNS = (
    "game_key", "seq", "matchup", "pair_index", "bot0", "bot1", "mano", "seed", "score0", "score1", "winner",
    "winner_seat", "termination", "faulty_bot", "hands", "duration", "actions", "finished_at", "reason",
    "version0", "version1", "cpu0", "cpu1", "fallbacks0", "fallbacks1", "game_id", "evidence", "row_version",
)
# Columns SQLite stores as REAL: a whole number written there reads back as a float.
REAL_COLUMNS = frozenset({"duration", "finished_at", "cpu0", "cpu1"})
HEAD_META = "chain_head"
# The kinds of problem the chain itself finds (``--verify`` names them).
BAD_MAC, BROKEN_CHAIN = "bad MAC", "broken chain"
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


Problem = tuple[str, str]  # (kind, one line)


class ChainCheck:
    """The chain checked row by row in the order stored: each row's MAC (with
    ``signing``; None: without the key file, links only) and its link to the
    row before; then the head against the end."""

    def __init__(self, signing: bytes | None) -> None:
        self.signing = signing
        self.rows = 0
        self.last_mac = ""
        self.last_key = ""

    def row(self, game_key: str, content: bytes, prev_mac: str, mac: str) -> list[Problem]:
        problems: list[Problem] = []
        if self.signing is not None and not same(mac, row_mac(self.signing, content, prev_mac)):
            problems.append((BAD_MAC, "its content or its MAC is not what was signed" if mac else "it is not signed"))
        if prev_mac != self.last_mac:
            where = f"game {self.last_key}" if self.last_key else "the start of the file"
            problems.append((BROKEN_CHAIN, f"it does not follow {where} (a row was deleted, inserted or moved "
                                           f"before it)"))
        self.rows += 1
        self.last_mac, self.last_key = mac, game_key
        return problems

    def end(self, head: Any, config: str | None) -> tuple[str, Problem] | None:
        """What is wrong at the end of the file: (where, problem), or None."""
        where = f"(end of file, after game {self.last_key})" if self.last_key else "(end of file)"
        if not isinstance(head, dict) or not isinstance(head.get("rows"), int) or not isinstance(head.get("mac"), str):
            return where, (BROKEN_CHAIN, "the file has no signed chain head")
        if self.signing is not None and not same(str(head.get("tag")),
                                                 head_tag(self.signing, head["rows"], head["mac"], config)):
            return where, (BAD_MAC, "the chain head is not what was signed (the config, the row count or the last "
                                    "MAC was changed)")
        if head["rows"] != self.rows or head["mac"] != self.last_mac:
            return where, (BROKEN_CHAIN, f"the signed head counts {head['rows']} games, the file holds {self.rows} "
                                         f"(rows were deleted or added after the last signed one)")
        return None
