"""``book``: plays by the advice of the period literature and sound trick-play habits.

The advice is the "Particular RULES for playing the GAME" of *The Compleat
Gamester* (8th ed., 1754; ``shared/sources/court-gamester-1754.txt``).  Each
rule the player follows is quoted where it acts:

- Rule I, *play by stages*: "when you are pretty much behind your Adversary,
  you are to play a pulling Game" -- far behind, combinations weigh more in the
  discard; far ahead (Rule XI, "suppose Eighty to Fifty"), the cards do.
- Rule II, *discard to win the cards*: "Your View in discarding, is to win the
  Cards ... not to regard a low Quatorze, such as three Queens, three Knaves,
  or three Tens" -- aces and guarded kings are kept, low trios count little.
- Rule III, *elder takes in*: "it is Five to Two but that you take in One" --
  elder exchanges all he may unless his worst cards are good ones.
- Rule V, *the point*: "The gaining of the Point is, generally speaking, Ten
  Points good to you" -- the cards of the point suit are kept.
- Rule VII: "If the younger Hand holds Three Aces, he will find it his best
  Way to discard the fourth Suit."
- Rule VIII, *keep guards*: "The younger Hand should be careful to guard his
  Queen-suit" -- a queen's small guards are kept, and in the play a king's or
  queen's guard is the last card thrown.
- Rule IX: "When you have gained Six Tricks and have still a winning Card, be
  sure to play that" -- with six tricks, a master card is led at once.
- Rule XII: "It may sometimes be good Judgment in the younger Hand not to call
  Three Queens, Knaves, &c. ... which his Adversary may imagine is a Guard to a
  King or Queen" -- younger sinks a low trio whose card is the only guard of a
  king or queen.
- Rule XIX: "he ought to begin with that Suit which is the least" -- of two
  suits headed by winners, the shorter is led first.

Trick-play habits beyond the book: win a trick with the lowest card that wins,
otherwise follow with the lowest; throw the lowest card of a suit that guards
nothing.  Deterministic: the seed is kept for interface's sake only.
"""

from __future__ import annotations

from piquet.core.actions import (
    PLAY,
    Action,
    AnnounceBlanche,
    Appoint,
    DealBy,
    Declare,
    Leftover,
    LeftoverChoice,
    NameLead,
    Pass,
    Play,
)
from piquet.core.cards import DECK32, DECK36, SUIT_MASKS, CardSet
from piquet.core.deal import ELDER, Phase
from piquet.core.declarations import DeclClass
from piquet.core.match import MatchView
from piquet.core.rules import Leftovers, Rules
from piquet.core.view import DealView, appointable
from piquet.players.base import register_level
from piquet.players.common import (
    book_discard,
    discard_action,
    my_turn,
    rules_of,
    situation,
    truthful_declaration,
)

__all__ = ["BookPlayer", "book_lead", "book_play", "guards_a_court", "opponent_possible"]


class BookPlayer:
    """Follows the 1754 Particular Rules (see the module docstring), rule by rule."""

    name = "book"

    def __init__(self, seed: int = 0, *, rules: Rules | None = None) -> None:
        self.seed = seed
        self.rules = rules

    def choose(self, view: MatchView) -> Action:
        """The book's action; raises IllegalActionError when it is not this player's turn."""
        deal = my_turn(view)
        rules = rules_of(view, self.rules)
        lead = situation(view, rules).lead
        return book_action(deal, rules, lead=lead)


def book_action(deal: DealView, rules: Rules, *, lead: int = 0) -> Action:
    """The book's choice in any phase (shared with the search levels)."""
    phase = deal.phase
    if phase is Phase.DEAL:
        sizes = [a for a in deal.legal_actions if isinstance(a, DealBy)]
        two = [a for a in sizes if a.size == 2]  # 1754: "usually 2"
        return two[0] if two else sizes[0]
    if phase is Phase.BLANCHE:
        lo, hi = _blanche_bounds(deal)
        n = book_discard(deal.hand.mask, lo, hi, rules, role=deal.role, lead=lead).bit_count()
        return AnnounceBlanche(n)
    if phase is Phase.EXCHANGE:
        assert deal.discard_range is not None
        lo, hi = deal.discard_range
        mask = book_discard(deal.hand.mask, lo, hi, rules, role=deal.role, lead=lead)
        return discard_action(mask)
    if phase is Phase.LEFTOVERS:
        return _leftovers(deal, rules)
    if phase is Phase.APPOINT:
        return _appoint(deal, rules)
    if phase is Phase.PLAY:
        return PLAY[book_play(deal, rules)]
    return _declare(deal, rules)


def _blanche_bounds(deal: DealView) -> tuple[int, int]:
    sizes = [a.discards for a in deal.legal_actions if isinstance(a, AnnounceBlanche)]
    return min(sizes), max(sizes)


def _leftovers(deal: DealView, rules: Rules) -> Action:
    legal = deal.legal_actions
    if deal.role == ELDER:
        # name the lead only when it is the lead one would make anyway: an ace at the head
        # of the longest suit
        hand = deal.hand.mask
        best = max(range(4), key=lambda s: ((hand & SUIT_MASKS[s]).bit_count(), s))
        ace = 9 * best + 8
        if hand >> ace & 1:
            for a in legal:
                if isinstance(a, NameLead) and (
                    (a.card is not None and a.card.index == ace)
                    or (a.suit is not None and int(a.suit) == best)
                ):
                    return a
        return Leftover(LeftoverChoice.DECLINE)
    if rules.younger_leftovers is Leftovers.YOUNGER_LOOKS:
        return Leftover(LeftoverChoice.LOOK)
    return Leftover(LeftoverChoice.DECLINE)


def _appoint(deal: DealView, rules: Rules) -> Action:
    """Younger appoints the suit (or a card of the suit) where he holds the top, among
    what elder may hold as far as he knows (:func:`appointable`; anything else would bind
    elder to nothing)."""
    hand = deal.hand.mask
    may = appointable(deal, rules)
    legal = [a for a in deal.legal_actions if isinstance(a, Appoint) and (
        may & SUIT_MASKS[int(a.suit)] if a.suit is not None
        else a.card is not None and may >> a.card.index & 1)]
    best_suit = max(range(4), key=lambda s: (_top(hand, s), (hand & SUIT_MASKS[s]).bit_count()))
    for a in legal:
        if a.suit is not None and int(a.suit) == best_suit:
            return a
    cards = [a for a in legal if a.card is not None and a.card.index // 9 == best_suit]
    if cards:
        return min(cards, key=lambda a: a.card.index if a.card is not None else 99)
    return legal[0]


def _top(hand: int, suit: int) -> int:
    local = hand >> (9 * suit) & 0x1FF
    return local.bit_length()


def _declare(deal: DealView, rules: Rules) -> Action:
    legal = deal.legal_actions
    choice = truthful_declaration(deal, rules)
    # Rule XII: younger sinks a low trio whose card is the only guard of a king or queen
    if (
        deal.role != ELDER
        and isinstance(choice, Declare)
        and choice.cls is DeclClass.SET
        and Pass() in legal
    ):
        cards = choice.cards.mask
        rank = next(iter(choice.cards)).rank
        others = [a for a in legal if isinstance(a, Declare) and a != choice]
        if int(rank) <= 12 and cards.bit_count() == 3 and not others:
            if guards_a_court(deal.hand.mask, choice.cards):
                return Pass()
    return choice


def guards_a_court(hand: int, cards: CardSet) -> bool:
    """Whether one of ``cards`` (a low trio's) guards a king or a queen of ``hand`` alone
    (Rule XII): a king held with one other card or, without the king, a queen held with
    two others, the trio's card below the queen."""
    for c in cards:
        suit = hand & SUIT_MASKS[c.suit]
        n = suit.bit_count()
        king = suit >> (9 * c.suit + 7) & 1
        queen = suit >> (9 * c.suit + 6) & 1
        if (king and n == 2) or (queen and not king and n == 3 and c.rank < 12):
            return True
    return False


# ------------------------------------------------------------------ the play
def opponent_possible(deal: DealView, rules: Rules) -> int:
    """Cards the other may still hold: not ours, not played, not laid out by us."""
    deck = DECK36 if rules.deck_size == 36 else DECK32
    played = 0
    for t in deal.tricks:
        played |= (1 << t.lead) | (1 << t.follow)
    if deal.trick_lead is not None:
        played |= 1 << deal.trick_lead
    return deck & ~deal.hand.mask & ~deal.discards.mask & ~played


def _is_master(card: int, possible: int) -> bool:
    s, r = divmod(card, 9)
    higher = (possible >> (9 * s)) & 0x1FF & ~((1 << (r + 1)) - 1)
    return higher == 0


def book_play(deal: DealView, rules: Rules) -> int:
    """The book's card (an index): see the module docstring."""
    legal = [a.card.index for a in deal.legal_actions if isinstance(a, Play)]
    if len(legal) == 1:
        return legal[0]
    hand = deal.hand.mask
    possible = opponent_possible(deal, rules)
    lead = deal.trick_lead
    if lead is not None:
        same = [c for c in legal if c // 9 == lead // 9]
        if same:
            winners = [c for c in same if c > lead]
            return min(winners) if winners else min(same)
        return _throw(legal, hand)
    return book_lead(legal, hand, possible, deal.tricks_won[deal.role])


def book_lead(legal: list[int], hand: int, possible: int, won: int) -> int:
    """Lead a master (Rule IX with six tricks; Rule XIX: the shorter suit first), else the
    lowest card of the longest suit that guards nothing."""
    masters = [c for c in legal if _is_master(c, possible)]
    if masters:
        if won >= 6:
            return max(masters, key=lambda c: c % 9)
        return min(masters, key=lambda c: ((hand & SUIT_MASKS[c // 9]).bit_count(), -(c % 9)))
    return min(legal, key=lambda c: (_guard_penalty(c, hand), -_suit_len(hand, c), c % 9))


def _suit_len(hand: int, card: int) -> int:
    return (hand & SUIT_MASKS[card // 9]).bit_count()


def _guard_penalty(card: int, hand: int) -> int:
    """2 for a card that is the guard of a king or queen (Rule VIII), 1 for a court, else 0."""
    s, r = divmod(card, 9)
    suit = hand >> (9 * s) & 0x1FF
    n = suit.bit_count()
    king = suit >> 7 & 1
    queen = suit >> 6 & 1
    if r < 6 and ((king and n <= 2) or (queen and n <= 3)):
        return 2
    if r in (6, 7):
        return 1
    return 0


def _throw(legal: list[int], hand: int) -> int:
    """Discard in play: the lowest card of a suit that guards nothing, short suits first."""
    return min(legal, key=lambda c: (_guard_penalty(c, hand), c % 9, _suit_len(hand, c)))


register_level("book", lambda seed, think_ms: BookPlayer(seed))
