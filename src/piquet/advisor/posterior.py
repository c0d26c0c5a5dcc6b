"""Exactly what one seat may believe of the other's hand: every hand, weighed.

The sampler (:mod:`piquet.analysis.sampling`) draws worlds to think with; a hint that quotes odds
needs them exact.  :func:`other_hands` lists every hand the other may hold after the
exchange that fits what the seat has seen, each with its weight under the same model as
the sampler's, counted instead of drawn:

- every deal consistent with the view is as likely as any other (the shuffle), so a hand
  weighs as many ways as it can have come about: which of its cards he took from the stock
  places he took from, and which cards he laid out (among those the seat cannot place);
  his dealt hand held a king, queen or knave unless he called carte blanche;
- the dialog: :func:`piquet.analysis.sampling.dialog_weight` (a hand his words cannot stand for
  weighs nothing; one in which he would have sunk a better holding weighs
  :data:`~piquet.analysis.sampling.SINK_WEIGHT`);
- the play so far: a suit he showed out of, a card he appointed, the cards he said he laid
  out (:func:`piquet.analysis.sampling.knowledge`).

:func:`good_odds` is then the chance that no holding of his beats a claim of the seat's in
a class: the odds a hint quotes.  Where the dialog has already decided the class (he
declared less, or nothing, and the seat holds better) the odds are 1 by the facts, not by
the count.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from math import comb
from typing import Final

from piquet.analysis.sampling import dialog_weight, knowledge
from piquet.analysis.sampling.draw import Knowledge
from piquet.core.cards import SUIT_MASKS, mask_cards
from piquet.core.declarations import COURTS, DeclClass, best_claim
from piquet.core.rules import Rules
from piquet.core.view import DealView

__all__ = ["MAX_HANDS", "HandOdds", "good_odds", "other_hands"]

MAX_HANDS: Final = 60_000
"""The most hands :func:`other_hands` counts (beyond it the odds are not given)."""


@dataclass(frozen=True, slots=True)
class HandOdds:
    """A chance, exactly, and over how many of the other's possible hands."""

    chance: float
    hands: int
    """How many hands he may hold (with a weight above 0)."""


def _allowed(kn: Knowledge) -> int:
    allowed = kn.deck
    for s in range(4):
        if kn.void_suits >> s & 1:
            allowed &= ~SUIT_MASKS[s]
    return (allowed & ~kn.excluded) | kn.opp_known_held


def _ways(x: int, kn: Knowledge, t: int, k: int) -> int:
    """In how many ways his hand's cards ``x`` (those from the cards the seat cannot place)
    came about: ``t`` of them taken from unseen stock places, ``k`` cards laid out from
    the rest; his dealt hand with a court card unless he called carte blanche."""
    must = kn.opp_laid_out & kn.unplaced
    if must & x:
        return 0
    free = kn.unplaced & ~x & ~must & ~kn.not_laid_out
    k_free = k - must.bit_count()
    nx = x.bit_count()
    if k_free < 0 or t > nx:
        return 0
    total = comb(nx, t) * comb(free.bit_count(), k_free)
    if kn.opp_blanche or must & COURTS:
        return total
    courts = (x & COURTS).bit_count()
    if courts > t:
        return total
    # dealt hands with no court: every court of x among the cards taken, none laid out
    bad = comb(nx - courts, t - courts) * comb((free & ~COURTS).bit_count(), k_free)
    return total - bad


def other_hands(view: DealView, rules: Rules) -> list[tuple[int, float]] | None:
    """Every hand (a mask: his whole hand after the exchange, cards played included) the
    other may hold, with its weight (see the module's docstring); None when he has not
    exchanged yet, showed carte blanche, or there are more than :data:`MAX_HANDS`."""
    kn = knowledge(view, rules)
    if not kn.opp_exchanged or kn.opp_known_dealt:
        return None
    other = 1 - view.role
    k_o = kn.k_younger if other == 1 else kn.k_elder
    first = 0 if other == 0 else max(kn.k_elder, 0)
    places = range(first, first + k_o)
    seen_places = sum(1 for i in places if kn.slots[i] == 3)
    unseen_places = sum(1 for i in places if kn.slots[i] == 0)
    allowed = _allowed(kn)
    known = kn.opp_known_held
    u_only = kn.elder_leftovers_seen & ~kn.leftovers_seen
    must_seen = known & kn.seen_stock
    if must_seen & ~u_only or must_seen.bit_count() > seen_places:
        return []
    seen_pool = mask_cards(u_only & ~must_seen & allowed)
    need_seen = seen_places - must_seen.bit_count()
    known_x = known & kn.unplaced
    pool = mask_cards(kn.unplaced & allowed & ~known_x)
    need_x = 12 - seen_places - known_x.bit_count()
    if need_x < 0 or need_seen < 0:
        return []
    if comb(len(seen_pool), need_seen) * comb(len(pool), need_x) > MAX_HANDS:
        return None
    out: list[tuple[int, float]] = []
    for s_pick in combinations(seen_pool, need_seen):
        s_mask = must_seen | sum(1 << c for c in s_pick)
        for x_pick in combinations(pool, need_x):
            x = known_x | sum(1 << c for c in x_pick)
            ways = _ways(x, kn, unseen_places, k_o)
            if not ways:
                continue
            hand = x | s_mask
            w = dialog_weight(hand, view, rules)
            if w > 0.0:
                out.append((hand, ways * w))
    return out


def good_odds(view: DealView, rules: Rules, cls: DeclClass, key: tuple[int, int]
              ) -> HandOdds | None:
    """The chance that no holding of the other's in ``cls`` beats a claim with ``key``
    (exactly, over :func:`other_hands`); None where the hands are not counted."""
    hands = other_hands(view, rules)
    if hands is None:
        return None
    total = good = 0.0
    for hand, w in hands:
        his = best_claim(hand, cls, rules)
        total += w
        if his is None or his.key < key:
            good += w
    if total <= 0.0:
        return None
    return HandOdds(good / total, len(hands))
