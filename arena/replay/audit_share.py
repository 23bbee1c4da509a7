"""One helper process of ``verify_store``: check one share of a results
database's games and print the answer as one JSON line.

    python -m arena.replay.audit_share DB SHARE SHARES

Prints ``{"checked": N, "bad": null}``, ``{"checked": N, "bad": [INDEX, MESSAGE]}``
(the first row of the share that does not hold) or ``{"error": MESSAGE}``
(exit 1) when the file cannot be checked.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..tournament.store import ResultsStore, StoreError
from .audit import check_share


def main(argv: list[str]) -> int:
    if len(argv) != 3 or not argv[1].isdigit() or not argv[2].isdigit() or not int(argv[1]) < int(argv[2]):
        print(json.dumps({"error": "usage: python -m arena.replay.audit_share DB SHARE SHARES"}))
        return 2
    try:
        with ResultsStore.open_existing(Path(argv[0])) as store:
            result = check_share(store, int(argv[1]), int(argv[2]))
    except StoreError as exc:
        print(json.dumps({"error": str(exc)}))
        return 1
    print(json.dumps({"checked": result.checked, "bad": None if result.bad is None else list(result.bad)}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
