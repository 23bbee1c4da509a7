"""The challenge-response of a Hello (docs/protocol.md, "Authentication"):
a bot proves it holds its token without sending it, and the arena proves it
holds the token's verifier, so a process that took the arena's port learns
nothing it can log in with later, and the bot can tell it is not the arena.

With ``token`` as UTF-8 bytes and HMAC the HMAC-SHA256::

    client_key = HMAC(token, "truco-arena client key")
    stored_key = SHA256(client_key)                    # kept in the token file
    server_key = HMAC(token, "truco-arena server key")  # kept in the token file
    auth       = "truco-arena v2\\n" + bot_name + "\\n" + hex(client_nonce) + "\\n" + hex(server_nonce)
    proof      = client_key XOR HMAC(stored_key, auth)    # Proof.client_proof, bot -> arena
    signature  = HMAC(server_key, auth)                   # Welcome.server_signature, arena -> bot
    goodbye    = HMAC(server_key, "truco-arena goodbye\n" + auth + "\n" + code + "\n" + restarting)
                                                          # Status.signature of a closing Status, arena -> bot

``code`` is the Status code in decimal and ``restarting`` "1" or "0". A bot
obeys a goodbye (stops, or stops retrying) only when its signature checks:
before a checked Welcome anybody who holds the address can say goodbye.

The arena recovers ``client_key`` from the proof with its ``stored_key`` and
checks its SHA-256; it never sees the token, and the token file holds only
``stored_key`` and ``server_key``: neither logs a bot in.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Any

NONCE_BYTES = 32
MIN_NONCE_BYTES, MAX_NONCE_BYTES = 16, 64  # what the arena accepts as a client nonce
_CLIENT, _SERVER = b"truco-arena client key", b"truco-arena server key"


def _hmac(key: bytes, msg: bytes) -> bytes:
    return hmac.new(key, msg, hashlib.sha256).digest()


def new_nonce() -> bytes:
    return secrets.token_bytes(NONCE_BYTES)


@dataclass(frozen=True, slots=True)
class Verifier:
    """What the arena keeps of a token: enough to check a proof, not to make one."""

    stored_key: bytes
    server_key: bytes

    @classmethod
    def of(cls, token: str) -> Verifier:
        secret = token.encode("utf-8", "surrogatepass")
        return cls(hashlib.sha256(_hmac(secret, _CLIENT)).digest(), _hmac(secret, _SERVER))

    def text(self) -> str:
        """The token file's form: ``scram:STORED:SERVER`` in hex."""
        return f"scram:{self.stored_key.hex()}:{self.server_key.hex()}"

    def check(self, auth: bytes, proof: bytes) -> bool:
        """Whether ``proof`` was made from the token of this verifier for ``auth``."""
        if len(proof) != len(self.stored_key):
            return False
        client_key = bytes(a ^ b for a, b in zip(proof, _hmac(self.stored_key, auth), strict=True))
        return hmac.compare_digest(hashlib.sha256(client_key).digest(), self.stored_key)

    def signature(self, auth: bytes) -> bytes:
        return _hmac(self.server_key, auth)

    def goodbye(self, auth: bytes, code: int, restarting: bool) -> bytes:
        """The signature of a closing Status with ``code`` on the stream of ``auth``."""
        return _hmac(self.server_key, goodbye_message(auth, code, restarting))


def auth_message(bot_name: str, client_nonce: bytes, server_nonce: bytes) -> bytes:
    return f"truco-arena v2\n{bot_name}\n{client_nonce.hex()}\n{server_nonce.hex()}".encode()


def client_proof(token: str, auth: bytes) -> bytes:
    secret = token.encode("utf-8", "surrogatepass")
    client_key = _hmac(secret, _CLIENT)
    stored_key = hashlib.sha256(client_key).digest()
    return bytes(a ^ b for a, b in zip(client_key, _hmac(stored_key, auth), strict=True))


def server_signature_ok(token: str, auth: bytes, signature: bytes) -> bool:
    """Whether the arena's ``signature`` proves it holds this token's verifier."""
    return hmac.compare_digest(Verifier.of(token).signature(auth), signature)


def goodbye_message(auth: bytes, code: int, restarting: bool) -> bytes:
    return b"truco-arena goodbye\n" + auth + f"\n{int(code)}\n{1 if restarting else 0}".encode()


def goodbye_ok(token: str, auth: bytes, code: int, restarting: bool, signature: bytes) -> bool:
    """Whether a closing Status's ``signature`` proves the arena holding this token's verifier sent it."""
    return hmac.compare_digest(Verifier.of(token).goodbye(auth, code, restarting), signature)


async def say_hello(call: Any, bot_name: str, token: str, bot_version: str = "",
                    protocol_version: int | None = None) -> Any:
    """Do the whole handshake on a fresh ``Play`` call (a grpc.aio stream):
    Hello, then the Proof for the arena's Challenge. Returns the arena's next
    message (a PlayResponse: the Welcome, or a closing Status). For tools and
    tests that speak the protocol by hand; ``StreamSession`` does the same."""
    from . import PROTOCOL_VERSION
    from . import arena_pb2 as pb

    nonce = new_nonce()
    await call.write(pb.PlayRequest(hello=pb.Hello(
        bot_name=bot_name, bot_version=bot_version, client_nonce=nonce,
        protocol_version=PROTOCOL_VERSION if protocol_version is None else protocol_version)))
    reply = await call.read()
    if not isinstance(reply, pb.PlayResponse) or reply.WhichOneof("kind") != "challenge":
        return reply
    auth = auth_message(bot_name, nonce, reply.challenge.server_nonce)
    await call.write(pb.PlayRequest(proof=pb.Proof(client_proof=client_proof(token, auth))))
    return await call.read()
