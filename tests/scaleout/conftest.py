"""Ray reads this switch once, when it is imported: with it, a cluster that a
test starts here, its workers and the tournament that drives it (a child of
this process) all use 127.0.0.1, never the machine's outward address."""

from __future__ import annotations

import os

os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"
