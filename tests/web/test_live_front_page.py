"""The live page's front page while its report is being made: a request
waits ``INDEX_WAIT`` seconds for the rendering process (which a busy machine
can hold back: it runs at the page's low priority), then gets the page that
rendering will replace, or the games in progress alone, never a 503. Here
the wait is zero, so the real rendering is always still under way."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from arena.web import pages as pages_module
from arena.web.pages import ReportPages


def test_a_request_gets_the_games_in_progress_while_the_first_report_is_made(
        report_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pages_module, "INDEX_WAIT", 0.0)

    async def scenario() -> tuple[str, str]:
        pages = ReportPages(report_db)
        started = time.monotonic()
        first = await pages.index()
        assert time.monotonic() - started < 2.0  # not held until the rendering ends
        assert pages._rendering is not None
        await pages._rendering  # the rendering went on without a request waiting
        return first, await pages.index()

    first, made = asyncio.run(scenario())
    assert "the report is being made" in first and 'id="live"' in first and "Standings" not in first
    assert 'data-recorded="-1"' in first  # its script loads the report once there is one
    assert "Standings" in made


def test_a_request_gets_the_previous_front_page_while_a_newer_one_is_made(
        report_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async def scenario() -> tuple[str, str, str]:
        pages = ReportPages(report_db)
        current = await pages.index()  # made while the request waits (the usual case)
        assert pages._index is not None
        recorded, _, _ = pages._index
        # As if that page were older, from before the last game was recorded.
        pages._index = (recorded - 1, time.monotonic() - pages_module.INDEX_MAX_AGE - 1, "the previous page")
        monkeypatch.setattr(pages_module, "INDEX_WAIT", 0.0)
        previous = await pages.index()
        assert pages._rendering is not None
        await pages._rendering
        return current, previous, await pages.index()

    current, previous, made = asyncio.run(scenario())
    assert "Standings" in current
    assert previous == "the previous page"
    assert "Standings" in made
