"""An opponent for learners that aims at an even game against the person in front of it.

:class:`AdaptivePlayer` (the level ``adaptive``) places the person on the levels' scale
(:mod:`piquet.levels.strengths`) and plays each deal as the opponent nearest them.  It starts from
a rating (a newcomer's by default, or ``adaptive-R`` for a start at ``R``: the browser
computes it from the person's earlier games), and before each deal it estimates the
person's rating again from the deals of the match so far.  Its choices depend only on its
seed, its start and the view, so a decision repeats however the player is kept.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from piquet.core.actions import Action
from piquet.core.errors import PiquetError
from piquet.core.match import MatchView
from piquet.levels.strengths import (
    ADAPTIVE_LADDER,
    LEARNER_START,
    SCALE,
    DealResult,
    Estimate,
    adaptive_level,
    adaptive_levels,
    adaptive_start,
    deal_results,
    estimate,
    even_opponent,
)
from piquet.players.base import UNRANKED, Player, make_player, register_family, register_level

__all__ = [
    "ADAPTIVE_LADDER",
    "LEARNER_START",
    "SCALE",
    "AdaptivePlayer",
    "DealResult",
    "Estimate",
    "adaptive_level",
    "deal_results",
    "estimate",
    "even_opponent",
]


class AdaptivePlayer:
    """Plays each deal as the opponent nearest the person's rating (see the module
    docstring); ``start`` is the person's rating before the match."""

    name = "adaptive"

    def __init__(self, seed: int = 0, think_ms: int | None = None, *,
                 start: float = LEARNER_START) -> None:
        if not (math.isfinite(start) and 0 <= start <= 3000):
            raise PiquetError(f"an adaptive opponent's start is a rating from 0 to 3000, "
                              f"not {start!r}")
        self.seed = seed
        self.think_ms = think_ms
        self.start = start
        self._players: dict[str, Player] = {}

    def levels(self, view: MatchView) -> list[str]:
        """The level played in each deal of the match so far and in the current one."""
        return adaptive_levels(self.start, view)

    def choose(self, view: MatchView) -> Action:
        level = self.levels(view)[-1]
        player = self._players.get(level)
        if player is None:
            player = make_player(level, seed=self.seed, think_ms=self.think_ms)
            self._players[level] = player
        return player.choose(view)


register_level("adaptive", lambda seed, think_ms: AdaptivePlayer(seed, think_ms))
UNRANKED.add("adaptive")


def _named(name: str) -> Callable[[int, int | None], Player] | None:
    """The factory of ``adaptive-R`` (a start at ``R``), None for any other name."""
    start = adaptive_start(name)
    if start is None or name.strip().lower() == "adaptive":
        return None
    return lambda seed, think_ms: AdaptivePlayer(seed, think_ms, start=start)


register_family(_named)
