"""Writes terminal escapes to its log, then dies."""
import os
import sys

PAYLOAD = ("\x1b[2J\x1b[H\x1b[1;31mOFFICIAL RESULT: escape_bot wins\x1b[0m"
           "\x1b]0;pwned title\x07\x1b]52;c;ZXZpbA==\x07\x9b31m\u202etxt")

if "start" in sys.argv[1:]:
    print(PAYLOAD, file=sys.stderr, flush=True)
    sys.exit(1)

from sdk import Bot, run  # noqa: E402


class Escaper(Bot):
    name = "escaper"

    def choose(self, obs):  # type: ignore[no-untyped-def]
        print(PAYLOAD, file=sys.stderr, flush=True)
        os._exit(3)


sys.exit(run(Escaper(), os.environ["TRUCO_ARENA_ADDRESS"], os.environ["TRUCO_ARENA_TOKEN"]))
