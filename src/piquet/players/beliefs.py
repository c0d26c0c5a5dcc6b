"""The expert's beliefs: how likely each drawn world is, given how players exchange and play.

:func:`piquet.analysis.sampling.sample_worlds` draws the other's discards and hand uniformly among
the placements that fit the view (the dialog weighs the declarations).  A
:class:`BeliefModel` weighs each world by how likely the other's *free* choices in it
were, under a model of how players choose, computed from the policies the levels share
(:func:`piquet.players.common.card_values`, the period advice they all start from):

- **the exchange** (which cards, how many): a player lays out his least useful cards.
  A world whose discard keeps cards worth ``r`` less than the best discard of that size
  (``r``, the *regret*, in card-value points) counts ``exp(-EXCHANGE_BETA * r)``; one in
  which he took fewer (or more) cards than the advice would with that hand counts
  :data:`COUNT_WEIGHT` more or less.  This carries what the number taken says ("he took
  only three: his worst cards are good ones") and which suits he likely kept.
- **the play, beyond void suits**: a player following suit wins with the lowest card that
  wins and otherwise plays his lowest card of the suit.  A world in which he followed
  with a higher card than that (holding the lower one then) counts :data:`FOLLOW_WEIGHT`
  per such trick.  Cards that are equivalent (adjacent once the played cards are out)
  are not told apart, as the search levels play the lowest of equals.

The weights multiply the dialog's (sinking) weight.  With ``pool`` > 1 the sampler draws
more worlds than the search solves and resamples them on these weights.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

from piquet.analysis.sampling import World
from piquet.core.cards import SUIT_MASKS
from piquet.core.deal import ELDER, YOUNGER
from piquet.core.facts import Exchanged, LaidOut
from piquet.core.rules import Rules
from piquet.core.view import DealView
from piquet.players.common import card_values

__all__ = ["COUNT_WEIGHT", "EXCHANGE_BETA", "FOLLOW_WEIGHT", "BeliefModel"]

#: How sharply a worse discard (in card-value points of regret) is discounted.
EXCHANGE_BETA: Final = 0.35
#: Weight of a world in which the other took another number of cards than the advice.
COUNT_WEIGHT: Final = 0.35
#: Weight per trick in which the other followed higher than the lowest fitting card.
FOLLOW_WEIGHT: Final = 0.4


@dataclass(frozen=True, slots=True)
class _Follow:
    """A trick the other followed in the lead's suit: the lead, his card, and the cards
    he played from that trick on (he held them all then)."""

    lead: int
    follow: int
    later: int
    gone: int
    """The cards played in the tricks before this one."""


class BeliefModel:
    """Weighs worlds of one view (see the module docstring); call it on a world."""

    def __init__(
        self,
        view: DealView,
        rules: Rules,
        *,
        exchange: bool = True,
        play: bool = True,
        beta: float = EXCHANGE_BETA,
    ) -> None:
        self.rules = rules
        self.other = 1 - view.role
        self.beta = beta
        self.k_other = -1
        self.exchange = exchange
        for u in view.dialog:
            f = u.fact
            if isinstance(f, Exchanged) and f.role == self.other:
                self.k_other = f.count
            elif isinstance(f, LaidOut) and self.other == YOUNGER:
                self.k_other = f.count
        self.range = self._range(view)
        self.follows: tuple[_Follow, ...] = self._follows(view) if play else ()
        self._cache: dict[int, float] = {}

    def _range(self, view: DealView) -> tuple[int, int]:
        r = self.rules
        if self.other == ELDER:
            return (r.elder_min, r.elder_max)
        ke = 0
        for u in view.dialog:
            if isinstance(u.fact, Exchanged) and u.fact.role == ELDER:
                ke = u.fact.count
        available = r.stock_size - ke
        hi = min(available, r.younger_max) if r.younger_max else available
        return (min(r.younger_min, hi), hi)

    def _follows(self, view: DealView) -> tuple[_Follow, ...]:
        plays: list[tuple[int, int | None]] = []  # (his card, the lead he followed or None)
        for t in view.tricks:
            if t.leader == self.other:
                plays.append((t.lead, None))
            else:
                plays.append((t.follow, t.lead))
        gone_before = []
        gone = 0
        for t in view.tricks:
            gone_before.append(gone)
            gone |= 1 << t.lead | 1 << t.follow
        out: list[_Follow] = []
        later = 0
        for i in range(len(plays) - 1, -1, -1):
            card, lead = plays[i]
            later |= 1 << card
            if lead is not None and card // 9 == lead // 9:
                out.append(_Follow(lead, card, later, gone_before[i]))
        return tuple(out)

    def __call__(self, world: World) -> float:
        w = 1.0
        if self.exchange and world.opp_discards and self.k_other > 0:
            w *= self._exchange_weight(world.opp_dealt, world.opp_discards)
        for f in self.follows:
            w *= self._follow_weight(f, world.opp_hand | f.later)
        return w

    def _exchange_weight(self, dealt: int, discards: int) -> float:
        key = dealt << 36 | discards
        got = self._cache.get(key)
        if got is not None:
            return got
        values = card_values(dealt, self.rules, role=self.other)
        order = sorted(values.values())
        k = discards.bit_count()
        best = sum(order[:k])
        regret = sum(values[c] for c in values if discards >> c & 1) - best
        w = math.exp(-self.beta * max(0.0, regret))
        lo, hi = self.range
        # the advice's count: all he may, unless his worst cards are good ones
        threshold = 9.0 if self.other == ELDER else 7.5
        book_k = hi
        while book_k > lo and book_k - 1 < len(order) and order[book_k - 1] >= threshold:
            book_k -= 1
        if book_k != k:
            w *= COUNT_WEIGHT
        if len(self._cache) < 4096:
            self._cache[key] = w
        return w

    def _follow_weight(self, f: _Follow, held: int) -> float:
        suit = f.lead // 9
        mine = held & SUIT_MASKS[suit] & ~(1 << f.follow)
        if not mine:
            return 1.0
        winners = [c for c in range(f.lead + 1, suit * 9 + 9) if held >> c & 1]
        lowest = min(
            winners if winners and f.follow > f.lead else
            [c for c in range(suit * 9, suit * 9 + 9) if held >> c & 1]
        )
        if f.follow == lowest:
            return 1.0
        # equivalent cards: nothing of his or the lead between them once played cards are out
        lo, hi = sorted((lowest, f.follow))
        out = f.gone | held | 1 << f.lead
        if all(out >> c & 1 for c in range(lo + 1, hi)):
            return 1.0
        return FOLLOW_WEIGHT
