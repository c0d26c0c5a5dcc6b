"""The coach of a guided first deal: it says what the decision is and what it would do, names
no card its seat cannot see, explains each term once, points out what the rule set does its
own way, and says what a weak choice cost."""

from __future__ import annotations

import re

import pytest

from piquet.core.cards import CardSet
from piquet.core.deal import Phase
from piquet.core.match import MatchView, new_match
from piquet.core.rules import PRESETS
from piquet.core.view import visible_mask
from piquet.learn.coach import Coach, Note, advise, particulars
from piquet.players import make_player
from test_web_kit import HINT_NODES

CARD = re.compile(r"\b(?:[AKQJT]|10|[6-9])[SHDC]\b")


def _before(coach: Coach, view: MatchView) -> Note:
    """The coach's note, its exchange's advice on the server kit's search budget
    (:data:`test_web_kit.HINT_NODES`, as the tests' servers give the coach): these tests
    read what the notes say and name, not the advisor's figures."""
    return coach.before(view, advise(view, coach.level, nodes=HINT_NODES))


@pytest.mark.parametrize(("preset", "seed"), [("court-gamester-1754", 3)])
def test_a_guided_deal_names_only_what_the_seat_may_see(preset: str, seed: int) -> None:
    m = new_match(preset, seed=seed)
    coach = Coach(seed=1)
    book = make_player("book", seed=2)
    first = m.to_act
    assert first is not None
    # the guided seat is elder (the dealer's opponent): the dealer acts first
    me = 1 - first if m.deal is not None and m.deal.phase is Phase.DEAL else int(first)
    explained: list[str] = []
    notes = 0
    while not m.deals and notes < 8:
        p = m.to_act
        assert p is not None
        view = m.view(p)
        if p == me:
            note = _before(coach, view)
            assert note.title and note.sentences
            deal = m.deal
            assert deal is not None
            seen = visible_mask(deal, deal.to_act or 0)
            for text in (*note.sentences, note.title):
                for card in CARD.findall(text):
                    assert CardSet.parse(card).mask & ~seen == 0, (card, text)
            explained += [t.key for t in note.terms]
            action = note.action or view.legal_actions[0]
            notes += 1
        else:
            action = book.choose(view)
        m = m.apply(action, p)
    assert notes >= 5
    assert len(explained) == len(set(explained)), "a term is explained once"
    assert {"elder", "younger"} & set(explained)


def test_a_weak_choice_is_said_to_cost_and_the_coachs_own_costs_nothing() -> None:
    m = new_match("rubicon", seed=5)
    book = make_player("book", seed=2)
    coach = Coach(seed=3)
    costs: list[float] = []
    while not m.deals:
        p = m.to_act
        assert p is not None
        view = m.view(p)
        deal = view.deal
        assert deal is not None
        if deal.phase is Phase.PLAY and len(deal.legal_actions) >= 3 and len(deal.tricks) >= 2:
            note = coach.before(view)
            assert note.action is not None
            same = coach.after(view, note.action, note.action)
            assert same.cost == 0.0 and "the coach's choice too" in same.sentences[0]
            for other in deal.legal_actions:
                if other != note.action:
                    said = coach.after(view, other, note.action)
                    assert said.cost is not None
                    costs.append(said.cost)
                    if said.cost > 0:
                        assert "was better: about" in said.sentences[0]
            if any(c > 0 for c in costs):
                break
        m = m.apply(book.choose(view), p)
    assert any(c > 0 for c in costs)


def test_what_a_rule_set_does_its_own_way_is_said_once() -> None:
    from piquet.core.rules import get_rules

    said = particulars(get_rules("encyclopedia-19c"), Phase.DECLARE)
    assert any("before younger declares" in s for s in said)
    assert any("by pips" in s for s in particulars(get_rules("cotgrave-1662"), Phase.DECLARE))
    assert any("across suits" in s for s in particulars(get_rules("du-coeur-1995"),
                                                         Phase.DECLARE))
    assert any("naming the card" in s for s in particulars(get_rules("court-gamester-1754"),
                                                           Phase.LEFTOVERS))
    m = new_match("encyclopedia-19c", seed=2)
    coach = Coach()
    told = 0
    book = make_player("book", seed=1)
    while not m.deals:
        p = m.to_act
        assert p is not None
        view = m.view(p)
        if view.deal is not None and view.deal.phase is Phase.DECLARE:
            note = coach.before(view)
            told += sum("before younger declares" in s for s in note.sentences)
        m = m.apply(book.choose(view), p)
    assert told == 1


def test_not_your_turn() -> None:
    m = new_match("rubicon", seed=1)
    p = m.to_act
    assert p is not None
    note = Coach().before(m.view(1 - p))
    assert note.title == "Waiting" and note.action is None


@pytest.mark.slow  # a whole deal of notes a rule set: about ten CPU-seconds each
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_whole_guided_deal_under_each_rule_set(preset: str) -> None:
    """Issue 35: the guided first deal for each rule set, with what is particular to it
    pointed out.  The whole of deal 1 played by the coach's own choices for the guided
    seat (the book the other): a note at every decision, each from the seat's view, each
    term explained once, and every particular of the rule set for a moment met said once."""
    from piquet.learn.coach import particulars as own_ways

    m = new_match(preset, seed=4)
    rules = m.rules
    coach = Coach(seed=1)
    book = make_player("book", seed=2)
    first = m.to_act
    assert first is not None
    me = 1 - first if m.deal is not None and m.deal.phase is Phase.DEAL else int(first)
    said: list[str] = []
    explained: list[str] = []
    phases: set[Phase] = set()
    notes = 0
    while not m.deals and not m.finished:
        p = m.to_act
        assert p is not None
        view = m.view(p)
        if p == me:
            note = _before(coach, view)
            deal = m.deal
            assert deal is not None and view.deal is not None
            assert note.sentences[0].startswith("You are "), note.sentences
            phases.add(view.deal.phase)
            seen = visible_mask(deal, deal.to_act or 0)
            for text in (*note.sentences, note.title):
                for card in CARD.findall(text):
                    assert CardSet.parse(card).mask & ~seen == 0, (card, text)
            said += note.sentences
            explained += [t.key for t in note.terms]
            action = note.action or view.legal_actions[0]
            assert coach.after(view, action, note.action).cost == 0.0
            notes += 1
        else:
            action = book.choose(view)
        m = m.apply(action, p)
    assert m.deals, "the deal was played to its end"
    assert notes >= 12  # the exchange, the declarations and twelve tricks' cards at least
    assert {Phase.EXCHANGE, Phase.PLAY} <= phases
    assert len(explained) == len(set(explained)), "a term is explained once"
    want = [s for phase in sorted(phases, key=lambda x: x.value) for s in own_ways(rules, phase)]
    assert want, "something is particular to every rule set (the exchange's numbers)"
    for point in want:
        assert said.count(point) == 1, (preset, point)
