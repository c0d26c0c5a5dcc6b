"""The tally's words: what a scorer types (card lists, answers, the leftovers, the mistakes)
read as the engine's actions, and the engine's ids and messages said back in the scorer's
words."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Final

from piquet.core.actions import (
    Action,
    AnnounceBlanche,
    Answer,
    Declare,
    Leftover,
    LeftoverChoice,
    Pass,
    Question,
    Reply,
    parse_action,
)
from piquet.core.cards import CardSet
from piquet.core.deal import Deal, Phase
from piquet.core.dealtypes import ExchangeKind
from piquet.core.declarations import DeclClass
from piquet.core.errors import ParseError
from piquet.core.penalties import Mistake, Penalty, described, knob_of
from piquet.core.roles import ROLE_NAMES, Role
from piquet.core.rules import (
    Rules,
    knob_json,
)
from piquet.tally.steps import (
    _CLASSES,
    _ordered,
    _Step,
)


def _takes_now(deal: Deal) -> bool:
    """The seat to act takes its cards as it lays out (not after elder's carte blanche)."""
    steps = deal.exchange_steps
    return bool(steps) and steps[0].kind is ExchangeKind.DISCARD


def _cards_in_order(text: str) -> list[Any]:
    from piquet.core.cards import Card

    body = text.strip()
    if body.lower().startswith("play"):
        body = body[4:].lstrip(" :")
    return [Card.from_index(c) for c in _ordered(body)]


_WORDS: Final[dict[str, Action]] = {
    "good": Answer(Reply.GOOD),
    "not good": Answer(Reply.NOT_GOOD),
    "not-good": Answer(Reply.NOT_GOOD),
    "equal": Answer(Reply.EQUAL),
    "making": Answer(Reply.MAKING),
    "making?": Answer(Reply.MAKING),
    "pass": Pass(),
    "ask": Question(True),
    "ask-missing": Question(True),
    "which one is missing?": Question(True),
    "which one did you lay out?": Question(True),
    "no question": Question(False),
    "no-question": Question(False),
    "look": Leftover(LeftoverChoice.LOOK),
    "decline": Leftover(LeftoverChoice.DECLINE),
}
_MISTAKE_WORDS: Final = (
    (("false", "claim"), Mistake.FALSE_CLAIM.value),
    (("not", "shown"), Mistake.NOT_SHOWN.value),
    (("renounce",), Mistake.RENOUNCE.value),
    (("correct",), "correct"),
)
"""The words of a mistake's entry, and its kind."""


#: what comes before the play, for a card entered too early
_PHASE_WORDS: Final = {
    Phase.BLANCHE: "carte blanche",
    Phase.EXCHANGE: "the exchange",
    Phase.LEFTOVERS: "the leftovers",
    Phase.APPOINT: "the leftovers",
    Phase.DECLARE: "the declarations",
}


def _friendly_action(text: str, deal: Deal, expecting: Callable[[], str]) -> Action:
    raw = text.strip()
    key = " ".join(raw.lower().split())
    if key in _WORDS:
        return _WORDS[key]
    word, _, rest = raw.partition(" ")
    w = word.lower()
    if w in _CLASSES and rest.strip():
        return Declare(_CLASSES[w], CardSet.parse(rest))
    if w == "blanche" and rest.strip().isascii() and rest.strip().isdigit():
        if len(rest.strip()) > 2:
            raise ParseError(f"blanche needs the number of cards to exchange; got "
                             f"{rest.strip()[:40]!r}")
        return AnnounceBlanche(int(rest))
    if w in ("name", "appoint") and rest.strip():
        return parse_action(f"{w}:{rest.strip()}")
    try:
        return parse_action(raw)
    except ParseError:
        pass
    try:
        CardSet.parse(raw)
    except ParseError:
        what = f"{raw!r} is not an entry"
    else:  # cards, entered before the play
        now = _PHASE_WORDS.get(deal.phase)
        what = f"{raw!r}: the cards played are entered once the play begins" + (
            f", not in {now}" if now else ""
        )
    raise ParseError(f"{what}; next: {expecting()} (type help for the entries)") from None


def mistake_note(step: _Step, rules: Rules, names: tuple[str, str] = ROLE_NAMES) -> str:
    """What a mistake entry (a ``penalty`` or ``correct`` step) does under ``rules``, and
    the passage of the rule set's text it follows (a house rule: the knob's value)."""
    if step.kind == "correct":
        what = (f"{names[step.role]} takes back what he said in the "
                f"{DeclClass(step.value).label}, to say it again with no penalty")
        knob = "call_correction"
    else:
        penalty = Penalty(Mistake(step.text), Role(step.role),
                          DeclClass(step.value) if step.value >= 0 else None)
        what = described(penalty, rules, names)
        knob = knob_of(penalty.mistake)
    if rules.is_preset:
        from piquet.core.sources import citation

        return f"{what} ({rules.name}, {citation(rules.name, knob)})"
    return f"{what} ({knob} = {knob_json(getattr(rules, knob))})"


_IDS: Final = re.compile(r"\b(?:declare:(point|sequence|set)|(blanche|name|appoint)):(?=\S)")


_ANSWER_IDS: Final = {"not-good": "not good", "no-question": "no question", "ask-missing": "ask"}
_ANSWERS: Final = re.compile(r"(?<![\w-])(not-good|no-question|ask-missing)(?![\w-])")


_YOU: Final = ((re.compile(r"\byou must\b"), "{} must"),
                (re.compile(r"\byou hold\b"), "{} holds"),
                (re.compile(r"\byou may\b"), "{} may"))


def _to_scorer(text: str, name: str) -> str:
    """An engine's message to the player to act ("you must follow spades: you hold QS") as
    the tally's scorer reads it ("Anne must follow spades: Anne holds QS")."""
    for pattern, words in _YOU:
        text = pattern.sub(words.format(name).replace("\\", r"\\"), text)
    return text


def in_words(text: str) -> str:
    """A message of the engine with its action ids written as the tally's entries.

    ``declare:point:AH KH QH`` -> ``point AH KH QH``; ``name:S`` -> ``name S``;
    ``not-good`` -> ``not good`` (as ``help`` lists the answers).
    """
    text = _IDS.sub(lambda m: f"{m.group(1) or m.group(2)} ", text)
    return _ANSWERS.sub(lambda m: _ANSWER_IDS[m.group(1)], text)
