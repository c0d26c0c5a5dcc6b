"""Inference by consistency (:mod:`piquet.players.consistency`): a drawn world in which the
other's past cards were the exact solver's keeps its weight; one in which a card he
played would have been a mistake is weighed down."""

from __future__ import annotations

import math
import random

import pytest

from piquet.analysis.sampling import World, sample_worlds
from piquet.core.actions import Play
from piquet.core.cards import Card
from piquet.core.deal import ELDER, Deal, Phase
from piquet.core.rules import PRESETS
from piquet.core.view import deal_view
from piquet.fast.solver import DIFF, Solver, play_state
from piquet.players.book import book_action
from piquet.players.consistency import FLOOR, PlayConsistency
from piquet.tournament import deal_pack

RUBICON = PRESETS["rubicon"]
#: The other plays the exact solver's cards once he holds this many (the cards read).
SOLVED_FROM = 8


def _solver_plays_late(seed: int, me: int, tricks: int) -> Deal:
    """A deal to ``tricks`` tricks with ``me`` to play: the book's choices, except the
    other's cards from :data:`SOLVED_FROM` cards in hand on, the solver's best."""
    solver = Solver(RUBICON, DIFF, tt_bits=14)
    d = Deal.new(RUBICON, deal_pack(RUBICON, seed, 0))
    while not (d.phase is Phase.PLAY and len(d.tricks) >= tricks and d.to_act == me):
        assert not d.is_over, "the deal ended early"
        seat = d.to_act
        assert seat is not None
        if (d.phase is Phase.PLAY and seat != me
                and d.hands[seat].bit_count() <= SOLVED_FROM):
            values = solver.move_values(play_state(d))
            best = max(values, key=lambda c: (values[c], -c))
            d = d.apply(Play(Card.from_index(best)))
        else:
            d = d.apply(book_action(deal_view(d, seat), RUBICON))
    return d


# deals (seed, tricks played) where some drawn hands of his make one of his cards a mistake
@pytest.mark.parametrize(("seed", "tricks"), [(2, 9), (3, 9), (1, 10)])
def test_a_world_where_his_cards_were_mistakes_weighs_less_than_his_true_hand(
    seed: int, tricks: int
) -> None:
    me = ELDER
    d = _solver_plays_late(seed, me, tricks)
    view = deal_view(d, me)
    reader = PlayConsistency(view, Solver(RUBICON, DIFF, tt_bits=14), 10**7, lam=1.0,
                             max_cards=SOLVED_FROM)
    assert reader.cards, "no card of his to read"
    true = World(0, 0, (), d.hands[1 - me], 1.0)
    drawn = [w for w in sample_worlds(view, RUBICON, random.Random(seed), 60)
             if w.opp_hand != true.opp_hand]
    weighed = reader.weigh([true, *drawn])
    assert reader.depth == len(reader.cards)
    # his cards were the solver's in his true hand: no discount
    assert weighed[0].weight == 1.0
    # in the worlds where they would not have been, the weight drops, by exp(-lam * regret)
    # a card, floored
    ratios = [w.weight / v.weight for w, v in zip(weighed[1:], drawn, strict=True)]
    assert all(FLOOR ** len(reader.cards) - 1e-12 <= r <= 1.0 for r in ratios)
    assert min(ratios) < 1.0
    # a card's regret is whole points: a discounted world lost at least exp(-lam) of it
    assert all(r == 1.0 or r <= math.exp(-1.0) + 1e-12 for r in ratios)
