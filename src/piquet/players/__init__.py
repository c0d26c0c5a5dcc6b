"""Players: anything that picks an action from a seat's view.

A :class:`~piquet.players.base.Player` sees only a
:class:`~piquet.match.MatchView` (never the hidden cards).  Levels are looked
up by name with :func:`make_player`.
"""

from piquet.players.base import LEVELS, Player, make_player, register_level
from piquet.players.random_player import RandomPlayer

__all__ = ["LEVELS", "Player", "RandomPlayer", "make_player", "register_level"]
