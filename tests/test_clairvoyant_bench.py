"""bench/clairvoyant.py: the clairvoyant's worlds are the true deal (sees-all), or keep the
other's true hand with the rest drawn (sees-hand), or are the plain expert's before the play
and the truth in it (sees-hand-play), and every one replays to the view."""

from __future__ import annotations

import random

import pytest

from piquet.analysis.sampling import world_deal
from piquet.core.deal import Phase
from piquet.core.rules import get_rules
from piquet.players.expert import ExpertPlayer
from piquet.tournament import deal_match, deal_pack
from scriptkit import load_script

bench = load_script("bench/clairvoyant.py", "clairvoyant_bench")


@pytest.mark.parametrize("mode", bench.MODES)
def test_worlds_are_the_true_deal(mode: str) -> None:
    rules = get_rules("rubicon")
    pack = deal_pack(rules, 2026, 0)
    players = (bench.ClairvoyantPlayer(mode, 1, 20, rules=rules),
               bench.ClairvoyantPlayer(mode, 2, 20, rules=rules))
    m = deal_match(rules, pack, elder=0)
    checked = 0
    while m.last_deal is None:
        p = m.to_act
        assert p is not None and m.deal is not None
        view = m.view(p)
        dv = view.deal
        assert dv is not None
        players[p].truth = m.deal
        if dv.phase in (Phase.EXCHANGE, Phase.PLAY):
            truth = bench.true_world(m.deal, dv.role)
            worlds = players[p]._worlds(dv, rules, random.Random(checked), 5)
            told = mode != "sees-hand-play" or dv.phase is Phase.PLAY
            if not told:
                # before the play it is told nothing: the plain expert's worlds, same seed
                plain = ExpertPlayer(1, 20, rules=rules)
                assert worlds == plain._worlds(dv, rules, random.Random(checked), 5)
            for w in worlds:
                assert w.opp_hand == truth.opp_hand or not told
                # every world replays to exactly this seat's view
                world_deal(dv, rules, w)
            if mode == "sees-all" or dv.phase is Phase.PLAY:
                assert all(w == truth for w in worlds)
            checked += 1
        m = m.apply(players[p].choose(view), p)
    assert checked >= 10
