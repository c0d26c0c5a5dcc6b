"""The action id space: every decision of a deal as one number, its name, encoding and
decoding, the legal ids of a view, and the bounds a framework asks for (the table of ids:
:mod:`piquet.integrations.actions`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from piquet.core.actions import (
    PLAY,
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
from piquet.core.cards import Card, CardSet, Rank, Suit, mask_cards
from piquet.core.declarations import DeclClass, claims
from piquet.core.errors import IllegalActionError
from piquet.core.rules import PlayScoring, Rules
from piquet.core.view import DealView

__all__ = [
    "ACTION_NAMES",
    "CHANCE",
    "DISCARD_DONE",
    "NUM_ACTIONS",
    "TERMINAL",
    "DiscardDone",
    "SelectDiscard",
    "action_id",
    "action_name",
    "decode_action",
    "encode_action",
    "encode_discard",
    "legal_action_ids",
    "max_deal_decisions",
    "max_deal_points",
]

PLAY_BASE: Final = 0
SELECT_BASE: Final = 36
DISCARD_DONE: Final = 72
DEAL_BASE: Final = 73
DEAL_SIZES: Final = (1, 2, 3, 4, 6, 12)
BLANCHE_BASE: Final = 79
NAME_SUIT_BASE: Final = 92
NAME_CARD_BASE: Final = 96
APPOINT_SUIT_BASE: Final = 132
APPOINT_CARD_BASE: Final = 136
LOOK: Final = 172
DECLINE: Final = 173
POINT_BASE: Final = 174
SEQUENCE_BASE: Final = 210
SET_BASE: Final = 455
PASS: Final = 473
REPLY_BASE: Final = 474
REPLIES: Final = (Reply.GOOD, Reply.NOT_GOOD, Reply.EQUAL, Reply.MAKING)
ASK: Final = 478
NO_QUESTION: Final = 479
NUM_ACTIONS: Final = 480

#: Who moves at a chance node and after the end (OpenSpiel's numbers).
CHANCE: Final = -1
TERMINAL: Final = -4

_ANY_SLOT: Final = 4


@dataclass(frozen=True, slots=True)
class SelectDiscard:
    """Lay out ``card`` for the discard (one step of a discard)."""

    card: Card

    def __str__(self) -> str:
        return f"discard-card:{self.card}"


@dataclass(frozen=True, slots=True)
class DiscardDone:
    """Discard the cards laid out (and take as many, where the exchange says so)."""

    def __str__(self) -> str:
        return "discard-done"


Step = Action | SelectDiscard | DiscardDone


# ---------------------------------------------------------------------- names


def _suit_of(mask: int) -> int:
    return next(s for s in range(4) if mask >> (9 * s) & 0x1FF)


def _sequence_id(slot: int, top: int, length: int) -> int:
    return SEQUENCE_BASE + (slot * 7 + (top - 8)) * 7 + (length - 3)


def _build_names() -> tuple[str, ...]:
    names = [""] * NUM_ACTIONS
    for i in range(36):
        c = Card.from_index(i)
        names[PLAY_BASE + i] = f"play:{c}"
        names[SELECT_BASE + i] = f"discard-card:{c}"
        names[NAME_CARD_BASE + i] = f"name:{c}"
        names[APPOINT_CARD_BASE + i] = f"appoint:{c}"
    names[DISCARD_DONE] = "discard-done"
    for k, size in enumerate(DEAL_SIZES):
        names[DEAL_BASE + k] = f"deal:{size}"
    for n in range(13):
        names[BLANCHE_BASE + n] = f"blanche:{n}"
    for s in Suit:
        names[NAME_SUIT_BASE + s] = f"name:{s.letter}"
        names[APPOINT_SUIT_BASE + s] = f"appoint:{s.letter}"
        for count in range(1, 10):
            names[POINT_BASE + 9 * s + count - 1] = f"declare:point:{s.letter}:{count}"
    names[LOOK] = "look"
    names[DECLINE] = "decline"
    for slot in range(5):
        label = "any" if slot == _ANY_SLOT else Suit(slot).letter
        for top in range(8, 15):
            for length in range(3, 10):
                names[_sequence_id(slot, top, length)] = (
                    f"declare:sequence:{label}:{Rank(top).letter}:{length}"
                )
    for rank in range(6, 15):
        for size in (3, 4):
            names[SET_BASE + (rank - 6) * 2 + size - 3] = f"declare:set:{Rank(rank).letter}:{size}"
    names[PASS] = "pass"
    for k, reply in enumerate(REPLIES):
        names[REPLY_BASE + k] = reply.value
    names[ASK] = "ask-missing"
    names[NO_QUESTION] = "no-question"
    assert all(names) and len(set(names)) == NUM_ACTIONS
    return tuple(names)


#: The fixed name of every id (``ACTION_NAMES[i]``); independent of the state.
ACTION_NAMES: Final = _build_names()
_BY_NAME: Final = {name: i for i, name in enumerate(ACTION_NAMES)}


def action_name(action_id: int) -> str:
    """The fixed name of an id, e.g. ``play:QH`` or ``declare:sequence:H:K:4``.

    Raises :class:`IllegalActionError` for an id outside ``0..NUM_ACTIONS-1``.
    """
    _check_range(action_id)
    return ACTION_NAMES[action_id]


def action_id(name: str) -> int:
    """The id of a fixed name (the inverse of :func:`action_name`).

    Raises :class:`IllegalActionError` naming how ids are written.
    """
    found = _BY_NAME.get(name.strip())
    if found is None:
        raise IllegalActionError(
            f"{name!r} is not an action name; names are written like play:QH, discard-card:7S, "
            "discard-done, declare:point:H:5, declare:sequence:S:K:4, declare:set:A:4, pass"
        )
    return found


def _check_range(action_id: int) -> None:
    if not 0 <= action_id < NUM_ACTIONS:
        raise IllegalActionError(
            f"action id {action_id} is out of range: ids are 0 to {NUM_ACTIONS - 1}"
        )


# ---------------------------------------------------------------------- encode / decode


def _claim_id(cls: DeclClass, cards: int, rules: Rules) -> int:
    n = cards.bit_count()
    if cls is DeclClass.POINT:
        return POINT_BASE + 9 * _suit_of(cards) + n - 1
    top_index = max(mask_cards(cards), key=lambda i: i % 9)
    top = top_index % 9 + 6
    if cls is DeclClass.SEQUENCE:
        slot = _suit_of(cards) if rules.sequences_same_suit else _ANY_SLOT
        return _sequence_id(slot, top, n)
    return SET_BASE + (top - 6) * 2 + n - 3


def encode_action(action: Step, *, rules: Rules) -> int:
    """The id of one engine action (or discard step) under ``rules``.

    A whole :class:`~piquet.core.actions.Discard` is several ids: use
    :func:`encode_discard`.  Raises :class:`IllegalActionError` for a discard
    or an action the numbering does not hold (an empty claim, a blanche
    count above 12).
    """
    if isinstance(action, Play):
        return PLAY_BASE + action.card.index
    if isinstance(action, SelectDiscard):
        return SELECT_BASE + action.card.index
    if isinstance(action, DiscardDone):
        return DISCARD_DONE
    if isinstance(action, Declare):
        if not action.cards:
            raise IllegalActionError(f"{action}: a claim must hold cards")
        return _claim_id(action.cls, action.cards.mask, rules)
    if isinstance(action, Pass):
        return PASS
    if isinstance(action, Answer):
        return REPLY_BASE + REPLIES.index(action.reply)
    if isinstance(action, Question):
        return ASK if action.ask else NO_QUESTION
    if isinstance(action, DealBy) and action.size in DEAL_SIZES:
        return DEAL_BASE + DEAL_SIZES.index(action.size)
    if isinstance(action, AnnounceBlanche) and 0 <= action.discards <= 12:
        return BLANCHE_BASE + action.discards
    if isinstance(action, NameLead | Appoint):
        named = isinstance(action, NameLead)
        if action.card is not None:
            return (NAME_CARD_BASE if named else APPOINT_CARD_BASE) + action.card.index
        if action.suit is not None:
            return (NAME_SUIT_BASE if named else APPOINT_SUIT_BASE) + int(action.suit)
    if isinstance(action, Leftover):
        return LOOK if action.choice is LeftoverChoice.LOOK else DECLINE
    if isinstance(action, Discard):
        raise IllegalActionError(f"{action}: a discard is several ids; use encode_discard(cards)")
    raise IllegalActionError(f"{action}: no id numbers this action")


def encode_discard(cards: CardSet) -> tuple[int, ...]:
    """The ids that make one discard: each card in increasing index, then ``discard-done``."""
    return (*(SELECT_BASE + c.index for c in sorted(cards, key=lambda c: c.index)), DISCARD_DONE)


def decode_action(action_id: int, *, rules: Rules, hand: CardSet) -> Step:
    """The action an id stands for, for the seat holding ``hand``.

    Only a declare id needs the hand (it names the claim; the hand gives its
    cards).  Raises :class:`IllegalActionError` for an id out of range, or a
    declare id naming a claim the hand does not hold.
    """
    _check_range(action_id)
    i = action_id
    if i < SELECT_BASE:
        return PLAY[i]
    if i < DISCARD_DONE:
        return SelectDiscard(Card.from_index(i - SELECT_BASE))
    if i == DISCARD_DONE:
        return DiscardDone()
    if i < BLANCHE_BASE:
        return DealBy(DEAL_SIZES[i - DEAL_BASE])
    if i < NAME_SUIT_BASE:
        return AnnounceBlanche(i - BLANCHE_BASE)
    if i < NAME_CARD_BASE:
        return NameLead(suit=Suit(i - NAME_SUIT_BASE))
    if i < APPOINT_SUIT_BASE:
        return NameLead(card=Card.from_index(i - NAME_CARD_BASE))
    if i < APPOINT_CARD_BASE:
        return Appoint(suit=Suit(i - APPOINT_SUIT_BASE))
    if i < LOOK:
        return Appoint(card=Card.from_index(i - APPOINT_CARD_BASE))
    if i == LOOK:
        return Leftover(LeftoverChoice.LOOK)
    if i == DECLINE:
        return Leftover(LeftoverChoice.DECLINE)
    if i < PASS:
        cls = (
            DeclClass.POINT
            if i < SEQUENCE_BASE
            else DeclClass.SEQUENCE
            if i < SET_BASE
            else DeclClass.SET
        )
        for claim in claims(hand.mask, cls, rules):
            if _claim_id(cls, claim.cards, rules) == i:
                return Declare(cls, CardSet(claim.cards))
        raise IllegalActionError(
            f"{ACTION_NAMES[i]}: the hand {hand} holds no such {cls.label} under {rules.name}"
        )
    if i == PASS:
        return Pass()
    if i < ASK:
        return Answer(REPLIES[i - REPLY_BASE])
    return Question(i == ASK)


def _selectable(hand: int, selected: int, lo: int, hi: int) -> list[int]:
    """Cards that may be laid out next: above the last one, leaving enough to reach ``lo``."""
    k = selected.bit_count()
    if k >= hi:
        return []
    last = selected.bit_length() - 1
    need_after = max(lo - k - 1, 0)
    cards = sorted(i for i in mask_cards(hand) if i > last)
    return [c for n, c in enumerate(cards) if len(cards) - n - 1 >= need_after]


def legal_action_ids(view: DealView, *, rules: Rules, selected: CardSet) -> list[int]:
    """The legal ids of the seat whose view this is, sorted; empty if it is not to act.

    Built from the view alone (its legal actions, its discard range and hand)
    and the seat's own cards laid out so far.
    """
    if view.to_act != view.role:
        return []
    return _legal_ids(view.discard_range, view.hand.mask, view.legal_actions, rules,
                      selected.mask)


def _legal_ids(discard_range: tuple[int, int] | None, hand: int, actions: Iterable[Action],
               rules: Rules, sel: int) -> list[int]:
    """The legal ids of the seat to act: in the exchange from its discard range, its hand
    and the cards it has laid out (``sel``), else from its legal actions."""
    if discard_range is not None:
        lo, hi = discard_range
        ids = [SELECT_BASE + c for c in _selectable(hand & ~sel, sel, lo, hi)]
        if lo <= sel.bit_count() <= hi:
            ids.append(DISCARD_DONE)
        return sorted(ids)
    return sorted(encode_action(a, rules=rules) for a in actions)


# ---------------------------------------------------------------------- bounds


def max_deal_points(rules: Rules) -> int:
    """A bound on what one player can count in one deal (not the attained maximum).

    The sum of each kind's most: carte blanche, a nine-card point, four
    sequences of the best worth, three quatorzes, the larger of repique and
    pique, each trick's most (a scoring lead and a scoring win, or under winner-tenths two
    tenth cards won), the last trick, capot.
    """
    per_trick = (2 * rules.win_value if rules.play_scoring is PlayScoring.WINNER_TENTHS
                 else rules.lead_value + rules.win_value)
    return (
        rules.blanche_value
        + 9
        + 4 * max(rules.sequence_values)
        + 3 * max(rules.quatorze_value, rules.trio_value)
        + max(rules.repique_bonus, rules.pique_bonus)
        + per_trick * 12
        + max(rules.last_trick_bonus, rules.last_trick_tenth_bonus)
        + max(rules.capot_bonus, rules.cards_bonus)
    )


def max_deal_decisions(rules: Rules) -> int:
    """A bound on the player decisions (ids) in one deal.

    Packet size, two blanche announcements, each discard card by card plus
    ``discard-done``, the leftovers and the appointed lead, five steps of the
    dialog per class, 24 cards.
    """
    stock = rules.stock_size
    return 1 + 2 + (stock + 1) * 2 + 2 + 3 * 5 + 24


