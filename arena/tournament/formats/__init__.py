"""The formats of a tournament, each a scheduler (``arena.games.scheduler``)
built from its settings:

* ``round_robin``: every pair of bots meets ``games_per_pairing`` times;
* ``windowed``: a match or gauntlet, duplicate pairs of a challenger against
  each opponent, a few pairs open at a time so that an SPRT can stop early
  (its settings: ``match_plan``);
* ``swiss``: rounds paired by the standings so far, one stage a round.

``arena.tournament.runner.scheduler_of`` picks the format of a config; a new
format (knockout) is one more file here and one line there.
"""
