"""Running a tournament as a library call (``Tournament.run``), under the CLI."""

from .tournament_run import CONFIG_DIR_META, AlreadyPlayedError, Finished, Hooks, StoredRowsError, Tournament

__all__ = ["CONFIG_DIR_META", "AlreadyPlayedError", "Finished", "Hooks", "StoredRowsError", "Tournament"]
