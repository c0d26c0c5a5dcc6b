"""Every odds statement of the 1754 *Particular RULES* (court-gamester-1754.txt), reproduced.

The reading of the draw (see ``piquet.analysis.odds``): a player holds twelve of the
32 cards and has seen no others.  Elder takes the top five of the stock:
any five of his twenty unseen cards.  Younger, when elder took his five,
takes the last three: any three of *his* twenty unseen cards (elder's hand,
elder's discard and the stock are all alike to him).  So "elder hand" means
5 drawn from 20, and "younger hand" 3 drawn from 20.

Each test quotes its statement, gives the exact figure, and says whether the
book's figure is exact or its rounding.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from piquet.analysis.drawtables import hand_stats, suit_tables
from piquet.analysis.odds import (
    ELDER,
    YOUNGER,
    Odds,
    certain_cards_chance,
    deck_mask,
    draw_chance,
    improvements,
)
from piquet.core.cards import CardSet, mask_cards
from piquet.core.rules import get_rules

RULES = get_rules("court-gamester-1754")


def _event(imp_events: object, name: str) -> Fraction:
    for e in imp_events:  # type: ignore[attr-defined]
        if e.name == name:
            return e.odds.fraction  # type: ignore[no-any-return]
    raise AssertionError(f"no event {name!r}")


def test_rule_ii_low_quatorze_elder_three_to_one() -> None:
    """II: "if you are elder Hand, it is Three to One that you miss your Aim".

    Going for a quatorze of queens, knaves or tens with three of them held:
    one certain card among the five elder takes from twenty.  Exactly 1/4,
    3 to 1 against: the book's figure is exact.
    """
    p = certain_cards_chance(RULES, ELDER, 1)
    assert p == Fraction(1, 4)
    assert Odds(p).phrase == "3 to 1 against"
    # the same with real cards: three queens kept, five laid out
    hand = CardSet.parse("QS QH QD AS KS 9S AH 8H 9D 8D 9C 8C")
    imp = improvements(hand, CardSet.parse("9S 8H 9D 8D 9C"), RULES, role=ELDER)
    assert _event(imp.events, "quatorze of queens") == Fraction(1, 4)


def test_rule_ii_low_quatorze_younger_seventeen_to_three() -> None:
    """II: "and if you are younger Hand, it is Seventeen to Three".

    One certain card among the three younger takes from his twenty unseen:
    exactly 3/20, 17 to 3 against.  The book's figure is exact.
    """
    p = certain_cards_chance(RULES, YOUNGER, 1)
    assert p == Fraction(3, 20)
    assert Odds(p).phrase == "17 to 3 against"
    hand = CardSet.parse("JS JH JD AS KS 9S AH 8H 9D 8D 9C 8C")
    imp = improvements(hand, CardSet.parse("9D 8D 9C"), RULES, role=YOUNGER)
    assert _event(imp.events, "quatorze of knaves") == Fraction(3, 20)


def test_rule_iii_four_certain_cards_five_to_two_is_a_rounding() -> None:
    """III: "Tierce-Major, and the Seven in any Suit, of four certain Cards, it is Five to
    Two but that you take in One".

    Elder takes five of twenty; at least one of four certain cards:
    1 - C(16,5)/C(20,5) = 232/323, that is 232 to 91 on (2.55 to 1).  The
    book's "five to two" (2.5 to 1) is its rounding of this, 1.9% short;
    odds_phrase gives the same rounding.
    """
    p = draw_chance(20, 5, 4)
    assert p == Fraction(232, 323)
    assert Odds(p).for_against == (232, 91)
    assert Odds(p).phrase == "232 to 91 on, about 5 to 2"
    assert abs(232 / 91 - 5 / 2) / (5 / 2) < 0.02


def test_rule_iii_one_certain_card_for_a_quatorze_three_to_one() -> None:
    """III: "the Odds is Three to One against you, that you do not make a Quatorze, by
    taking in any One certain Card elder Hand".

    The same draw as rule II for elder: 1/4, 3 to 1 against; exact.
    """
    assert draw_chance(20, 5, 1) == Fraction(1, 4)
    assert Odds(draw_chance(20, 5, 1)).phrase == "3 to 1 against"


def test_rule_iv_quart_to_a_queen_five_to_four_is_two_certain_cards() -> None:
    """IV: "suppose you have a Quart to a Queen, or a Knave, if you are elder Hand, it is
    only Five to Four but you take in a Queen, a Knave, or a Ten".

    The 1754 printing runs two clauses together.  Later editions of Hoyle's
    treatise, which these Particular Rules follow, read "it is only about
    five to four, being elder hand, but that you take in a card to make you a
    quint, and about three to one but that you take in a queen, a knave, or
    ten", and their table of calculations gives the same draw (the ace or
    nine to a quart to a king) as "about 5 to 4 against you".  A quint from a
    quart to the queen (Q J 10 9) needs one of two certain cards (the king or
    the eight): 17/38, 21 to 17 against (1.235 to 1).  So "five to four"
    (1.25) is the book's rounding, and it is five to four *against*.  The
    literal reading, one of the three other queens, knaves or tens when three
    of each are held, gives 137 to 91 on, about 3 to 2, which the figure does
    not fit.
    """
    p = draw_chance(20, 5, 2)
    assert p == Fraction(17, 38)
    assert Odds(p).phrase == "21 to 17 against"
    assert abs(21 / 17 - 5 / 4) / (5 / 4) < 0.02
    hand = CardSet.parse("QH JH TH 9H AS KS 9S AD 9D 8D 9C 7C")
    imp = improvements(hand, CardSet.parse("9S 9D 8D 9C 7C"), RULES, role=ELDER)
    assert _event(imp.events, "quint or better in hearts") == Fraction(17, 38)
    literal = draw_chance(20, 5, 3)
    assert Odds(literal).phrase == "137 to 91 on, about 3 to 2"


def test_rule_x_two_tierces_younger_twenty_nine_to_twenty_eight() -> None:
    """X: "if he has two Tierces from a King, Queen, or Knave, as it is Twenty-nine to
    Twenty-eight that he succeeds, and to make him a Quart to either of them has Four
    certain Cards to take in".

    Younger, three from twenty, at least one of four certain cards:
    1 - C(16,3)/C(20,3) = 29/57, 29 to 28 on.  Exact.  Checked also on real
    cards: a tierce to the king in hearts and to the queen in spades, every
    one of the 1,140 draws enumerated.
    """
    p = certain_cards_chance(RULES, YOUNGER, 4)
    assert p == Fraction(29, 57)
    assert Odds(p).phrase == "29 to 28 on"
    hand = CardSet.parse("KH QH JH QS JS TS 8D 7D 9C 8C 7C 8H").mask
    discard = CardSet.parse("8D 7D 9C").mask
    tables = suit_tables(RULES)
    unseen = mask_cards(deck_mask(RULES) & ~hand)
    kept = hand & ~discard
    hits = total = 0
    for combo in itertools.combinations(unseen, 3):
        final = kept | sum(1 << c for c in combo)
        hearts = hand_stats(final & 0x1FF << 9, tables).seq_code >> 4
        spades = hand_stats(final & 0x1FF, tables).seq_code >> 4
        hits += max(hearts, spades) >= 4
        total += 1
    assert Fraction(hits, total) == Fraction(29, 57)


def test_rule_x_three_queens_younger_seventeen_to_three() -> None:
    """X: "having Three Queens, Knaves, or Tens, attempt to secure them ... the Odds against
    him will be Seventeen to Three".

    Younger, one certain card in three from twenty: 3/20, 17 to 3 against.
    Exact.
    """
    assert draw_chance(20, 3, 1) == Fraction(3, 20)
    assert Odds(Fraction(3, 20)).phrase == "17 to 3 against"


def test_rule_xv_the_ace_of_a_discarded_suit_very_great_odds() -> None:
    """XV: "suppose he should hold King, Queen, Nine, or the King, Knave, and Nine of a
    Suit; he may ... discard either of those Suits ... and the Odds against him, that he
    does not take in the Ace of either of those Suits, being very great".

    Reading: younger lays out one such suit; taking in its ace is one certain
    card in three from twenty, 3/20: 17 to 3 against ("very great").  The book
    gives no figure; if "either" meant the ace of one of two suits, two
    certain cards, it would be 27/95, 68 to 27 against.
    """
    p = certain_cards_chance(RULES, YOUNGER, 1)
    assert Odds(p).phrase == "17 to 3 against"
    assert p < Fraction(1, 5)
    assert Odds(draw_chance(20, 3, 2)).phrase == "68 to 27 against, about 5 to 2"


def test_rule_xviii_ace_or_nine_exactly_equals_king_or_queen() -> None:
    """XVIII: "the Chance of taking the Ace or Nine to his Quart to a King, is exactly equal
    to the taking in either King or Queen, as he has Three of each in his Hand".

    Both are one of two certain cards in five from twenty: 17/38 each, so the
    book's "exactly equal" is exact.  On real cards: a quart to the king in
    hearts, three kings and three queens, every one of the 15,504 draws.
    """
    hand = CardSet.parse("KH QH JH TH KS QS KD QD 8S 7D 8C 7C").mask
    discard = CardSet.parse("8S 7D 8C 7C TH").mask  # one of the quart must go too
    assert draw_chance(20, 5, 2) == Fraction(17, 38)
    unseen = mask_cards(deck_mask(RULES) & ~hand)
    ace_or_nine = CardSet.parse("AH 9H").mask
    king_or_queen = CardSet.parse("KC QC").mask
    a = b = total = 0
    for combo in itertools.combinations(unseen, discard.bit_count()):
        drawn = sum(1 << c for c in combo)
        a += bool(drawn & ace_or_nine)
        b += bool(drawn & king_or_queen)
        total += 1
    assert a == b
    assert Fraction(a, total) == Fraction(17, 38)
