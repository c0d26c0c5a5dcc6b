"""What one seat may see: the only thing a player, a terminal or a client receives.

:func:`deal_view` builds a :class:`DealView` for one role of a deal from the
rule set's visibility rules; :func:`piquet.core.match.Match.view` wraps it with the
game's score for one player.  Nothing else in the package decides visibility.

What a role sees: its own hand, the cards it was dealt, discarded and took in;
elder's leftovers, the rest of his allotment (elder, where the rules allow); younger's
leftovers (as the rule set's procedure allows); whatever the other has shown
(carte blanche, winning declarations where they must be shown); the dialog;
every card played; the counts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Protocol

from piquet.core.actions import Action
from piquet.core.cards import Card, CardSet, NamedLead, mask_cards, pack_mask
from piquet.core.deal import ELDER, ROLE_NAMES, YOUNGER, Deal, Phase, Trick, Utterance
from piquet.core.declarations import DeclClass
from piquet.core.facts import LeadAppointed, LeadLacked
from piquet.core.roles import OTHER, Role
from piquet.core.rules import Leftovers, Rules
from piquet.core.scoring import Event
from piquet.core.words import aloud

__all__ = [
    "CARD_TEXTS",
    "DealView",
    "LeadBinding",
    "PublicView",
    "appointable",
    "deal_view",
    "dialog_json",
    "events_json",
    "lead_binding",
    "mask_texts",
    "open_trick_leader",
    "played_by",
    "public_mask",
    "public_view",
    "visible_mask",
]

_ROLES = tuple(Role)


@dataclass(frozen=True)
class DealView:
    """One role's knowledge of a deal.  Every card field is a :class:`CardSet`.

    (No slots: :func:`deal_view` fills its fields as one dict, where a frozen dataclass's
    ``__init__`` sets its 27 fields one by one, each through ``object.__setattr__``, at
    about twenty times the cost; every move's views are made here.)"""

    role: Role
    phase: Phase
    to_act: Role | None
    """The role to act (None: nobody); a role of the deal, not a player."""
    hand: CardSet
    dealt: CardSet
    discards: CardSet
    taken: CardSet
    stock_seen: CardSet
    """Stock cards this role has seen but does not hold (elder's and younger's leftovers)."""
    elder_leftovers_seen: CardSet
    """Elder: his leftovers (the rest of his allotment he did not take), as he saw them
    (empty for younger).  The JSON keeps the key ``unused_seen``."""
    leftovers_seen: CardSet
    """Younger's leftovers, when this role may see them."""
    packet: int | None
    """The packet size the dealer dealt by (public)."""
    declaring: DeclClass | None
    """The class being declared (point, sequence, set) during the declarations."""
    opponent_shown: CardSet
    """Cards the other has shown (carte blanche, declarations that must be shown)."""
    opponent_played: CardSet
    seen_by_opponent: CardSet
    """Cards of this role's hand and discards that the other has seen."""
    opponent_discard_count: int
    stock_count: int
    leftover_count: int
    dialog: tuple[Utterance, ...]
    tricks: tuple[Trick, ...]
    trick_lead: int | None
    events: tuple[Event, ...]
    scores: tuple[int, int]
    tricks_won: tuple[int, int]
    lead_rule: NamedLead | None
    legal_actions: tuple[Action, ...]
    """What this role may do now; in the exchange see ``discard_range`` instead."""
    discard_range: tuple[int, int] | None
    """(fewest, most) cards this role may discard now, when it is to discard."""
    deferred: tuple[DeclClass, ...] = ()
    """The classes younger declares after elder's first lead, still to come (the rules of
    ``younger_declares_after_lead``; public: elder heard younger pass them by)."""

    def to_json(self) -> dict[str, Any]:
        cs = _card_texts
        return {
            "role": ROLE_NAMES[self.role],
            "phase": self.phase.value,
            "to_act": None if self.to_act is None else ROLE_NAMES[self.to_act],
            "hand": cs(self.hand),
            "dealt": cs(self.dealt),
            "discards": cs(self.discards),
            "taken": cs(self.taken),
            "stock_seen": cs(self.stock_seen),
            "unused_seen": cs(self.elder_leftovers_seen),
            "leftovers_seen": cs(self.leftovers_seen),
            "packet": self.packet,
            "declaring": None if self.declaring is None else self.declaring.label,
            "opponent_shown": cs(self.opponent_shown),
            "opponent_played": cs(self.opponent_played),
            "seen_by_opponent": cs(self.seen_by_opponent),
            "opponent_discard_count": self.opponent_discard_count,
            "stock_count": self.stock_count,
            "leftover_count": self.leftover_count,
            "dialog": dialog_json(self.dialog),
            "tricks": [_trick_json(t) for t in self.tricks],
            "trick_lead": None
            if self.trick_lead is None
            else _TEXTS[self.trick_lead],
            "events": events_json(self.events),
            "scores": {"elder": self.scores[0], "younger": self.scores[1]},
            "tricks_won": {"elder": self.tricks_won[0], "younger": self.tricks_won[1]},
            "lead_rule": None
            if self.lead_rule is None
            else {"kind": self.lead_rule.kind, "value": str(self.lead_rule)},
            "legal_actions": [str(a) for a in self.legal_actions],
            "discard_range": None if self.discard_range is None else list(self.discard_range),
            "deferred": [c.label for c in self.deferred],
        }


_TEXTS: tuple[str, ...] = tuple(str(Card.from_index(i)) for i in range(36))
"""Card index -> its text (``QH``)."""
CARD_TEXTS: Final = _TEXTS


def _card_texts(x: CardSet) -> list[str]:
    """The cards of ``x`` as text, in its order (``[str(c) for c in x]``, without making
    the cards)."""
    texts = _TEXTS
    return [texts[i] for i in mask_cards(x.mask)]


def mask_texts(mask: int) -> list[str]:
    """The cards of ``mask`` as text, in a :class:`CardSet`'s order (a view's JSON)."""
    texts = _TEXTS
    return [texts[i] for i in mask_cards(mask)]


_TRICKS: dict[Trick, dict[str, str]] = {}
"""Trick -> its JSON: a trick is four small numbers, so there are few of them, and a
deal's tricks are sent again in every view until it ends."""


def _trick_json(t: Trick) -> dict[str, str]:
    """``t.to_json()`` (a new dict each time: a caller may change it)."""
    line = _TRICKS.get(t)
    if line is None:
        line = _TRICKS[t] = t.to_json()
    return dict(line)


def dialog_json(dialog: tuple[Utterance, ...]) -> list[dict[str, Any]]:
    """The dialog as JSON: one shape for a seat's view and the public view."""
    return [_said_json(u) for u in dialog]


_SAID: dict[int, tuple[Utterance, dict[str, Any]]] = {}
"""id(utterance) -> (the utterance, its JSON): a deal's dialog is the same utterances
from view to view (a deal's next state keeps them), and their words cost the most of a
view's JSON.  Holding the utterance keeps its id from being reused; cleared when full."""


def _said_json(u: Utterance) -> dict[str, Any]:
    """``u`` as JSON (a new dict and list each time: a caller may change them)."""
    hit = _SAID.get(id(u))
    if hit is not None and hit[0] is u:
        line = hit[1]
    else:
        line = {
            "seat": ROLE_NAMES[u.role],
            "class": None if u.cls is None else u.cls.label,
            "text": u.text,
            "said": aloud(u),
            "shown": _card_texts(CardSet(u.shown)),
        }
        if len(_SAID) >= 16384:
            _SAID.clear()
        _SAID[id(u)] = (u, line)
    return {**line, "shown": list(line["shown"])}


def events_json(events: tuple[Event, ...]) -> list[dict[str, Any]]:
    """The score events as JSON: one shape for a seat's view and the public view."""
    return [
        {"seat": ROLE_NAMES[e.role], "kind": e.kind.value, "points": e.points, "note": e.note}
        for e in events
    ]


def _leftovers_seen(deal: Deal, role: int) -> bool:
    mode = deal.rules.younger_leftovers
    look = deal.leftover_look
    if mode is Leftovers.HIDDEN:
        return False
    if mode is Leftovers.YOUNGER_LOOKS and role == ELDER:
        # elder may look only after he has played his first card
        return look[YOUNGER] and (bool(deal.tricks) or deal.trick_lead is not None)
    return look[role]


class _TricksSoFar(Protocol):
    @property
    def tricks(self) -> tuple[Trick, ...]: ...
    @property
    def trick_lead(self) -> int | None: ...
    @property
    def to_act(self) -> Role | None: ...


def played_by(deal: _TricksSoFar, role: int) -> int:
    """The mask of the cards ``role`` has played so far (a deal's or a view's tricks).

    A card led to an open trick is the leader's: the winner of the last trick, or elder
    at the first (not "the seat not to act": a game can end on a card led, 1754 counting
    a point for a lead, and then nobody is to act).
    """
    out = 0
    for t in deal.tricks:
        out |= 1 << (t.lead if t.leader == role else t.follow)
    if deal.trick_lead is not None and open_trick_leader(deal) == role:
        out |= 1 << deal.trick_lead
    return out


def open_trick_leader(deal: _TricksSoFar) -> Role:
    """Who leads the trick in play (a deal's or a view's): elder the first, then the
    winner of the last trick; a fact of the tricks, not of who is to act."""
    return deal.tricks[-1].winner if deal.tricks else ELDER


def appointable(view: DealView, rules: Rules) -> int:
    """The cards elder may hold as far as younger (``view``, his view) knows, when he is
    to appoint elder's lead: not his own cards, nor those he laid out, nor the stock cards
    he has seen, nor the card (or any card of the suit) elder has just said he lacks.
    Appointing any other binds elder to nothing: he leads as he likes."""
    known = view.hand.mask | view.discards.mask | view.stock_seen.mask
    rule = view.lead_rule
    if rule is not None:
        known |= rule.mask
    return pack_mask(rules) & ~known


@dataclass(frozen=True, slots=True)
class LeadBinding:
    """How elder's first lead is bound, as one seat knows it (:func:`lead_binding`)."""

    appointed: bool
    """Younger appointed it (elder held none of what he named); else elder named it."""
    held: bool | None
    """Whether elder holds the card or suit (None: this seat cannot know).  Bound to what
    he lacks, elder leads as he likes."""


def lead_binding(view: DealView) -> LeadBinding | None:
    """How elder's first lead is bound, from ``view``'s seat, until the first trick is
    played (the card or suit is the view's ``lead_rule``); None when nothing binds it."""
    if view.phase is not Phase.PLAY or view.lead_rule is None or view.tricks:
        return None
    lacked = [u.fact for u in view.dialog if isinstance(u.fact, LeadLacked)]
    appointed = any(isinstance(u.fact, LeadAppointed) for u in view.dialog)
    mask = view.lead_rule.mask
    held: bool | None
    if view.role == ELDER:
        held = bool(view.hand.mask & mask) or (
            view.trick_lead is not None and bool(1 << view.trick_lead & mask)
        )
    elif view.trick_lead is not None:
        held = bool(1 << view.trick_lead & mask)  # bound to it if he held it: his lead tells
    elif not appointed:
        held = True  # elder named what he holds (else younger appointed the lead)
    elif any(mask & ~f.lead.mask == 0 for f in lacked):  # all of it, said lacked
        held = False  # appointed what elder had just said he lacks
    else:
        seen = view.hand.mask | view.discards.mask | view.stock_seen.mask
        held = True if mask & view.opponent_shown.mask else (
            False if mask & ~seen == 0 else None
        )
    return LeadBinding(appointed, held)


def _stock_seen(deal: Deal, role: int) -> int:
    seen = 0
    if role == ELDER and deal.rules.elder_sees_unused:
        seen |= deal.elder_leftovers
    if deal.leftovers and _leftovers_seen(deal, role):
        seen |= deal.leftovers
    return seen & ~deal.hands[role] & ~deal.taken[role]


def visible_mask(deal: Deal, role: int) -> int:
    """Every card whose place ``role`` may know (the test oracle for views)."""
    other = 1 - role
    return (
        deal.dealt[role]
        | deal.hands[role]
        | deal.discards[role]
        | deal.taken[role]
        | _stock_seen(deal, role)
        | deal.shown[other]
        | played_by(deal, other)
    )


_NEW: Final = object.__new__
_SET: Final = object.__setattr__  # CardSet's own __setattr__ refuses every change
_NO_CARDS: Final = CardSet(0)
_SETS: dict[int, CardSet] = {0: _NO_CARDS}
"""Mask -> its card set, shared (a card set never changes; a hand, the cards dealt, the
discards are the same sets from view to view)."""


def _cardset(mask: int) -> CardSet:
    """``CardSet(mask)`` for a mask taken from a deal (a valid one: no check), each set
    made once (a view has a dozen)."""
    out = _SETS.get(mask)
    if out is None:
        if len(_SETS) >= 1 << 13:
            _SETS.clear()
            _SETS[0] = _NO_CARDS
        out = _NEW(CardSet)
        _SET(out, "mask", mask)
        _SETS[mask] = out
    return out


def deal_view(deal: Deal, role: int) -> DealView:
    """What ``role`` (0 elder, 1 younger) may see of ``deal``.

    (What :func:`visible_mask` and :func:`played_by` say, worked out for both roles at
    once: every move's views pass here.)"""
    role = _ROLES[role]
    other = OTHER[role]
    rules = deal.rules
    hands, discards, taken = deal.hands, deal.discards, deal.taken
    # the cards each role has played (``played_by``), in one pass over the tricks
    tricks = deal.tricks
    played = [0, 0]
    for t in tricks:
        leader = t.leader
        played[leader] |= 1 << t.lead
        played[1 - leader] |= 1 << t.follow
    trick_lead = deal.trick_lead
    if trick_lead is not None:
        played[tricks[-1].winner if tricks else ELDER] |= 1 << trick_lead
    # the stock cards each role has seen (``_stock_seen``): elder's leftovers (elder,
    # where the rules show them) and younger's (as the rules allow each role)
    left = deal.leftovers
    unused = deal.elder_leftovers if rules.elder_sees_unused else 0
    left_mine = left if left and _leftovers_seen(deal, role) else 0
    left_other = left if left and _leftovers_seen(deal, other) else 0
    unused_mine = unused if role == ELDER else 0
    unused_other = unused if other == ELDER else 0
    seen_by_opp = deal.shown[role] | (
        (unused_other | left_other) & ~hands[other] & ~taken[other])
    mine = hands[role] | discards[role] | played[role]
    legal: tuple[Action, ...] = ()
    discard_range = None
    to_act = deal.to_act
    phase = deal.phase
    if to_act == role:
        if phase is Phase.EXCHANGE:
            discard_range = deal.discard_range()
        else:
            legal = tuple(deal.legal_actions())
    cardset = _cardset
    deferred = deal.deferred
    tally = deal.tally
    view: DealView = _NEW(DealView)
    _SET(view, "__dict__", {  # every field of DealView, in its order
        "role": role,
        "phase": phase,
        "to_act": to_act,
        "hand": cardset(hands[role]),
        "dealt": cardset(deal.dealt[role]),
        "discards": cardset(discards[role]),
        "taken": cardset(taken[role]),
        "stock_seen": cardset((unused_mine | left_mine) & ~hands[role] & ~taken[role]),
        "elder_leftovers_seen": cardset(unused_mine),
        "leftovers_seen": cardset(left_mine),
        "packet": deal.packet,
        "declaring": deal.cls if phase is Phase.DECLARE else None,
        "opponent_shown": cardset(deal.shown[other]),
        "opponent_played": cardset(played[other]),
        "seen_by_opponent": cardset(seen_by_opp & mine),
        "opponent_discard_count": discards[other].bit_count(),
        "stock_count": len(deal.stock),
        "leftover_count": left.bit_count(),
        "dialog": deal.dialog,
        "tricks": tricks,
        "trick_lead": trick_lead,
        "events": tally.events,
        "scores": tally.totals,
        "tricks_won": deal.won,
        "lead_rule": deal.lead_rule,
        "legal_actions": legal,
        "discard_range": discard_range,
        "deferred": tuple([d.cls for d in deferred]) if deferred else (),
    })
    return view


@dataclass(frozen=True, slots=True)
class PublicView:
    """What a spectator may see of a deal: only what both players have made public.

    The cards shown (carte blanche, declarations shown) and played, the dialog, the
    points counted and the counts of cards; never a hand, a discard, the stock or a card
    only one player has seen.  Every card field is a :class:`CardSet`, by role.
    """

    phase: Phase
    to_act: Role | None
    packet: int | None
    declaring: DeclClass | None
    shown: tuple[CardSet, CardSet]
    played: tuple[CardSet, CardSet]
    hand_counts: tuple[int, int]
    discard_counts: tuple[int, int]
    stock_count: int
    leftover_count: int
    dialog: tuple[Utterance, ...]
    tricks: tuple[Trick, ...]
    trick_lead: int | None
    events: tuple[Event, ...]
    scores: tuple[int, int]
    tricks_won: tuple[int, int]
    lead_rule: NamedLead | None

    def to_json(self) -> dict[str, Any]:
        cs = _card_texts

        def by_role(x: tuple[Any, Any], f: Any = None) -> dict[str, Any]:
            return {ROLE_NAMES[r]: (x[r] if f is None else f(x[r])) for r in (ELDER, YOUNGER)}

        return {
            "phase": self.phase.value,
            "to_act": None if self.to_act is None else ROLE_NAMES[self.to_act],
            "packet": self.packet,
            "declaring": None if self.declaring is None else self.declaring.label,
            "shown": by_role(self.shown, cs),
            "played": by_role(self.played, cs),
            "hand_counts": by_role(self.hand_counts),
            "discard_counts": by_role(self.discard_counts),
            "stock_count": self.stock_count,
            "leftover_count": self.leftover_count,
            "dialog": dialog_json(self.dialog),
            "tricks": [_trick_json(t) for t in self.tricks],
            "trick_lead": None
            if self.trick_lead is None
            else _TEXTS[self.trick_lead],
            "events": events_json(self.events),
            "scores": by_role(self.scores),
            "tricks_won": by_role(self.tricks_won),
            "lead_rule": None
            if self.lead_rule is None
            else {"kind": self.lead_rule.kind, "value": str(self.lead_rule)},
        }


def _turned_up(deal: Deal) -> int:
    """Cards shown to both in the dialog (declarations shown, leftovers turned up)."""
    out = 0
    for u in deal.dialog:
        out |= u.shown
    return out


def public_mask(deal: Deal) -> int:
    """Every card made public: shown (to both, in the dialog) or played (the spectators'
    oracle)."""
    return (
        deal.shown[ELDER]
        | deal.shown[YOUNGER]
        | _turned_up(deal)
        | played_by(deal, ELDER)
        | played_by(deal, YOUNGER)
    )


def public_view(deal: Deal) -> PublicView:
    """What a spectator may see of ``deal``: what both players have shown or played."""
    return PublicView(
        phase=deal.phase,
        to_act=deal.to_act,
        packet=deal.packet,
        declaring=deal.cls if deal.phase is Phase.DECLARE else None,
        shown=(CardSet(deal.shown[ELDER]), CardSet(deal.shown[YOUNGER])),
        played=(CardSet(played_by(deal, ELDER)), CardSet(played_by(deal, YOUNGER))),
        hand_counts=(deal.hands[ELDER].bit_count(), deal.hands[YOUNGER].bit_count()),
        discard_counts=(deal.discards[ELDER].bit_count(), deal.discards[YOUNGER].bit_count()),
        stock_count=len(deal.stock),
        leftover_count=deal.leftovers.bit_count(),
        dialog=deal.dialog,
        tricks=deal.tricks,
        trick_lead=deal.trick_lead,
        events=deal.events,
        scores=deal.scores,
        tricks_won=deal.won,
        lead_rule=deal.lead_rule,
    )
