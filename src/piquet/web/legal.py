"""The legal actions of a seat's view as the page shows them: kind, label, cards.

The labels are the dialog's words (a claim as its holder states it, the replies as said);
the actions themselves come from the seat's view only.  Every action the engine allows is
listed (an API client may send any of them); ``offer`` says whether the table offers it:
not an appointment of a card (or suit) elder cannot hold as far as younger knows
(:func:`piquet.core.view.appointable`), nor a "sink" that would count the same as the full
declaration.  :func:`first_lead` tells the page how elder's first lead is bound.
"""

from __future__ import annotations

from collections.abc import Callable
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
from piquet.core.cards import SUIT_MASKS, Card, Suit
from piquet.core.declarations import Claim, DeclClass, claims, counted, statement
from piquet.core.match import MatchView
from piquet.core.rules import Leftovers, Rules
from piquet.core.view import DealView, appointable, lead_binding

__all__ = ["first_lead", "legal_objects"]


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
        # turned up, younger's leftovers are seen by both: the words say so
        both = rules.younger_leftovers is Leftovers.YOUNGER_TURNS_UP
        if action.choice is LeftoverChoice.LOOK:
            if both:
                return "leftover", "Turn them up (both see them)", []
            return "leftover", "Look at the cards left in the stock", []
        return "leftover", "Leave them face down" if both else "Leave them unseen", []
    if isinstance(action, Question):
        return "question", "Which one did you lay out?" if action.ask else "No question", []
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
    offered = _offered(deal, rules)
    for a in deal.legal_actions:
        kind, label, cards = _label(a, view, rules)
        out.append(
            {"id": str(a), "kind": kind, "label": label, "cards": cards, "offer": offered(a)}
        )
    _tell_apart(out, deal.legal_actions)
    return out


def _tell_apart(out: list[dict[str, Any]], actions: tuple[Action, ...] | list[Action]) -> None:
    """Claims of the same words (four ways of sinking to "Point of three") say which they
    are: the point its suit and pips, a sequence its suit, a set the card it keeps back."""
    seen: dict[str, int] = {}
    for o in out:
        seen[o["label"]] = seen.get(o["label"], 0) + 1
    for o, a in zip(out, actions, strict=True):
        if seen[o["label"]] < 2 or not isinstance(a, Declare):
            continue
        cards = list(a.cards)
        if a.cls is DeclClass.SET:
            rank = cards[0].rank
            kept = [Card(s, rank) for s in Suit if Card(s, rank) not in cards]
            if kept:
                o["label"] += " (keeping back the " + ", ".join(
                    f"{c.rank.name_singular} of {c.suit.plural}" for c in kept) + ")"
            continue
        suits = sorted({c.suit for c in cards}, key=lambda s: s.value)
        where = " and ".join(s.plural for s in suits)
        if a.cls is DeclClass.POINT:
            pips = sum(c.rank.points for c in cards)
            o["label"] += f" (in {where}, {pips} pips)"
        else:
            o["label"] += f" (in {where})"


def _offered(deal: DealView, rules: Rules) -> Callable[[Action], bool]:
    """Whether the table offers an action (the engine allows them all).

    An appointment: only of what elder may hold as far as younger knows (appointing any
    other card binds elder to nothing).  A claim: not one that would count exactly as the
    best claim does (holding two tierces to the ten, declaring the one in hearts shows and
    counts both: no sink at all).
    """
    open_cards = appointable(deal, rules) if any(
        isinstance(a, Appoint) for a in deal.legal_actions
    ) else 0
    hand = deal.hand.mask
    best: dict[DeclClass, tuple[tuple[int, int], frozenset[int], int]] = {}

    def worth(claim: Claim) -> tuple[tuple[int, int], frozenset[int], int]:
        # what the claim would count, card for card: two equal points count (and show)
        # different cards, so both are a choice; two equal tierces count the same
        holdings, total = counted(hand, claim, rules)
        return claim.key, frozenset(h.cards for h in holdings), total

    def offered(action: Action) -> bool:
        if isinstance(action, Appoint):
            if action.card is not None:
                return bool(open_cards >> action.card.index & 1)
            return action.suit is not None and bool(open_cards & SUIT_MASKS[action.suit])
        if isinstance(action, Declare):
            found = claims(hand, action.cls, rules)
            mine = next((c for c in found if c.cards == action.cards.mask), None)
            if not found or mine is None or mine is found[0]:
                return True
            if action.cls not in best:
                best[action.cls] = worth(found[0])
            return worth(mine) != best[action.cls]
        return True

    return offered


def first_lead(view: MatchView) -> dict[str, Any] | None:
    """How elder's first lead is bound, as this seat knows it, until the first trick is
    played: ``{"how": "named" | "appointed", "held": true | false | null}`` (``held``:
    whether elder holds the card or suit; null when this seat cannot know).  Elder bound
    to a card he lacks leads as he likes.  The card or suit is the view's ``lead_rule``.
    None when nothing binds the lead (:func:`piquet.core.view.lead_binding`)."""
    if view.deal is None:
        return None
    bound = lead_binding(view.deal)
    if bound is None:
        return None
    return {"how": "appointed" if bound.appointed else "named", "held": bound.held}
