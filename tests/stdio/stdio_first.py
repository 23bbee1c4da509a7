"""The smallest stdio bot: the first legal action, always."""

import json
import sys

for line in sys.stdin:
    if json.loads(line)["type"] == "decision":
        print(0, flush=True)
