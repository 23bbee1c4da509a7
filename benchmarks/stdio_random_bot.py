"""A stdio bot (docs/protocol.md, "Stdio bots") that answers a random action
id: the program benchmarks/protocol.py plays through the SDK's bridge."""

import json
import random
import sys

rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "decision":
        sys.stdout.write(f"{rng.randrange(len(message['legal_actions']))}\n")
        sys.stdout.flush()
