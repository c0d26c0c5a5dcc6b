"""The questions the terminal asks, and how it reads the answers.

:func:`ask_for` turns a player's view into an :class:`Ask`: what kind of
decision it is, the question to print, the prompt, and the numbered choices
that ``?`` lists.  :func:`read_action` reads a typed answer into an action:
a card as ``QH``, ``q h``, ``10h``; a number from the numbered hand or list;
the words of the dialog (``good``, ``not good``, ``pass``); or an action id
(``play:QH``).  It raises :class:`InputError` with one line saying what was
wrong and what is allowed; the caller then asks again.  Whether the action is
legal is still checked by the engine (``Match.verify``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

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
    parse_action,
)
from piquet.core.cards import Card, CardSet, Suit
from piquet.core.deal import ELDER, YOUNGER, Phase
from piquet.core.declarations import DeclClass
from piquet.core.errors import ParseError, PiquetError
from piquet.core.facts import Passed
from piquet.core.match import MatchView
from piquet.core.roles import OTHER, Role
from piquet.core.rules import Leftovers, Rules
from piquet.core.view import DealView, lead_binding
from piquet.table.menu import REPLY_LABELS, claim_label, class_word, menu

__all__ = [
    "Ask",
    "Choice",
    "InputError",
    "ask_for",
    "read_action",
]


class InputError(PiquetError):
    """Typed input that is not an answer to the question asked; nothing has changed."""


@dataclass(frozen=True, slots=True)
class Choice:
    """One answer that ``?`` lists: the action and how it reads."""

    action: Action
    label: str


@dataclass(frozen=True, slots=True)
class Ask:
    """One decision: ``kind`` (deal, blanche, discard, leftovers, appoint, declare,
    answer, question, play), the question, the prompt, the choices ``?`` lists."""

    kind: str
    question: str
    prompt: str
    choices: tuple[Choice, ...]
    how: str
    """One line on how to answer (shown with ``?``)."""

    @property
    def numbered(self) -> bool:
        """Whether a typed number picks a choice (else, at the play and discard prompts, it
        is a card's number in the hand, and at the deal and blanche prompts a count)."""
        return self.kind not in ("play", "discard", "deal", "blanche")


_REPLY_WORDS: Final[dict[str, Reply]] = {
    "good": Reply.GOOD,
    "g": Reply.GOOD,
    "yes": Reply.GOOD,
    "notgood": Reply.NOT_GOOD,
    "ng": Reply.NOT_GOOD,
    "not": Reply.NOT_GOOD,
    "no": Reply.NOT_GOOD,
    "equal": Reply.EQUAL,
    "e": Reply.EQUAL,
    "eq": Reply.EQUAL,
    "making": Reply.MAKING,
    "m": Reply.MAKING,
}
_REPLY_SAID: Final = {
    Reply.GOOD: "good",
    Reply.NOT_GOOD: "not good",
    Reply.EQUAL: "equal",
    Reply.MAKING: "making?",
}
_YES: Final = frozenset({"y", "yes", "ask", "look", "ok"})
_NO: Final = frozenset({"n", "no", "decline", "pass", "none", "-"})
_PASS: Final = frozenset({"pass", "p", "sink", "no", "none", "-", "nothing"})


def _other(role: Role | None) -> Role:
    """The other role of the player to act (who always has one while acting)."""
    assert role is not None, "the player to act holds a role"
    return OTHER[role]


def _last_words(view: MatchView, seat: int, n: int = 1) -> str:
    """What ``seat`` last said or showed in the declarations (``n`` lines), for a prompt:
    speech quoted, cards shown as cards (``shows TH 9H 8H, then says "Three queens."``)."""
    deal = view.deal
    assert deal is not None
    lines = [u for u in deal.dialog if u.role == seat and u.cls is not None][-n:]
    parts = [
        f"shows {CardSet(u.shown)}" if u.shown else f'says "{u.text}"' for u in lines
    ]
    return ", then ".join(parts)


def _ask_play(deal: DealView, legal: tuple[Action, ...], opponent: str) -> Ask:
    """The question of the play: the card to lead or to play to the lead."""
    playable = [a.card for a in legal if isinstance(a, Play)]
    in_hand = list(deal.hand)
    hand_size = len(in_hand)
    choices = tuple(Choice(Play(c), f"{c} ({in_hand.index(c) + 1})") for c in playable)
    if deal.trick_lead is not None:
        lead = Card.from_index(deal.trick_lead)
        q = f"{opponent} leads {lead}: your play."
    elif (bound := lead_binding(deal)) is not None:
        q = ("Your lead: you are bound to the lead named for the stock." if bound.held
             else "Your lead: the lead appointed binds nothing (you hold none of it).")
    else:
        q = "Your lead."
    restricted = len(playable) < hand_size
    prompt = (
        f"Play a card ({' '.join(str(c) for c in playable)})> "
        if restricted
        else "Play a card> "
    )
    return Ask(
        "play",
        q,
        prompt,
        choices,
        "Type a card (QH, q h, 10h) or its number in your hand.",
    )


def _ask_declare(view: MatchView, rules: Rules, legal: tuple[Action, ...], opponent: str) -> Ask:
    """The question of the declarations: the claim to make in the class being declared,
    or the pass."""
    deal = view.deal
    assert deal is not None, "asked only of a player in a deal"
    role = deal.role
    cls = deal.declaring or DeclClass.POINT
    word = class_word(cls, rules)
    hand = deal.hand
    # the menu's words (a claim with its cards, the pass as the browser says it)
    options = [Choice(a, claim_label(hand, a, rules)) for a in legal if isinstance(a, Declare)]
    may_pass = any(isinstance(a, Pass) for a in legal)
    if may_pass:
        options += [Choice(i.action, i.label + ": sink") for i in menu(view)
                    if isinstance(i.action, Pass)]
    if role == ELDER:
        q = f"You are elder: declare your {word} first."
    else:
        elder_said = [u.fact for u in deal.dialog if u.role == ELDER and u.cls == cls]
        if elder_said and isinstance(elder_said[-1], Passed):
            q = f"{opponent} declared no {word}. Declare yours, or pass."
        elif not may_pass:
            q = f"You said not good: declare the {word} that beats {opponent}'s."
        else:
            q = f"Declare your {word}, or pass."
    if not any(isinstance(a, Declare) for a in legal):
        q += f" You have no {word} to declare."
    return Ask(
        "declare",
        q,
        f"Your {word}> ",
        tuple(options),
        "Type the number of a claim, its cards (AH KH QH)"
        + (", or pass." if may_pass else ": you may not pass now."),
    )


def ask_for(view: MatchView, rules: Rules, *, opponent: str = "the other") -> Ask:
    """The question for the player of ``view``, who is to act.

    ``opponent`` is the other player's name, for the wording.  Raises
    :class:`PiquetError` if the view has nothing to decide.
    """
    deal = view.deal
    if deal is None or view.to_act != view.player:
        raise PiquetError("it is not this player's turn")
    legal = deal.legal_actions
    phase = deal.phase
    role = deal.role
    if phase is Phase.EXCHANGE:
        lo, hi = deal.discard_range or (0, 0)
        count = f"{lo}" if lo == hi else f"{lo} to {hi}"
        who = "elder" if role == ELDER else "younger"
        q = (
            f"You are {who}: discard {count} card{'s' if hi != 1 else ''} "
            f"and take as many from the stock ({deal.stock_count} there)."
        )
        if lo == 0:
            q += " Type - to keep your hand."
        return Ask(
            "discard",
            q,
            f"Discard {count} card{'s' if hi != 1 else ''}> ",
            (),
            "Type the cards (7S 8S 9D, 10h, q h) or their numbers from your hand (1 4 5).",
        )
    if phase is Phase.PLAY:
        return _ask_play(deal, legal, opponent)
    if phase is Phase.DEAL:
        sizes = [a.size for a in legal if isinstance(a, DealBy)]
        listed = _or_list([str(s) for s in sizes])
        return Ask(
            "deal",
            f"You deal: twelve cards each, in packets of {listed} at a time (your choice).",
            f"Deal by ({', '.join(str(s) for s in sizes)})> ",
            tuple(Choice(DealBy(s), f"by {s}") for s in sizes),
            "Type the packet size.",
        )
    if phase is Phase.BLANCHE:
        ns = [a.discards for a in legal if isinstance(a, AnnounceBlanche)]
        return Ask(
            "blanche",
            "You hold carte blanche (no king, queen or knave)! Announce it, with the number "
            "of cards you will discard: you are bound to that number.",
            f"Carte blanche: discard how many ({ns[0]}-{ns[-1]})> ",
            tuple(Choice(AnnounceBlanche(n), str(n)) for n in ns),
            "Type how many cards you will discard.",
        )
    if phase is Phase.LEFTOVERS:
        return _ask_leftovers(view, rules, legal, opponent)
    if phase is Phase.APPOINT:
        named = [a for a in legal if isinstance(a, Appoint)]
        # only what the table offers: what elder may hold as far as you know (the engine
        # takes any: appointing a card he cannot hold binds him to nothing)
        offered = {i.action for i in menu(view) if i.offer}
        named = [a for a in named if a in offered] or named
        suit = named[0].suit is not None
        return Ask(
            "appoint",
            f"{opponent} named a lead he cannot play: appoint the "
            f"{'suit' if suit else 'card'} he must lead.",
            "Appoint a suit (S H D C)> " if suit else "Appoint a card> ",
            tuple(Choice(a, str(a.suit if suit else a.card)) for a in named),
            "Type a suit letter (S H D C)." if suit else "Type a card (QH, 10h).",
        )
    # declarations
    if any(isinstance(a, Answer) for a in legal):
        replies = [a.reply for a in legal if isinstance(a, Answer)]
        said = _last_words(view, _other(role), 2)
        stop = "" if said.endswith('"') else "."
        return Ask(
            "answer",
            f"{opponent} {said}{stop}",
            f"Your answer ({', '.join(_REPLY_SAID[r] for r in replies)})> ",
            tuple(Choice(Answer(r), REPLY_LABELS[r]) for r in replies),
            "Type good, not good, equal or making (as offered), or a number.",
        )
    if any(isinstance(a, Question) for a in legal):
        said = _last_words(view, _other(role), 1)
        stop = "" if said.endswith('"') else "."
        return Ask(
            "question",
            f"{opponent} {said}{stop} You may ask which card of each three counted he laid out.",
            "Ask which one he laid out (y/n)> ",
            (Choice(Question(True), "Ask"), Choice(Question(False), "Do not ask")),
            "Type y to ask, n not to.",
        )
    return _ask_declare(view, rules, legal, opponent)


def _ask_leftovers(view: MatchView, rules: Rules, legal: tuple[Action, ...], opponent: str) -> Ask:
    deal = view.deal
    assert deal is not None
    n = deal.leftover_count
    cards = f"{n} leftover{'s' if n != 1 else ''}"
    mode = rules.younger_leftovers
    them = "them" if n != 1 else "it"
    if deal.role == YOUNGER:
        if mode is Leftovers.YOUNGER_TURNS_UP:
            q = (f"You have {cards} (stock cards you did not take). Turn {them} up for both "
                 "to see?")
        else:
            q = (
                f"You have {cards} (stock cards you did not take). Look at {them}? If you do, "
                f"{opponent} may see {them} after leading his first card."
            )
        return Ask(
            "leftovers",
            q,
            f"Look at {them} (y/n)> "
            if mode is not Leftovers.YOUNGER_TURNS_UP
            else f"Turn {them} up (y/n)> ",
            (
                Choice(Leftover(LeftoverChoice.LOOK), "Yes"),
                Choice(Leftover(LeftoverChoice.DECLINE), "No"),
            ),
            "Type y or n.",
        )
    names = [a for a in legal if isinstance(a, NameLead)]
    by_suit = bool(names) and names[0].suit is not None
    what = "suit" if by_suit else "card"
    choices = (
        *(Choice(a, str(a.suit if by_suit else a.card)) for a in names),
        Choice(Leftover(LeftoverChoice.DECLINE), "No: leave them unseen"),
    )
    return Ask(
        "leftovers",
        f"{opponent} has {cards} (stock cards he did not take). To see {them}, name the "
        f"{what} you will lead (you are then bound to lead it), or say no.",
        f"Name a {what} to lead, or no> ",
        choices,
        "Type a suit letter (S H D C) or no." if by_suit else "Type a card (QH, 10h) or no.",
    )


def _or_list(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" or {items[-1]}"


def _words(text: str) -> str:
    return re.sub(r"[\s\-_.?!]+", "", text.lower())


def _digits(text: str) -> bool:
    """Whether ``text`` is a number written in the digits 0-9 (not "²", not "-1")."""
    return text.isascii() and text.isdigit()


def _whole(text: str) -> int:
    """The number ``text`` (:func:`_digits`); one too long to be any choice reads as a
    number above every choice, never as an error of Python's."""
    return int(text) if len(text) <= 9 else 10**9


def _number(text: str, choices: tuple[Choice, ...]) -> Action | None:
    t = text.strip()
    if _digits(t):
        n = _whole(t)
        if 1 <= n <= len(choices):
            return choices[n - 1].action
        if len(choices) == 1:
            raise InputError(f"there is no choice {n}: there is one, 1 (? shows it)")
        raise InputError(f"there is no choice {n}: choose 1 to {len(choices)} (? lists them)")
    return None


def _hand_card(token: str, hand: list[Card]) -> Card:
    n = _whole(token)
    if not 1 <= n <= len(hand):
        raise InputError(f"there is no card number {n}: your hand is numbered 1 to {len(hand)}")
    return hand[n - 1]


def _parse_cards(text: str, hand: list[Card]) -> CardSet:
    tokens = [t for t in re.split(r"[\s,;]+", text.strip()) if t]
    if tokens and all(_digits(t) for t in tokens):
        picked = [_hand_card(t, hand) for t in tokens]
        out = CardSet(picked)
        if len(out) != len(picked):
            raise InputError("a card number is given twice")
        return out
    try:
        return CardSet.parse(text)
    except ParseError as exc:
        raise InputError(f"{exc}; or give card numbers from your hand") from None


def read_action(ask: Ask, text: str, view: MatchView, rules: Rules) -> Action:
    """Read typed ``text`` as an answer to ``ask``.

    Raises :class:`InputError` with one line saying what is wrong and what is
    allowed.  The action returned may still be refused by the engine.
    """
    deal = view.deal
    assert deal is not None
    raw = text.strip()
    if not raw:
        raise InputError(f"please answer: {ask.how} (? lists the choices)")
    if ":" in raw:
        try:
            given = parse_action(raw)
        except ParseError as exc:
            raise InputError(str(exc)) from None
        return _checked_id(ask, raw, given, view)
    hand = list(deal.hand)
    kind = ask.kind
    if kind == "play":
        if _digits(raw):
            return _checked_play(_hand_card(raw, hand), ask, view)
        try:
            card = Card.parse(raw)
        except ParseError:
            raise InputError(
                f"{raw!r} is not a card: type rank then suit (QH, q h, 10h) or a number "
                f"1 to {len(hand)} from your hand"
            ) from None
        return _checked_play(card, ask, view)
    if kind == "discard":
        if raw.lower() in ("-", "none", "0", "nothing"):
            cards = CardSet()
        else:
            cards = _parse_cards(raw, hand)
        return _checked_discard(cards, view)
    if kind in ("deal", "blanche"):
        # one number, in the digits 0-9, and no minus ("by 3" and "3 cards" are read too)
        numbers = re.findall(r"-?\d+", raw, re.ASCII)
        if len(numbers) != 1 or numbers[0].startswith("-") or len(numbers[0]) > 9:
            raise InputError(f"type a number: {', '.join(c.label for c in ask.choices)}")
        n = _whole(numbers[0])
        for c in ask.choices:
            a = c.action
            if (isinstance(a, DealBy) and a.size == n) or (
                isinstance(a, AnnounceBlanche) and a.discards == n
            ):
                return a
        allowed = ", ".join(c.label for c in ask.choices)
        raise InputError(f"{n} is not allowed here; choose {allowed}")
    numbered = _number(raw, ask.choices)
    if numbered is not None:
        return numbered
    key = _words(raw)
    if kind == "answer":
        found = _REPLY_WORDS.get(key)
        if found is None:
            raise InputError(f"{raw!r} is not an answer; say {_offered(ask)}")
        reply = found
        action: Action = Answer(reply)
        if all(c.action != action for c in ask.choices):
            raise InputError(_why_not_reply(reply, ask))
        return action
    if kind == "question":
        if raw.lower() in _YES:
            return Question(True)
        if raw.lower() in _NO:
            return Question(False)
        raise InputError("type y to ask which card he laid out, or n")
    if kind == "leftovers":
        return _read_leftovers(ask, raw)
    if kind == "appoint":
        return _read_named(ask, raw, appoint=True)
    if kind == "declare":
        if raw.lower() in _PASS:
            if any(isinstance(c.action, Pass) for c in ask.choices):
                return Pass()
            raise InputError("you may not pass now: declare one of the claims (? lists them)")
        try:
            cards = CardSet.parse(raw)
        except ParseError:
            may_pass = any(isinstance(c.action, Pass) for c in ask.choices)
            raise InputError(
                f"{raw!r}: type a claim's number, its cards (AH KH QH)"
                + (", or pass" if may_pass else "") + " (? lists the claims)"
            ) from None
        for c in ask.choices:
            if isinstance(c.action, Declare) and c.action.cards == cards:
                return c.action
        raise InputError(f"{cards}: not a claim you may declare now (? lists the claims)")
    raise InputError(f"{raw!r}: {ask.how}")  # pragma: no cover


def _offered(ask: Ask) -> str:
    return ", ".join(c.label.lower() for c in ask.choices)


def _why_not_reply(reply: Reply, ask: Ask) -> str:
    """Why ``reply`` is not an answer now (it is not among the choices offered)."""
    said = _REPLY_SAID[reply]
    making = any(c.action == Answer(Reply.MAKING) for c in ask.choices)
    if making and reply in (Reply.NOT_GOOD, Reply.EQUAL):
        # you hold a point of as many cards: only the count tells better, equal or worse
        return (
            f"you cannot say {said} yet: you hold a point of as many cards, so ask "
            f"making? first (the count decides); say {_offered(ask)}"
        )
    why = {
        Reply.NOT_GOOD: "you hold nothing better",
        Reply.EQUAL: "you hold nothing equal",
        Reply.MAKING: "you hold no point of as many cards",
        Reply.GOOD: "",
    }[reply]
    return f"you cannot say {said}{': ' + why if why else ''}; say {_offered(ask)}"


def _playable_text(ask: Ask) -> str:
    return " ".join(c.label.split()[0] for c in ask.choices)


def _checked_play(card: Card, ask: Ask, view: MatchView) -> Action:
    """``Play(card)`` if the player may play it now, else :class:`InputError` saying why,
    to him ("you must follow", "you are bound to lead")."""
    deal = view.deal
    assert deal is not None
    action = Play(card)
    if card not in deal.hand:
        raise InputError(f"you do not hold {card}; you may play: {_playable_text(ask)}")
    if action in deal.legal_actions:
        return action
    if deal.trick_lead is not None:
        suit = Card.from_index(deal.trick_lead).suit
        held = CardSet(c for c in deal.hand if c.suit == suit)
        raise InputError(f"{card}: you must follow {suit.plural}: you hold {held}")
    if deal.lead_rule is not None and not deal.tricks:
        named = deal.lead_rule.words
        raise InputError(
            f"{card}: you are bound to lead {named}; you may play: {_playable_text(ask)}"
        )
    raise InputError(  # pragma: no cover - a card held is playable but for the two above
        f"{card}: you may not play it now; you may play: {_playable_text(ask)}"
    )


def _checked_discard(cards: CardSet, view: MatchView) -> Action:
    """``Discard(cards)`` if the player may discard them now, else :class:`InputError`."""
    deal = view.deal
    assert deal is not None
    missing = cards - deal.hand
    if missing:
        raise InputError(f"you do not hold {missing}")
    lo, hi = deal.discard_range or (0, 0)
    if not lo <= len(cards) <= hi:
        count = f"{lo}" if lo == hi else f"{lo} to {hi}"
        raise InputError(f"you must discard {count} cards, not {len(cards)}")
    return Discard(cards)


def _checked_id(ask: Ask, raw: str, action: Action, view: MatchView) -> Action:
    """An action typed as its id (``play:QH``), checked against the question asked, so that
    a refusal speaks to the player as the rest of the table does (never "younger
    decides ...")."""
    deal = view.deal
    assert deal is not None
    if ask.kind == "play" and isinstance(action, Play):
        return _checked_play(action.card, ask, view)
    if ask.kind == "discard" and isinstance(action, Discard):
        return _checked_discard(action.cards, view)
    if ask.kind != "discard" and action in deal.legal_actions:
        return action
    if ask.kind == "declare" and isinstance(action, Declare):
        raise InputError(f"{raw}: not a claim you may declare now (? lists the claims)")
    raise InputError(f"{raw}: not an answer to this question. {ask.how} (? lists the choices)")


def _read_leftovers(ask: Ask, raw: str) -> Action:
    low = raw.lower()
    looks = [c.action for c in ask.choices if isinstance(c.action, Leftover)]
    if low in _NO:
        return Leftover(LeftoverChoice.DECLINE)
    if low in _YES and Leftover(LeftoverChoice.LOOK) in looks:
        return Leftover(LeftoverChoice.LOOK)
    if any(isinstance(c.action, NameLead) for c in ask.choices):
        return _read_named(ask, raw, appoint=False)
    raise InputError("type y or n")


def _read_named(ask: Ask, raw: str, *, appoint: bool) -> Action:
    by_suit = any(
        isinstance(c.action, (NameLead, Appoint)) and c.action.suit is not None for c in ask.choices
    )
    try:
        if by_suit:
            suit = Suit.parse(raw)
            action: Action = Appoint(suit=suit) if appoint else NameLead(suit=suit)
        else:
            card = Card.parse(raw)
            action = Appoint(card=card) if appoint else NameLead(card=card)
    except ParseError:
        what = "a suit (S H D C)" if by_suit else "a card (QH, 10h)"
        extra = "" if appoint else ", or no"
        raise InputError(f"{raw!r}: type {what}{extra}") from None
    if all(c.action != action for c in ask.choices):
        if appoint:
            raise InputError(f"{raw}: it could bind no lead: as far as you know the other "
                             "cannot hold it (? lists what you may appoint)")
        raise InputError(f"{raw}: not one you may name now (? lists them)")
    return action
