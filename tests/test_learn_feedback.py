"""Feedback words: each class said with why it was won, a declaration's count as the sum it
is, the end-of-deal summary under every rule set, a review with the biggest mistakes first."""

from __future__ import annotations

import random
import re

import pytest

from piquet.core.actions import Reply
from piquet.core.declarations import DeclClass
from piquet.core.facts import Declared, FurtherHeld, Passed, Replied, Statement
from piquet.core.match import new_match
from piquet.core.roles import Role
from piquet.core.rules import PRESETS, get_rules
from piquet.core.scoring import Event, Kind
from piquet.core.words import statement_words, utterance
from piquet.learn.feedback import class_results, deal_summary, declaration_sums, review_lines

E, Y = Role.ELDER, Role.YOUNGER
SEQ = DeclClass.SEQUENCE


def test_your_quint_beats_his_quart() -> None:
    r = get_rules("rubicon")
    quart, quint = Statement(SEQ, size=4, rank=14), Statement(SEQ, size=5, rank=13)
    dialog = [utterance(f, r) for f in (
        Declared(E, quart),
        Replied(Y, SEQ, Reply.NOT_GOOD),
        Declared(Y, quint),
    )]
    # (the claims' own words, however words.py says them: "quint to the king", ...)
    quart_words, quint_words = statement_words(quart, r), statement_words(quint, r)
    assert quint_words.startswith("quint to the king") and quart_words.startswith("quart major")
    [res] = class_results(dialog, r, reader=Y, names=("Anne", "Bob"))
    assert res.winner == Y
    assert res.text == (f"Your {quint_words} beats Anne's {quart_words} (longer): you won the "
                        "sequences.")
    [res] = class_results(dialog, r, reader=E, names=("Anne", "Bob"))
    assert res.text.startswith(f"Bob's {quint_words} beats your {quart_words}")


def test_a_class_nobody_declared_and_one_declared_alone() -> None:
    r = get_rules("rubicon")
    dialog = [utterance(f, r) for f in (
        Passed(E, DeclClass.SET),
        Declared(Y, Statement(DeclClass.SET, size=3, rank=13)),
    )]
    [res] = class_results(dialog, r, reader=Y)
    assert res.text == "Elder declared no set, so your three kings won the sets alone."


def test_du_coeurs_sequences_read_as_the_sum_counted() -> None:
    """"Neuvième major. And sixième…, quint major." read as 50 points when 31 are counted:
    the split of the hand into runs counted 16 + 15, the neuvième only decided the class."""
    r = get_rules("du-coeur-1995")
    dialog = [utterance(f, r) for f in (
        Declared(E, Statement(SEQ, size=9, rank=14)),
        Replied(Y, SEQ, Reply.GOOD),
        FurtherHeld(E, SEQ, (Statement(SEQ, size=6, rank=13), Statement(SEQ, size=5, rank=14))),
    )]
    assert [u.text for u in dialog] == [
        "Neuvième major.", "Good.", "And sixième to the king, quint major."]
    events = [Event(E, Kind.SEQUENCES, 31)]
    [line] = declaration_sums(dialog, events, r, reader=E)
    assert line.startswith("You counted 31 for the sequences: sixième to the king 16 + quint "
                           "major 15 = 31. The neuvième major won the class")
    assert "50" not in line


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_summary_adds_up_to_the_deals_count(preset: str) -> None:
    """Over random deals, the summary's sums of the declarations are the points counted."""
    for seed in range(6):
        m = new_match(preset, seed=seed)
        rng = random.Random(seed)
        while not m.deals and not m.finished:
            m = m.apply(m.random_action(rng))
        d = m.last_deal
        assert d is not None
        lines = deal_summary(d.dialog, d.events, m.rules, reader=E, names=("Anne", "Bob"))
        for kind, cls in ((Kind.POINT, "the point"), (Kind.SEQUENCES, "the sequences"),
                          (Kind.SETS, "the sets")):
            points = sum(e.points for e in d.events if e.kind is kind)
            said = [ln for ln in lines if f" for {cls}" in ln and "counted" in ln]
            if points:
                assert said and f"counted {points} for {cls}" in said[0], (lines, d.events)
                sums = re.findall(r"= (\d+)", said[0])
                assert not sums or int(sums[0]) == points, said[0]
            else:
                assert not said


def test_the_review_says_the_biggest_mistakes_first() -> None:
    reviews = [{
        "number": 2,
        "exchange": [{"player": 0, "made": ["7S", "8S"], "best": ["9H", "8H"], "loss": 1.2}],
        "declarations": [{"player": 1, "class": "point", "made": "Good",
                          "expert": "Not good", "loss": 5}],
        "play": [{"player": 0, "trick": 7, "card": "9H", "best": ["KH"], "drop": 3},
                 {"player": 0, "trick": 9, "card": "7C", "best": ["8C"], "drop": 0}],
    }]
    lines = review_lines(reviews, names=["Anne", "Bob"])
    assert lines[0] == ("Deal 2, the declarations (point): Bob chose “Good”; “Not good” was "
                        "better, by 5 points of this deal.")
    assert lines[1].startswith("Deal 2, trick 7: Anne played 9H; KH would have kept 3 more")
    assert lines[2].startswith("Deal 2, the exchange: Anne laid out 7S 8S;")
    assert len(lines) == 3
    mine = review_lines(reviews, player=0, names=["Anne", "Bob"])
    assert all("you" in ln for ln in mine) and len(mine) == 2
    assert review_lines([{"number": 1}]) == [
        "No choice in this game cost more than half a point of a deal: well played."]
