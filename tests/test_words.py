"""The words of the dialog come from facts in one module (``piquet.core.words``).

A narration is told to a reader ("You exchange 3", "Anne exchanges 3") and said aloud by
the player ("I take three.") from the fact itself: no screen rewrites a sentence, and no
script (Python or the browser's) reads one back.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from piquet.core.cards import Card, CardSet, NamedLead, Suit, pack
from piquet.core.dealtypes import Utterance
from piquet.core.declarations import DeclClass, claims
from piquet.core.facts import (
    BlancheShown,
    Declared,
    Exchanged,
    Fact,
    HoldingShown,
    LaidOut,
    LeadAppointed,
    LeadLacked,
    LeadNamed,
    LeftoversChoice,
    LeftoverWay,
    MissingAsked,
    statement_of,
)
from piquet.core.roles import Role
from piquet.core.rules import PRESETS, Rules
from piquet.core.words import aloud, declared, narrated, sentence, utterance

E, Y = Role.ELDER, Role.YOUNGER
QH = Card.parse("QH").index
NAMES = ("Anne", "Bob")
HEARTS = int(Suit.HEARTS)
LEAD_QH = NamedLead(card=Card.parse("QH"))
LEAD_HEARTS = NamedLead(suit=Suit.HEARTS)
THREE = CardSet.parse("7S 8S 9S").mask


@pytest.mark.parametrize(
    ("fact", "line"),
    [
        (Exchanged(E, 3), "elder exchanges 3"),
        (LaidOut(Y, 2), "younger discards 2"),
        (
            LeftoversChoice(E, LeftoverWay.ELDER_DECLINES),
            "elder leaves younger's leftovers unseen",
        ),
        (LeftoversChoice(Y, LeftoverWay.TURNED_UP, THREE), "younger turns up the 3 cards he left"),
        (LeftoversChoice(Y, LeftoverWay.TURNED_UP, 0b1), "younger turns up the 1 card he left"),
        (LeftoversChoice(Y, LeftoverWay.FACE_DOWN), "younger leaves the stock face down"),
        (LeftoversChoice(Y, LeftoverWay.LOOKED), "younger looks at the cards he left"),
        (LeftoversChoice(Y, LeftoverWay.UNSEEN), "younger leaves the stock unseen"),
        (LeadNamed(E, LEAD_QH), "elder will lead QH, and sees the stock"),
        (LeadNamed(E, LEAD_HEARTS), "elder will lead hearts, and sees the stock"),
        (LeadLacked(E, LEAD_QH), "elder holds no QH: younger appoints the lead"),
        (LeadAppointed(Y, LEAD_HEARTS), "younger appoints hearts"),
    ],
)
def test_the_dialog_line_of_a_narration_is_unchanged(fact: Fact, line: str) -> None:
    # the records hold these sentences: they stay byte for byte what they were
    assert sentence(fact, Rules()) == line == narrated(fact)


@pytest.mark.parametrize(
    ("fact", "reader", "told"),
    [
        (Exchanged(E, 3), E, "You exchange 3"),
        (Exchanged(E, 3), Y, "Anne exchanges 3"),
        (Exchanged(E, 3), None, "Anne exchanges 3"),
        (LaidOut(Y, 2), Y, "You discard 2"),
        (LeadNamed(E, LEAD_QH), E, "You will lead QH, and see the stock"),
        (LeadNamed(E, LEAD_QH), Y, "Anne will lead QH, and sees the stock"),
        (LeadLacked(E, LEAD_QH), Y, "Anne holds no QH: you appoint the lead"),
        (LeadLacked(E, LEAD_QH), E, "You hold no QH: Bob appoints the lead"),
        (LeftoversChoice(Y, LeftoverWay.TURNED_UP, THREE), Y, "You turn up the 3 cards you left"),
        (LeftoversChoice(Y, LeftoverWay.TURNED_UP, THREE), E, "Bob turns up the 3 cards he left"),
        (LeftoversChoice(Y, LeftoverWay.LOOKED), Y, "You look at the cards you left"),
        (BlancheShown(Y, THREE), Y, "You show carte blanche"),
        (HoldingShown(E, DeclClass.SEQUENCE, THREE), Y, "Anne shows 9S 8S 7S"),
        (HoldingShown(E, DeclClass.SEQUENCE, THREE), E, "You show 9S 8S 7S"),
    ],
)
def test_a_narration_is_told_to_its_reader_from_the_fact(
    fact: Fact, reader: Role | None, told: str
) -> None:
    assert narrated(fact, reader, NAMES) == told


@pytest.mark.parametrize(
    ("fact", "said"),
    [
        (Exchanged(E, 0), "I take none."),
        (Exchanged(Y, 3), "I take three."),
        (LeadNamed(E, LEAD_QH), "I shall lead the queen of hearts: show me the cards you left."),
        (LeadNamed(E, LEAD_HEARTS), "I shall lead hearts: show me the cards you left."),
        (LeftoversChoice(Y, LeftoverWay.UNSEEN), "I leave them unseen."),
        (LeftoversChoice(Y, LeftoverWay.LOOKED), "I look at the cards I left."),
        # every way with the leftovers in the first person (elder's said "elder leaves ...")
        (LeftoversChoice(E, LeftoverWay.ELDER_DECLINES), "I leave your leftovers unseen."),
        (LeftoversChoice(Y, LeftoverWay.TURNED_UP, 0b111), "I turn up the three cards I left."),
        (LeftoversChoice(Y, LeftoverWay.TURNED_UP, 0b1), "I turn up the one card I left."),
        (LeftoversChoice(Y, LeftoverWay.FACE_DOWN), "I leave the stock face down."),
        (LaidOut(Y, 2), "younger discards 2"),
        # appointing a lead in words, not "elder holds no 8S: younger appoints the lead"
        (LeadLacked(E, LEAD_QH), "I hold no queen of hearts: appoint my lead."),
        (LeadLacked(E, LEAD_HEARTS), "I hold no hearts: appoint my lead."),
        (LeadAppointed(Y, LEAD_QH), "Lead the queen of hearts."),
        (LeadAppointed(Y, LEAD_HEARTS), "Lead hearts."),
        # the question that the answer ("I laid out none of the aces.") answers
        (MissingAsked(Y), "Which one did you lay out?"),
    ],
)
def test_what_a_player_says_aloud_comes_from_the_fact(fact: Fact, said: str) -> None:
    line: Utterance = utterance(fact, Rules())
    assert aloud(line) == said


_SENTENCE_PARSING = re.compile(
    r"(exchanges|will lead|sees the stock|laid out|none of the|appoints the lead)"
)


_READING = re.compile(r"startswith\(|endswith\(|\.match\(|\.test\(|\.search\(|re\.compile")


def test_no_script_outside_the_words_module_holds_the_sentences_it_used_to_parse() -> None:
    """Only ``core/words.py`` may hold these phrases in code (docstrings and comments aside):
    the terminal, the browser's scripts, the sampler and the adapters read facts."""
    root = Path(__file__).resolve().parents[1] / "src" / "piquet"
    offenders = []
    for path in [*root.rglob("*.py"), *root.rglob("*.js")]:
        if path.name == "words.py":
            continue
        for n, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = text.split("#", 1)[0] if path.suffix == ".py" else text.split("//", 1)[0]
            if _SENTENCE_PARSING.search(code) and _READING.search(code):
                offenders.append(f"{path.relative_to(root)}:{n}: {text.strip()}")
    assert not offenders, "\n".join(offenders)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_cached_declaration_line_is_the_line_its_fact_makes(preset: str) -> None:
    # words.declared keeps each line by what the words can depend on (the engine's speed);
    # over many random hands, every claim's cached line must be the one made afresh
    rules = PRESETS[preset]
    rng = random.Random(preset)
    cards = pack(rules)
    for _ in range(400):
        hand = sum(1 << c for c in rng.sample(cards, 12))
        for cls in DeclClass:
            for claim in claims(hand, cls, rules):
                for full in (True, False):
                    for role in Role:
                        fact = Declared(role, statement_of(claim, rules, full=full))
                        fresh = Utterance(role, cls, sentence(fact, rules), 0, fact)
                        assert declared(role, claim, rules, full=full) == fresh, claim
