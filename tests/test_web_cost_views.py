"""The cheaper ways to a seat's view say the same as the plain ones (issue 39's cost of a
move): the card texts read from a table, the tricks' JSON kept, the play's menu items
built once per card (and their JSON), a claim's offer decided without counting it where
its key differs.

Every view of seeded games of every preset (and the pool where a rule set plays it) is
checked: each fast path against what it stands for, written out here the plain way."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from piquet.core.actions import Declare
from piquet.core.cards import CardSet
from piquet.core.declarations import Claim, claims, counted
from piquet.core.errors import PiquetError
from piquet.core.match import MatchView, new_match
from piquet.core.rules import PRESETS
from piquet.core.view import (
    _card_texts,
    _trick_json,
    public_view,
)
from piquet.table.menu import _items, menu, menu_json


def _views(preset: str, fmt: str | None, games: int) -> Iterator[MatchView]:
    rng = random.Random(f"{preset}:{fmt}")
    for _ in range(games):
        try:
            m = new_match(preset, seed=rng.randrange(10**9), format=fmt,
                          names=None if fmt != "pool" else ["a", "b", "c"])
        except PiquetError:
            pytest.skip(f"{preset} does not play the {fmt}")
        steps = 0
        while not m.finished and steps < 2000:
            for seat in range(m.n_players):
                yield m.view(seat)
            if m.deal is not None:
                pv = public_view(m.deal)
                for t in pv.tricks:
                    assert _trick_json(t) == t.to_json()
            m = m.apply(rng.choice(m.legal_actions()), m.to_act)
            steps += 1


def _plain_offer(view: MatchView, action: Declare) -> bool:
    """Whether the table offers a claim, every claim counted (the menu's words)."""
    assert view.deal is not None
    hand = view.deal.hand.mask
    rules = view.rule_set
    found = claims(hand, action.cls, rules)
    mine = next((c for c in found if c.cards == action.cards.mask), None)
    if not found or mine is None or mine is found[0]:
        return True

    def worth(claim: Claim) -> object:
        holdings, total = counted(hand, claim, rules)
        return claim.key, frozenset(h.cards for h in holdings), total

    return worth(mine) != worth(found[0])


@pytest.mark.parametrize("fmt", [None, "pool"])
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_fast_views_say_what_the_plain_ones_do(preset: str, fmt: str | None) -> None:
    views = plays = claims_seen = 0
    for view in _views(preset, fmt, games=2):
        views += 1
        deal = view.deal
        if deal is None:
            continue
        dj = deal.to_json()
        for key in ("hand", "dealt", "discards", "taken", "stock_seen", "opponent_shown",
                    "opponent_played", "seen_by_opponent"):
            assert dj[key] == [str(c) for c in getattr(deal, key)], key
        assert dj["tricks"] == [t.to_json() for t in deal.tricks]
        for t in deal.tricks:  # a caller may change what it is given
            _trick_json(t)["lead"] = "changed"
            assert _trick_json(t) == t.to_json()
        items = menu(view)
        assert menu_json(view) == [i.to_json() for i in items]
        if view.to_act != view.player or deal.discard_range is not None:
            continue
        assert items == _items(deal, view.rule_set)
        assert [i.to_json() for i in items] == [i.to_json() for i in _items(deal,
                                                                              view.rule_set)]
        plays += all(i.kind.value == "play" for i in items)
        for item in items:
            if isinstance(item.action, Declare):
                claims_seen += 1
                assert item.offer == _plain_offer(view, item.action), item.id
    assert views > 100
    assert plays > 10 and claims_seen > 0


def test_card_texts_of_every_suit_mask() -> None:
    for mask in [0, (1 << 36) - 1, *random.Random(3).sample(range(1 << 36), 2000)]:
        cards = CardSet(mask)
        assert _card_texts(cards) == [str(c) for c in cards]
