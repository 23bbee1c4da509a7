"""The live page: the report served over HTTP from inside the arena's event
loop, with the games in progress and a spectator's view of each
(``docs/report.md``, "Live page"). Needs the ``report`` extra (jinja2, plotly).

``start_live(arena, db, "HOST:PORT")`` starts it; ``live_hook`` is the
tournament runner's hook. ``arena.web.option`` checks ``--http`` without
importing the extra, so import ``arena.web.server`` only once it passed."""
