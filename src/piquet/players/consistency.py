"""Inference from the other's play by consistency: would he have played that card there?

:class:`~piquet.players.beliefs.BeliefModel` reads the play by a fixed rule (follow with
the lowest card that wins).  The strong levels play by the exact solver over drawn worlds,
so the closest cheap model of their play is the solver itself: in a drawn world, the
other's hand at each of his past cards is known (his hand now and the cards he played
since), and so is mine, so the position is rebuilt and solved; the card he played counts
by its *regret* ``r`` there (the points, from his side, by which the best card beat it):
the world's weight is multiplied by ``max(FLOOR, exp(-LAMBDA * r))`` per card.  He does not
see my hand, so he errs against the open-handed value: the weight is soft, and floored.

The cost is a solve per distinct hand of his and past card, so his cards are read the
latest first, as many as a budget of solver positions affords for every hand drawn (set
by the first hand's costs; a count, so decisions repeat from their seed): a larger budget
reads further back.  Measured (``bench/play_regret.py``), it changes the card in under 2%
of the play decisions at 100 ms and gains nothing: late in the play the drawn worlds
already share few hands, and his cards are mostly the solver's in all of them.
Positions are rebuilt without the points counted before (``totals`` 0, no pique open):
the values then count from that position on, as the other's choice did.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

from piquet.analysis.sampling import World
from piquet.core.deal import ELDER
from piquet.core.view import DealView
from piquet.fast.solver import PlayState, Solver

__all__ = ["FLOOR", "LAMBDA", "MAX_CARDS", "PlayConsistency"]

#: How sharply a card that the solver finds worse (points of regret) discounts a world.
LAMBDA: Final = 0.5
#: The least weight one card can give a world (the other does not see my hand).
FLOOR: Final = 0.1
#: The most cards the other may have held at a card read (earlier ones cost too much).
MAX_CARDS: Final = 12


@dataclass(frozen=True, slots=True)
class _Card:
    """One past card of the other: the position before it, less his unknown hand."""

    card: int
    mine: int
    """My hand at that moment."""
    his_later: int
    """His cards played from that moment on (this card included)."""
    leader: int
    lead: int | None
    won: tuple[int, int]


class PlayConsistency:
    """Weighs worlds by how consistent the other's past cards are with the exact solver."""

    def __init__(
        self,
        view: DealView,
        solver: Solver,
        nodes: int,
        *,
        lam: float = LAMBDA,
        floor: float = FLOOR,
        max_cards: int = MAX_CARDS,
    ) -> None:
        self.solver = solver
        self.budget = max(0, nodes)
        self.lam = lam
        self.floor = floor
        self.depth = 0
        """How many of his latest cards were read in every world."""
        self.cards = self._cards(view, max_cards)
        self.solved = 0
        """Positions solved (for measurement)."""

    @staticmethod
    def _cards(view: DealView, max_cards: int) -> tuple[_Card, ...]:
        me = view.role
        him = 1 - me
        tricks = list(view.tricks)
        # cards played from trick i on, by each side (index len(tricks): the current trick)
        n = len(tricks)
        my_from = [0] * (n + 1)
        his_from = [0] * (n + 1)
        if view.trick_lead is not None and view.to_act == me:
            his_from[n] = 1 << view.trick_lead
        for i in range(n - 1, -1, -1):
            t = tricks[i]
            mine_c = t.lead if t.leader == me else t.follow
            his_c = t.follow if t.leader == me else t.lead
            my_from[i] = my_from[i + 1] | 1 << mine_c
            his_from[i] = his_from[i + 1] | 1 << his_c
        won_before: list[tuple[int, int]] = []
        w = [0, 0]
        for t in tricks:
            won_before.append((w[0], w[1]))
            w[t.winner] += 1
        hand = view.hand.mask
        out: list[_Card] = []
        if view.trick_lead is not None and view.to_act == me:
            # he led the trick I am to follow
            if hand.bit_count() <= max_cards:
                out.append(_Card(view.trick_lead, hand, his_from[n], him, None,
                                 (w[0], w[1])))
        for i in range(n - 1, -1, -1):
            t = tricks[i]
            if (hand | my_from[i]).bit_count() > max_cards:
                break
            if t.leader == him:
                out.append(_Card(t.lead, hand | my_from[i], his_from[i], him, None,
                                 won_before[i]))
            else:
                out.append(_Card(t.follow, hand | my_from[i + 1], his_from[i], me, t.lead,
                                 won_before[i]))
        return tuple(out)

    def weigh(self, worlds: list[World]) -> list[World]:
        """``worlds`` with their weights multiplied by the consistency of his cards.

        His hand decides the weight, so it is computed once per hand; the first hand reads
        his cards latest first while the cost so far, times the number of hands, is within
        the budget, and every other hand reads as many (the same model for all)."""
        if not self.cards or not worlds:
            return worlds
        hands = list(dict.fromkeys(w.opp_hand for w in worlds))
        first = hands[0]
        regrets: list[float] = []
        start = self.solver.nodes
        for c in self.cards:
            r = self._regret(first, c, self.budget - (self.solver.nodes - start))
            if r is None:
                break
            if (self.solver.nodes - start) * len(hands) > self.budget:
                break
            regrets.append(r)
        self.depth = len(regrets)
        if not self.depth:
            return worlds
        factor = {first: self._weight(regrets)}
        for h in hands[1:]:
            got: list[float] = []
            for c in self.cards[: self.depth]:
                r = self._regret(h, c, 2 * self.budget - (self.solver.nodes - start))
                if r is None:
                    break
                got.append(r)
            factor[h] = self._weight(got)
        return [World(w.opp_dealt, w.opp_discards, w.stock, w.opp_hand,
                      w.weight * factor[w.opp_hand]) for w in worlds]

    def _weight(self, regrets: list[float]) -> float:
        w = 1.0
        for r in regrets:
            if r > 0:
                w *= max(self.floor, math.exp(-self.lam * r))
        return w

    def _regret(self, opp_hand: int, c: _Card, nodes: int) -> float | None:
        """His regret for card ``c`` if he holds ``opp_hand`` now (None: not solved within
        ``nodes``)."""
        if nodes <= 0:
            return None
        his = opp_hand | c.his_later
        him = 1 - c.leader if c.lead is not None else c.leader
        hands = (his, c.mine) if him == ELDER else (c.mine, his)
        state = PlayState(hands=hands, leader=c.leader, lead=c.lead, won=c.won)
        values = self.solver.move_values(state, nodes=nodes)
        if self.solver.aborted or c.card not in values:
            return None
        self.solved += 1
        return float(max(values.values()) - values[c.card])
