"""The kernel's ``book`` policy makes the choices of :mod:`piquet.players.book`.

Whole deals are played by the kernel's book policy; at every step the book player is asked
the same question through the public engine (its view of the deal, the game level) and its
answer is compared with the kernel's.  The agreement rate is measured per kind of action
and must be complete.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from piquet.core.actions import Action, Appoint, NameLead
from piquet.core.cards import SUIT_MASKS, Card, Suit, pack
from piquet.core.deal import Deal, Phase
from piquet.core.rules import PRESETS, Leftovers, Rules
from piquet.core.view import appointable, deal_view
from piquet.fast import kernel as K
from piquet.fast.engine import actions_of, play_deal, policy_code, trace_of
from piquet.fast.params import compile_rules
from piquet.fast.policies import new_rng
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


def _kernel_after(rules: Rules, deck: list[int], forced: list[Action],
                  policy: str) -> tuple[list[Action], int]:
    """The kernel's deal of ``deck`` with the choices ``forced`` first: its actions, status."""
    tr = np.zeros((K.MAX_TRACE, 2), dtype=np.int64)
    ev = np.zeros((K.MAX_EVENTS, 3), dtype=np.int64)
    info = np.zeros(K.I_SIZE, dtype=np.int64)
    ntr, *_ = K.play_deal(
        compile_rules(rules), np.asarray(deck, dtype=np.int64), 0, 0, 0,
        policy_code(policy), new_rng(0), tr, ev, trace_of(forced), len(forced), False, info)
    rows = [(int(a), int(b)) for a, b in tr[:ntr]]
    return actions_of(rows, rules), int(info[K.I_STATUS])


@pytest.mark.parametrize("preset", ["court-gamester-1754", "cotgrave-1662"])
def test_kernel_and_engine_agree_on_what_younger_may_appoint_and_what_the_book_appoints(
    preset: str,
) -> None:
    """Elder named a lead he lacks (the book never does, so no deal between books reaches
    it): every appoint the engine allows, and only those, the kernel takes as a forced
    choice; and the kernel's book appoints what the book player does, among what elder
    may hold as far as younger knows (``appointable``), its best suit or, when elder
    cannot hold that one, the first he can."""
    rules = PRESETS[preset]
    by_suit = rules.younger_leftovers is Leftovers.ELDER_NAMES_SUIT
    every = ([Appoint(suit=s) for s in Suit] if by_suit
             else [Appoint(card=Card.from_index(i)) for i in pack(rules)])
    rng = random.Random(3)
    reached = fell_back = 0
    for _ in range(2000):  # a void to name (1662) is rare
        deck = pack(rules)
        rng.shuffle(deck)
        deal = Deal.new(rules, deck)
        done: list[Action] = []
        while deal.phase not in (Phase.APPOINT, Phase.DECLARE, Phase.PLAY, Phase.OVER):
            action = deal.random_action(rng)
            if deal.phase is Phase.LEFTOVERS:  # elder names a lead he lacks, when he may
                hand = deal.hands[0]
                lacking = [a for a in deal.legal_actions() if isinstance(a, NameLead) and not (
                    hand & SUIT_MASKS[int(a.suit)] if a.suit is not None
                    else a.card is not None and hand >> a.card.index & 1)]
                action = rng.choice(lacking) if lacking else action
            deal = deal.apply(action)
            done.append(action)
        if deal.phase is not Phase.APPOINT:
            continue
        reached += 1
        if reached > 40:
            break
        view = deal_view(deal, deal.to_act)
        book = book_action(view, rules)
        actions, status = _kernel_after(rules, deck, done, "book")
        assert status != K.BAD_CHOICE and actions[len(done)] == book
        may = appointable(view, rules)
        assert isinstance(book, Appoint)
        assert (may & SUIT_MASKS[int(book.suit)] if book.suit is not None
                else book.card is not None and may >> book.card.index & 1)
        legal = set(deal.legal_actions())
        for a in every:
            _, status = _kernel_after(rules, deck, [*done, a], "random")
            assert (status != K.BAD_CHOICE) == (a in legal), a
        best = max(range(4), key=lambda s: ((view.hand.mask >> 9 * s & 0x1FF).bit_length(),
                                           (view.hand.mask >> 9 * s & 0x1FF).bit_count()))
        fell_back += not may & SUIT_MASKS[best]
    assert reached >= 20 and (fell_back or not by_suit)
