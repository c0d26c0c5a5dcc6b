"""The ``cotgrave-1662`` preset against Cotgrave, *Wit's Interpreter* (1662).

Every test quotes the words it rests on.  The deals are built with
``enginekit.new_deal`` from hands written out in full; every count in the comments was
worked by hand (ace 11, courts and ten 10, others their pips; a ruff is worth
``(total + 5) // 10``).  Where the preset follows a **reading** (see RULES.md and
``piquet.core.sources``), the test says so.
"""

from __future__ import annotations

import itertools
import random

import pytest

from enginekit import (
    P_ELDER,
    P_STOCK,
    P_YOUNGER,
    R_ELDER,
    R_STOCK,
    R_YOUNGER,
    act,
    dealers_to_the_end,
    declare_p,
    declare_r,
    new_deal,
    play,
    refused,
    said,
    timeline,
)
from piquet.core.actions import Appoint, DealBy, Discard, NameLead, Play, parse_action
from piquet.core.cards import SUIT_MASKS, Card, CardSet, Suit
from piquet.core.deal import ELDER, YOUNGER, Deal, Phase
from piquet.core.declarations import DeclClass, best_claim, score_of
from piquet.core.errors import IllegalActionError
from piquet.core.match import new_match
from piquet.core.rules import Rules, get_rules
from piquet.core.view import deal_view

RULES = get_rules("cotgrave-1662")


# ---------------------------------------------------------------- helpers


def m(text: str) -> int:
    return CardSet.parse(text).mask


# ---------------------------------------------------------------- the scenarios
# R and P (enginekit): Cotgrave's elder also declines to name a suit.

def scenario_r() -> Deal:
    deal = new_deal(RULES, R_ELDER, R_YOUNGER, R_STOCK)
    return act(deal, "discard:6C", "discard:7S", "decline")


def scenario_p() -> Deal:
    deal = new_deal(RULES, P_ELDER, P_YOUNGER, P_STOCK)
    return declare_p(act(deal, "discard:6D", "discard:6S", "decline"))


# ---------------------------------------------------------------- cards, cut, deal


def test_cotgrave_pack_of_six_and_thirty() -> None:
    """Cotgrave: "cast out of the Pack the Deuces, Treyes, Fours, and Fives, and play with the other
    six and thirty Cards"."""
    assert RULES.deck_size == 36 and RULES.stock_size == 12
    with pytest.raises(IllegalActionError, match="36-card pack"):
        Deal.new(RULES, [i for i in range(36) if i % 9])  # a 32-card pack is refused
    deal = Deal.new(RULES, list(range(36)))
    deal = deal.apply(DealBy(4))
    assert len(deal.hand(ELDER)) == len(deal.hand(YOUNGER)) == 12
    assert len(deal.stock) == 12  # "the twelve that remain, are laid between the two"


def test_cotgrave_dealer_delivers_two_three_or_four_at_a_time() -> None:
    """Cotgrave: "he delivers them in what number he phansies, so that it exceed not four, nor be
    under two"."""
    deal = Deal.new(RULES, list(range(36)))
    assert deal.phase is Phase.DEAL and deal.to_act == YOUNGER  # the dealer chooses
    assert deal.legal_actions() == [DealBy(2), DealBy(3), DealBy(4)]
    refused(deal, DealBy(1), "deal:1", "deal:2, deal:3, deal:4")
    refused(deal, DealBy(6), "Allowed: deal:2, deal:3, deal:4")
    by_two = deal.apply(DealBy(2))
    by_three = deal.apply(DealBy(3))
    # the pack 0, 1, 2, ... dealt elder first: by two, elder gets 0 1, 4 5, ...; by three,
    # 0 1 2, 6 7 8, ...
    assert by_two.hands[ELDER] == sum(1 << i for i in range(24) if i % 4 < 2)
    assert by_three.hands[ELDER] == sum(1 << i for i in range(24) if i % 6 < 3)
    assert by_two.hands != by_three.hands


def test_cotgrave_the_least_card_deals() -> None:
    """Cotgrave: "The disadvantage in this play is the Dealer's, and the least Card deals"."""
    for seed in range(12):
        match = new_match(RULES, seed=seed)
        (first_cut,) = match.cuts
        cards = {player: Card.parse(text) for player, text in first_cut[-2:]}
        assert cards[0].rank != cards[1].rank
        lower = min(cards, key=lambda p: cards[p].rank)
        assert match.dealer == lower


def test_cotgrave_they_take_turns_and_lift_again_only_by_agreement() -> None:
    """Cotgrave: "if they be minded to continue the play, they lift again for Dealing, with this
    proviso, that they did first agree to lift for Dealing at the end of every Set, otherwise
    not; they are to take their Turns"."""
    assert RULES.cut_after_game is False
    match = new_match(RULES, seed=5, games=2)
    match, dealers = dealers_to_the_end(match, random.Random(5))
    assert len(match.games) == 2
    assert len(match.cuts) == 1, "no new cut after the first set"
    assert all(a != b for a, b in itertools.pairwise(dealers))


# ---------------------------------------------------------------- carte blanche


def test_carte_blanche_procedure() -> None:
    """Cotgrave: "I have a Blank, and I intend to discard such a number of Cards, and that you may
    see mine, do you discard as many as you intend to do. This done, he that is the eldest shews his
    Cards, and reckons ten for the Blank ... he is always bound to that number which he at first
    propos'd"."""
    deal = new_deal(
        RULES,
        "AS TS 9S 8S 7S 6S AH TH 9H 8H 7H 6H",
        "AD KD QD JD TD AC KC QC JC TC 9D 9C",
        "KS QS JS KH QH JH 8D 7D 6D 8C 7C 6C",
    )
    assert deal.phase is Phase.BLANCHE and deal.to_act == ELDER
    assert [str(a) for a in deal.legal_actions()] == [f"blanche:{n}" for n in range(1, 9)]
    deal = act(deal, "blanche:3")
    assert said(deal) == ["elder: Carte blanche!", "elder: Carte blanche. I shall discard 3 cards."]
    # the other discards first, while elder's hand is not yet shown
    assert deal.phase is Phase.EXCHANGE and deal.to_act == YOUNGER
    assert deal_view(deal, YOUNGER).opponent_shown == CardSet()
    deal = act(deal, "discard:9D 9C")
    assert len(deal.hand(YOUNGER)) == 10  # he takes in only after elder
    # elder shows his hand and reckons ten for the blank
    assert deal_view(deal, YOUNGER).opponent_shown == CardSet.parse(
        "AS TS 9S 8S 7S 6S AH TH 9H 8H 7H 6H"
    )
    assert timeline(deal) == [("elder", "carte blanche", 10)]
    # bound to the number he proposed
    assert deal.to_act == ELDER and deal.discard_range() == (3, 3)
    refused(deal, Discard(CardSet.parse("6S 6H")), "bound to that number", "3", "not 2")
    refused(deal, Discard(CardSet.parse("6S 6H 7H 7S")), "bound to that number")
    deal = act(deal, "discard:6S 6H 7H")
    assert deal.hand(ELDER) == CardSet.parse("AS KS QS JS TS 9S 8S 7S AH TH 9H 8H")
    # younger then takes in as many as he laid out, from the top of what elder left
    assert deal.hand(YOUNGER) == CardSet.parse("AD KD QD JD TD AC KC QC JC TC KH QH")
    assert said(deal)[2:5] == [
        "younger: younger discards 2",
        "elder: shows carte blanche",
        "elder: elder exchanges 3",
    ]


def _both_blank(younger_blank: bool) -> Deal:
    younger = "AD TD 9D 8D 7D AC TC 9C 8C 7C 6C " + ("6D" if younger_blank else "JD")
    stock = "KS QS JS KH QH JH KD QD " + ("JD" if younger_blank else "6D") + " KC QC JC"
    deal = new_deal(RULES, "AS TS 9S 8S 7S 6S AH TH 9H 8H 7H 6H", younger, stock)
    deal = act(deal, "blanche:3")
    if younger_blank:
        deal = act(deal, "blanche:1", "discard:6D")
    else:
        deal = act(deal, "discard:6C")
    deal = act(deal, "discard:6S 6H 7H", "decline")
    # elder: AS KS QS JS TS 9S 8S 7S (75, worth 8; a huitieme major, 18) and AH TH 9H 8H
    # (a tierce to the ten, 3); younger's best ruff is 51 or 55, his best run a quint.
    return act(
        deal,
        "declare:point:AS KS QS JS TS 9S 8S 7S",
        "good",
        "declare:sequence:AS KS QS JS TS 9S 8S 7S",
        "good",
    )


def test_cotgrave_younger_blank_bars_elders_repique() -> None:
    """Cotgrave: "if it should chance to fall out that the other have a Blank too, the younger's
    Blank shall barre the former, and hinder his Picy and Repicy; though the eldest hand's Blank
    consists of the bigger Cards" - both blanks count (a reading: the bar is on the pique and
    repique, not on the blank)."""
    barred = _both_blank(younger_blank=True)
    # blank 10, younger's blank 10, then ruff 8 and sequences 18 + 3: elder has 39 in hand
    assert timeline(barred) == [
        ("elder", "carte blanche", 10),
        ("younger", "carte blanche", 10),
        ("elder", "point", 8),
        ("elder", "sequences", 21),
    ]
    assert barred.scores == (39, 10)
    # the same elder hand against a younger hand with a knave: a repique (39 -> 99)
    free = _both_blank(younger_blank=False)
    assert timeline(free) == [
        ("elder", "carte blanche", 10),
        ("elder", "point", 8),
        ("elder", "sequences", 21),
        ("elder", "repique", 60),
    ]
    assert free.scores == (99, 0)


def test_cotgrave_younger_blank_may_name_up_to_what_elders_number_leaves() -> None:
    """Cotgrave: "I have a Blank, and I intend to discard such a number of Cards" and "may the
    other likewise take all the rest" - **reading** (blanche_number): both hold a blank; elder
    names 3, leaving 9, so younger may name 1 to 9 (he was offered only 1 to 4) and is bound."""
    younger = "AD TD 9D 8D 7D AC TC 9C 8C 7C 6C 6D"
    stock = "KS QS JS KH QH JH KD QD JD KC QC JC"
    deal = new_deal(RULES, "AS TS 9S 8S 7S 6S AH TH 9H 8H 7H 6H", younger, stock)
    assert [str(a) for a in deal.legal_actions()] == [f"blanche:{n}" for n in range(1, 9)]
    deal = act(deal, "blanche:3")
    assert deal.to_act == YOUNGER
    assert [str(a) for a in deal.legal_actions()] == [f"blanche:{n}" for n in range(1, 10)]
    deal = act(deal, "blanche:9")
    # the other discards first; younger is bound to his nine
    assert deal.to_act == YOUNGER and deal.discard_range() == (9, 9)
    deal = act(deal, "discard:TD 9D 8D 7D TC 9C 8C 7C 6C")
    deal = act(deal, "discard:6S 6H 7H")  # elder takes KS QS JS; younger the nine left
    assert deal.hand(YOUNGER) == CardSet.parse("AD 6D AC KH QH JH KD QD JD KC QC JC")
    assert timeline(deal) == [("elder", "carte blanche", 10), ("younger", "carte blanche", 10)]
    # without a number from elder (younger's blank alone), only what elder must leave: 1 to 4
    alone = _younger_blank(blank=True)
    assert [str(a) for a in alone.legal_actions()] == [f"blanche:{n}" for n in range(1, 5)]


def _younger_blank(blank: bool) -> Deal:
    younger = "7S 6S TH 9H 8H 7H 6H TD 9D 8D 7D " + ("6D" if blank else "JD")
    stock = "JH QD " + ("JD" if blank else "6D") + " AC KC QC JC TC 9C 8C 7C 6C"
    return new_deal(RULES, "AS KS QS JS TS 9S 8S AH KH QH AD KD", younger, stock)


def test_cotgrave_blank_hinders_picy_and_repicy_though_nothing_else() -> None:
    """Cotgrave: "He that has a Blank, his Blank shall hinder the other's Picy, and Repicy; although
    he have nothing to shew but his Blank"."""
    deal = _younger_blank(blank=True)
    assert deal.phase is Phase.BLANCHE and deal.to_act == YOUNGER
    assert [str(a) for a in deal.legal_actions()] == [
        "blanche:1",
        "blanche:2",
        "blanche:3",
        "blanche:4",
    ]
    deal = act(deal, "blanche:1", "discard:QH")  # elder exchanges first, takes JH
    assert timeline(deal) == [("younger", "carte blanche", 10)]
    assert deal.discard_range() == (1, 1)
    deal = act(deal, "discard:6S", "decline")
    # elder: ruff AS..8S = 68 (7), septieme major (17), three aces and three kings (6): 30
    deal = act(
        deal,
        "declare:point:AS KS QS JS TS 9S 8S",
        "good",
        "declare:sequence:AS KS QS JS TS 9S 8S",
        "good",
        "declare:set:AS AH AD",
        "good",
        "no-question",
    )
    assert timeline(deal)[1:] == [
        ("elder", "point", 7),
        ("elder", "sequences", 17),
        ("elder", "sets", 6),
    ]
    deal = play(deal, "AS 7S")
    assert "pique" not in [kind for _, kind, _ in timeline(deal)]
    assert deal.scores == (31, 10)
    # without the blank, the same thirty is a repique
    free = act(_younger_blank(blank=False), "discard:QH", "discard:6S", "decline")
    free = act(
        free,
        "declare:point:AS KS QS JS TS 9S 8S",
        "good",
        "declare:sequence:AS KS QS JS TS 9S 8S",
        "good",
        "declare:set:AS AH AD",
        "good",
    )
    assert timeline(free)[-1] == ("elder", "repique", 60)
    assert free.scores == (90, 0)


# ---------------------------------------------------------------- the exchange


def test_cotgrave_elder_may_take_eight() -> None:
    """Cotgrave: "he may take in eight of the twelve Cards remaining in the Stock, having first
    discarded as many of his own; nor is he absolutely confined to that number"."""
    deal = new_deal(RULES, R_ELDER, R_YOUNGER, R_STOCK)
    assert deal.phase is Phase.EXCHANGE and deal.to_act == ELDER
    assert deal.discard_range() == (1, 8)
    eight = CardSet.parse("AS KS QS JS TS 9S AH KH")
    refused(deal, Discard(eight | CardSet.parse("6C")), "must discard 1 to 8 cards, not 9")
    after = deal.apply(Discard(eight))
    assert after.hand(ELDER) == CardSet.parse("AD KD AC 6C 8H 7H 6S 6H 8D 7D 6D JC")
    assert after.to_act == YOUNGER and after.discard_range() == (1, 4)


def test_cotgrave_both_obliged_to_discard_one() -> None:
    """Cotgrave: "Here you must note, that how good soever the Game be, you are both obliged to
    discard one Card at least"."""
    deal = new_deal(RULES, R_ELDER, R_YOUNGER, R_STOCK)
    refused(deal, Discard(CardSet()), "must discard 1 to 8 cards, not 0")
    deal = act(deal, "discard:6C")
    refused(deal, Discard(CardSet()), "must discard 1 to 11 cards, not 0")


def test_cotgrave_younger_takes_all_the_rest_or_a_few() -> None:
    """Cotgrave: "Then, may the other likewise take all the rest, or but a few of them only,
    according to his humour, discarding as many of his own"."""
    deal = act(new_deal(RULES, R_ELDER, R_YOUNGER, R_STOCK), "discard:6C AD KD")
    assert deal.discard_range() == (1, 9)
    few = act(deal, "discard:7S")
    assert few.hand(YOUNGER) == CardSet.parse(R_YOUNGER) - CardSet.parse("7S") | CardSet.parse(
        "6H"
    )  # elder took 8H 7H 6S; younger the next card


def test_cotgrave_elder_looks_at_the_remainder_of_his_eight() -> None:
    """Cotgrave: "If he take in lesse than eight, he has liberty to look upon the remainder of them
    eight, laying them down upon the rest, after he has survey'd them"."""
    deal = act(new_deal(RULES, R_ELDER, R_YOUNGER, R_STOCK), "discard:6C AC AD")
    # elder took 8H 7H 6S; the rest of his eight is 6H 8D 7D 6D JC, laid back on the stock
    assert deal_view(deal, ELDER).stock_seen == CardSet.parse("6H 8D 7D 6D JC")
    assert deal_view(deal, YOUNGER).stock_seen == CardSet()
    # younger takes from the top, so he takes what elder has seen first
    deal = act(deal, "discard:7S 8S")
    assert deal.hand(YOUNGER) >= CardSet.parse("6H 8D")


def test_cotgrave_elder_names_suit() -> None:
    """Cotgrave: "if he take them not all in, then may the Elder hand see them, provided that he
    first acquaint the other with the suit, that he intends to play, to which he is obliged if he
    say so"."""
    deal = act(new_deal(RULES, R_ELDER, R_YOUNGER, R_STOCK), "discard:6C", "discard:7S")
    assert deal.phase is Phase.LEFTOVERS and deal.to_act == ELDER
    assert [str(a) for a in deal.legal_actions()] == [
        "name:S",
        "name:H",
        "name:D",
        "name:C",
        "decline",
    ]
    leftovers = CardSet.parse("6S 6H 8D 7D 6D JC TC 9C 8C 7C")
    unused = CardSet.parse("7H 6S 6H 8D 7D 6D JC")  # what elder saw of his eight
    assert deal_view(deal, ELDER).stock_seen == unused
    assert deal_view(deal, YOUNGER).stock_seen == leftovers
    named = act(deal, "name:H")
    assert said(named)[-1] == "elder: elder will lead hearts, and sees the stock"
    assert deal_view(named, ELDER).stock_seen == unused | leftovers
    named = declare_r(named)
    named = act(named, "no-question")
    assert named.phase is Phase.PLAY
    message = refused(named, Play(Card.parse("AS")), "elder is bound to lead hearts")
    assert "AH KH 8H" in message
    assert play(named, "KH QH").tricks[0].winner == ELDER
    # declining: elder never sees younger's part of the stock
    blind = declare_r(act(deal, "decline"))
    blind = play(act(blind, "no-question"), "AS 8S")
    assert deal_view(blind, ELDER).stock_seen == unused


def test_cotgrave_named_suit_he_lacks_is_appointed() -> None:
    """Cotgrave: "but if he hath discarded all of that suit he said he would play, or else had none
    of it at first; he is bound to play that suit his opposite does appoint"."""
    deal = act(new_deal(RULES, R_ELDER, R_YOUNGER, R_STOCK), "discard:6C AC", "discard:7S")
    deal = act(deal, "name:C")
    assert deal.phase is Phase.APPOINT and deal.to_act == YOUNGER
    assert said(deal)[-1] == "elder: elder holds no clubs: younger appoints the lead"
    assert [str(a) for a in deal.legal_actions()] == [
        "appoint:S",
        "appoint:H",
        "appoint:D",
        "appoint:C",
    ]
    # a refusal says why: a card where a suit is appointed
    refused(deal, Appoint(card=Card.parse("KD")), "appointed by its suit, not a card",
            "appoint:spades")
    deal = act(deal, "appoint:D")
    assert said(deal)[-1] == "younger: younger appoints diamonds"
    deal = act(
        deal,
        "declare:point:AS KS QS JS TS 9S",
        "good",
        "declare:sequence:AS KS QS JS TS 9S",
        "good",
        "declare:set:AS AH AD",
        "good",
        "no-question",
    )
    refused(deal, Play(Card.parse("AS")), "elder is bound to lead diamonds", "playable: AD KD")
    assert play(deal, "AD 9D").tricks[0].winner == ELDER


def test_cotgrave_no_man_may_discard_twice() -> None:
    """Cotgrave: "No man is permitted to discard twice in one Dealing"."""
    deal = act(new_deal(RULES, R_ELDER, R_YOUNGER, R_STOCK), "discard:6C", "discard:7S")
    refused(deal, Discard(CardSet.parse("AS")), "no discarding now")
    refused(declare_r(act(deal, "decline")), Discard(CardSet.parse("AS")), "no discarding now")


# ---------------------------------------------------------------- the ruff


def test_cotgrave_thirty_five_counts_as_forty() -> None:
    """Cotgrave: "you are to count as much for thirty five as for forty ... but as for thirty six,
    thirty seven, thirty eight, and thirty nine, you count no more than for thirty five, so
    for thirty one, and thirty two, thirty three, and thirty four, no more than for thirty"."""
    # elder's best suit: AH KH 8H 6H = 11+10+8+6 = 35 (spades A 9 7 6 = 33); younger's
    # best after the exchange: KC QC 9C = 29
    deal = new_deal(
        RULES,
        "AH KH 8H 6H AS 9S 7S 6S 9D 8D 7C 6C",
        "QS JS 8S QD JD 7D KC QC 9C 9H 7H TH",
        "6D QH KS TS JH AD KD TD AC JC TC 8C",
    )
    deal = act(deal, "discard:6C", "discard:TH", "decline")  # elder takes 6D, younger QH
    assert deal.hand(ELDER).of_suit(Suit.HEARTS) == CardSet.parse("AH KH 8H 6H")
    deal = act(deal, "declare:point:AH KH 8H 6H")
    assert said(deal)[-1] == "elder: Ruff of 35."
    deal = act(deal, "good")
    assert timeline(deal) == [("elder", "point", 4)]  # (35 + 5) // 10
    thirty_four = best_claim(m("AS KS 7S 6S"), DeclClass.POINT, RULES)
    assert thirty_four is not None and score_of(thirty_four, RULES) == 3


def test_cotgrave_elder_speaks_first_younger_answers() -> None:
    """Cotgrave: "the eldest he speaks first, and if the younger makes not more, his Ruff is good,
    and sets up one for every Ten, he can produce"."""
    deal = scenario_r()
    assert deal.phase is Phase.DECLARE and deal.to_act == ELDER
    deal = act(deal, "declare:point:AS KS QS JS TS 9S")
    assert deal.to_act == YOUNGER
    assert [str(a) for a in deal.legal_actions()] == ["good"]  # he cannot make more than 60
    deal = act(deal, "good")
    assert said(deal)[-3:] == [
        "elder: Ruff of 60.",
        "younger: Good.",
        "elder: shows AS KS QS JS TS 9S",
    ]
    assert timeline(deal) == [("elder", "point", 6)]


def test_cotgrave_equal_ruff_neither_reckons_and_blocks_nothing() -> None:
    """Cotgrave: "if the Gamesters have equal Cards for Ruff, Sequences, &c they can neither of them
    reckon any thing, eldership benefits not in this case" - so an equal ruff takes nothing
    from elder's repique."""
    deal = new_deal(
        RULES,
        "JS TS 9S 8S 7S 6S TH TD TC AD KD 8H",
        "AH KH QH JH 9H AS KS QS AC KC QC JC",
        "6C 7C 7H 6H QD JD 9D 8D 7D 6D 9C 8C",
    )
    deal = act(deal, "discard:8H", "discard:QS", "decline")
    # elder's spades J T 9 8 7 6 = 50; younger's hearts A K Q J 9 = 50
    deal = act(deal, "declare:point:JS TS 9S 8S 7S 6S")
    assert [str(a) for a in deal.legal_actions()] == ["good", "equal"]
    deal = act(deal, "equal")
    assert said(deal)[-2:] == ["elder: Ruff of 50.", "younger: Equal."]
    assert timeline(deal) == []
    # sixieme to the knave (16) and quatorze of tens (14): thirty in hand, a repique
    deal = act(
        deal,
        "declare:sequence:JS TS 9S 8S 7S 6S",
        "good",
        "declare:set:TS TH TD TC",
        "good",
    )
    assert timeline(deal) == [
        ("elder", "sequences", 16),
        ("elder", "sets", 14),
        ("elder", "repique", 60),
    ]


# ---------------------------------------------------------------- sequences and sets


def test_cotgrave_the_biggest_sequence_reckons_all_the_lesse() -> None:
    """Cotgrave: "he that hath the biggest Sequence, by vertue thereof, reckons all his lesse
    Sequences; though his Adversaries Sequences be greater" (one suit: a reading)."""
    deal = new_deal(
        RULES,
        "AS KS QS JH TH 9H 8C 7C 6C 9S 8D 6D",
        "KH QH JD TD 9D 7D KC QC JC TC 8S 7S",
        "AH AD AC KD QD JS TS 8H 7H 6H 6S 9C",
    )
    deal = act(deal, "discard:6D", "discard:7S", "decline")  # elder takes AH, younger AD
    deal = act(deal, "pass", "pass")  # both sink the ruff
    # elder: tierce major in spades, tierce to the knave in hearts, to the eight in clubs;
    # younger: quart to the king in clubs, tierce to the knave in diamonds
    deal = act(deal, "declare:sequence:AS KS QS", "not-good")
    assert deal.to_act == YOUNGER
    assert [str(a) for a in deal.legal_actions()] == ["declare:sequence:KC QC JC TC"]
    deal = act(deal, "declare:sequence:KC QC JC TC")
    assert said(deal)[-3:] == [
        "younger: Quart to the king.",
        "younger: And tierce to the knave.",
        "younger: shows JD TD 9D KC QC JC TC",
    ]
    assert timeline(deal) == [("younger", "sequences", 7)]  # quart 4 + tierce 3


def test_cotgrave_three_aces_reckon_the_queens_though_the_other_has_kings() -> None:
    """Cotgrave: "he that hath these Aces, may reckon his three Queens, Knaves, or Tens, if he have
    them, though the other hath three Kings, by reason of his higher Ternary"."""
    deal = new_deal(
        RULES,
        "AS AH AD QS QH QD 9S 8S 7S 9H 8H 6C",
        "KS KH KD JS JH TS TH 9D 8D 7D 6D 6S",
        "7H AC KC QC JC TC 9C 8C 7C 6H JD TD",
    )
    deal = act(deal, "discard:6C", "discard:6S", "decline")  # elder takes 7H, younger AC
    deal = act(deal, "pass", "pass", "pass", "pass")  # ruff and sequences sunk by both
    deal = act(deal, "declare:set:AS AH AD", "good")
    assert said(deal)[-3:] == ["elder: Three aces.", "younger: Good.", "elder: And three queens."]
    assert timeline(deal) == [("elder", "sets", 6)]


def test_which_one_is_missing() -> None:
    """Cotgrave: "He that has four Aces, Kings, Queens, &c. dealt him, and after he has discarded
    one of the four, reckons the other three, and the other say to him, It is good; he is bound to
    tell the other, if he ask him what Ace, King, Queen, &c. he wants"."""
    deal = scenario_p()
    assert deal.phase is Phase.DECLARE and deal.to_act == YOUNGER
    assert [str(a) for a in deal.legal_actions()] == ["ask-missing", "no-question"]
    asked = act(deal, "ask-missing")
    # here the fourth ace was never his: he laid out none
    assert said(asked)[-2:] == [
        "younger: Which one did you lay out?",
        "elder: I laid out none of the aces.",
    ]
    assert asked.phase is Phase.PLAY
    # four aces dealt, one discarded: he must name it (Cotgrave does not make him show it)
    dealt4 = new_deal(
        RULES, "AS KS QS JS TS 9S AH TH 9H AD AC 6D", "8S 7S 6S KH QH JH KD QD JD KC QC JC",
        P_STOCK,
    )
    dealt4 = act(dealt4, "discard:AH", "discard:6S", "decline")
    dealt4 = act(
        dealt4, "declare:point:AS KS QS JS TS 9S", "good", "declare:sequence:AS KS QS JS TS 9S",
        "good", "declare:set:AS AD AC", "good", "ask-missing",
    )
    assert said(dealt4)[-1] == "elder: The ace of hearts, laid out."
    assert dealt4.shown[0] & Card.parse("AH").bit == 0
    assert act(deal, "no-question").dialog == deal.dialog
    # a quatorze raises no question
    four = declare_r(scenario_r())
    assert said(four)[-1] == "elder: And three kings."
    assert [str(a) for a in four.legal_actions()] == ["ask-missing", "no-question"]
    assert said(act(four, "ask-missing"))[-1] == "elder: I laid out none of the kings."


def test_sinking_cotgrave_allowed_and_costs_the_repique() -> None:
    """Cotgrave allows a player to say less than he has ("I am so much for the Ruff, though
    the number he pitches on be possibly more or lesse then he really hath"): the engine
    lets elder pass or declare less (RULES.md: sinking allowed, implied)."""
    deal = scenario_r()
    assert "pass" in [str(a) for a in deal.legal_actions()]
    deal = act(deal, "pass")
    assert said(deal)[-1] == "elder: No point declared."
    # younger may now claim his ruff of 46 (QH JH TH 9H 7H), worth 5
    deal = act(deal, "declare:point:QH JH TH 9H 7H")
    assert timeline(deal) == [("younger", "point", 5)]
    deal = act(deal, "declare:sequence:KS QS JS TS 9S", "good")  # a quint, sinking the ace
    deal = act(deal, "declare:set:AS AH AD AC", "good", "no-question")
    # 15 and 17: no repique, younger counted first
    assert timeline(deal)[1:] == [("elder", "sequences", 15), ("elder", "sets", 17)]


def test_cotgrave_a_false_claim_is_refused() -> None:
    """Cotgrave: "He that mis-reckons any thing ... that he had not what he reckoned, for his
    punishment he shall be debarr'd from reckoning" - the engine never lets a player claim
    what his hand cannot show: IllegalActionError, state unchanged."""
    deal = scenario_r()
    message = refused(
        deal,
        parse_action("declare:point:QH JH TH"),
        "elder cannot show QH JH TH",
        "a claim the hand cannot show is refused",
        "Allowed: declare:point:AS KS QS JS TS 9S",
    )
    assert "pass" in message
    refused(deal, parse_action("declare:sequence:AS KS QS"), "now the point is declared")
    at_sets = act(
        deal,
        "declare:point:AS KS QS JS TS 9S",
        "good",
        "declare:sequence:AS KS QS JS TS 9S",
        "good",
    )
    refused(at_sets, parse_action("declare:set:KS KH KD KC"), "elder cannot show KS KH KD KC")


# ---------------------------------------------------------------- the play


def test_cotgrave_younger_follows_in_suit() -> None:
    """Cotgrave: "the Elder begins, and Younger followes in suit, as at Trump" - and a card of
    another suit never wins."""
    deal = act(scenario_p(), "no-question")
    deal = play(deal, "AS")
    message = refused(deal, Play(Card.parse("AH")), "AH: you must follow spades", "8S 7S")
    assert message == "AH: you must follow spades: you hold 8S 7S"
    refused(deal, Play(Card.parse("JS")), "does not hold it", "playable: 8S 7S")
    deal = play(deal, "8S AD")  # elder leads the ace of diamonds, younger has KD QD JD
    refused(deal, Play(Card.parse("7S")), "you must follow diamonds: you hold KD QD JD")
    deal = play(deal, "KD")
    assert deal.tricks[1].winner == ELDER


def test_cotgrave_leader_reckons_tenth_cards_follower_only_when_he_wins() -> None:
    """Cotgrave: "If the Elder hand plays an Ace, King, Queen, or Ten; for every such Card, he is to
    reckon one ... And if the other be able to play upon it a higher Card of the same suit,
    he wins the Trick, and reckons one for his Card, as well as the other"."""
    deal = act(declare_r(scenario_r()), "no-question")
    base = len(deal.events)
    deal = play(deal, "AS 8S")  # ace led: 1 to elder
    deal = play(deal, "8H 9H")  # an eight led, won by a nine: nothing
    deal = play(deal, "QH AH")  # younger leads a queen (1), elder wins with the ace (1)
    deal = play(deal, "KD 9D")  # king led (1), younger cannot win
    assert timeline(deal)[base:] == [
        ("elder", "lead", 1),
        ("younger", "lead", 1),
        ("elder", "trick", 1),
        ("elder", "lead", 1),
    ]
    assert [t.winner for t in deal.tricks] == [ELDER, YOUNGER, ELDER, ELDER]


def _play_r_to_the_end(last_with_a_ten: bool) -> Deal:
    deal = act(declare_r(scenario_r()), "no-question")
    # elder: AS KS QS JS TS 9S AH KH 8H AD KD AC; younger: QH JH TH 9H 7H QD JD TD 9D KC QC 8S
    deal = play(deal, "AS 8S KS 7H QS 9D JS TD TS JD 9S QD AC QC KD KC")
    if last_with_a_ten:
        return play(deal, "AD 9H AH TH KH JH 8H QH")  # younger wins the last with a queen
    return play(deal, "AD QH AH JH KH TH 8H 9H")  # younger wins the last with a nine


def test_1662_last_trick_two_with_a_ten() -> None:
    """Cotgrave: "Whosoever wins the last Trick, is to reckon two for it, if he win it with a Ten;
    but if it be with a Nine, Eight, Seven, or Six, he then reckons but one"."""
    ten = _play_r_to_the_end(last_with_a_ten=True)
    assert ten.tricks[-1].winner == YOUNGER
    # the queen counts 1 as a winning tenth card, and the last trick 1 more: two
    assert timeline(ten)[-3:] == [
        ("younger", "trick", 1),
        ("younger", "last trick", 1),
        ("elder", "the cards", 10),
    ]
    nine = _play_r_to_the_end(last_with_a_ten=False)
    assert timeline(nine)[-2:] == [("younger", "last trick", 1), ("elder", "the cards", 10)]
    assert nine.is_over and nine.to_act is None


def test_cotgrave_most_cards_reckon_ten() -> None:
    """Cotgrave: "then they tell their Cards, and he that has the most, is to reckon Ten for
    them"."""
    deal = _play_r_to_the_end(last_with_a_ten=True)
    assert deal.won == (11, 1)
    # elder: 99 in hand; leads AS KS QS JS TS AC KD AD AH KH = 10; the cards 10
    assert deal.scores == (119, 2)


def test_cotgrave_capet_forty_instead_of_ten() -> None:
    """Cotgrave: "He that wins all the Cards, instead of reckoning Ten ... reckons forty, and this
    is called a Capet"."""
    deal = new_deal(
        RULES,
        "AS KS QS JS TS 9S 8S 7S 6S AH KH QH",
        "JH TH 9H 8H 7H 6H KD QD JD TD KC QC",
        "AD 9D 8D 7D 6D AC JC TC 9C 8C 7C 6C",
    )
    deal = act(deal, "discard:6S", "discard:6H", "decline")  # elder takes AD, younger 9D
    deal = act(
        deal,
        "declare:point:AS KS QS JS TS 9S 8S 7S",
        "good",
        "declare:sequence:AS KS QS JS TS 9S 8S 7S",
        "good",
        "declare:set:AS AH AD",
        "good",
        "no-question",
    )
    # ruff 75 (8), huitieme major and tierce major (21), three aces (3): 32 -> 92
    assert deal.scores == (92, 0)
    deal = play(deal, "AS KD KS QD QS JD JS TD TS 9D 9S KC 8S QC AH JH KH TH QH 9H AD 8H 7S 7H")
    assert deal.won == (12, 0)
    kinds = [kind for _, kind, _ in timeline(deal)]
    assert "the cards" not in kinds
    # leads of tenth cards: AS KS QS JS TS AH KH QH AD = 9; the last trick, won with the 7S: 1
    assert timeline(deal)[-2:] == [("elder", "last trick", 1), ("elder", "capot", 40)]
    assert deal.scores == (92 + 9 + 1 + 40, 0)


def test_cotgrave_equal_cards_reckon_nothing() -> None:
    """Cotgrave: "if the Gamesters have equal Cards for Ruff, Sequences, &c they can neither of them
    reckon any thing ... they must only set up what they make in playng their Cards" - six
    tricks each: nobody counts the cards; equal ruff and equal sixiemes count nothing."""
    deal = new_deal(
        RULES,
        "AS KS QS JS TS 9S 8H 7H 6H 8D 7D 6D",
        "AH KH QH JH TH 9H AD KD QD JD TD 9D",
        "6C 7C AC KC QC JC TC 9C 8C 8S 7S 6S",
    )
    deal = act(deal, "discard:6D", "discard:9D", "decline")
    # ruff 60 against 60, sixieme major against sixieme major: equal; no sets
    deal = act(deal, "declare:point:AS KS QS JS TS 9S", "equal")
    deal = act(deal, "declare:sequence:AS KS QS JS TS 9S", "equal", "pass", "pass")
    assert deal.events == () and deal.phase is Phase.PLAY
    deal = play(deal, "AS 7C KS TD QS JD JS QD TS 9H 9S TH")  # younger keeps six winners
    deal = play(deal, "6H AH KH 7H QH 8H JH 6C AD 7D KD 8D")
    assert deal.won == (6, 6)
    assert timeline(deal) == [("elder", "lead", 1)] * 5 + [("younger", "trick", 1)] + [
        ("younger", "lead", 1)
    ] * 5 + [("younger", "last trick", 1)]
    assert deal.scores == (5, 7)


# ---------------------------------------------------------------- pique and repique


def test_cotgrave_repicy_ninety_and_onward() -> None:
    """Cotgrave: "If any of the two Gamesters can reckon ... up to thirty in his own hand, without
    playing a Card, and before the other can reckon anything; instead of counting thirty, he
    shall reckon ninety; and as many as he makes after above his thirty, adde them to his
    ninety"."""
    deal = declare_r(scenario_r())
    # ruff 6, sixieme major 16, quatorze of aces and three kings 17: 39 -> 99
    assert timeline(deal) == [
        ("elder", "point", 6),
        ("elder", "sequences", 16),
        ("elder", "sets", 17),
        ("elder", "repique", 60),
    ]
    assert deal.scores == (99, 0)
    deal = play(act(deal, "no-question"), "AS")
    assert deal.scores == (100, 0)


def test_cotgrave_picy_sixty_by_the_first_card() -> None:
    """Cotgrave: "he that can in like manner make what by Blanch, Ruff, Sequences, &c. and also by
    playing his first Card up to said number of thirty, before the other has played a Card,
    or can reckon anything instead of thirty, he reckons sixty, and this is called a Picy"."""
    deal = act(scenario_p(), "no-question")
    assert deal.scores == (29, 0)  # ruff 6, sequences 16 + 4, three aces 3
    deal = play(deal, "AS")
    assert timeline(deal)[-2:] == [("elder", "lead", 1), ("elder", "pique", 30)]
    assert deal.scores == (60, 0)


def test_cotgrave_no_picy_when_thirty_comes_on_elders_second_lead() -> None:
    """Cotgrave: "and also by playing his first Card up to said number of thirty, before the
    other has played a Card": elder's 29 in hand, a first lead of a nine (nothing counted),
    younger plays to it, then an ace makes thirty on the second lead - too late for a Picy."""
    assert RULES.pique_by_first_card is True
    deal = act(scenario_p(), "no-question")
    assert deal.scores == (29, 0)
    deal = play(deal, "9S 7S AS")
    assert timeline(deal)[-1] == ("elder", "lead", 1)
    assert deal.scores == (30, 0) and not deal.tally.open
    # the same play with the limit lifted (a house rule): thirty before the other counts
    house = RULES.replace(pique_by_first_card=False)
    late = act(new_deal(house, P_ELDER, P_YOUNGER, P_STOCK), "discard:6D", "discard:6S", "decline")
    late = act(
        late,
        "declare:point:AS KS QS JS TS 9S",
        "good",
        "declare:sequence:AS KS QS JS TS 9S",
        "good",
        "declare:set:AS AD AC",
        "good",
        "no-question",
    )
    late = play(late, "9S 7S AS")
    assert timeline(late)[-2:] == [("elder", "lead", 1), ("elder", "pique", 30)]
    assert late.scores == (60, 0)


def _younger_29(rules: Rules) -> Deal:
    """Elder sinks nothing and loses every class: younger counts 29 in hand."""
    deal = new_deal(
        rules,
        "8S 7S 6S KH QH AH KD QD JD KC QC 6D",
        "AS KS QS JS TS 9S JH TH 9H AD AC 9D",
        "7D 8H TD 8D 7H 6H JC TC 9C 8C 7C 6C",
    )
    deal = act(deal, "discard:8S", "discard:9D", "decline")
    deal = act(deal, "declare:point:KD QD JD 7D 6D", "not-good", "declare:point:AS KS QS JS TS 9S")
    deal = act(deal, "declare:sequence:AH KH QH", "not-good")
    deal = act(deal, "declare:sequence:AS KS QS JS TS 9S")
    return act(deal, "declare:set:KH KD KC", "not-good", "declare:set:AS AD AC", "no-question")


def test_cotgrave_younger_cannot_picy_once_elder_has_played() -> None:
    """Cotgrave: "before the other has played a Card, or can reckon anything": younger's 29 in
    hand and a trick won with a tenth card make thirty, but elder has played a card: no Picy.
    (The pique names no player, "he that can in like manner"; only elder can meet it.)"""
    assert RULES.pique_elder_only is False and RULES.pique_by_first_card is True
    deal = _younger_29(RULES)
    assert deal.scores == (0, 29)
    deal = play(deal, "6D AD")
    assert timeline(deal)[-1] == ("younger", "trick", 1)
    assert deal.scores == (0, 30)


def test_cotgrave_younger_may_win_a_picy_without_the_first_card_limit() -> None:
    """**Reading** (piquet.core.sources): "he that can in like manner" names no player, so with the
    first-card limit lifted (a house rule) younger may win a pique: 29 in hand, then a trick won
    with a tenth card before elder counts."""
    house = RULES.replace(pique_by_first_card=False)
    assert house.pique_elder_only is False
    deal = _younger_29(house)
    assert deal.scores == (0, 29)
    deal = play(deal, "6D AD")
    assert timeline(deal)[-2:] == [("younger", "trick", 1), ("younger", "pique", 30)]
    assert deal.scores == (0, 60)


def test_repique_judged_in_counting_order() -> None:
    """Cotgrave: "before the other can reckon anything": younger's winning ruff, counted first,
    takes away a repique that elder's sequences and sets would make on their own."""
    deal = scenario_r()
    deal = act(deal, "declare:point:AS KS QS JS", "not-good")  # sinking to 41: younger has 46
    deal = act(deal, "declare:point:QH JH TH 9H 7H")
    deal = act(deal, "declare:sequence:AS KS QS JS TS 9S", "good")
    deal = act(deal, "declare:set:AS AH AD AC", "good", "no-question")
    assert timeline(deal) == [
        ("younger", "point", 5),
        ("elder", "sequences", 16),
        ("elder", "sets", 17),
    ]


# ---------------------------------------------------------------- winning


def test_cotgrave_the_set_is_a_hundred() -> None:
    """Cotgrave: "The Set is usually a hundred; but it is left to the decision, and discretion of
    the Gamesters, whether they will make it more or lesse"."""
    assert RULES.target == 100
    assert RULES.replace(target=150).target == 150


def test_cotgrave_one_set_no_lurch() -> None:
    """Cotgrave, **reading**: the text describes only the set played to an agreed total, with no
    lurch: the loser of a set pays the one stake however few points he made."""
    assert RULES.lurch_below == 0
    for seed in range(4):
        match = new_match(RULES, seed=seed)
        rng = random.Random(seed)
        while not match.finished:
            match = match.apply(match.random_action(rng))
        (game,) = match.games
        assert game.stake == 1 and not game.lurch
        assert "lurch" not in match.result()


def test_game_won_mid_deal_in_counting_order() -> None:
    """Cotgrave: "if it fall out that any of the two have a Blank, he wins the Set, because the
    Blanks are alwayes first reckoned; but if there be no Blanks, then comes the Ruff" - the set is
    won the moment it is reached, and the deal goes no further."""
    deal = new_deal(
        RULES,
        "AS KS QS JS TS 9S 8S AH KH QH AD KD",
        "7S 6S TH 9H 8H 7H 6H TD 9D 8D 7D 6D",
        "JH QD JD AC KC QC JC TC 9C 8C 7C 6C",
        start=(96, 91),
        target=100,
    )
    deal = act(deal, "blanche:1", "discard:QH")
    # the blank, reckoned first, takes younger from 91 to 101 before elder's ruff of 68
    assert deal.is_over and deal.game_reached_by == YOUNGER
    assert timeline(deal) == [("younger", "carte blanche", 10)]
    refused(deal, Discard(CardSet.parse("6S")), "the deal is over")
    # no blanks: the ruff comes first
    ruff = new_deal(RULES, R_ELDER, R_YOUNGER, R_STOCK, start=(95, 99), target=100)
    ruff = act(ruff, "discard:6C", "discard:7S", "decline", "declare:point:AS KS QS JS TS 9S")
    ruff = act(ruff, "good")
    assert ruff.is_over and ruff.game_reached_by == ELDER
    assert timeline(ruff) == [("elder", "point", 6)]


def test_cotgrave_forgotten_picy_is_counted_by_the_engine() -> None:
    """Cotgrave: "if you mistake, and forget to call for your Picy, or Repicy, that if you recall it
    before they Deal again, you shall not ... lose either" - the engine counts it for him, so
    it cannot be forgotten."""
    deal = declare_r(scenario_r())
    assert ("elder", "repique", 60) in timeline(deal)


def test_cotgrave_name_lead_is_an_action_with_an_id() -> None:
    """The naming of the suit is an action that round-trips through its id."""
    action = NameLead(suit=Suit.HEARTS)
    assert str(action) == "name:H" and parse_action("name:H") == action


def test_cotgrave_the_suit_he_lacks_appointed_again_binds_nothing() -> None:
    """Cotgrave: "he is bound to play that suit his opposite does appoint": appointed the very
    suit elder has just said he lacks, nothing binds him, and both seats' views say so (the
    terminal's and the browser's tables read it); it is not among the suits offered."""
    from piquet.core.view import appointable, lead_binding

    deal = act(new_deal(RULES, R_ELDER, R_YOUNGER, R_STOCK), "discard:6C AC", "discard:7S")
    deal = act(deal, "name:C")
    young = deal_view(deal, YOUNGER)
    assert not appointable(young, RULES) & SUIT_MASKS[Suit.CLUBS]
    same = act(deal, "appoint:C")
    same = act(same, "declare:point:AS KS QS JS TS 9S", "good",
               "declare:sequence:AS KS QS JS TS 9S", "good", "declare:set:AS AH AD", "good",
               "no-question")
    for role in (ELDER, YOUNGER):
        bound = lead_binding(deal_view(same, role))
        assert bound is not None and bound.appointed and bound.held is False
    assert play(same, "AS 8S").tricks[0].winner == ELDER  # he leads as he likes
    # a suit that could bind: elder holds diamonds, younger cannot know
    other = act(deal, "appoint:D")
    other = act(other, "declare:point:AS KS QS JS TS 9S", "good",
                "declare:sequence:AS KS QS JS TS 9S", "good", "declare:set:AS AH AD", "good",
                "no-question")
    assert lead_binding(deal_view(other, ELDER)) is not None
    assert lead_binding(deal_view(other, ELDER)).held is True  # type: ignore[union-attr]
    assert lead_binding(deal_view(other, YOUNGER)).held is None  # type: ignore[union-attr]
