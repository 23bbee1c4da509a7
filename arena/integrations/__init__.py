"""Truco for the game-AI libraries: OpenSpiel (``openspiel.py``, registers
``truco_argentino``, ``truco_uruguayo``, ``truco_venezolano``) and PettingZoo
(``pettingzoo.py``, the AEC environment ``truco_v0``). Each needs its optional
extra (``pip install 'truco-arena[openspiel]'`` / ``'[pettingzoo]'``); this
package imports neither library itself. docs/integrations.md shows both."""
