"""The legal actions as one typed menu (docs/table.md): every action the engine allows,
once, labelled in the dialog's words."""

from __future__ import annotations

import random

import pytest

from piquet.core.actions import Declare, parse_action
from piquet.core.match import new_match
from piquet.core.rules import PRESETS
from piquet.table.menu import MenuKind, claim_label, class_word, first_lead, menu


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_menu_lists_every_legal_action_once_and_tells_claims_apart(name: str) -> None:
    rng = random.Random(name)
    for seed in range(4):
        m = new_match(name, seed=seed)
        while not m.finished and len(m.deals) < 2:
            p = m.to_act
            assert p is not None
            view = m.view(p)
            items = menu(view)
            deal = view.deal
            assert deal is not None
            if deal.discard_range is not None:
                [item] = items
                assert item.kind is MenuKind.DISCARD and item.action is None
                assert (item.fewest, item.most) == deal.discard_range
                assert set(item.to_json()) == {"id", "kind", "label", "cards", "min", "max"}
            else:
                assert [i.action for i in items] == list(deal.legal_actions)
                assert all(parse_action(i.id) == i.action for i in items)
                declared = [i.label for i in items if i.kind is MenuKind.DECLARE]
                assert len(declared) == len(set(declared)), declared
                assert all(i.label and i.label[0].isupper() for i in items)
                assert any(i.offer for i in items)
            for other in m.in_game:
                if other != p:
                    assert menu(m.view(other)) == ()  # not his turn: nothing
            first_lead(view)
            m = m.apply(m.random_action(rng))


def test_a_claim_reads_as_its_holder_states_it_with_its_cards() -> None:
    m = new_match("rubicon", seed=1)
    rng = random.Random(1)
    while m.deal is not None and not any(isinstance(a, Declare) for a in m.legal_actions()):
        m = m.apply(m.random_action(rng))
    p = m.to_act
    assert p is not None
    view = m.view(p)
    assert view.deal is not None
    claim = next(a for a in m.legal_actions() if isinstance(a, Declare))
    label = claim_label(view.deal.hand, claim, m.rules)
    assert label.split(": ")[1].split() == sorted(
        label.split(": ")[1].split(), key=lambda c: label.index(c))
    assert all(str(c) in label for c in claim.cards)
    assert class_word(claim.cls, m.rules) in ("point", "ruff", "sequence", "set")


def test_a_36_card_pip_counter_calls_the_point_the_ruff() -> None:
    from piquet.core.declarations import DeclClass

    assert class_word(DeclClass.POINT, PRESETS["cotgrave-1662"]) == "ruff"
    assert class_word(DeclClass.POINT, PRESETS["rubicon"]) == "point"
