"""The engine's shortcuts of issue 40 give what the long ways gave.

- ``world_deal`` keeps the replay's last state instead of applying the found actions
  again: the same deal as applying ``public_actions`` to the fresh deal;
- ``deal_view`` makes its card sets without checking the masks: the same view as
  ``CardSet(mask)`` everywhere;
- the dialog's statements are cached by the claim's shape: the same as
  ``statement_of`` each time;
- ``truthful_choice`` is ``truthful_declaration`` without the view.
"""

from __future__ import annotations

import random

import pytest

from piquet.analysis.sampling import (
    SamplingError,
    public_actions,
    sample_worlds,
    world_deal,
    world_deck,
)
from piquet.analysis.sampling.dialog import _said_of
from piquet.core.cards import CardSet, pack
from piquet.core.deal import Deal, Phase
from piquet.core.declarations import DeclClass, claims
from piquet.core.facts import statement_of
from piquet.core.rules import PRESETS, Rules
from piquet.core.view import deal_view
from piquet.players.common import truthful_choice, truthful_declaration


def _deals(rules: Rules, seed: int, n: int) -> list[Deal]:
    """Every state of ``n`` random deals."""
    rng = random.Random(seed)
    out: list[Deal] = []
    for _ in range(n):
        deck = pack(rules)
        rng.shuffle(deck)
        d = Deal.new(rules, deck)
        out.append(d)
        while not d.is_over:
            d = d.apply(d.random_action(rng))
            out.append(d)
    return out


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_views_and_declarations_are_as_the_long_way_makes_them(name: str) -> None:
    rules = PRESETS[name]
    for d in _deals(rules, 40, 3):
        for role in (0, 1):
            v = deal_view(d, role)
            for field in ("hand", "dealt", "discards", "taken", "stock_seen",
                          "elder_leftovers_seen", "leftovers_seen", "opponent_shown",
                          "opponent_played", "seen_by_opponent"):
                got = getattr(v, field)
                assert type(got) is CardSet
                assert got == CardSet(got.mask) and hash(got) == hash(CardSet(got.mask))
            if d.phase is Phase.DECLARE and d.to_act == role:
                assert truthful_choice(d.legal_actions(), d.hands[role], rules) == (
                    truthful_declaration(v, rules))


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_said_of_is_statement_of(name: str) -> None:
    rules = PRESETS[name]
    rng = random.Random(name)
    for _ in range(60):
        hand = sum(1 << c for c in rng.sample(pack(rules), 12))
        for cls in DeclClass:
            for c in claims(hand, cls, rules):
                for _ in range(2):  # filled, then from the cache
                    assert _said_of(c, rules) == (
                        statement_of(c, rules), statement_of(c, rules, full=False))


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_world_deal_is_the_public_actions_applied(name: str) -> None:
    rules = PRESETS[name]
    rng = random.Random(7)
    checked = 0
    for d in _deals(rules, 41, 2)[::3]:
        if d.to_act is None or d.phase is Phase.DEAL:
            continue
        view = deal_view(d, d.to_act)
        try:
            worlds = sample_worlds(view, rules, rng, 2)
        except SamplingError:
            continue
        for w in worlds:
            try:
                got = world_deal(view, rules, w)
            except SamplingError:
                continue
            again = Deal.new(rules, world_deck(view, rules, w))
            for a in public_actions(again, view, w):
                again = again.apply(a)
            assert deal_view(got, 0) == deal_view(again, 0)
            assert deal_view(got, 1) == deal_view(again, 1)
            assert got.hands == again.hands and got.stock == again.stock
            checked += 1
    assert checked > 0
