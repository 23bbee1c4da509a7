"""The formats of a tournament, each a pure function from its settings to
the schedule of games (``arena.games.schedule.ScheduledGame``):

* ``round_robin``: every pair of bots meets ``games_per_pairing`` times;
* ``windowed``: a match or gauntlet, duplicate pairs of a challenger against
  each opponent, a few pairs open at a time so that an SPRT can stop early
  (its settings: ``match_plan``).

``arena.tournament.runner.schedule_of`` picks the format of a config; a new
format (Swiss, knockout) is one more file here and one line there.
"""
