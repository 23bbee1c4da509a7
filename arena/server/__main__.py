"""``python -m arena.server``: serve an arena, or mint a token.

    python -m arena.server --address 0.0.0.0:50051 --tokens tokens.txt
    python -m arena.server --tokens tokens.txt --mint mybot   # prints the token
"""

from __future__ import annotations

import argparse
import logging
import sys

from .serve import serve
from .tokens import TokenFileError, mint_token


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m arena.server", description=__doc__.splitlines()[0])
    p.add_argument("--address", default="127.0.0.1:50051", help="HOST:PORT to listen on (default %(default)s)")
    p.add_argument("--tokens", default="tokens.txt", help="token file, 'NAME scram:VERIFIER' per line (default %(default)s)")
    p.add_argument("--mint", metavar="NAME", help="add a fresh token for NAME to the token file, print it, exit")
    p.add_argument("--tls-cert", metavar="FILE", help="PEM certificate: serve TLS only (needed on a public address)")
    p.add_argument("--tls-key", metavar="FILE", help="PEM private key of --tls-cert")
    p.add_argument("-v", "--verbose", action="store_true", help="log every stream")
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format="%(asctime)s %(message)s")
    try:
        if args.mint:
            print(mint_token(args.tokens, args.mint))
            return 0
        if (args.tls_cert is None) != (args.tls_key is None):
            p.error("--tls-cert and --tls-key go together")
        serve(args.address, args.tokens, tls_cert=args.tls_cert, tls_key=args.tls_key)
    except (TokenFileError, ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
