"""Matches and gauntlets: duplicate pairs between a challenger and its
opponents, for a fixed number of games or until an SPRT decides.

``plan`` and ``schedule`` are pure and used by the tournament layer (config,
schedule); ``monitor`` and ``session`` run a match on top of the runner.
Nothing is imported here, so importing the package pulls in no runner.
"""
