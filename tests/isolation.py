"""Suite-wide test isolation, loaded as a plugin for every test (pyproject:
``-p isolation``)."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _collect_leftovers() -> Iterator[None]:
    """Collect the garbage of the tests before this one first. gRPC's asyncio
    server can leave a cancelled call's tasks in a reference cycle when an
    event loop closes; collected in the middle of a later test, they print
    "Task was destroyed" into whatever stderr that test is capturing.

    What survives is alive, and is frozen out of later collections: each
    test's collection then looks only at what was made since the last one,
    not at the whole heap of every module imported (a full collection took a
    tenth of a second or more per test). A frozen object is still freed when
    its last reference goes; only a cycle among frozen objects would stay."""
    gc.collect()
    gc.freeze()
    yield
