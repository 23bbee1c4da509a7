"""Closed tournaments: a config of bots (launched in the sandbox, or
connecting with a token), a format that makes the schedule (round robin,
match, gauntlet: ``formats``), and the runner that plays it through the
games layer and records every game (``runner.run_tournament``), on this
process's arena or across workers (``scaleout``).

``config`` reads the TOML; ``supervisor`` and ``launcher`` keep the launched
bots running; ``stopping`` and ``progress`` are the run's edges. Nothing is
imported here, so importing a submodule pulls in only what it needs.
"""
