"""The kernel's ``book`` policy makes the choices of :mod:`piquet.players.book`.

Whole deals are played by the kernel's book policy; at every step the book player is asked
the same question through the public engine (its view of the deal, the game level) and its
answer is compared with the kernel's.  The agreement rate is measured per kind of action
and must be complete.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from piquet.core.cards import pack
from piquet.core.deal import Deal
from piquet.core.rules import PRESETS
from piquet.core.view import deal_view
from piquet.fast.engine import actions_of, play_deal
from piquet.players.book import book_action


@pytest.mark.parametrize("preset", list(PRESETS))
def test_kernel_book_agrees_with_the_book_player_at_every_step(preset: str) -> None:
    rules = PRESETS[preset]
    rng = random.Random(f"book:{preset}")
    agree: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for i in range(120):
        deck = pack(rules)
        rng.shuffle(deck)
        deal = Deal.new(rules, deck)
        for action in actions_of(play_deal(rules, deck, policy="book", seed=i).trace, rules):
            role = deal.to_act
            assert role is not None
            kind = type(action).__name__
            total[kind] += 1
            agree[kind] += book_action(deal_view(deal, role), rules) == action
            deal = deal.apply(action)
        assert deal.is_over
    rates = {k: agree[k] / total[k] for k in total}
    assert all(rate == 1.0 for rate in rates.values()), rates
    assert total["Play"] == 120 * 24 and total["Discard"] == 240
