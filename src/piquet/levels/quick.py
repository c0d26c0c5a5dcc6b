"""The level that needs no thinking, ``random``, light enough for a web process to play
on its event loop (microseconds a move) without importing the other players, their
compiled search or numpy.  :mod:`piquet.players` registers it with the rest.
"""

from __future__ import annotations

import random
from math import comb

from piquet.core.actions import Action, Discard
from piquet.core.cards import CardSet
from piquet.core.errors import IllegalActionError
from piquet.core.match import MatchView

__all__ = ["QUICK_LEVELS", "RandomPlayer", "quick_choice"]

QUICK_LEVELS = frozenset({"random"})
"""Levels chosen in the web process itself; every other level is a job."""


class RandomPlayer:
    """Picks uniformly among the legal actions, discards included."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: MatchView) -> Action:
        deal = view.deal
        if deal is None or view.to_act != view.player:
            raise IllegalActionError("it is not this player's turn")
        if deal.discard_range is not None:
            lo, hi = deal.discard_range
            hand = list(deal.hand)
            sizes = list(range(lo, hi + 1))
            k = self.rng.choices(sizes, weights=[comb(len(hand), s) for s in sizes])[0]
            return Discard(CardSet(self.rng.sample(hand, k)))
        actions = deal.legal_actions
        return actions[self.rng.randrange(len(actions))]


def quick_choice(level: str, seed: int, view: MatchView) -> str:
    """The id of the action the quick ``level`` takes from ``view``."""
    if level != "random":
        raise ValueError(f"{level!r} is no quick level; the quick levels: random")
    return str(RandomPlayer(seed).choose(view))
