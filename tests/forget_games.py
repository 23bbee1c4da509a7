"""The organizer's file as it was before some of its games were played: for
tests of resume, which plays the missing ones. Rows cannot simply be deleted
from a results file any more (the chain names the hole), so the file is
written again through the store, signed with its own key file."""

from __future__ import annotations

import os
from pathlib import Path

from arena.games.chain import HEAD_META
from arena.games.keyfile import key_path
from arena.games.store import ResultsStore


def forget_games(db: Path, keep: int) -> None:
    """Rewrite ``db`` (and its key file) with only the games of seq < ``keep``."""
    with ResultsStore.open_existing(db) as source:
        rows = [s.row for s in source.chain()]
        meta = {k: source.get_meta(k) for (k,) in source._db.execute("SELECT key FROM meta")}
        secret = source.secret()
    fresh = db.with_name(db.stem + "-forgetting.sqlite")
    with ResultsStore.create_or_open(fresh) as store:
        for key, value in meta.items():
            if key != HEAD_META:
                store.set_meta(key, value)
        store.set_secret(secret)
        for row in rows:
            assert row is not None
            if row.seq < keep:
                store.record(row)
    for suffix in ("-wal", "-shm"):
        db.with_name(db.name + suffix).unlink(missing_ok=True)
    os.replace(fresh, db)
    os.replace(key_path(fresh), key_path(db))
