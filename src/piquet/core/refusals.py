"""Why an action is refused, in words: what the deal waits for, why a card may not be
played, why a declaration or a lead is refused, with what is allowed.  :meth:`Deal.verify`
raises these sentences in an :class:`~piquet.core.errors.IllegalActionError`; nothing here
decides legality (the deal does), it only says why."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from piquet.core.actions import Action, Appoint, Declare, NameLead
from piquet.core.cards import SUIT_MASKS, Card, CardSet, Suit, pack
from piquet.core.dealtypes import (
    P_APPOINT,
    P_BLANCHE,
    P_DEAL,
    P_DECLARE,
    P_EXCHANGE,
    P_LEFTOVERS,
    P_OVER,
    P_PLAY,
    _card_text,
)
from piquet.core.declarations import DeclClass
from piquet.core.roles import ELDER, ROLE_NAMES, YOUNGER
from piquet.core.rules import Leftovers

if TYPE_CHECKING:
    from piquet.core.deal import Deal


def doing(deal: Deal) -> str:
    """What the deal waits for, in words ("elder discards")."""
    if deal.phase is P_OVER:
        return "the deal is over"
    who = deal._who()
    return {
        P_DEAL: f"{who} (the dealer) chooses the packet size",
        P_BLANCHE: f"{who} announces how many he will discard with carte blanche",
        P_EXCHANGE: f"{who} discards",
        P_LEFTOVERS: f"{who} decides about the stock cards younger left",
        P_APPOINT: f"{who} appoints the lead",
        P_DECLARE: f"{who} declares the {DeclClass(min(deal.cls, 2)).label}",
        P_PLAY: f"{who} plays a card",
    }[deal.phase]

def why_not_playable(deal: Deal, card: Card, playable: Sequence[int]) -> str:
    """Why ``card`` may not be played now: not held, the suit to follow, a lead bound."""
    seat = deal._actor()
    hand = deal.hands[seat]
    allowed = " ".join(_card_text(i) for i in playable)
    if not hand >> card.index & 1:
        return f"{card}: {ROLE_NAMES[seat]} does not hold it; playable: {allowed}"
    if deal.trick_lead is not None:
        suit = Suit(deal.trick_lead // 9)
        held = CardSet(hand & SUIT_MASKS[suit])
        return f"{card}: you must follow {suit.plural}: you hold {held}"
    assert deal.lead_rule is not None
    return f"{card}: elder is bound to lead {deal.lead_rule.words}; playable: {allowed}"

def why_not(deal: Deal, action: Action, legal: list[Action]) -> str:
    """Why ``action`` is refused, with what is allowed (``legal``, the first forty)."""
    listed = ", ".join(str(a) for a in legal[:40])
    if len(legal) > 40:
        listed += f", ... ({len(legal)} in all)"
    if isinstance(action, Declare) and deal.phase is P_DECLARE:
        cls = deal.cls
        if action.cls is not cls:
            return f"{action}: now the {cls.label} is declared, not the {action.cls.label}"
        seat = deal._actor()
        held = deal.hands[seat]
        if action.cards.mask & ~held:
            return (
                f"{action}: {ROLE_NAMES[seat]} cannot show {action.cards}; a claim the hand "
                f"cannot show is refused. Allowed: {listed}"
            )
        return f"{action}: that is not a {cls.label} this hand may claim now. Allowed: {listed}"
    if isinstance(action, (NameLead, Appoint)) and deal.phase in (P_LEFTOVERS, P_APPOINT):
        why = why_not_lead(deal, action)
        if why is not None:
            return f"{action}: {why}"
    return f"{action}: not allowed now ({doing(deal)}). Allowed: {listed}"

def why_not_lead(deal: Deal, action: NameLead | Appoint) -> str | None:
    """Why naming or appointing this lead is refused, where a reason can be given: a
    card where the rules name a suit (or the other way), a card not in the pack, or
    (appointing) a card younger holds himdeal."""
    naming = isinstance(action, NameLead)
    if naming is not (deal.phase is P_LEFTOVERS):
        return None
    by_card = deal.rules.younger_leftovers is Leftovers.ELDER_NAMES_CARD
    by_suit = deal.rules.younger_leftovers is Leftovers.ELDER_NAMES_SUIT
    if naming and not (by_card or by_suit):
        return "under these rules elder names no lead; younger looks at his leftovers or not"
    word, done = ("name", "named") if naming else ("appoint", "appointed")
    if by_suit and action.card is not None:
        return f"under these rules the lead is {done} by its suit, not a card " \
            f"(e.g. {word}:spades)"
    if by_card and action.card is None:
        return f"under these rules the lead is {done} by its card, not a suit " \
            f"(e.g. {word}:KS)"
    if action.card is not None:
        if action.card.index not in pack(deal.rules):
            return f"there is no {action.card} in the {deal.rules.deck_size}-card pack"
        hand = deal.hands[ELDER]
        card = action.card.index
        if naming and not deal.rules.appoint_if_card_lacked and not hand >> card & 1 \
                and hand & SUIT_MASKS[card // 9]:
            return (f"elder holds no {action.card} but holds {action.card.suit.plural}: "
                    "under these rules he names a card he holds, or one of a suit he has "
                    "none of")
        if not naming and deal.hands[YOUNGER] >> action.card.index & 1:
            return (f"younger holds {action.card} himself; he appoints a card he does not "
                    "hold")
    return None
