"""docs/protocol.md's authentication test vector is what the reference
implementation computes (arena/protocol/handshake.py), so an author who
checks against it checks against the arena."""

from __future__ import annotations

import hashlib
import hmac
import re
from pathlib import Path

from arena.protocol import handshake

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def _vector() -> dict[str, str]:
    text = DOC.read_text()
    block = text[text.index("**Test vector**"):]
    block = block[block.index("```") + 3:]
    block = block[: block.index("```")]
    # NAME = VALUE, a quoted string or a hex run (a "(16 bytes)" note may follow)
    return {m[1]: m[2] for m in re.finditer(r'^(\w+)\s*=\s*("[^"]*"|\S+)', block, re.MULTILINE)}


def test_the_documented_vector_is_the_reference_implementations() -> None:
    v = _vector()
    token = v["token"].strip('"')
    client_nonce, server_nonce = bytes.fromhex(v["client_nonce"]), bytes.fromhex(v["server_nonce"])
    auth = handshake.auth_message(v["bot_name"].strip('"'), client_nonce, server_nonce)
    assert v["auth"].strip('"').replace("\\n", "\n").encode() == auth
    client_key = hmac.new(token.encode(), b"truco-arena client key", hashlib.sha256).digest()
    verifier = handshake.Verifier.of(token)
    assert client_key.hex() == v["client_key"]
    assert verifier.stored_key.hex() == v["stored_key"] and verifier.server_key.hex() == v["server_key"]
    assert handshake.client_proof(token, auth).hex() == v["proof"]
    assert verifier.signature(auth).hex() == v["signature"]
    assert verifier.check(auth, bytes.fromhex(v["proof"]))


def _section(text: str, title: str) -> str:
    start = text.index(f"\n## {title}")
    end = text.find("\n## ", start + 1)
    return text[start:end if end >= 0 else None]


def test_the_protocol_doc_answers_what_a_porting_author_had_to_guess() -> None:
    text = DOC.read_text()
    versions = _section(text, "Versions and changes")
    assert "| 1 |" in versions and "| 2 |" in versions and "truco.arena.v1" in versions  # changelog, two numbers
    errors = _section(text, "Errors and closing")
    assert "`restarting`" in errors and "cannot tell a restart from a\nfinal stop" in errors
    connecting = _section(text, "Connecting")
    assert "yours are\n  optional" in connecting and "notices that the arena is gone" in connecting
    auth = _section(text, "Authentication")
    for said in ("Which name", "16 to 64 bytes", "Refusals before the Challenge", "After the Challenge",
                 "a\n  wrong HMAC and a wrong token are one and the same refusal", "exactly one Challenge",
                 "Retry budget"):
        assert said in auth, said
    assert "grpc-js (Node.js) has `grpc.initial_reconnect_backoff_ms`" in text and "but no `min` one" in text
    operator = _section(text, "For the operator")
    assert "A name has **one token**" in operator and "disconnects the bot still connected" in operator
    assert "holds **verifiers**, not tokens" in operator
