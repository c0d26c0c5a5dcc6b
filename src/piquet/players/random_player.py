"""``random``: uniform over the legal actions (the anchor of the strength ladder)."""

from __future__ import annotations

import random
from math import comb

from piquet.core.actions import Action, Discard
from piquet.core.cards import CardSet
from piquet.core.errors import IllegalActionError
from piquet.core.match import MatchView
from piquet.players.base import register_level

__all__ = ["RandomPlayer"]


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


register_level("random", lambda seed, think_ms: RandomPlayer(seed))
