"""The words of teaching, made in one place: the exercises' explanations and the coach's
sentences (the feedback after a deal has its own module, :mod:`piquet.learn.feedback`).
Every function takes facts (cards, claims, judged values) and returns plain sentences;
nothing reads a sentence back.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from piquet.core.actions import Action, Answer, Declare, Discard, Pass, Play, Reply
from piquet.core.cards import SUIT_MASKS, Card, CardSet
from piquet.core.deal import Phase
from piquet.core.declarations import Claim, DeclClass, best_claim, claims, statement
from piquet.core.rules import Leftovers, PointMeasure, Rules
from piquet.core.view import DealView

__all__ = [
    "action_label",
    "card_name",
    "cards_words",
    "choice_words",
    "coach_title",
    "decision_words",
    "declaration_label",
    "hand_words",
    "judged_words",
    "options_words",
    "particulars",
    "puzzle_why",
    "why_card",
    "why_declaration",
    "why_discard",
]


def card_name(card: int) -> str:
    """"the queen of hearts"."""
    c = Card.from_index(card)
    return f"the {c.rank.name_singular} of {c.suit.plural}"


def cards_words(n: int) -> str:
    return "one card" if n == 1 else f"{n} cards"


def hand_words(hand: int, rules: Rules) -> str:
    """What a hand holds for the declarations, class by class ("a point of five, a quint
    major and three kings"; "no sequence" is left out)."""
    parts = []
    for cls in DeclClass:
        claim = best_claim(hand, cls, rules)
        if claim is not None:
            parts.append(_article(statement(claim, rules)))
    if not parts:
        return "nothing to declare"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _article(words: str) -> str:
    if words.startswith(("three ", "quatorze")):
        return words if words.startswith("three ") else "a " + words
    return ("an " if words[:1] in "aeiou" else "a ") + words


def judged_words(best: str, other: str, margin: float, worlds: int, share: float) -> str:
    """The judge's figures in a sentence."""
    return (
        f"Over {worlds} deals that fit everything you have seen, {best} comes out about "
        f"{margin:.1f} points of the deal ahead of {other}, the next best, and is the best "
        f"choice in {share:.0%} of them."
    )


# ---------------------------------------------------------------------- the play
def _unseen_above(view: DealView, card: int) -> int:
    """Cards of ``card``'s suit above it that this role has not seen played, shown or held."""
    gone = view.hand.mask | view.discards.mask | view.opponent_played.mask
    gone |= view.stock_seen.mask | view.opponent_shown.mask
    for t in view.tricks:
        gone |= 1 << t.lead | 1 << t.follow
    s = card // 9
    above = SUIT_MASKS[s] & ~((1 << (card + 1)) - 1)
    return above & ~gone


def _card_effect(view: DealView, card: int) -> str:
    """What playing ``card`` does now, as a verb phrase ("wins the trick")."""
    lead = view.trick_lead
    if lead is None:
        if not _unseen_above(view, card):
            return "leads the master of its suit (no card left out can beat it)"
        n = (view.hand.mask & SUIT_MASKS[card // 9]).bit_count()
        return f"leads a suit of which you hold {cards_words(n)}"
    if card // 9 != lead // 9:
        return "is thrown away (you hold none of the suit led), and cannot win"
    if card > lead:
        return "wins the trick"
    return "lets the trick go"


def why_card(view: DealView, best: int, other: int) -> str:
    """Why one card and not another: what each does now, and where both do the same, what
    stays in the hand."""
    b, o = str(CardSet(1 << best)), str(CardSet(1 << other))
    eb, eo = _card_effect(view, best), _card_effect(view, other)
    if eb == eo:
        return (f"{b} and {o} both {_plural(eb)}; the difference is in the tricks to come: "
                f"with {b} played you still hold {o}.")
    if eo.startswith("leads the master"):
        return (f"{b} {eb}, while {o} {eo}: leading {b} first keeps {o}, a sure trick, for "
                "later.")
    if eo == "wins the trick" and eb == "lets the trick go":
        return f"{b} {eb}, while {o} {eo}: here the trick is worth less than keeping {o}."
    return f"{b} {eb}, while {o} {eo}."


def _plural(phrase: str) -> str:
    """A verb phrase said of one card, said of two ("wins" -> "win")."""
    head, _, rest = phrase.partition(" ")
    head = {"is": "are", "lets": "let", "leads": "lead", "wins": "win"}.get(head, head)
    return f"{head} {rest}".replace("its suit", "their suits")


# ---------------------------------------------------------------------- the exchange
def why_discard(hand: int, best: Discard, other: Discard, rules: Rules) -> str:
    """What each discard keeps for the declarations."""
    keep_best = hand & ~best.cards.mask
    keep_other = hand & ~other.cards.mask
    return (
        f"Laying out {best.cards} keeps {hand_words(keep_best, rules)} before you take in; "
        f"laying out {other.cards} would keep {hand_words(keep_other, rules)}."
    )


# ---------------------------------------------------------------------- the declarations
_REPLY: Final = {Reply.GOOD: "good", Reply.NOT_GOOD: "not good", Reply.EQUAL: "equal",
                 Reply.MAKING: "making?"}


def _claim_of(hand: int, action: Declare, rules: Rules) -> Claim | None:
    return next((c for c in claims(hand, action.cls, rules) if c.cards == action.cards.mask),
                None)


def action_label(action: Action, hand: int = 0, rules: Rules | None = None) -> str:
    """A choice as a learner reads it ("lay out 9H 8H TC", "play QH", "answer “not good”";
    with the ``hand`` and ``rules``, a declaration in words: "declare point of five (AS KS
    QS 9S 7S)")."""
    if isinstance(action, Play):
        return f"play {action.card}"
    if isinstance(action, Discard):
        return f"lay out {action.cards}"
    if isinstance(action, Declare):
        claim = _claim_of(hand, action, rules) if rules is not None else None
        if claim is not None and rules is not None:
            return f"declare {statement(claim, rules)} ({action.cards})"
        return f"declare {action.cards}"
    if isinstance(action, Pass):
        return "pass (sink)"
    if isinstance(action, Answer):
        return f"answer “{_REPLY[action.reply]}”"
    return str(action)


def declaration_label(action: Action, hand: int, rules: Rules) -> str:
    """A declaration, an answer or a sink as something done ("declaring your point of five,
    making 44", "sinking it", "answering “not good”")."""
    if isinstance(action, Declare):
        claim = _claim_of(hand, action, rules)
        return "declaring your " + (statement(claim, rules) if claim else str(action.cards))
    if isinstance(action, Pass):
        return "sinking it (passing)"
    if isinstance(action, Answer):
        return f"answering “{_REPLY[action.reply]}”"
    return str(action)


def why_declaration(view: DealView, best: Action, other: Action, rules: Rules) -> str:
    """Why one declaration (or answer, or sink) and not the other."""
    hand = view.hand.mask
    cls = view.declaring
    mine = best_claim(hand, cls, rules) if cls is not None else None
    mine_words = statement(mine, rules) if mine is not None else "nothing in this class"
    said = next((u.text.rstrip(".") for u in reversed(view.dialog)
                 if u.role != view.role and u.cls is cls), None)
    if isinstance(best, Answer):
        his = f"his “{said}”" if said else "his declaration"
        if best.reply is Reply.NOT_GOOD:
            return f"Your {mine_words} beats {his}: say \"not good\" and the class is yours."
        if best.reply is Reply.EQUAL:
            return f"Your {mine_words} is exactly as good as {his}: neither scores the class."
        if best.reply is Reply.MAKING:
            return (f"Your {mine_words} has as many cards as {his}: ask \"making?\" and the "
                    "pips decide.")
        return f"Nothing you hold beats {his}: it is good."
    if isinstance(best, Declare):
        claim = _claim_of(hand, best, rules)
        what = statement(claim, rules) if claim is not None else str(best.cards)
        if isinstance(other, Pass):
            return (f"Your {what}, declared, scores if it is good; sinking it gives the points "
                    "up, and what it would hide is worth less here.")
        return (f"Your {what} is your best holding in this class: a lesser one is more likely "
                "to lose to his, and sinking gives the points up.")
    return ("Sinking it gives up nothing it could win here, and declaring it would tell him "
            "what you hold.")


def puzzle_why(
    view: DealView,
    rules: Rules,
    best: Action,
    other: Action,
    *,
    margin: float,
    worlds: int,
    share: float,
) -> str:
    """An exercise's explanation: why the best choice, then the judge's figures."""
    if isinstance(best, Discard) and isinstance(other, Discard):
        first = why_discard(view.hand.mask, best, other, rules)
        names = (f"laying out {best.cards}", f"laying out {other.cards}")
    elif isinstance(best, Play) and isinstance(other, Play):
        first = why_card(view, best.card.index, other.card.index)
        names = (f"playing {best.card}", f"playing {other.card}")
    else:
        first = why_declaration(view, best, other, rules)
        hand = view.hand.mask
        names = (declaration_label(best, hand, rules), declaration_label(other, hand, rules))
    return f"{first} {judged_words(names[0], names[1], margin, worlds, share)}"


def options_words(labels: Sequence[str]) -> str:
    return ", ".join(labels[:-1]) + " or " + labels[-1] if len(labels) > 1 else labels[0]


# ---------------------------------------------------------------------- the coach
_TITLES: Final = {
    Phase.DEAL: "The deal",
    Phase.BLANCHE: "Carte blanche",
    Phase.EXCHANGE: "The exchange",
    Phase.LEFTOVERS: "The leftovers",
    Phase.APPOINT: "Appointing the lead",
    Phase.PLAY: "The play",
}
_CLASS_TITLES: Final = {DeclClass.POINT: "the point", DeclClass.SEQUENCE: "sequences",
                        DeclClass.SET: "sets"}


def particulars(rules: Rules, phase: Phase) -> list[str]:
    """What this rule set does its own way at this moment of a deal (read from its knobs)."""
    out = []
    if phase is Phase.EXCHANGE:
        out.append(f"Under these rules elder may take up to {rules.elder_max} of the "
                   f"{rules.stock_size} stock cards.")
        if rules.younger_min == 0:
            out.append("Younger may even take none.")
    if phase is Phase.LEFTOVERS and rules.younger_leftovers in (Leftovers.ELDER_NAMES_SUIT,
                                                                Leftovers.ELDER_NAMES_CARD):
        what = "suit" if rules.younger_leftovers is Leftovers.ELDER_NAMES_SUIT else "card"
        out.append(f"Under these rules elder sees the cards younger left only by naming the "
                   f"{what} he will lead, and he is then bound to lead it.")
    if phase is Phase.DECLARE:
        if rules.point_measure is PointMeasure.PIPS:
            out.append("Here the point is counted by pips (the ruff): ace 11, court cards 10, "
                       "one point for every ten.")
        if not rules.sequences_same_suit:
            out.append("Here a sequence may run across suits; each card counts in one "
                       "sequence only.")
        if rules.younger_declares_after_lead:
            out.append("Here elder declares everything and leads his first card before "
                       "younger declares.")
    if phase is Phase.PLAY and rules.game_ends_mid_deal:
        out.append("A game can end in the middle of this deal: the count goes in order, "
                   "card by card.")
    return out




def coach_title(deal: DealView) -> str:
    """The coach's short title for the role's decision ("Declaring the point")."""
    if deal.phase is Phase.DECLARE and deal.declaring is not None:
        return f"Declaring {_CLASS_TITLES[deal.declaring]}"
    if deal.phase is Phase.PLAY:
        return f"The play: trick {len(deal.tricks) + 1}"
    return _TITLES.get(deal.phase, "Your move")


def decision_words(deal: DealView) -> str:
    """Which role the view is of and the decision it faces."""
    you = "elder (you did not deal)" if deal.role == 0 else "younger (you dealt)"
    return f"You are {you}. {_decision(deal)}"


def choice_words(mine: str, his: str | None, *, cost: float | None = None,
                 worlds: int = 0) -> str:
    """What the coach says of a choice: the same as its own (``his`` None), not judged (no
    ``cost``), about the same (``cost`` 0), or what it cost."""
    if his is None:
        return f"You chose {mine}: the coach's choice too."
    if cost is None:
        return f"You chose {mine}; the coach would have chosen {his}."
    if cost <= 0:
        return (f"You chose {mine}. The coach preferred {his}, but in the deals that fit what "
                "you have seen the two come out about the same.")
    return (f"You chose {mine}. {his[:1].upper() + his[1:]} was better: about {cost:.1f} "
            f"points of the deal more, over {worlds} deals that fit what you have seen.")


def _decision(deal: DealView) -> str:
    """The decision the role faces, in plain words."""
    legal = deal.legal_actions
    if deal.phase is Phase.EXCHANGE and deal.discard_range is not None:
        lo, hi = deal.discard_range
        return (f"You lay out {lo} to {hi} cards and take as many from the stock: keep what "
                "scores (a long suit, cards in a row, three or four of a rank) and high cards.")
    if deal.phase is Phase.DECLARE:
        if any(isinstance(a, Answer) for a in legal):
            return ("He has declared: answer good (yours is not better), not good (yours is "
                    "better) or equal.")
        if any(isinstance(a, Declare) for a in legal):
            return "Declare your best holding in this class, or sink it (say nothing)."
        if legal == (Pass(),):
            return "You have nothing to declare in this class."
    if deal.phase is Phase.PLAY:
        if deal.trick_lead is None:
            return "You lead: any card may be played."
        return "He has led: follow suit if you can; the higher card of the suit led wins."
    if deal.phase is Phase.DEAL:
        return "You deal: choose how many cards to give at a time (a packet)."
    if deal.phase is Phase.BLANCHE:
        return "You hold carte blanche: say how many cards you will lay out."
    if any(isinstance(a, Discard | Play) for a in legal):
        return "Choose your move."
    return "Choose what to do."
