"""The legal actions of a seat's view as the page shows them: kind, label, cards.

The labels are the dialog's words (a claim as its holder states it, the replies as said);
the actions themselves come from the seat's view only.
"""

from __future__ import annotations

from typing import Any, Final

from piquet.core.actions import (
    Action,
    AnnounceBlanche,
    Answer,
    Appoint,
    DealBy,
    Declare,
    Discard,
    Leftover,
    LeftoverChoice,
    NameLead,
    Pass,
    Play,
    Question,
    Reply,
)
from piquet.core.cards import Card
from piquet.core.declarations import claims, statement
from piquet.core.match import MatchView
from piquet.core.rules import Rules

__all__ = ["legal_objects"]


_REPLY_LABELS: Final = {
    Reply.GOOD: "Good",
    Reply.NOT_GOOD: "Not good",
    Reply.EQUAL: "Equal",
    Reply.MAKING: "Making?",
}


def _named(suit: Any, card: Card | None) -> str:
    if card is not None:
        return f"{card.rank.name_singular} of {card.suit.plural}"
    return f"{suit.plural}" if suit is not None else "?"


def _label(action: Action, view: MatchView, rules: Rules) -> tuple[str, str, list[str]]:
    """(kind, label in the dialog's words, cards) for one legal action."""
    if isinstance(action, Play):
        c = action.card
        return "play", f"Play the {c.rank.name_singular} of {c.suit.plural}", [str(c)]
    if isinstance(action, Declare):
        deal = view.deal
        hand = deal.hand.mask if deal is not None else 0
        text = f"{action.cls.label} {action.cards}"
        for claim in claims(hand, action.cls, rules):
            if claim.cards == action.cards.mask:
                text = statement(claim, rules, full=False)
                break
        return "declare", text[:1].upper() + text[1:], [str(c) for c in action.cards]
    if isinstance(action, Pass):
        return "pass", "Pass (declare nothing)", []
    if isinstance(action, Answer):
        return "answer", _REPLY_LABELS[action.reply], []
    if isinstance(action, DealBy):
        return "deal", f"Deal by {action.size}", []
    if isinstance(action, AnnounceBlanche):
        return "blanche", f"Carte blanche: I shall discard {action.discards}", []
    if isinstance(action, NameLead):
        what = _named(action.suit, action.card)
        return "name", f"I shall lead {what}: show me the cards you left", []
    if isinstance(action, Appoint):
        return "appoint", f"Lead {_named(action.suit, action.card)}", []
    if isinstance(action, Leftover):
        if action.choice is LeftoverChoice.LOOK:
            return "leftover", "Look at the cards left in the stock", []
        return "leftover", "Leave them unseen", []
    if isinstance(action, Question):
        return "question", "Which card is missing?" if action.ask else "No question", []
    if isinstance(action, Discard):  # pragma: no cover - the exchange uses discard_range
        return "discard", f"Discard {action.cards}", [str(c) for c in action.cards]
    return "other", str(action), []  # pragma: no cover


def legal_objects(view: MatchView, rules: Rules) -> list[dict[str, Any]]:
    """The seat's legal actions as objects with an ``id``; the exchange as one descriptor.

    In the exchange the client builds ``discard:7S 8S`` (or ``discard:-`` for none) from
    the cards it selects, between ``min`` and ``max`` of them.
    """
    deal = view.deal
    if deal is None or view.to_act != view.player:
        return []
    if deal.discard_range is not None:
        lo, hi = deal.discard_range
        return [
            {
                "id": "discard",
                "kind": "discard",
                "label": f"Discard {lo} to {hi} cards" if lo != hi else f"Discard {lo} cards",
                "cards": [],
                "min": lo,
                "max": hi,
            }
        ]
    out = []
    for a in deal.legal_actions:
        kind, label, cards = _label(a, view, rules)
        out.append({"id": str(a), "kind": kind, "label": label, "cards": cards})
    return out
