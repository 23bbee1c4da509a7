"""A tournament or league config is read as a dict in one place: the config
modules that parse it (``tournament/config.py``, ``league/config.py``).
Everything else (views, replay, audit, verdicts, report, live page, resume,
workers) takes the typed value, or ``replay.stored.stored_config`` for what a
results database holds. This reads every file of arena/ for the ways the
raw dict used to be read."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SPEC_MODULES = {"arena/tournament/config.py", "arena/league/config.py"}
RAW_READS = re.compile(r"""raw_config|config\.raw\b|\.get\(["'](?:kind|format)["']\)"""
                       r"""|["']workers["'] (?:not )?in\b""")
# The key file's own format marker, not a config: named so that it stays the only one.
OTHER = {("arena/games/keyfile.py", 'raw.get("format") != FORMAT')}


def raw_reads() -> list[str]:
    found = []
    for path in sorted((REPO / "arena").rglob("*.py")):
        name = str(path.relative_to(REPO))
        if name in SPEC_MODULES:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if RAW_READS.search(line) and not any(name == f and text in line for f, text in OTHER):
                found.append(f"{name}:{number}: {line.strip()}")
    return found


def test_no_raw_config_is_read_outside_the_config_modules() -> None:
    assert raw_reads() == []


def test_the_search_finds_a_raw_read() -> None:
    assert RAW_READS.search('if raw.get("kind") == LEAGUE_KIND:')
    assert RAW_READS.search("store.set_meta('config', config.raw)")
    assert RAW_READS.search('if "workers" not in raw:')
    assert not RAW_READS.search("config.raw_seats")
