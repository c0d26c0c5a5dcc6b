"""The words of the dialog: the one place a fact (:mod:`piquet.core.facts`) becomes a sentence.

The deal builds each line of its dialog here (:func:`utterance`): the fact, and the
sentence a person reads, in the rule set's words ("Point of five, making 48.",
"ruff of 51", "quint major").  Nothing reads a sentence back: code that needs to know
what was said reads the fact.  Rewording a sentence here changes the records and the
screens, never what a player believes.

What is said aloud names no suit: a point by its count, a sequence by its length and top
card, a set by its rank (:func:`claim_words`).  A player's own claim, named for him beside
his cards, may say its suit to tell two of his claims apart (:func:`claim_name`, "quart to
the king in hearts"): those words are his alone, never a line of the dialog.

:func:`voice` tells how a line is told: spoken words (quoted in a record), a deed
("shows AH KH QH"), or a narration that names its subject ("elder exchanges 5").
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Sequence
from typing import Any, Final

from piquet.core.actions import Reply
from piquet.core.cards import Card, CardSet, NamedLead, Rank, Suit
from piquet.core.dealtypes import ROLE_NAMES, Utterance
from piquet.core.declarations import Claim, DeclClass
from piquet.core.facts import (
    BlancheCalled,
    BlancheDiscards,
    BlancheShown,
    Declared,
    Exchanged,
    Fact,
    FurtherHeld,
    HoldingShown,
    LaidOut,
    LeadAppointed,
    LeadLacked,
    LeadNamed,
    LeftoversChoice,
    LeftoverWay,
    MissingAsked,
    MissingTold,
    Passed,
    PipsTold,
    Replied,
    Statement,
    said_shape,
    statement_of,
)
from piquet.core.roles import Role
from piquet.core.rules import PointMeasure, Rules

__all__ = [
    "SEQUENCE_NAMES",
    "Voice",
    "aloud",
    "capitalized",
    "claim_name",
    "claim_words",
    "declared",
    "exchanged",
    "further_held",
    "holding_shown",
    "leftovers",
    "narrated",
    "number_words",
    "passed",
    "replied",
    "sentence",
    "statement_words",
    "utterance",
    "voice",
]

_ONES: Final = (
    "", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen",
)
_TENS: Final = (
    "", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"
)


def number_words(n: int) -> str:
    """A number as the dialog says it ("forty-nine"); 0 is "nothing", 100 and over in figures."""
    if n < 20:
        return _ONES[n] or "nothing"
    if n >= 100:
        return str(n)
    tens, ones = divmod(n, 10)
    return _TENS[tens] + ("-" + _ONES[ones] if ones else "")


def capitalized(text: str) -> str:
    return text[:1].upper() + text[1:]


_CARD_COUNT: Final = (
    "none", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve",
)
SEQUENCE_NAMES: Final = {
    3: "tierce",
    4: "quart",
    5: "quint",
    6: "sixième",
    7: "septième",
    8: "huitième",
    9: "neuvième",
}
"""A sequence's name by its length, three to nine cards (tierce .. neuvième)."""


def statement_words(said: Statement, rules: Rules) -> str:
    """A claim as announced ("point of five, making 48", "quart to the king", "three
    aces"): never a suit."""
    cls = said.cls
    if cls is DeclClass.POINT:
        if not said.size:
            word = "ruff" if rules.deck_size == 36 else "point"
            return f"{word} of {said.pips}"
        first = f"point of {_CARD_COUNT[said.size]}"
        return f"{first}, making {said.pips}" if said.pips else first
    if cls is DeclClass.SEQUENCE:
        name = SEQUENCE_NAMES[min(said.size, 9)]
        if said.rank == Rank.ACE:
            return f"{name} major"
        return f"{name} to the {Rank(said.rank).name_singular}"
    plural = Rank(said.rank).name_plural
    return f"quatorze of {plural}" if said.size == 4 else f"three {plural}"


_CLAIM_WORDS: dict[int, str] = {}


def claim_words(claim: Claim, rules: Rules, *, full: bool = True) -> str:
    """How a player announces ``claim`` aloud ("quart to the king"): what the other hears."""
    key = said_shape(claim) << 4 | _knobs(rules, full)
    found = _CLAIM_WORDS.get(key)
    if found is None:
        if len(_CLAIM_WORDS) > 16_384:
            _CLAIM_WORDS.clear()
        found = _CLAIM_WORDS[key] = statement_words(statement_of(claim, rules, full=full), rules)
    return found


_CLAIM_NAMES: dict[int, str] = {}


def claim_name(claim: Claim, rules: Rules, *, full: bool = True) -> str:
    """``claim`` named for one who sees its cards: the words said aloud, and for a sequence
    in one suit its suit ("quart to the king in hearts"), to tell a player's own claims
    apart (see :func:`piquet.core.declarations.statement`).  Never a line of the dialog."""
    said = claim_words(claim, rules, full=full)
    if claim.cls is not DeclClass.SEQUENCE or not rules.sequences_same_suit:
        return said
    suit = (claim.cards.bit_length() - 1) // 9
    key = (said_shape(claim) << 4 | _knobs(rules, full)) << 2 | suit
    found = _CLAIM_NAMES.get(key)
    if found is None:
        if len(_CLAIM_NAMES) > 16_384:
            _CLAIM_NAMES.clear()
        found = _CLAIM_NAMES[key] = f"{said} in {Suit(suit).plural}"
    return found


_REPLY_WORDS: Final = {
    Reply.GOOD: "Good.",
    Reply.NOT_GOOD: "Not good.",
    Reply.EQUAL: "Equal.",
    Reply.MAKING: "Making?",
}


def _cards(mask: int) -> str:
    """"1 card", "3 cards": how many cards a mask holds."""
    n = mask.bit_count()
    return f"{n} card{'' if n == 1 else 's'}"


_LEFTOVER_WORDS: Final[dict[LeftoverWay, str]] = {
    LeftoverWay.ELDER_DECLINES: "{elder} {leaves} younger's leftovers unseen",
    LeftoverWay.TURNED_UP: "{younger} {turns} up the {n} {he} left",
    LeftoverWay.FACE_DOWN: "{younger} {leaves} the stock face down",
    LeftoverWay.LOOKED: "{younger} {looks} at the cards {he} left",
    LeftoverWay.UNSEEN: "{younger} {leaves} the stock unseen",
}
"""The leftovers' narrations: ``{elder}``/``{younger}`` name a role, a verb in braces agrees
with the role before it, ``{he}`` is the subject again."""

_NARRATIONS: Final[dict[type, Callable[[Any], str]]] = {
    Exchanged: lambda f: f"{{{ROLE_NAMES[f.role]}}} {{exchanges}} {f.count}",
    LaidOut: lambda f: f"{{{ROLE_NAMES[f.role]}}} {{discards}} {f.count}",
    LeftoversChoice: lambda f: _LEFTOVER_WORDS[f.way].replace("{n}", _cards(f.cards)),
    LeadNamed: lambda f: f"{{elder}} will lead {f.lead.words}, and {{sees}} the stock",
    LeadLacked: lambda f: f"{{elder}} {{holds}} no {f.lead.words}: "
    "{younger} {appoints} the lead",
    LeadAppointed: lambda f: f"{{younger}} {{appoints}} {f.lead.words}",
    BlancheShown: lambda f: f"{{{ROLE_NAMES[f.role]}}} {{shows}} carte blanche",
    HoldingShown: lambda f: f"{{{ROLE_NAMES[f.role]}}} {{shows}} {CardSet(f.cards)}",
}
"""What a narration or a deed tells, with its roles and verbs left to :func:`narrated`."""

_BASE_VERB: Final = {
    "exchanges": "exchange",
    "discards": "discard",
    "leaves": "leave",
    "turns": "turn",
    "looks": "look",
    "sees": "see",
    "holds": "hold",
    "appoints": "appoint",
    "shows": "show",
}
_TEMPLATE_PART: Final = re.compile(r"\{(\w+)\}")


def narrated(
    fact: Fact, reader: int | None = None, names: tuple[str, str] = ROLE_NAMES
) -> str:
    """A narration or a deed (see :func:`voice`) told to ``reader``: his own role is "you"
    (with the verb agreeing), the other's is his name from ``names`` (by role).

    ``narrated(fact)`` (no reader, the roles' names) is the line of the dialog, the
    sentence of a record: "elder exchanges 3".  Raises ``KeyError`` for a spoken fact.
    """
    template = _NARRATIONS[type(fact)](fact)
    you = False  # whether the last role named is the reader

    def part(m: re.Match[str]) -> str:
        nonlocal you
        word = m.group(1)
        if word in ROLE_NAMES:
            role = ROLE_NAMES.index(word)
            you = role == reader
            if you:
                return "You" if m.start() == 0 else "you"
            return names[role]
        if word == "he":
            return "you" if you else "he"
        return _BASE_VERB[word] if you else word

    return _TEMPLATE_PART.sub(part, template)


def aloud(line: Utterance) -> str:
    """What the player says at the table for a line of the dialog, in his own words: a
    narration in the first person ("I take three."; "I shall lead the queen of hearts: show
    me the cards you left."), any other line as the dialog says it."""
    fact = line.fact
    if isinstance(fact, Exchanged):
        return "I take none." if fact.count == 0 else f"I take {number_words(fact.count)}."
    if isinstance(fact, LeadNamed):
        return f"I shall lead {_lead_words(fact.lead)}: show me the cards you left."
    if isinstance(fact, LeadLacked):
        return f"I hold no {_lead_words(fact.lead, article=False)}: appoint my lead."
    if isinstance(fact, LeadAppointed):
        return f"Lead {_lead_words(fact.lead)}."
    if isinstance(fact, MissingAsked):
        # the answer says which card of the set was laid out, or that none was
        return "Which one did you lay out?"
    if isinstance(fact, LeftoversChoice):
        n = fact.cards.bit_count()
        return {
            LeftoverWay.UNSEEN: "I leave them unseen.",
            LeftoverWay.LOOKED: "I look at the cards I left.",
            LeftoverWay.ELDER_DECLINES: "I leave your leftovers unseen.",
            LeftoverWay.TURNED_UP: f"I turn up the {number_words(n)} card{'' if n == 1 else 's'}"
            " I left.",
            LeftoverWay.FACE_DOWN: "I leave the stock face down.",
        }[fact.way]
    return line.text


def _lead_words(lead: NamedLead, *, article: bool = True) -> str:
    """A named or appointed lead in words: "the queen of hearts" (``article``) or "queen
    of hearts", or a suit, "hearts"."""
    c = lead.card
    if c is None:
        return lead.words
    return f"{'the ' if article else ''}{c.rank.name_singular} of {c.suit.plural}"


def _blanche_discards(fact: BlancheDiscards, rules: Rules) -> str:
    word = "one card" if fact.count == 1 else f"{fact.count} cards"
    return f"Carte blanche. I shall discard {word}."


def _missing_told(fact: MissingTold, rules: Rules) -> str:
    if fact.card < 0:
        return f"I laid out none of the {Rank(fact.rank).name_plural}."
    told = Card.from_index(fact.card)
    text = f"The {told.rank.name_singular} of {told.suit.plural}, laid out"
    return text + (": here it is." if fact.shown else ".")


_SENTENCES: Final[dict[type, Callable[[Any, Rules], str]]] = {
    BlancheCalled: lambda f, r: "Carte blanche!",
    BlancheDiscards: _blanche_discards,
    BlancheShown: lambda f, r: "shows carte blanche",
    Exchanged: lambda f, r: narrated(f),
    LaidOut: lambda f, r: narrated(f),
    LeftoversChoice: lambda f, r: narrated(f),
    LeadNamed: lambda f, r: narrated(f),
    LeadLacked: lambda f, r: narrated(f),
    LeadAppointed: lambda f, r: narrated(f),
    Declared: lambda f, r: capitalized(statement_words(f.said, r)) + ".",
    Passed: lambda f, r: f"No {f.cls.label} declared.",
    Replied: lambda f, r: _REPLY_WORDS[f.reply],
    PipsTold: lambda f, r: capitalized(number_words(f.pips)) + ".",
    FurtherHeld: lambda f, r: "And " + ", ".join(statement_words(s, r) for s in f.said) + ".",
    HoldingShown: lambda f, r: f"shows {CardSet(f.cards)}",
    MissingAsked: lambda f, r: "Which one did you lay out?",
    MissingTold: _missing_told,
}
"""The words of each kind of fact."""


def sentence(fact: Fact, rules: Rules) -> str:
    """The words of one fact, as the dialog says them."""
    return _SENTENCES[type(fact)](fact, rules)




_new_tuple: Final = tuple.__new__  # a named tuple without its constructor's Python-level call


def _cls_of(fact: Fact) -> DeclClass | None:
    if isinstance(fact, Declared):
        return fact.said.cls
    if isinstance(fact, (Passed, Replied, PipsTold, FurtherHeld, HoldingShown)):
        return fact.cls
    if isinstance(fact, (MissingAsked, MissingTold)):
        return DeclClass.SET
    return None


def _shown_by(fact: Fact) -> int:
    if isinstance(fact, (BlancheShown, HoldingShown, LeftoversChoice)):
        return fact.cards
    if isinstance(fact, MissingTold) and fact.shown:
        return 1 << fact.card
    return 0


def utterance(fact: Fact, rules: Rules) -> Utterance:
    """The dialog line of ``fact``: its speaker, class, words and the cards it shows."""
    return _new_tuple(
        Utterance,
        (fact.role, _cls_of(fact), _SENTENCES[type(fact)](fact, rules), _shown_by(fact), fact),
    )


_PLAIN: Final = Rules()
"""Rules for the words that depend on none of them."""
_EXCHANGED: Final = {
    (kind, role, n): utterance(kind(role, n), _PLAIN)
    for kind in (Exchanged, LaidOut)
    for role in Role
    for n in range(13)
}


def exchanged(role: Role, count: int, *, takes: bool = True) -> Utterance:
    """``role`` laid out ``count`` cards and took as many (``takes=False``: takes later)."""
    return _EXCHANGED[Exchanged if takes else LaidOut, role, count]


# The lines said most often, ready made (a deal says several; the engine's speed counts).
# (tables indexed by ints: an enum member's hash is a Python-level call)
_PASSED: Final = tuple(
    Utterance(role, cls, f"No {cls.label} declared.", 0, Passed(role, cls))
    for role in Role
    for cls in DeclClass
)
_REPLIES: Final = tuple(Reply)
_REPLIED: Final = tuple(
    Utterance(role, cls, _REPLY_WORDS[reply], 0, Replied(role, cls, reply))
    for role in Role
    for cls in DeclClass
    for reply in _REPLIES
)
_REPLY_INDEX: Final = {reply._value_: i for i, reply in enumerate(_REPLIES)}
"""By the member's value (``.value`` is a Python-level property; the engine's speed counts)."""
_DECLARED: dict[int, Utterance] = {}


def passed(role: Role, cls: DeclClass) -> Utterance:
    """``role`` passes class ``cls``."""
    return _PASSED[role * 3 + cls]


def replied(role: Role, cls: DeclClass, reply: Reply) -> Utterance:
    """``role`` answers ``reply`` in class ``cls``."""
    return _REPLIED[(role * 3 + cls) * 4 + _REPLY_INDEX[reply._value_]]


def _knobs(rules: Rules, full: bool) -> int:
    """The knobs a claim's words depend on, as bits (with ``full``: a point's pips said)."""
    return full << 2 | (rules.deck_size == 36) << 1 | (rules.point_measure is PointMeasure.PIPS)


def declared(role: Role, claim: Claim, rules: Rules, *, full: bool = True) -> Utterance:
    """``role`` announces ``claim`` (``full=False``: the first part of a point by cards)."""
    # keyed by what the words can depend on (many hands say the same), not by the cards
    key = (said_shape(claim) << 4 | _knobs(rules, full)) << 1 | role
    found = _DECLARED.get(key)
    if found is None:
        if len(_DECLARED) > 16_384:
            _DECLARED.clear()
        said = statement_of(claim, rules, full=full)
        fact = Declared(role, said)
        found = _new_tuple(
            Utterance, (role, said.cls, capitalized(statement_words(said, rules)) + ".", 0, fact)
        )
        _DECLARED[key] = found
    return found


_SHOWN: dict[int, Utterance] = {}


def holding_shown(role: Role, cls: DeclClass, cards: int) -> Utterance:
    """``role`` shows the ``cards`` he counts in ``cls`` (cached: a deal shows several)."""
    key = (cards << 2 | cls) << 1 | role
    found = _SHOWN.get(key)
    if found is None:
        if len(_SHOWN) > 16_384:
            _SHOWN.clear()
        fact = HoldingShown(role, cls, cards)
        found = _SHOWN[key] = _new_tuple(
            Utterance, (role, cls, f"shows {CardSet(cards)}", cards, fact)
        )
    return found


_WAYS: Final = tuple(LeftoverWay)
_LEFTOVERS: dict[int, Utterance] = {}


def leftovers(role: Role, way: LeftoverWay, cards: int = 0) -> Utterance:
    """``role`` chose ``way`` for younger's leftovers (``cards``: those turned up)."""
    key = (cards << 3 | _WAYS.index(way)) << 1 | role
    found = _LEFTOVERS.get(key)
    if found is None:
        if len(_LEFTOVERS) > 16_384:
            _LEFTOVERS.clear()
        found = _LEFTOVERS[key] = utterance(LeftoversChoice(role, way, cards), _PLAIN)
    return found


_FURTHER: dict[tuple[int, ...], Utterance] = {}


def further_held(role: Role, cls: DeclClass, extras: Sequence[Claim], rules: Rules) -> Utterance:
    """``role``, who won ``cls``, announces the further holdings ``extras`` he counts."""
    key = (_knobs(rules, True) << 3 | cls << 1 | role, *(h.cards for h in extras))
    found = _FURTHER.get(key)
    if found is None:
        if len(_FURTHER) > 16_384:
            _FURTHER.clear()
        fact = FurtherHeld(role, cls, tuple(statement_of(h, rules) for h in extras))
        found = _FURTHER[key] = utterance(fact, rules)
    return found


class Voice(enum.Enum):
    """How a line is told: words spoken, a deed, or a narration naming its subject."""

    SPEECH = "speech"
    DEED = "deed"
    NARRATION = "narration"


def voice(fact: Fact) -> Voice:
    if isinstance(fact, (BlancheShown, HoldingShown)):
        return Voice.DEED
    if isinstance(
        fact, (Exchanged, LaidOut, LeftoversChoice, LeadNamed, LeadLacked, LeadAppointed)
    ):
        return Voice.NARRATION
    return Voice.SPEECH
