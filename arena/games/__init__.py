"""The games layer: what tournaments, matches and the league share, below
all three.

* ``schedule``: a ``ScheduledGame`` (who plays whom on which deal label), and
  how games pair (``Pairing``);
* ``seeds``: the secret every seed, game id and order derives from;
* ``orders``: a game with its seeds (``GameOrder``) and what comes back
  (``GameResult``: a row, or ``Unplayed``);
* ``playing``: the one play path (``play_order``), whoever keeps the bots
  (a ``Presence``: the tournament's supervisor, the league's connected bots),
  the CPU each bot spends on a game, and the hook a runner gives the live page;
* ``dispatch``: the order games go out in, twins kept apart;
* ``game_record``: a played or forfeited game as one record, from the server
  to the ratings, with what the arena measured at a fault (``Evidence``);
* ``store``, ``schema``, ``gameids``: the SQLite results store, its schema
  versions and migrations; ``keyfile``, ``chain``: the keys beside it, its
  signed and chained rows and their digest;
* ``settings``: the checks every config file shares; ``private_files``: the
  files a run writes, its run lock among them.

Nothing is imported here, so importing a submodule pulls in only what it needs.
"""
