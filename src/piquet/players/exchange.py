"""The expert's exchange: every good discard played out in worlds drawn from its beliefs.

The reference values a discard open-handed: it takes in the stock, lets the other exchange
by the book, counts both hands' declarations truthfully and estimates the play with both
hands known (a greedy playout), checking the best three with the exact solver on a few
worlds.  Measured (``docs/strength.md``), that estimate is noisy: two players holding the
same hand in the same seat chose different discards in half the deals, though elder's
exchange has nothing to read.

Here each candidate discard is played out to the end of the deal by the compiled kernel
(:func:`piquet.fast.playout`, the book's policy for both sides from the discard on: the
other's exchange, both declarations, sinking as the book sinks, the play of the cards
without seeing the other's hand) in every world, the same worlds for every candidate
(common random numbers), and valued by the points of the deal, this seat's minus the
other's.  A play-out costs some tens of microseconds, so a decision affords hundreds of
worlds and dozens of candidates (:func:`wide_candidates`: every discard of the least
useful cards, by the book's judgement, for each number the seat may take).  The best few
are then corrected by the exact solver on the first worlds (a control variate: the mean
of exact minus play-out on those worlds is added), as the reference corrects its estimate.

Only for the deal's points (the objective ``DIFF``); near the game's target or on a
partie's last deal the reference's evaluation stands.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Final

from piquet.core.actions import Action, Discard
from piquet.core.cards import CardSet
from piquet.core.deal import Deal
from piquet.core.errors import IllegalActionError
from piquet.core.rules import Rules
from piquet.core.view import DealView
from piquet.fast import playout
from piquet.fast.rollouts import discard_rollouts
from piquet.players.common import book_discard, card_values, discard_candidates
from piquet.sampling import SamplingError, World, public_actions, world_deck

__all__ = [
    "EXTRA_CARDS",
    "PlayoutWorld",
    "all_playout_values",
    "playout_values",
    "playout_worlds",
    "wide_candidates",
]

#: How many cards beyond the number discarded a candidate may draw from (the least useful).
EXTRA_CARDS: Final = 3


def wide_candidates(
    hand: int, lo: int, hi: int, rules: Rules, *, role: int, lead: int = 0, limit: int = 24
) -> list[int]:
    """Up to ``limit`` discards (masks), the book's first: the reference's candidates, then
    every set of ``k`` cards among the ``k + EXTRA_CARDS`` least useful, for each ``k``
    from ``hi`` down (at most three numbers), cheapest first by the book's card values."""
    book = book_discard(hand, lo, hi, rules, role=role, lead=lead)
    out = [book]
    seen = {book}
    for m in discard_candidates(hand, lo, hi, rules, role=role, lead=lead, limit=limit):
        if m not in seen:
            seen.add(m)
            out.append(m)
    values = card_values(hand, rules, role=role, lead=lead)
    order = sorted(values, key=lambda c: (values[c], c))
    extra: list[tuple[float, int]] = []
    for k in range(hi, max(lo, hi - 2) - 1, -1):
        if k <= 0:
            continue
        pool = order[: k + EXTRA_CARDS]
        for combo in itertools.combinations(pool, k):
            mask = sum(1 << c for c in combo)
            if mask not in seen:
                seen.add(mask)
                extra.append((sum(values[c] for c in combo), mask))
    extra.sort()
    out.extend(m for _, m in extra)
    return out[: max(1, limit)]


@dataclass(frozen=True, slots=True)
class PlayoutWorld:
    """A drawn world ready for the kernel: its pack, the deal's actions so far, its weight."""

    world: World
    deck: tuple[int, ...]
    history: tuple[Action, ...]

    @property
    def weight(self) -> float:
        return self.world.weight


def playout_worlds(view: DealView, rules: Rules, worlds: list[World]) -> list[PlayoutWorld]:
    """The worlds as packs and histories (those whose replay fails are dropped)."""
    out: list[PlayoutWorld] = []
    for w in worlds:
        deck = world_deck(view, rules, w)
        try:
            history = public_actions(Deal.new(rules, deck), view, w)
        except SamplingError:
            continue
        out.append(PlayoutWorld(w, tuple(deck), tuple(history)))
    return out


def playout_values(
    rules: Rules, role: int, worlds: list[PlayoutWorld], discard: int, seed: int
) -> list[float] | None:
    """This seat's points minus the other's in each world after ``discard``, the rest of
    the deal played by the book's policy in the kernel (world ``j`` with seed ``seed + j``);
    None if the discard is not legal in some world.  One discard at a time, through
    :func:`piquet.fast.playout`: the expert calls :func:`all_playout_values`; this is the
    form its test checks that one compiled call against."""
    act = Discard(CardSet(discard))
    out: list[float] = []
    for j, pw in enumerate(worlds):
        try:
            got = playout(rules, pw.deck, (*pw.history, act), policy="book", n=1, seed=seed + j)
        except IllegalActionError:
            return None
        s = got.mean_scores
        out.append(s[role] - s[1 - role])
    return out


def all_playout_values(
    rules: Rules, role: int, worlds: list[PlayoutWorld], discards: list[int], seed: int,
    *, plays: int = 1,
) -> list[list[float] | None]:
    """:func:`playout_values` of every discard in one compiled call
    (:func:`piquet.fast.rollouts.discard_rollouts`; with ``plays=1`` the same values),
    ``plays`` play-outs a world averaged."""
    return discard_rollouts(
        rules, role, [pw.deck for pw in worlds], [pw.history for pw in worlds], discards,
        seed=seed, plays=plays,
    )
