"""One rules summary read from the knobs (issue 34): the browser and the terminal say the
same, and a house rule that changes a value is described as it plays."""

from __future__ import annotations

import pytest

from piquet.core.rules import PRESETS, Format
from piquet.table.summary import format_label, rules_summary


def text(rules: object, **kw: object) -> str:
    return " ".join(rules_summary(rules, **kw))  # type: ignore[arg-type]


def test_du_coeur_says_its_last_trick_scores_two_when_won_with_a_ten() -> None:
    r = PRESETS["du-coeur-1995"]
    assert r.last_trick_tenth_bonus == 2 and r.last_trick_bonus == 1
    assert "Last trick: 1 extra (2 if won with a ten or higher)" in text(r)
    assert "if won with a ten" not in text(PRESETS["rubicon"])


def test_a_house_rule_that_changes_the_values_is_described_rightly() -> None:
    house = PRESETS["rubicon"].replace(
        sequence_values=(2, 5, 12), trio_value=4, quatorze_value=20, cards_bonus=7,
        capot_bonus=30, last_trick_bonus=2, last_trick_tenth_bonus=2, blanche_value=12,
        repique_bonus=50, pique_bonus=20, pique_threshold=25)
    said = text(house)
    assert "tierce 2, quart 5, quint 12 and longer" in said
    assert "tierce 3" not in said and "quint 15" not in said
    assert "sets of three (4) or four (quatorze, 20)" in said
    assert "(the cards): 7; all twelve (capot): 30" in said and "Last trick: 2 extra" in said
    assert "scores 12" in said and "+50" in said and "+20" in said and "25 " in said
    assert "house rules" in text(house, cited=True)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_figure_comes_from_the_knobs(name: str) -> None:
    r = PRESETS[name]
    said = text(r)
    for v in (r.trio_value, r.quatorze_value, r.cards_bonus, r.capot_bonus,
              r.repique_bonus, r.pique_bonus, r.elder_max, r.stock_size):
        assert str(v) in said
    for n, v in zip(("tierce", "quart", "quint"), r.sequence_values, strict=False):
        assert f"{n} {v}" in said
    for f in r.formats:
        assert format_label(r, f) in said
    cited = rules_summary(r, cited=True)
    assert cited[0].startswith(f"Rule set {r.name}:") and cited[-1].endswith(f"rules {name}")


def test_a_summary_for_one_format_names_that_format_only() -> None:
    r = PRESETS["rubicon"]
    assert "This game: a Rubicon partie of 6 deals." in rules_summary(r, Format.PARTIE)
