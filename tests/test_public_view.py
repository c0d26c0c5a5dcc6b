"""The public view (what a spectator sees): only what both players have made public.

The oracle is the deal itself: the cards a spectator may see are those shown (carte
blanche, declarations shown) and those played; every card placed anywhere in the public
view must be one of them, and they must be known to both seats (each seat's
``visible_mask``).  What is said aloud (the dialog, the points counted) is what both
seats' views say.  Random deals and matches under every rule set.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from piquet.core.cards import Card
from piquet.core.deal import ELDER, YOUNGER, Deal
from piquet.core.match import new_match
from piquet.core.rules import PRESETS
from piquet.core.view import deal_view, public_mask, public_view, visible_mask

CARD = re.compile(r"(?<![A-Za-z0-9])([6-9TJQKA][SHDC])(?![A-Za-z0-9])")


def placed(data: dict[str, Any]) -> set[int]:
    """Cards the public view places (the dialog's words and the lead named aloud aside)."""
    d = dict(data)
    d["dialog"] = [u["shown"] for u in data["dialog"]]
    d["lead_rule"] = None
    d["events"] = [e["points"] for e in data["events"]]
    return {Card.parse(t).index for t in CARD.findall(json.dumps(d))}


def check_public(deal: Deal) -> None:
    pv = public_view(deal)
    data = pv.to_json()
    mask = public_mask(deal)
    both = visible_mask(deal, ELDER) & visible_mask(deal, YOUNGER)
    assert mask & ~both == 0, "a public card one seat cannot see"
    cards = placed(data)
    assert {i for i in cards if not mask >> i & 1} == set()
    assert cards == {i for i in range(36) if mask >> i & 1}
    # never a card still in a hand, a discard, the stock or the leftovers
    hidden = deal.hands[0] | deal.hands[1] | deal.discards[0] | deal.discards[1] | deal.leftovers
    for c in deal.stock:
        hidden |= 1 << c
    aloud = deal.shown[0] | deal.shown[1]
    for u in deal.dialog:  # shown to both (declarations shown, 1995's leftovers turned up)
        aloud |= u.shown
    assert hidden & mask & ~aloud == 0
    # what is said aloud is what each seat hears
    for role in (ELDER, YOUNGER):
        seat = deal_view(deal, role).to_json()
        assert data["dialog"] == seat["dialog"]
        assert data["events"] == seat["events"]
        assert data["tricks"] == seat["tricks"]
        assert data["stock_count"] == seat["stock_count"]
    assert data["hand_counts"] == {"elder": deal.hands[0].bit_count(),
                                   "younger": deal.hands[1].bit_count()}
    assert "hand" not in data and "discards" not in data and "stock" not in data


@pytest.mark.parametrize("preset", list(PRESETS))
def test_public_view_shows_only_shown_and_played_cards(preset: str) -> None:
    rules = PRESETS[preset]
    for seed in range(6):
        rng = random.Random(f"public-{preset}-{seed}")
        pack = [i for i in range(36) if rules.deck_size == 36 or i % 9]
        rng.shuffle(pack)
        deal = Deal.new(rules, pack)
        check_public(deal)
        while not deal.is_over:
            deal = deal.apply(deal.random_action(rng))
            check_public(deal)
        # at the end every card played is public, and still no discard or stock card
        assert public_mask(deal) & (deal.discards[0] | deal.discards[1]) == 0


@pytest.mark.parametrize("preset", list(PRESETS))
def test_match_public_view_holds_no_hand(preset: str) -> None:
    rng = random.Random(preset)
    m = new_match(preset, seed=rng.randrange(2**32), names=["a", "b"])
    steps = 0
    while not m.finished and steps < 400:
        data = m.public_view()
        assert "seed" not in data
        d = m.deal
        if d is not None:
            assert data["deal"] == public_view(d).to_json()
            assert data["elder"] == m.player_of(ELDER)
        for p in range(m.n_players):  # the public parts are what every seat is told
            seat = m.view(p).to_json()
            for key in ("scores", "deals", "games", "to_act", "in_game", "dealer", "ledger"):
                assert data[key] == seat[key], key
        m = m.apply(m.random_action(rng))
        steps += 1
    if m.finished:
        assert m.public_view()["deal"] is None
