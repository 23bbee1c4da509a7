"""Another local user of the machine, during a tournament: it looks for the
arena's Unix socket in /proc/net/unix and connects to every one it finds,
and it reads every /proc/*/cmdline and /proc/*/environ it can, looking for
tokens and for a secret given in a bot's ``env``. Prints one JSON object:

    python other_user_probe.py SECONDS SECRET ROOT_PID TMPDIR

Only processes below ROOT_PID (the tournament) and sockets below TMPDIR (its
temporary folder) count: other programs of the machine are none of the
test's business. A process whose command line holds
DECOY and the secret is counted apart: it shows the probe reads what is
there to read.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import sys
import time
from pathlib import Path


def _below(pid: str, root: str) -> bool:
    seen = 0
    while pid not in ("0", "1") and seen < 64:
        if pid == root:
            return True
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            return False
        pid = stat.rsplit(")", 1)[1].split()[1]
        seen += 1
    return False


def main() -> None:
    seconds, secret, root, tmpdir = float(sys.argv[1]), sys.argv[2].encode(), sys.argv[3], sys.argv[4]
    sockets: dict[str, str] = {}  # path -> what connecting gave
    leaks: dict[str, str] = {}  # where -> what was found
    decoys = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        with contextlib.suppress(OSError):
            for line in Path("/proc/net/unix").read_text().splitlines()[1:]:
                fields = line.split()
                if len(fields) >= 8 and fields[7].startswith(tmpdir) and fields[7] not in sockets:
                    try:
                        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
                            s.settimeout(1)
                            s.connect(fields[7])
                        sockets[fields[7]] = "connected"
                    except OSError as exc:
                        sockets[fields[7]] = exc.strerror or str(exc)
        for pid in (p for p in os.listdir("/proc") if p.isdigit()):
            for what in ("cmdline", "environ"):
                with contextlib.suppress(OSError):
                    data = Path(f"/proc/{pid}/{what}").read_bytes()
                    if b"DECOY" in data and secret in data:
                        decoys += 1
                        continue
                    if not _below(pid, root):
                        continue
                    for needle in (secret, b"TRUCO_ARENA_TOKEN"):
                        if needle in data:
                            leaks[f"{pid}/{what}"] = needle.decode()
        time.sleep(0.3)
    print(json.dumps({"sockets": sockets, "leaks": leaks, "decoys_seen": decoys}))


if __name__ == "__main__":
    main()
