"""The games layer: what tournaments, matches and the league share, below
all three.

* ``schedule``: a ``ScheduledGame`` (who plays whom on which deal label), and
  how games pair (``Pairing``);
* ``seeds``: the secret every seed, game id and order derives from;
* ``orders``: a game with its seeds (``GameOrder``) and what comes back
  (``GameResult``: a row, or ``Unplayed``);
* ``playing``: the one play path (``play_order``), whoever keeps the bots
  (a ``Presence``: the tournament's supervisor, the league's connected bots);
* ``dispatch``: the order games go out in, twins kept apart;
* ``rows``, ``forfeits``, ``records``: a played or forfeited game as a row of
  the store, and rows as rating inputs;
* ``store``, ``schema``, ``gameids``: the SQLite results store, its schema
  versions and migrations; ``keyfile``, ``chain``, ``evidence``: the keys
  beside it, its signed and chained rows and their digest, what the arena
  measured at a fault;
* ``settings``: the checks every config file shares; ``runlock``,
  ``private_files``, ``cpu``, ``hooks``: the edges of a run.

Nothing is imported here, so importing a submodule pulls in only what it needs.
"""
