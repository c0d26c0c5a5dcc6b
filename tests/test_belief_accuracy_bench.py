"""bench/belief_accuracy.py: the log-loss it reports, and its oracle's worlds fit the view."""

from __future__ import annotations

import math
import random

from piquet.analysis.sampling import World, dialog_weight
from piquet.analysis.sampling.draw import knowledge
from piquet.core.actions import Play
from piquet.core.rules import get_rules
from piquet.players import make_player
from piquet.players.common import book_discard
from piquet.tournament import deal_match, deal_pack
from scriptkit import load_script

bench = load_script("bench/belief_accuracy.py", "belief_accuracy_bench")


def test_log_loss_is_small_for_the_truth_and_log2_for_a_coin() -> None:
    truth = 0b1011
    cards = 0b1111
    sure = [World(0, 0, (), truth)]
    assert abs(bench.log_loss(sure, truth, cards) + math.log(0.995)) < 1e-12
    coin = [World(0, 0, (), 0b0011), World(0, 0, (), 0b1100)]
    # cards 0,1: held in one world of two (p 0.5); 2 and 3 likewise
    assert abs(bench.log_loss(coin, truth, cards) - math.log(2)) < 1e-12


def test_the_oracles_worlds_fit_the_view_and_discard_as_the_book() -> None:
    rules = get_rules("rubicon")
    checked = 0
    for index in range(6):
        book = make_player("book")
        m = deal_match(rules, deal_pack(rules, 2026, index), elder=index % 2)
        while m.last_deal is None:
            seat = m.to_act
            assert seat is not None
            view = m.view(seat)
            dv = view.deal
            if dv is not None and any(isinstance(a, Play) for a in view.legal_actions):
                kn = knowledge(dv, rules)
                if bench.simple_case(kn, rules):
                    other = 1 - dv.role
                    k = kn.k_younger if other else kn.k_elder
                    worlds = bench.policy_worlds(dv, rules, random.Random(index), 20)
                    assert worlds
                    for w in worlds:
                        full = w.opp_hand | kn.opp_played
                        assert full & kn.opp_known_held == kn.opp_known_held
                        assert full | w.opp_discards == kn.unplaced
                        assert w.opp_discards == book_discard(w.opp_dealt, k, k, rules,
                                                              role=other)
                        assert dialog_weight(full, dv, rules) == w.weight > 0
                    checked += 1
                    break
            m = m.apply(book.choose(view), seat)
    assert checked >= 3
