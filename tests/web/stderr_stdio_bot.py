"""A stdio bot that writes markup and control characters to stderr at every
decision, numbered, with its hand: what the viewer must show as text."""

import json
import sys

n = 0
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "decision":
        n += 1
        hand = " ".join(message["observation"]["hand"])
        print(f"decision {n} <b>bold</b> <img src=x onerror=\"window.pwned=1\"> holding {hand}",
              file=sys.stderr, flush=True)
        print(0, flush=True)
