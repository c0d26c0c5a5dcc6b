"""Issue 12: "a house rule set renamed from a preset gets no hint and may be advised under
the wrong knobs: the advisor, the hint and every cache must key on the Rules value, never its
name or id()"."""

from __future__ import annotations

import random

from piquet.core import words
from piquet.core.declarations import DeclClass, claims
from piquet.core.match import Match, new_match
from piquet.core.notation import dump_text, loads
from piquet.core.roles import ELDER
from piquet.core.rules import PRESETS, Rules
from piquet.fast.solver import DIFF
from piquet.players.search import SearchPlayer
from piquet.table.summary import rules_summary
from piquet.tui.session import advisor_hint

RUBICON = PRESETS["rubicon"]


def _at_exchange(rules: Rules, seed: int) -> Match:
    m = new_match(rules, seed=seed)
    rng = random.Random(1)
    while m.deal is None or m.deal.phase.value != "exchange":
        m = m.apply(m.random_action(rng), m.to_act)
    return m


def test_a_house_rule_set_renamed_from_a_preset_gets_a_hint() -> None:
    m = _at_exchange(RUBICON.replace(name="ours"), 1)
    said = advisor_hint(m.view(m.to_act or 0))
    assert said.startswith("Discard ") and ":" in said, said


def test_a_house_rule_set_named_as_a_preset_is_advised_under_its_own_knobs() -> None:
    """Under rubicon the advice for this deal is a discard of five; the house rules keep the
    name "rubicon" but let elder exchange at most three: the hint follows the house knobs."""
    m = _at_exchange(RUBICON, 1)
    assert len(advisor_hint(m.view(m.to_act or 0)).split(":")[0].split()) == 6  # Discard + 5
    house = _at_exchange(RUBICON.replace(elder_max=3), 1)
    said = advisor_hint(house.view(house.to_act or 0))
    assert len(said.split(":")[0].split()) == 4 and ":" in said, said  # Discard + 3, with why


def test_the_words_of_a_claim_are_cached_by_the_rules_value_not_its_id() -> None:
    # the sampler reads facts, not words; the words of a claim are cached in piquet.core.words,
    # keyed on the values of the knobs that decide them
    claim = claims(0b111111, DeclClass.SEQUENCE, RUBICON)[0]
    words._DECLARED.clear()  # other tests in this process may have filled it (or emptied it)
    said = words.declared(ELDER, claim, RUBICON)
    twin = RUBICON.replace()  # an equal rule set, another object (another id)
    assert twin is not RUBICON and twin == RUBICON
    assert words.declared(ELDER, claim, twin) is said
    assert len(words._DECLARED) == 1
    ruff = RUBICON.replace(deck_size=36)  # same name, other knobs: its own entry
    words.declared(ELDER, claim, ruff)
    assert len(words._DECLARED) == 2


def test_the_search_players_solvers_are_kept_per_rules_value_not_per_name() -> None:
    player = SearchPlayer(seed=1, think_ms=20, level="club")
    house = RUBICON.replace(deck_size=36)  # still called "rubicon"
    a = player._solver(RUBICON, DIFF, 0)
    b = player._solver(house, DIFF, 0)
    assert a.rules == RUBICON and b.rules == house and a is not b
    assert player._solver(RUBICON.replace(), DIFF, 0) is a


def test_the_rules_summary_knows_a_preset_by_its_value_not_its_name() -> None:
    assert "Parlett" in rules_summary(RUBICON, cited=True)[0]
    assert "the rules of rubicon" in rules_summary(RUBICON.replace(name="ours"), cited=True)[0]
    house = rules_summary(RUBICON.replace(target=150), cited=True)
    assert "Parlett" not in house[0] and "house rules" in house[0]
    assert "piquet rules rubicon" not in house[-1]


def test_a_record_of_house_rules_named_as_a_preset_keeps_their_knobs() -> None:
    house = RUBICON.replace(target=150)
    m = new_match(house, seed=3)
    rec = loads(dump_text(m))
    assert rec.match.rules == house and rec.match.rules != RUBICON
    assert isinstance(m.to_record()["rules"], dict)


def test_equal_rule_sets_hash_alike_and_unequal_ones_stay_apart() -> None:
    assert hash(RUBICON.replace()) == hash(RUBICON)
    table = {RUBICON: "parlett"}
    assert table.get(RUBICON.replace()) == "parlett"
    assert table.get(RUBICON.replace(younger_min=0)) is None  # a knob outside the hash
