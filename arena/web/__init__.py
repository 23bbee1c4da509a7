"""The live page: the report served over HTTP by a process of its own beside
the arena, with the games in progress and a spectator's view of each
(``docs/report.md``, "Live page"). Its charts need Plotly (the ``report``
extra); without it the pages say so in one line.

``start_live(arena, db, "HOST:PORT")`` starts it; ``live_hook`` is the
tournament runner's hook. ``arena.web.option`` checks ``--http`` before
anything starts."""
