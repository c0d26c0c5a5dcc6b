"""Players: anything that picks an action from a player's view.

A :class:`~piquet.players.base.Player` sees only a
:class:`~piquet.core.match.MatchView` (never the hidden cards).  Levels are looked
up by name with :func:`make_player`.
"""

from piquet.players.adaptive import AdaptivePlayer
from piquet.players.base import (
    LEVEL_NOTES,
    LEVELS,
    STRONGEST_FIRST,
    VARIANTS,
    WEAKEST_FIRST,
    Player,
    default_level,
    make_player,
    player_factory,
    register_level,
    register_variant,
)
from piquet.players.book import BookPlayer
from piquet.players.expert import ExpertPlayer
from piquet.players.learned import LearnedPlayer
from piquet.players.opponents import OPPONENTS, Opponent, StyledPlayer
from piquet.players.random_player import RandomPlayer
from piquet.players.search import SearchPlayer

__all__ = [
    "AdaptivePlayer",
    "LEVELS",
    "LEVEL_NOTES",
    "BookPlayer",
    "ExpertPlayer",
    "LearnedPlayer",
    "OPPONENTS",
    "Opponent",
    "Player",
    "RandomPlayer",
    "STRONGEST_FIRST",
    "SearchPlayer",
    "StyledPlayer",
    "VARIANTS",
    "WEAKEST_FIRST",
    "default_level",
    "make_player",
    "player_factory",
    "register_level",
    "register_variant",
]
