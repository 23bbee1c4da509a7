"""A stdio bot (docs/protocol.md, "Stdio bots") that answers its first
decisions well, then misbehaves in one way (``MODE``, the first argument) at
decision ``AT`` (the second, default 3) of each of its processes."""

import json
import sys
import time

MODE = sys.argv[1]
AT = int(sys.argv[2]) if len(sys.argv) > 2 else 3
BAD = {
    "garbage": b"play the ace\x1b[31m please\n",
    "unknown": b"99\n",
    "negative": b"-1\n",
    "long": b"7" * 5000 + b"\n",
    "early": b"0\n0\n",
}
decisions = 0
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] != "decision":
        continue
    decisions += 1
    print(f"deciding {decisions}", file=sys.stderr, flush=True)
    if decisions < AT:
        sys.stdout.write("0\n")
    elif MODE == "silent":
        time.sleep(60)
    elif MODE == "exit":
        sys.exit(3)
    elif MODE == "crash":
        raise RuntimeError("boom")
    else:
        sys.stdout.buffer.write(BAD[MODE])
    sys.stdout.flush()
