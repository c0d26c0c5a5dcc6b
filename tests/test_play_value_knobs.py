"""A new knob of the play's scoring, shown end to end (issue 34): the points a scoring lead
and a scoring win count are fields of ``Rules`` (``lead_value``, ``win_value``), and a house
rule that changes them is followed by the engine, by the compiled kernel (the same events as
the engine, deal for deal), by the rules summary and by ``max_deal_points``, and is drawn by
the differential test's ``random_house_rules``.  Records of the rules as they were before the
knobs existed are written byte for byte as before."""

from __future__ import annotations

import random

import pytest

from piquet.core.match import Match, new_match
from piquet.core.rules import PRESETS, PlayScoring, Rules, RulesError
from piquet.core.scoring import Kind
from piquet.fast.check import COMPILED, differ, random_case, random_house_rules
from piquet.fast.engine import play_deal
from piquet.fast.params import SLOT, compile_rules
from piquet.integrations.actions import max_deal_points
from piquet.table.summary import rules_summary

HOUSE = PRESETS["rubicon"].replace(name="two-a-trick", lead_value=3, win_value=2)
"""Rubicon, but a lead counts 3 and winning a trick the other led 2."""


def _kernel_events(rules: Rules, seed: int) -> tuple[tuple[int, Kind, int], ...]:
    deck, _, _ = random_case(rules, random.Random(seed))
    return play_deal(rules, deck, policy="random", seed=seed).events


@pytest.mark.parametrize("scoring", list(PlayScoring))
def test_the_engine_and_the_kernel_count_the_house_values(scoring: PlayScoring) -> None:
    rules = HOUSE.replace(play_scoring=scoring)
    rng = random.Random(f"play values {scoring.value}")
    seen: set[tuple[Kind, int]] = set()
    for i in range(40):
        deck, start, target = random_case(rules, rng)
        for policy in ("random", "book"):
            msg = differ(rules, deck, start=start, target=target, policy=policy, seed=i)
            assert msg is None, f"deal {i} ({policy}): {msg}"
        seen |= {(k, p) for _, k, p in _kernel_events(rules, i) if k in (Kind.LEAD, Kind.TRICK)}
    if scoring is PlayScoring.WINNER_TENTHS:
        assert seen <= {(Kind.TRICK, 2), (Kind.TRICK, 4)} and (Kind.TRICK, 4) in seen
    else:
        assert seen == {(Kind.LEAD, 3), (Kind.TRICK, 2)}


def test_a_trick_value_of_nothing_counts_nothing() -> None:
    rules = HOUSE.replace(lead_value=0, win_value=0)
    for i in range(20):
        deck, start, target = random_case(rules, random.Random(i))
        assert differ(rules, deck, start=start, target=target, seed=i) is None
        assert not any(k in (Kind.LEAD, Kind.TRICK) for _, k, _ in _kernel_events(rules, i))


def test_the_parameter_vector_carries_the_values() -> None:
    p = compile_rules(HOUSE)
    assert (p[SLOT["LEAD_VALUE"]], p[SLOT["WIN_VALUE"]]) == (3, 2)
    assert {"lead_value", "win_value"} <= set(COMPILED)


def test_the_summary_says_the_house_values() -> None:
    said = " ".join(rules_summary(HOUSE))
    assert "each lead scores 3, and winning a trick the other led scores 2" in said
    tenths = " ".join(rules_summary(HOUSE.replace(play_scoring=PlayScoring.TENTH_CARDS)))
    assert "3 for leading a ten or higher, 2 for winning a trick with one" in tenths


def test_max_deal_points_follows_the_trick_values() -> None:
    base = PRESETS["rubicon"]
    assert max_deal_points(HOUSE) - max_deal_points(base) == 12 * ((3 + 2) - (1 + 1))
    tenths = base.replace(play_scoring=PlayScoring.WINNER_TENTHS)
    assert max_deal_points(tenths.replace(win_value=5)) - max_deal_points(tenths) == 12 * 8


def test_random_house_rules_draw_the_trick_values() -> None:
    rng = random.Random("draw the play values")
    drawn = [random_house_rules(rng, PRESETS["rubicon"]) for _ in range(100)]
    assert len({r.lead_value for r in drawn}) > 2 and len({r.win_value for r in drawn}) > 2


def test_a_negative_trick_value_is_refused_naming_the_knob() -> None:
    with pytest.raises(RulesError, match="win_value"):
        HOUSE.replace(win_value=-1)


def test_records_keep_their_bytes_and_carry_a_changed_value() -> None:
    before = PRESETS["rubicon"].replace(name="house", target=150)
    assert "lead_value" not in before.knobs_json() and "win_value" not in before.knobs_json()
    knobs = HOUSE.knobs_json()
    assert (knobs["lead_value"], knobs["win_value"]) == (3, 2)
    match = new_match(HOUSE, seed=5, format="game")
    rng = random.Random(5)
    for _ in range(60):
        match = match.apply(match.random_action(rng))
    again = Match.from_record(match.to_record())
    assert again.rules == HOUSE and again.to_record() == match.to_record()
