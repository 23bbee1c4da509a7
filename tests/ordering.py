"""Long modules first, loaded as a plugin for every run (pyproject:
``-p ordering``).

pytest-xdist hands tests to its workers in collection order, so a long test
collected last runs alone at the end while the other workers idle. A module
with a test marked ``slow`` is moved, whole, to the front: its module-scoped
fixtures are still made once, and what runs is the same, in a different order."""

from __future__ import annotations

import pytest


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    long_modules = {item.path for item in items if item.get_closest_marker("slow") is not None}
    # sorted() is stable: each module keeps its order, and so does the rest.
    items[:] = sorted(items, key=lambda item: item.path not in long_modules)
