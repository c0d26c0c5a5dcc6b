"""Golden deals: one whole deal per preset, worked by hand from a chosen pack order.

Each deal goes from the pack through the deal, the exchange, the declarations dialog and
all twelve tricks.  The expected dialog, the scoring timeline (``piquet.core.scoring`` kinds
and points, in counting order) and the final scores were worked out by hand; the
comments show the sums.  Among them: a carte blanche (cotgrave-1662), a repique
(cotton-1674, court-gamester-1754), a pique (du-coeur-1995 in the play, rubicon on the
first lead) and a capot (court-gamester-1754).
"""

from __future__ import annotations

from enginekit import act, build_deck, said, timeline
from piquet.core.actions import DealBy, Play
from piquet.core.cards import Card, CardSet
from piquet.core.deal import ELDER, YOUNGER, Deal, Phase
from piquet.core.rules import Rules, get_rules
from piquet.core.view import deal_view

E, Y = "elder", "younger"


def pack_of(text: str) -> list[int]:
    return [Card.parse(t).index for t in text.split()]


def deal_from(rules: Rules, pack: str, packet: int) -> Deal:
    deal = Deal.new(rules, pack_of(pack))
    if deal.phase is Phase.DEAL:
        deal = deal.apply(DealBy(packet))
    assert deal.packet == packet
    return deal


def play(deal: Deal, tricks: str) -> Deal:
    """Play the cards in order; ``|`` separates tricks (for the reader only)."""
    for text in tricks.replace("|", " ").split():
        deal = deal.apply(Play(Card.parse(text)))
    return deal


def lead(seat: str, n: int = 1) -> list[tuple[str, str, int]]:
    return [(seat, "lead", 1)] * n


# ====================================================================== cotgrave-1662
# Elder holds carte blanche and names spades to see the stock.

PACK_1662 = (
    "AS TS 9S 8S KS QS JS KH AH TH 9H 7H QH 8H KD QD AD TD 8C 6C JD KC QC JC "
    "AC TC 9D JH 8D 7D 6D 9C 7C 7S 6S 6H"
)


def test_golden_cotgrave_1662_carte_blanche() -> None:
    rules = get_rules("cotgrave-1662")
    assert PACK_1662.split() == [
        str(Card.from_index(i))
        for i in build_deck(
            rules,
            "AS TS 9S 8S AH TH 9H 7H AD TD 8C 6C",
            "KS QS JS KH QH 8H KD QD JD KC QC JC",
            "AC TC 9D JH 8D 7D 6D 9C 7C 7S 6S 6H",
            packet=4,
        )
    ]
    deal = deal_from(rules, PACK_1662, 4)  # dealt by fours
    assert deal.hand(ELDER) == CardSet.parse("AS TS 9S 8S AH TH 9H 7H AD TD 8C 6C")  # a blank
    deal = act(deal, "blanche:3", "discard:8H")  # younger discards first
    deal = act(deal, "discard:8C 6C 7H")  # elder takes AC TC 9D; younger then takes JH
    assert deal.hand(ELDER) == CardSet.parse("AS TS 9S 8S AH TH 9H AD TD 9D AC TC")
    assert deal.hand(YOUNGER) == CardSet.parse("KS QS JS KH QH JH KD QD JD KC QC JC")
    deal = act(deal, "name:S")
    assert deal_view(deal, ELDER).stock_seen == CardSet.parse("JH 8D 7D 6D 9C 7C 7S 6S 6H")
    # the ruff AS TS 9S 8S = 11 + 10 + 9 + 8 = 38, worth 4; younger's best is 30
    deal = act(deal, "declare:point:AS TS 9S 8S", "good")
    # younger's four tierces to the king drown elder's tierce to the ten: 4 x 3 = 12
    deal = act(deal, "declare:sequence:TS 9S 8S", "not-good", "declare:sequence:KS QS JS")
    # elder's quatorze of aces beats younger's quatorzes; with the tens, 14 + 14 = 28
    deal = act(deal, "declare:set:AS AH AD AC", "good")
    assert deal.phase is Phase.PLAY  # no three counted: no question
    deal = play(
        deal,
        "AS JS | AH JH | AD JD | AC JC | TS QS | KS 8S | KH 9H | QH TH | KD 9D | QD TD "
        "| KC TC | QC 9S",
    )
    assert deal.is_over and deal.won == (4, 8)
    assert said(deal) == [
        "elder: Carte blanche!",
        "elder: Carte blanche. I shall discard 3 cards.",
        "younger: younger discards 1",
        "elder: shows carte blanche",
        "elder: elder exchanges 3",
        "elder: elder will lead spades, and sees the stock",
        "elder: Ruff of 38.",
        "younger: Good.",
        "elder: shows AS TS 9S 8S",
        "elder: Tierce to the ten.",
        "younger: Not good.",
        "younger: Tierce to the king.",
        "younger: And tierce to the king, tierce to the king, tierce to the king.",
        "younger: shows KS QS JS KH QH JH KD QD JD KC QC JC",
        "elder: Quatorze of aces.",
        "younger: Good.",
        "elder: And quatorze of tens.",
    ]
    assert timeline(deal) == [
        (E, "carte blanche", 10),
        (E, "point", 4),
        (Y, "sequences", 12),  # younger counts before elder's thirty: no repique
        (E, "sets", 28),
        *lead(E, 4),  # AS AH AD AC
        (E, "lead", 1),  # TS ...
        (Y, "trick", 1),  # ... won by the QS
        *lead(Y, 7),  # KS KH QH KD QD KC QC
        (Y, "last trick", 1),  # won with a queen: two in all
        (Y, "the cards", 10),  # eight tricks to four
    ]
    # elder 10 + 4 + 28 + 5 = 47; younger 12 + 1 + 7 + 1 + 10 = 31
    assert deal.scores == (47, 31)


# ====================================================================== cotton-1674
# A repique: elder counts 39 in hand before younger counts anything.

PACK_1674 = (
    "AS KS QS 8S 7S QH JS TS 9S JH TH 9H AH KH AD QD JD TD KD AC 6C 9D KC QC "
    "8H 7H 6S 6H 8D 7D 6D JC TC 9C 8C 7C"
)


def test_golden_cotton_1674_repique() -> None:
    rules = get_rules("cotton-1674")
    deal = deal_from(rules, PACK_1674, 3)  # dealt by threes
    assert deal.hand(ELDER) == CardSet.parse("AS KS QS JS TS 9S AH KH AD KD AC 6C")
    assert deal.hand(YOUNGER) == CardSet.parse("QH JH TH 9H QD JD TD 9D KC QC 8S 7S")
    deal = act(deal, "discard:6C", "discard:7S")  # elder takes 8H, younger 7H
    assert deal.phase is Phase.DECLARE  # Cotton: nobody sees the rest of the stock
    # ruff AS..9S = 11 + 40 + 9 = 60: 6; sixieme major 16; quatorze of aces 14, three kings 3
    deal = act(
        deal,
        "declare:point:AS KS QS JS TS 9S",
        "good",
        "declare:sequence:AS KS QS JS TS 9S",
        "good",
        "declare:set:AS AH AD AC",
        "good",
        "ask-missing",
    )
    deal = play(
        deal,
        "AS 8S | KS 7H | QS 9D | JS TD | TS JD | 9S QD | AC QC | KD KC | AD 9H | AH TH "
        "| KH JH | 8H QH",
    )
    assert deal.is_over and deal.won == (11, 1)
    assert said(deal) == [
        "elder: elder exchanges 1",
        "younger: younger exchanges 1",
        "elder: Ruff of 60.",
        "younger: Good.",
        "elder: shows AS KS QS JS TS 9S",
        "elder: Sixième major.",
        "younger: Good.",
        "elder: shows AS KS QS JS TS 9S",
        "elder: Quatorze of aces.",
        "younger: Good.",
        "elder: And three kings.",
        "younger: Which one did you lay out?",
        "elder: I laid out none of the kings.",
    ]
    assert timeline(deal) == [
        (E, "point", 6),
        (E, "sequences", 16),
        (E, "sets", 17),
        (E, "repique", 60),  # 39 in hand: "he shall reckon ninety" and on: 99
        *lead(E, 5),  # AS KS QS JS TS
        *lead(E, 5),  # AC KD AD AH KH (the 9S counted nothing)
        (Y, "trick", 1),  # the QH wins elder's 8H ...
        (Y, "last trick", 1),  # ... the last trick, with a ten or better: two
        (E, "the cards", 10),
    ]
    # elder 99 + 10 + 10 = 119; younger 2
    assert deal.scores == (119, 2)


# ====================================================================== du-coeur-1995
# Equal ruffs; a neuvieme across the suits; a pique in the tricks; six tricks each.

PACK_1995 = (
    "AS KS AH KH QS JS QH JH TS 9S TH 9H 8H 7H AD KD 6H 8D QD JD 7D 6D TD 9D "
    "6C 7C AC KC QC JC TC 9C 8C 8S 7S 6S"
)


def test_golden_du_coeur_1995_pique_in_play() -> None:
    rules = get_rules("du-coeur-1995")
    deal = deal_from(rules, PACK_1995, 2)
    assert deal.hand(ELDER) == CardSet.parse("AS KS QS JS TS 9S 8H 7H 6H 8D 7D 6D")
    deal = act(deal, "discard:6D", "discard:9D", "look")  # elder takes 6C, younger 7C
    assert deal_view(deal, ELDER).stock_seen == CardSet.parse("7C AC KC QC JC TC 9C 8C 8S 7S 6S")
    # ruffs: spades 60 against hearts 60, equal
    deal = act(deal, "declare:point:AS KS QS JS TS 9S", "equal")
    # a neuvieme 6 to A across the suits (19) and 6C 7D 8D (3): 22
    deal = act(deal, "declare:sequence:AS KS QS JS TS 9S 8H 7H 6H", "good", "pass", "pass")
    deal = play(
        deal,
        "AS 7C | KS TD | QS JD | JS QD | TS 9H | 9S TH | 6H AH | KH 7H | QH 8H | JH 6C "
        "| AD 7D | KD 8D",
    )
    assert deal.is_over and deal.won == (6, 6)
    assert said(deal) == [
        "elder: elder exchanges 1",
        "younger: younger exchanges 1",
        "younger: younger turns up the 10 cards he left",
        "elder: Ruff of 60.",
        "younger: Equal.",
        "elder: Neuvième major.",
        "younger: Good.",
        "elder: And tierce to the eight.",
        "elder: shows AS KS QS JS TS 9S 8H 7H 6H 8D 7D 6C",
        "elder: No set declared.",
        "younger: No set declared.",
    ]
    assert timeline(deal) == [
        (E, "sequences", 22),
        (E, "trick", 1),  # AS 7C
        (E, "trick", 2),  # KS TD
        (E, "trick", 2),  # QS JD
        (E, "trick", 2),  # JS QD: 29
        (E, "trick", 1),  # TS 9H: thirty, younger has counted nothing
        (E, "pique", 30),
        (E, "trick", 1),  # 9S TH
        *[(Y, "trick", 1)] * 6,  # AH KH QH JH AD KD, one tenth card each
        (Y, "last trick", 2),  # won with a king: two extra
    ]
    # six tricks each: nobody counts the cards; elder 22 + 9 + 30 = 61, younger 6 + 2 = 8
    assert deal.scores == (61, 8)


# ====================================================================== court-gamester-1754
# Elder names the card he will lead, counts a repique and wins every trick: a capot.

PACK_1754 = "AS KS TH 9H QS JS 8H 7H TS 9S KD QD 8S 7S JD TD AH KH KC QC QH JH JC TC " + (
    "AD 9D 8D 7D AC 9C 8C 7C"
)


def test_golden_court_gamester_1754_capot() -> None:
    rules = get_rules("court-gamester-1754")
    deal = deal_from(rules, PACK_1754, 2)
    assert deal.hand(ELDER) == CardSet.parse("AS KS QS JS TS 9S 8S 7S AH KH QH JH")
    deal = act(deal, "discard:7S", "discard:TC")  # elder takes AD, younger 9D
    deal = act(deal, "name:AS")  # "if he declares first what Card he will lead"
    # point AS..8S = 11 + 40 + 9 + 8 = 68: 7; septieme major 17 and quart major 4; three
    # aces 3: 31 in hand
    deal = act(
        deal,
        "declare:point:AS KS QS JS TS 9S 8S",
        "good",
        "declare:sequence:AS KS QS JS TS 9S 8S",
        "good",
        "declare:set:AS AH AD",
        "good",
        "ask-missing",
    )
    assert deal.legal_actions() == [Play(Card.parse("AS"))]  # bound to lead it
    deal = play(
        deal,
        "AS KC | KS QC | QS JC | JS 9D | TS KD | 9S QD | AH TH | KH 9H | QH 8H | JH 7H "
        "| AD JD | 8S TD",
    )
    assert deal.is_over and deal.won == (12, 0)
    assert said(deal) == [
        "elder: elder exchanges 1",
        "younger: younger exchanges 1",
        "elder: elder will lead AS, and sees the stock",
        "elder: Point of 68.",
        "younger: Good.",
        "elder: shows AS KS QS JS TS 9S 8S",
        "elder: Septième major.",
        "younger: Good.",
        "elder: And quart major.",
        "elder: shows AS KS QS JS TS 9S 8S AH KH QH JH",
        "elder: Three aces.",
        "younger: Good.",
        "younger: Which one did you lay out?",
        "elder: I laid out none of the aces.",
    ]
    assert timeline(deal) == [
        (E, "point", 7),
        (E, "sequences", 21),
        (E, "sets", 3),
        (E, "repique", 60),  # 31: "he reckons as much above 90"
        *lead(E, 5),  # AS KS QS JS TS (the 9S tells nothing)
        *lead(E, 5),  # AH KH QH JH AD (the 8S tells nothing)
        (E, "last trick", 1),  # won with the eight: one
        (E, "capot", 40),  # instead of ten for the cards
    ]
    # elder 91 + 10 + 1 + 40 = 142
    assert deal.scores == (142, 0)


# ====================================================================== encyclopedia-19c
# Younger's point, told after elder's first lead, counts first; younger looks at the
# stock and elder sees it after his first card.

PACK_19C = "AS KS 9S 8S QS JS QH JH TS AH QD JD KH 7H KC QC AD KD JC 9C 8D AC 8C 7C " + (
    "7D 7S TH 9H 8H TD 9D TC"
)


def test_golden_encyclopedia_19c_younger_declares_after_the_lead() -> None:
    rules = get_rules("encyclopedia-19c")
    deal = deal_from(rules, PACK_19C, 2)  # "two by two"
    assert deal.hand(ELDER) == CardSet.parse("AS KS QS JS TS AH KH 7H AD KD 8D AC")
    deal = act(deal, "discard:7H", "discard:-", "look")  # elder takes 7D; younger none
    deal = act(
        deal,
        "declare:point:AS KS QS JS TS",  # five
        "not-good",  # younger has six clubs
        "declare:sequence:AS KS QS JS TS",  # quint major: 15
        "good",
        "declare:set:AS AH AD AC",  # quatorze of aces and three kings: 17
        "good",
    )
    leftovers = CardSet.parse("7S TH 9H 8H TD 9D TC")
    assert deal_view(deal, ELDER).stock_seen == CardSet.parse("7S TH 9H 8H")
    deal = play(deal, "AS")
    assert deal_view(deal, ELDER).stock_seen == leftovers  # "after he has played"
    deal = act(deal, "declare:point:KC QC JC 9C 8C 7C")
    deal = play(
        deal,
        "9S | KS 8S | QS QH | JS JH | TS 7C | AH 8C | KH 9C | AC JC | 8D QD | KC 7D "
        "| QC KD | JD AD",
    )
    assert deal.is_over and deal.won == (9, 3)
    assert said(deal) == [
        "elder: elder exchanges 1",
        "younger: younger exchanges 0",
        "younger: younger looks at the cards he left",
        "elder: Point of five.",
        "younger: Not good.",
        "elder: Quint major.",
        "younger: Good.",
        "elder: shows AS KS QS JS TS",
        "elder: Quatorze of aces.",
        "younger: Good.",
        "elder: And three kings.",
        "elder: shows AS KS AH KH AD KD AC",
        "younger: Point of six, making 54.",
        "younger: shows KC QC JC 9C 8C 7C",
    ]
    assert timeline(deal) == [
        (Y, "point", 6),  # the point counts first, though told after the lead
        (E, "sequences", 15),
        (E, "sets", 17),  # 32, but younger counted first: no repique
        *lead(E, 9),  # AS KS QS JS TS AH KH AC 8D: each lead counts one
        (Y, "trick", 1),  # the QD wins elder's 8D
        *lead(Y, 3),  # KC QC JD
        (E, "trick", 1),  # the AD wins younger's JD ...
        (E, "last trick", 1),  # ... the last trick counts 2
        (E, "the cards", 10),  # nine tricks
    ]
    # elder 15 + 17 + 9 + 1 + 1 + 10 = 53; younger 6 + 1 + 3 = 10
    assert deal.scores == (53, 10)


# ====================================================================== rubicon
# Elder's twenty-nine in hand and his first lead make a pique; dealt by threes.

PACK_RUBICON = "AS KS QS KH JH TH JS TS AH 9H 7H QD QH AD KD JD TD 9D 7D KC QC 8D AC JC " + (
    "9C 9S 8S 7S 8H TC 8C 7C"
)


def test_golden_rubicon_pique() -> None:
    rules = get_rules("rubicon")
    deal = deal_from(rules, PACK_RUBICON, 3)
    assert deal.hand(ELDER) == CardSet.parse("AS KS QS JS TS AH QH AD KD KC QC 7D")
    deal = act(deal, "discard:7D", "discard:JC", "decline")  # elder takes 9C, younger 9S
    deal = act(
        deal,
        "declare:point:AS KS QS JS TS",
        "making",  # younger has five too: KH JH TH 9H 7H (46), QD JD TD 9D 8D (47)
        "good",
        "declare:sequence:AS KS QS JS TS",
        "good",
        "declare:set:AS AH AD",
        "good",
    )
    assert deal.scores == (29, 0)  # 5 + 15 + three aces, kings, queens 9
    deal = play(
        deal,
        "AS 9S | KS 7H | QS 8D | JS 9D | TS 9H | AD TD | KD JD | 9C AC | QD QC | KH AH "
        "| QH JH | KC TH",
    )
    assert deal.is_over and deal.won == (10, 2)
    assert said(deal) == [
        "elder: elder exchanges 1",
        "younger: younger exchanges 1",
        "younger: younger leaves the stock unseen",
        "elder: Point of five.",
        "younger: Making?",
        "elder: Fifty-one.",
        "younger: Good.",
        "elder: shows AS KS QS JS TS",
        "elder: Quint major.",
        "younger: Good.",
        "elder: shows AS KS QS JS TS",
        "elder: Three aces.",
        "younger: Good.",
        "elder: And three kings, three queens.",
    ]
    assert timeline(deal) == [
        (E, "point", 5),
        (E, "sequences", 15),
        (E, "sets", 9),
        (E, "lead", 1),  # AS: thirty
        (E, "pique", 30),
        *lead(E, 7),  # KS QS JS TS AD KD 9C
        (Y, "trick", 1),  # the AC wins elder's 9C
        *lead(Y, 2),  # QD, KH
        (E, "trick", 1),  # the AH wins younger's KH
        *lead(E, 2),  # QH, KC
        (E, "last trick", 1),
        (E, "the cards", 10),
    ]
    # elder 29 + 1 + 30 + 7 + 1 + 2 + 1 + 10 = 81; younger 1 + 2 = 3
    assert deal.scores == (81, 3)
