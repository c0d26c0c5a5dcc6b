"""The ``cotton-1674`` preset against Cotton, *The Compleat Gamester* (1674).

Cotton copies much of Cotgrave; each test quotes Cotton's own words.  Hands are written
out in full (36 cards) and every count in the comments was worked by hand: ace 11, courts
and ten 10, others their pips; a ruff is worth ``(total + 5) // 10``.  Where the preset
follows a **reading** (RULES.md, ``piquet.core.sources``), the test says so.
"""

from __future__ import annotations

import random

from enginekit import (
    P_ELDER,
    P_STOCK,
    P_YOUNGER,
    R_ELDER,
    R_STOCK,
    R_YOUNGER,
    act,
    declare_p,
    declare_r,
    new_deal,
    play,
    refused,
    said,
    timeline,
)
from piquet.core.actions import DealBy, Discard, Play, parse_action
from piquet.core.cards import Card, CardSet
from piquet.core.deal import ELDER, YOUNGER, Deal, Phase
from piquet.core.match import new_match
from piquet.core.rules import Leftovers, Rules, get_rules
from piquet.core.view import deal_view

RULES = get_rules("cotton-1674")


# ---------------------------------------------------------------- helpers
# R and P: enginekit's scenarios (Cotgrave's too).


def scenario_r(*, start: tuple[int, int] = (0, 0), target: int | None = None) -> Deal:
    deal = new_deal(RULES, R_ELDER, R_YOUNGER, R_STOCK, start=start, target=target)
    return act(deal, "discard:6C", "discard:7S")


def scenario_p() -> Deal:
    deal = act(new_deal(RULES, P_ELDER, P_YOUNGER, P_STOCK), "discard:6D", "discard:6S")
    return declare_p(deal)


# ---------------------------------------------------------------- cards, deal


def test_cotton_thirty_and_six_cards() -> None:
    """Cotton: "you must throw out of the Pack the Deuces, Treyes, Fours, and Fives, and play with
    the rest of the Cards, which are in number thirty and six"."""
    assert RULES.deck_size == 36 and RULES.stock_size == 12


def test_cotton_delivering_two_to_four_at_a_time() -> None:
    """Cotton: "The Dealer shuffles, and the other cuts, delivering what number he pleaseth at a
    time, so that he exceed not four, nor deal under two, leaving twelve on the table"."""
    deal = Deal.new(RULES, list(range(36)))
    assert deal.legal_actions() == [DealBy(2), DealBy(3), DealBy(4)]
    refused(deal, DealBy(1), "Allowed: deal:2, deal:3, deal:4")
    assert len(deal.apply(DealBy(2)).stock) == 12


def test_cotton_the_worst_is_the_dealers() -> None:
    """Cotton: "the last Card deals and the worst is the Dealers" - the lower cut deals;
    **reading**: the deal then alternates, as in Cotgrave."""
    for seed in range(8):
        match = new_match(RULES, seed=seed)
        cut = dict(match.cuts[0][-2:])
        assert match.dealer == min(cut, key=lambda p: Card.parse(cut[p]).rank)
    assert RULES.cut_after_game is False
    match = new_match(RULES, seed=3, games=2)
    rng = random.Random(3)
    while not match.finished:
        match = match.apply(match.random_action(rng))
    dealers = [d.dealer for d in match.deals]
    assert all(dealers[i] != dealers[i + 1] for i in range(len(dealers) - 1))
    assert len(match.cuts) == 1


# ---------------------------------------------------------------- the blanck


def test_carte_blanche_procedure() -> None:
    """Cotton: "I have a Blanck, and I intend to discard such a number of Cards, and that you may
    see mine, discard you as many as you intend; this done, the Eldest shows his Cards and
    reckons ten for the Blanck ... here note he is always bound to that number which he first
    propounded"."""
    deal = new_deal(
        RULES,
        "AS TS 9S 8S 7S 6S AH TH 9H 8H 7H 6H",
        "AD KD QD JD TD AC KC QC JC TC 9D 9C",
        "KS QS JS KH QH JH 8D 7D 6D 8C 7C 6C",
    )
    deal = act(deal, "blanche:4")
    assert deal.to_act == YOUNGER and deal.phase is Phase.EXCHANGE
    deal = act(deal, "discard:9D 9C")
    assert timeline(deal) == [("elder", "carte blanche", 10)]
    assert deal_view(deal, YOUNGER).opponent_shown == deal_view(deal, ELDER).dealt
    refused(deal, Discard(CardSet.parse("6S 6H 7H")), "bound to that number, not 3")
    deal = act(deal, "discard:6S 6H 7S 7H")
    assert deal.phase is Phase.DECLARE  # nobody sees the rest of the stock in Cotton
    assert deal.hand(ELDER) >= CardSet.parse("KS QS JS KH")
    assert deal.hand(YOUNGER) >= CardSet.parse("QH JH")


def test_cotton_younger_blank_may_name_up_to_what_elders_number_leaves() -> None:
    """Cotton: "I have a Blanck, and I intend to discard such a number of Cards" and "the
    Antagonist may take in what he thinks fit" - **reading** (blanche_number): both hold a
    blank; elder names 3, leaving 9, so younger may name 1 to 9."""
    younger = "AD TD 9D 8D 7D AC TC 9C 8C 7C 6C 6D"
    stock = "KS QS JS KH QH JH KD QD JD KC QC JC"
    deal = new_deal(RULES, "AS TS 9S 8S 7S 6S AH TH 9H 8H 7H 6H", younger, stock)
    deal = act(deal, "blanche:3")
    assert [str(a) for a in deal.legal_actions()] == [f"blanche:{n}" for n in range(1, 10)]
    deal = act(deal, "blanche:9", "discard:TD 9D 8D 7D TC 9C 8C 7C 6C", "discard:6S 6H 7H")
    assert deal.hand(YOUNGER) == CardSet.parse("AD 6D AC KH QH JH KD QD JD KC QC JC")


def _blank_pair(younger_blank: bool) -> Deal:
    younger = "AD TD 9D 8D 7D AC TC 9C 8C 7C 6C " + ("6D" if younger_blank else "JD")
    stock = "KS QS JS KH QH JH KD QD " + ("JD" if younger_blank else "6D") + " KC QC JC"
    deal = new_deal(RULES, "AS TS 9S 8S 7S 6S AH TH 9H 8H 7H 6H", younger, stock)
    deal = act(deal, "blanche:3")
    deal = act(deal, "blanche:1", "discard:6D") if younger_blank else act(deal, "discard:6C")
    deal = act(deal, "discard:6S 6H 7H")
    # elder: AS KS QS JS TS 9S 8S 7S (75: 8; a huitieme major, 18) and AH TH 9H 8H (a
    # tierce to the ten, 3): 10 + 8 + 21 = 39
    return act(
        deal,
        "declare:point:AS KS QS JS TS 9S 8S 7S",
        "good",
        "declare:sequence:AS KS QS JS TS 9S 8S 7S",
        "good",
    )


def test_cotton_younger_blank_bars_elders_repique() -> None:
    """Cotton: "and if it should chance to fall out that the other hath a Blank too, the youngers
    Blank shall bar the former and hinder his Picy and Repicy, though the eldest hands Blank
    consists of the biggest Cards" - both blanks count (a reading)."""
    barred = _blank_pair(younger_blank=True)
    assert timeline(barred) == [
        ("elder", "carte blanche", 10),
        ("younger", "carte blanche", 10),
        ("elder", "point", 8),
        ("elder", "sequences", 21),
    ]
    free = _blank_pair(younger_blank=False)
    assert timeline(free)[-1] == ("elder", "repique", 60)
    assert free.scores == (99, 0)


def test_cotton_blank_hinders_though_nothing_else() -> None:
    """Cotton: "He that hath a Blank, his Blank shall hinder the other Picy and Repicy, although he
    hath nothing to shew but his Blank"."""
    deal = new_deal(
        RULES,
        "AS KS QS JS TS 9S 8S AH KH QH AD KD",
        "7S 6S TH 9H 8H 7H 6H TD 9D 8D 7D 6D",
        "JH QD JD AC KC QC JC TC 9C 8C 7C 6C",
    )
    deal = act(deal, "blanche:1", "discard:QH", "discard:6S")
    # elder: 68 (7), septieme major (17), three aces and three kings (6): thirty
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
    assert timeline(deal)[0] == ("younger", "carte blanche", 10)
    assert "repique" not in [kind for _, kind, _ in timeline(deal)]
    assert deal.scores == (30, 10)


# ---------------------------------------------------------------- discarding


def test_cotton_elder_may_take_eight_or_fewer() -> None:
    """Cotton: "he may take in eight of the twelve in the Stock discarding as many of his own for
    them; not but that if he find it more advantageous he may take in a less number"."""
    deal = new_deal(RULES, R_ELDER, R_YOUNGER, R_STOCK)
    assert deal.discard_range() == (1, 8)
    refused(deal, Discard(CardSet.parse("AS KS QS JS TS 9S AH KH AD")), "1 to 8 cards, not 9")


def test_cotton_the_antagonist_takes_what_he_thinks_fit() -> None:
    """Cotton: "after this the Antagonist may take in what he thinks fit, acquitting his hand of the
    like number. Here note, that let the Game be never so good the Gamesters are both obliged
    to discard one Card at least"."""
    deal = act(new_deal(RULES, R_ELDER, R_YOUNGER, R_STOCK), "discard:6C AC")
    assert deal.discard_range() == (1, 10)
    refused(deal, Discard(CardSet()), "must discard 1 to 10 cards, not 0")


def test_cotton_elder_looks_at_the_rest_of_his_eight() -> None:
    """**Reading**: Cotton does not say whether elder may look at the rest of his eight; as in
    Cotgrave, whom he copies, he may."""
    deal = act(new_deal(RULES, R_ELDER, R_YOUNGER, R_STOCK), "discard:6C AC AD")
    assert deal_view(deal, ELDER).stock_seen == CardSet.parse("6H 8D 7D 6D JC")


def test_cotton_nobody_sees_the_cards_younger_leaves() -> None:
    """**Reading**: Cotton leaves out Cotgrave's passage on younger's leftovers, so nobody
    sees them: no naming of a suit, no look."""
    assert RULES.younger_leftovers is Leftovers.HIDDEN
    deal = scenario_r()
    assert deal.phase is Phase.DECLARE and deal.to_act == ELDER
    assert len(deal.stock) == 10
    assert deal_view(deal, YOUNGER).stock_seen == CardSet()
    assert deal_view(deal, ELDER).stock_seen == CardSet.parse("7H 6S 6H 8D 7D 6D JC")
    refused(deal, parse_action("name:S"), "not allowed now")
    deal = play(act(declare_r(deal), "no-question"), "AS 8S")
    assert deal.lead_rule is None
    assert deal_view(deal, YOUNGER).stock_seen == CardSet()


def test_cotton_no_man_may_discard_twice() -> None:
    """Cotton: "No man is permitted to discard twice in one dealing"."""
    refused(scenario_r(), Discard(CardSet.parse("AS")), "no discarding now")


# ---------------------------------------------------------------- the ruff


def test_cotton_thirty_five_counts_as_forty() -> None:
    """Cotton: "withall take notice you are to count as many for thirty five as for forty ...
    but from thirty five to thirty nine you must count no more than for thirty five, and so
    from thirty to thirty four, count no more than for thirty"."""
    deal = new_deal(
        RULES,
        "AH KH 8H 6H AS 9S 7S 6S 9D 8D 7C 6C",
        "QS JS 8S QD JD 7D KC QC 9C 9H 7H TH",
        "6D QH KS TS JH AD KD TD AC JC TC 8C",
    )
    deal = act(deal, "discard:6C", "discard:TH")  # elder takes 6D, younger QH
    deal = act(deal, "declare:point:AH KH 8H 6H", "good")  # 11 + 10 + 8 + 6 = 35
    assert said(deal)[-3] == "elder: Ruff of 35."
    assert timeline(deal) == [("elder", "point", 4)]


def test_cotton_the_eldest_speaks_first() -> None:
    """Cotton: "the eldest speaks first, and if the youngest makes up no more the Ruff is good, and
    sets up one for every ten he can produce; as for example, for thirty reckon three, for
    forty four, and so onward"."""
    deal = act(scenario_r(), "declare:point:AS KS QS JS TS 9S")
    assert deal.to_act == YOUNGER and [str(a) for a in deal.legal_actions()] == ["good"]
    deal = act(deal, "good")
    assert timeline(deal) == [("elder", "point", 6)]  # 60: six


def test_cotton_he_that_sheweth_not_his_ruff() -> None:
    """Cotton: "So it is with him that sheweth not his Ruff before he play his first Card, losing
    absolutely all the advantage thereof" - the engine shows the winning ruff and
    sequences as they are counted."""
    deal = declare_r(scenario_r())
    shown = deal_view(deal, YOUNGER).opponent_shown
    assert shown == CardSet.parse("AS KS QS JS TS 9S")  # sets are told, not shown


def test_cotton_equal_ruff_neither_reckons() -> None:
    """**Reading** after Cotgrave ("if the Gamesters have equal Cards for Ruff, Sequences,
    &c they can neither of them reckon any thing"): an equal ruff counts for neither and
    blocks nothing."""
    deal = new_deal(
        RULES,
        "JS TS 9S 8S 7S 6S TH TD TC AD KD 8H",
        "AH KH QH JH 9H AS KS QS AC KC QC JC",
        "6C 7C 7H 6H QD JD 9D 8D 7D 6D 9C 8C",
    )
    deal = act(deal, "discard:8H", "discard:QS")
    deal = act(deal, "declare:point:JS TS 9S 8S 7S 6S", "equal")
    deal = act(deal, "declare:sequence:JS TS 9S 8S 7S 6S", "good")
    deal = act(deal, "declare:set:TS TH TD TC", "good")
    assert timeline(deal) == [
        ("elder", "sequences", 16),
        ("elder", "sets", 14),
        ("elder", "repique", 60),
    ]


# ---------------------------------------------------------------- sequences and sets


def test_cotton_the_biggest_sequence_reckons_the_less() -> None:
    """Cotton: "he that hath the biggest Sequence by vertue thereof reckons all his less Sequences,
    though his Adversaries Sequences be greater, and otherwise would have drowned them"."""
    deal = new_deal(
        RULES,
        "AS KS QS JH TH 9H 8C 7C 6C 9S 8D 6D",
        "KH QH JD TD 9D 7D KC QC JC TC 8S 7S",
        "AH AD AC KD QD JS TS 8H 7H 6H 6S 9C",
    )
    deal = act(deal, "discard:6D", "discard:7S", "pass", "pass")
    deal = act(deal, "declare:sequence:AS KS QS", "not-good", "declare:sequence:KC QC JC TC")
    assert timeline(deal) == [("younger", "sequences", 7)]  # quart 4, tierce to the knave 3


def test_cotton_three_aces_drown_three_kings() -> None:
    """Cotton: "He that hath three Aces may reckon his three Queens, Knaves, or Tens, if he have
    them, though the other hath three Kings; and this is done by reason of his higher
    Ternary"."""
    deal = new_deal(
        RULES,
        "AS AH AD QS QH QD 9S 8S 7S 9H 8H 6C",
        "KS KH KD JS JH TS TH 9D 8D 7D 6D 6S",
        "7H AC KC QC JC TC 9C 8C 7C 6H JD TD",
    )
    deal = act(deal, "discard:6C", "discard:6S", "pass", "pass", "pass", "pass")
    deal = act(deal, "declare:set:AS AH AD", "good")
    assert said(deal)[-1] == "elder: And three queens."
    assert timeline(deal) == [("elder", "sets", 6)]


def test_cotton_quatorze_fourteen() -> None:
    """Cotton: "Now he that hath four Aces, four Kings, fours Queens, four Knaves, or four Tens, for
    each reckons fourteen, which is the reason they are called Quatorzes" - and any
    quatorze beats a three (a reading)."""
    deal = declare_r(scenario_r())
    assert ("elder", "sets", 17) in timeline(deal)  # fourteen and three


def test_which_one_is_missing() -> None:
    """Cotton: "He that has four Aces, Kings, Queens, &c. dealt him and after he hath discarded one
    of the four reckons the other three, and the other say to him it is good; he is bound to tell
    the other, if he ask him what Ace, King, Queen, &c. he wants"."""
    deal = new_deal(RULES, R_ELDER, R_YOUNGER, R_STOCK)
    deal = act(deal, "discard:AC", "discard:7S")
    deal = act(deal, "pass", "pass", "pass", "pass", "declare:set:AS AH AD", "good")
    assert deal.to_act == YOUNGER
    deal = act(deal, "ask-missing")
    assert said(deal)[-3:] == [
        "younger: Which one did you lay out?",
        "elder: The ace of clubs, laid out.",
        "elder: I laid out none of the kings.",  # he counted three kings as well
    ]


# ---------------------------------------------------------------- the play


def test_cotton_follows_in_suit_as_at_whisk() -> None:
    """Cotton: "the elder begins and younger follows in suit as at Whisk"."""
    deal = play(act(scenario_p(), "no-question"), "AS")
    assert refused(deal, Play(Card.parse("KH")), "must follow") == (
        "KH: you must follow spades: you hold 8S 7S"
    )


def test_cotton_reckoning_in_play() -> None:
    """Cotton: "if the elder hand plays an Ace, King, Queen, or Ten, for every such Card he is to
    reckon one ... and if the other be able to play upon it a higher Card of the same suit,
    he wins the Trick, and reckons one for his Card as well as the other"."""
    deal = act(declare_r(scenario_r()), "no-question")
    start = len(deal.events)
    deal = play(deal, "AS 8S 8H 9H QH AH")
    assert timeline(deal)[start:] == [
        ("elder", "lead", 1),
        ("younger", "lead", 1),
        ("elder", "trick", 1),
    ]


def _play_out(last_with_a_ten: bool) -> Deal:
    deal = act(declare_r(scenario_r()), "no-question")
    deal = play(deal, "AS 8S KS 7H QS 9D JS TD TS JD 9S QD AC QC KD KC")
    if last_with_a_ten:
        return play(deal, "AD 9H AH TH KH JH 8H QH")
    return play(deal, "AD QH AH JH KH TH 8H 9H")


def test_cotton_last_trick_two_with_a_ten() -> None:
    """Cotton: "Whosoever wins the last Trick reckons two for it, if he win it with a Ten, but if
    with any Card under, he reckons but one; then they tell their Cards, and he that hath the most
    is to reckon Ten for them"."""
    ten = _play_out(last_with_a_ten=True)
    assert timeline(ten)[-3:] == [
        ("younger", "trick", 1),
        ("younger", "last trick", 1),
        ("elder", "the cards", 10),
    ]
    nine = _play_out(last_with_a_ten=False)
    assert timeline(nine)[-2:] == [("younger", "last trick", 1), ("elder", "the cards", 10)]


def test_cotton_capet_forty() -> None:
    """Cotton: "He that wins more than his own Cards reckons Ten, but he that wins all the Cards
    reckons forty, and this is called a Capet"."""
    deal = new_deal(
        RULES,
        "AS KS QS JS TS 9S 8S 7S 6S AH KH QH",
        "JH TH 9H 8H 7H 6H KD QD JD TD KC QC",
        "AD 9D 8D 7D 6D AC JC TC 9C 8C 7C 6C",
    )
    deal = act(deal, "discard:6S", "discard:6H")
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
    deal = play(deal, "AS KD KS QD QS JD JS TD TS 9D 9S KC 8S QC AH JH KH TH QH 9H AD 8H 7S 7H")
    assert deal.won == (12, 0)
    assert timeline(deal)[-2:] == [("elder", "last trick", 1), ("elder", "capot", 40)]


def test_cotton_equal_tricks_count_nothing() -> None:
    """Cotton says only "he that hath the most is to reckon Ten for them": six each, nobody
    has the most."""
    deal = new_deal(
        RULES,
        "AS KS QS JS TS 9S 8H 7H 6H 8D 7D 6D",
        "AH KH QH JH TH 9H AD KD QD JD TD 9D",
        "6C 7C AC KC QC JC TC 9C 8C 8S 7S 6S",
    )
    deal = act(deal, "discard:6D", "discard:9D")
    deal = act(deal, "declare:point:AS KS QS JS TS 9S", "equal")
    deal = act(deal, "declare:sequence:AS KS QS JS TS 9S", "equal", "pass", "pass")
    deal = play(deal, "AS 7C KS TD QS JD JS QD TS 9H 9S TH")
    deal = play(deal, "6H AH KH 7H QH 8H JH 6C AD 7D KD 8D")
    assert deal.won == (6, 6)
    assert "the cards" not in [kind for _, kind, _ in timeline(deal)]


# ---------------------------------------------------------------- picy and repicy


def test_cotton_repicy_ninety() -> None:
    """Cotton: "If any of the Gamesters can reckon ... up to thirty in his own hand, without playing
    a Card, and before the other can reckon any thing, instead of thirty, he shall reckon ninety,
    and as many as he reckons after above his thirty, adding them to his ninety"."""
    deal = declare_r(scenario_r())
    assert timeline(deal)[-1] == ("elder", "repique", 60)
    assert deal.scores == (99, 0)  # 39 in hand


def test_cotton_picy_sixty() -> None:
    """Cotton: "he that can make in like manner, what by Blank, Ruff, Sequences, &c. up to the said
    number, before the other hath play'd a Card, or reckoned any thing, instead of thirty he
    reckons sixty, and this is called a Picy"."""
    deal = act(scenario_p(), "no-question")
    assert deal.scores == (29, 0)
    deal = play(deal, "AS")
    assert timeline(deal)[-1] == ("elder", "pique", 30) and deal.scores == (60, 0)


def test_cotton_no_picy_when_thirty_comes_on_elders_second_lead() -> None:
    """Cotton: "he that can make in like manner, what by Blank, Ruff, Sequences, &c. up to the
    said number, before the other hath play'd a Card, or reckoned any thing": elder's 29 in
    hand, a nine led (nothing counted), younger plays to it, then an ace makes thirty on the
    second lead - younger has played a card, so no Picy."""
    assert RULES.pique_by_first_card is True
    deal = play(act(scenario_p(), "no-question"), "9S 7S AS")
    assert timeline(deal)[-1] == ("elder", "lead", 1)
    assert deal.scores == (30, 0) and not deal.tally.open
    # with the limit lifted (a house rule) the same thirty would be a pique
    house = RULES.replace(pique_by_first_card=False)
    late = act(new_deal(house, P_ELDER, P_YOUNGER, P_STOCK), "discard:6D", "discard:6S")
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


def _younger_29(rules: Rules) -> Deal:
    """Elder loses every class: younger counts 29 in hand."""
    deal = new_deal(
        rules,
        "8S 7S 6S KH QH AH KD QD JD KC QC 6D",
        "AS KS QS JS TS 9S JH TH 9H AD AC 9D",
        "7D 8H TD 8D 7H 6H JC TC 9C 8C 7C 6C",
    )
    deal = act(deal, "discard:8S", "discard:9D")
    deal = act(deal, "declare:point:KD QD JD 7D 6D", "not-good", "declare:point:AS KS QS JS TS 9S")
    deal = act(deal, "declare:sequence:AH KH QH", "not-good", "declare:sequence:AS KS QS JS TS 9S")
    return act(deal, "declare:set:KH KD KC", "not-good", "declare:set:AS AD AC", "no-question")


def test_cotton_younger_cannot_picy_once_elder_has_played() -> None:
    """Cotton: "before the other hath play'd a Card": younger's 29 in hand and a trick won with
    a tenth card make thirty after elder's first card - no Picy for younger."""
    assert RULES.pique_elder_only is False and RULES.pique_by_first_card is True
    deal = play(_younger_29(RULES), "6D AD")
    assert timeline(deal)[-1] == ("younger", "trick", 1) and deal.scores == (0, 30)


def test_cotton_younger_may_win_a_picy_without_the_first_card_limit() -> None:
    """**Reading**: "he that can make in like manner" names no player, so with the first-card
    limit lifted (a house rule) younger may pique too."""
    house = RULES.replace(pique_by_first_card=False)
    assert house.pique_elder_only is False
    deal = play(_younger_29(house), "6D AD")
    assert timeline(deal)[-1] == ("younger", "pique", 30) and deal.scores == (0, 60)


def test_repique_judged_in_counting_order() -> None:
    """Cotton: "before the other can reckon any thing": younger's ruff, counted first, takes away
    the repique elder's sequences and sets would make."""
    deal = act(scenario_r(), "declare:point:AS KS QS JS", "not-good")
    deal = act(deal, "declare:point:QH JH TH 9H 7H")
    deal = act(deal, "declare:sequence:AS KS QS JS TS 9S", "good")
    deal = act(deal, "declare:set:AS AH AD AC", "good")
    assert timeline(deal) == [
        ("younger", "point", 5),
        ("elder", "sequences", 16),
        ("elder", "sets", 17),
    ]


# ---------------------------------------------------------------- the set


def test_game_won_mid_deal_in_counting_order() -> None:
    """Cotton: "admit that each party is so forward in his Game that he wants but four or five to be
    up, if it so happens that any of the two have a Blank, he wins the Set, because the
    Blanks are always first reckoned; but if no Blanks, then comes the Ruff" - the usual set
    an hundred."""
    assert RULES.target == 100
    deal = act(scenario_r(start=(96, 95), target=100), "declare:point:AS KS QS JS", "not-good")
    deal = act(deal, "declare:point:QH JH TH 9H 7H")  # younger's 46: five, and the set
    assert deal.is_over and deal.game_reached_by == YOUNGER
    assert timeline(deal) == [("younger", "point", 5)]


def test_cotton_a_false_reckoning_is_refused() -> None:
    """Cotton: "He that misreckons any thing ... that he had not what he reckoned, for his
    punishment he shall be debar'd" - the engine refuses the false claim and the deal is
    unchanged."""
    refused(scenario_r(), parse_action("declare:point:QH JH TH"), "elder cannot show QH JH TH")
