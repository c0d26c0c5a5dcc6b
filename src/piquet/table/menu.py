"""The legal actions of a seat as one typed menu: kind, label, cards, whether offered.

Every interface lists a seat's choices from here: the browser sends :meth:`MenuItem.to_json`,
the terminal numbers the same labels.  The labels are the dialog's words (a claim as its
holder states it, the replies as said); the actions themselves come from the seat's view
only.  Every action the engine allows is listed (an API client may send any of them);
``offer`` says whether the table offers it: not an appointment of a card (or suit) elder
cannot hold as far as younger knows (:func:`piquet.core.view.appointable`), nor a "sink"
that would count exactly as the full declaration.  In the exchange the menu is one item,
``discard``, with the fewest and most cards (the client builds ``discard:7S 8S``).
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, cast

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
from piquet.core.cards import SUIT_MASKS, Card, CardSet, Suit
from piquet.core.declarations import Claim, DeclClass, claims, counted, statement
from piquet.core.match import MatchView
from piquet.core.rules import Leftovers, Rules
from piquet.core.view import DealView, appointable, lead_binding

__all__ = [
    "FirstLead",
    "MenuItem",
    "MenuKind",
    "PLAYS_JSON",
    "REPLY_LABELS",
    "claim_label",
    "class_word",
    "first_lead",
    "menu",
    "menu_json",
]


class MenuKind(enum.Enum):
    """What a menu item does; the value is the browser's ``kind``."""

    DEAL = "deal"
    BLANCHE = "blanche"
    DISCARD = "discard"
    LEFTOVER = "leftover"
    NAME = "name"
    APPOINT = "appoint"
    DECLARE = "declare"
    PASS = "pass"
    ANSWER = "answer"
    QUESTION = "question"
    PLAY = "play"


@dataclass(frozen=True, slots=True)
class MenuItem:
    """One choice of a seat: the action (None for the exchange's descriptor, whose cards
    the player picks between ``fewest`` and ``most``), its kind, its label in the period's
    words, the cards it names, whether the table offers it."""

    id: str
    kind: MenuKind
    label: str
    cards: tuple[Card, ...] = ()
    offer: bool = True
    action: Action | None = None
    fewest: int = 0
    most: int = 0

    def to_json(self) -> dict[str, Any]:
        """The browser's shape (the exchange's item has ``min`` and ``max``, no ``offer``)."""
        out: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind.value,
            "label": self.label,
            "cards": [str(c) for c in self.cards],
        }
        if self.kind is MenuKind.DISCARD:
            out["min"], out["max"] = self.fewest, self.most
        else:
            out["offer"] = self.offer
        return out


REPLY_LABELS: Final = {
    Reply.GOOD: "Good",
    Reply.NOT_GOOD: "Not good",
    Reply.EQUAL: "Equal",
    Reply.MAKING: "Making?",
}


def class_word(cls: DeclClass, rules: Rules) -> str:
    """The rule set's word for a class: point (a "ruff" to a 36-card pip counter)."""
    if cls is DeclClass.POINT:
        from piquet.table.summary import point_word

        return point_word(rules).removeprefix("the ").lower()
    return cls.label


def _named(suit: Suit | None, card: Card | None) -> str:
    if card is not None:
        return f"{card.rank.name_singular} of {card.suit.plural}"
    return f"{suit.plural}" if suit is not None else "?"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _claim_of(hand: int, action: Declare, rules: Rules) -> Claim | None:
    for c in claims(hand, action.cls, rules):
        if c.cards == action.cards.mask:
            return c
    return None


def claim_label(hand: CardSet, action: Declare, rules: Rules) -> str:
    """A claim as its holder states it, then its cards (``Quart major: AH KH QH JH``); a
    run across suits (1995) reads in rank order."""
    claim = _claim_of(hand.mask, action, rules)
    if claim is None:  # pragma: no cover - legal claims are always found
        return str(action.cards)
    cards = sorted(action.cards, key=lambda c: (-c.rank, c.suit)) \
        if action.cls is DeclClass.SEQUENCE else list(action.cards)
    return f"{_cap(statement(claim, rules))}: {' '.join(str(c) for c in cards)}"


def _play_label(c: Card) -> str:
    return f"Play the {c.rank.name_singular} of {c.suit.plural}"


def _label(action: Action, deal: DealView, rules: Rules) -> tuple[MenuKind, str, tuple[Card, ...]]:
    """(kind, label in the dialog's words, cards) for one legal action."""
    if isinstance(action, Play):
        return MenuKind.PLAY, _play_label(action.card), (action.card,)
    if isinstance(action, Declare):
        claim = _claim_of(deal.hand.mask, action, rules)
        text = (statement(claim, rules, full=False) if claim is not None
                else f"{action.cls.label} {action.cards}")
        return MenuKind.DECLARE, _cap(text), tuple(action.cards)
    if isinstance(action, Pass):
        return MenuKind.PASS, "Pass (declare nothing)", ()
    if isinstance(action, Answer):
        return MenuKind.ANSWER, REPLY_LABELS[action.reply], ()
    if isinstance(action, DealBy):
        return MenuKind.DEAL, f"Deal by {action.size}", ()
    if isinstance(action, AnnounceBlanche):
        return MenuKind.BLANCHE, f"Carte blanche: I shall discard {action.discards}", ()
    if isinstance(action, NameLead):
        what = _named(action.suit, action.card)
        return MenuKind.NAME, f"I shall lead {what}: show me the cards you left", ()
    if isinstance(action, Appoint):
        return MenuKind.APPOINT, f"Lead {_named(action.suit, action.card)}", ()
    if isinstance(action, Leftover):
        # turned up, younger's leftovers are seen by both: the words say so
        both = rules.younger_leftovers is Leftovers.YOUNGER_TURNS_UP
        if action.choice is LeftoverChoice.LOOK:
            if both:
                return MenuKind.LEFTOVER, "Turn them up (both see them)", ()
            return MenuKind.LEFTOVER, "Look at your leftovers", ()
        return MenuKind.LEFTOVER, "Leave them face down" if both else "Leave them unseen", ()
    if isinstance(action, Question):
        return MenuKind.QUESTION, ("Which one did you lay out?" if action.ask
                                   else "No question"), ()
    assert isinstance(action, Discard), action  # the exchange is one item (discard_range)
    return MenuKind.DISCARD, f"Discard {action.cards}", tuple(action.cards)


def menu(view: MatchView) -> tuple[MenuItem, ...]:
    """The legal actions of ``view``'s player, labelled; empty when not his turn."""
    deal = view.deal
    if deal is None or view.to_act != view.player:
        return ()
    rules = view.rule_set
    if deal.discard_range is not None:
        lo, hi = deal.discard_range
        label = f"Discard {lo} to {hi} cards" if lo != hi else f"Discard {lo} cards"
        return (MenuItem("discard", MenuKind.DISCARD, label, fewest=lo, most=hi),)
    legal = deal.legal_actions
    if legal and all(type(a) is Play for a in legal):
        # the play of the cards (most turns): each card's item is the same in every deal
        plays = _PLAYS
        return tuple([plays[cast(Play, a).card.index] for a in legal])
    return _items(deal, rules)


def _items(deal: DealView, rules: Rules) -> tuple[MenuItem, ...]:
    """The menu of ``deal``'s legal actions, each labelled on its own (every kind)."""
    offered = _offered(deal, rules)
    items = []
    for a in deal.legal_actions:
        kind, label, cards = _label(a, deal, rules)
        items.append(MenuItem(str(a), kind, label, cards, offered(a), a))
    return tuple(_tell_apart(items))


def _play_item(card: Card) -> MenuItem:
    action = Play(card)
    return MenuItem(str(action), MenuKind.PLAY, _play_label(card), (card,), True, action)


_PLAYS: Final = tuple(_play_item(Card.from_index(i)) for i in range(36))
"""Card index -> the menu's item for playing it (its label needs neither the deal nor the
rules, and every play is offered)."""
_PLAYS_JSON: Final = tuple(item.to_json() for item in _PLAYS)
"""Card index -> its play item's JSON (shared: :func:`menu_json`'s callers only read it)."""
PLAYS_JSON: Final = _PLAYS_JSON


def menu_json(view: MatchView) -> list[dict[str, Any]]:
    """``[item.to_json() for item in menu(view)]``; a play's item the same dict each time
    (the play of the cards is most turns), so the caller only reads what it is given (the
    JSON of a seat's view: ``web.showing``)."""
    return [_json_of(item) for item in menu(view)]


def _json_of(item: MenuItem) -> dict[str, Any]:
    action = item.action
    if type(action) is Play and _PLAYS[action.card.index] is item:
        return _PLAYS_JSON[action.card.index]
    return item.to_json()


def _tell_apart(items: list[MenuItem]) -> list[MenuItem]:
    """Claims of the same words (four ways of sinking to "Point of three") say which they
    are: the point its suit and pips, a sequence its suit, a set the card it keeps back."""
    seen: dict[str, int] = {}
    for o in items:
        seen[o.label] = seen.get(o.label, 0) + 1
    out = []
    for o in items:
        a = o.action
        if seen[o.label] < 2 or not isinstance(a, Declare):
            out.append(o)
            continue
        cards = list(a.cards)
        extra = ""
        if a.cls is DeclClass.SET:
            rank = cards[0].rank
            kept = [Card(s, rank) for s in Suit if Card(s, rank) not in cards]
            if kept:
                extra = " (keeping back the " + ", ".join(
                    f"{c.rank.name_singular} of {c.suit.plural}" for c in kept) + ")"
        else:
            suits = sorted({c.suit for c in cards}, key=lambda s: s.value)
            where = " and ".join(s.plural for s in suits)
            if a.cls is DeclClass.POINT:
                extra = f" (in {where}, {sum(c.rank.points for c in cards)} pips)"
            else:
                extra = f" (in {where})"
        out.append(MenuItem(o.id, o.kind, o.label + extra, o.cards, o.offer, a))
    return out


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
            if not found or mine is None or mine is found[0] or mine.key != found[0].key:
                return True  # (a claim of another key counts otherwise: no need to count)
            if action.cls not in best:
                best[action.cls] = worth(found[0])
            return worth(mine) != best[action.cls]
        return True

    return offered


@dataclass(frozen=True, slots=True)
class FirstLead:
    """How elder's first lead is bound, as one seat knows it: named for the stock or
    appointed; ``held``: whether elder holds the card or suit (None: this seat cannot
    know).  Elder bound to a card he lacks leads as he likes."""

    appointed: bool
    held: bool | None

    def to_json(self) -> dict[str, Any]:
        return {"how": "appointed" if self.appointed else "named", "held": self.held}


def first_lead(view: MatchView) -> FirstLead | None:
    """How elder's first lead is bound until the first trick is played (the card or suit
    is the view's ``lead_rule``); None when nothing binds it."""
    if view.deal is None:
        return None
    bound = lead_binding(view.deal)
    if bound is None:
        return None
    return FirstLead(bound.appointed, bound.held)
