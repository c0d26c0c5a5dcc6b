"""The ``encyclopedia-19c`` preset against the 19th-century encyclopedia article.

Every test quotes the words it rests on; hands are written out in full and every count
in the comments was worked by hand.  The point counts one per card; equal numbers of
cards are compared by value (ace 11, courts and ten 10, others their pips).  Where the
preset follows a **reading** (RULES.md, ``piquet.core.sources``), the test says so.
"""

from __future__ import annotations

import dataclasses
import random

from enginekit import (
    Q_ELDER,
    Q_STOCK,
    Q_YOUNGER,
    SIX_ELDER,
    SIX_STOCK,
    SIX_YOUNGER,
    act,
    elder_speaks_q,
    new_deal,
    play,
    refused,
    said,
    timeline,
)
from piquet.core.actions import Discard, Play, parse_action
from piquet.core.cards import Card, CardSet
from piquet.core.deal import ELDER, YOUNGER, Deal, Phase
from piquet.core.match import Match, new_match
from piquet.core.rules import Format, PlayScoring, get_rules
from piquet.core.scoring import Kind, Tally
from piquet.core.view import deal_view

RULES = get_rules("encyclopedia-19c")


# ---------------------------------------------------------------- helpers


# ---------------------------------------------------------------- scenarios
# Q: enginekit's (rubicon's too); elder takes 7D, younger none.

def scenario_q(*, start: tuple[int, int] = (0, 0), target: int | None = None) -> Deal:
    deal = new_deal(RULES, Q_ELDER, Q_YOUNGER, Q_STOCK, start=start, target=target)
    return act(deal, "discard:7H", "discard:-", "decline")  # elder takes 7D, younger none


# Y: younger holds a point of six and a sixieme major in hearts and a quatorze of kings
# (6 + 16 + 14 = 36); elder nothing that beats them.
Y_ELDER = "AS QS JS 7S AD QD JD 7D AC QC JC 7C"
Y_YOUNGER = "AH KH QH JH TH 9H KS KD KC 9S 8S 9D"
Y_STOCK = "8C TS 8H 7H TD 8D TC 9C"


# ---------------------------------------------------------------- cards and deal


def test_19c_thirty_two_cards_dealt_two_by_two() -> None:
    """19c: "Piquet, a game played by two persons with 32 cards, eight of each suit, from ace to
    seven inclusive ... two by two, until each party has 12 cards. The remaining eight are
    "the stock"."""
    assert RULES.deck_size == 32 and RULES.packet_sizes == (2,)
    pack = [i for i in range(36) if i % 9]
    deal = Deal.new(RULES, pack)
    assert deal.phase is Phase.EXCHANGE  # nothing to choose: dealt two by two at once
    assert deal.hands[ELDER] == sum(1 << i for n, i in enumerate(pack[:24]) if n % 4 < 2)
    assert len(deal.stock) == 8


def test_19c_who_cuts_the_lowest_deals() -> None:
    """19c: "He who cuts the lowest piquet card deals"."""
    for seed in range(10):
        match = new_match(RULES, seed=seed)
        cut = dict(match.cuts[0][-2:])
        ranks = {p: Card.parse(text).rank for p, text in cut.items()}
        assert match.dealer == min(ranks, key=lambda p: ranks[p])


def test_19c_the_deal_alternates() -> None:
    """19c, **reading**: "the article does not say; the deal alternates, as the six hands of its
    Rubicon game require" - no new cut after a game."""
    assert RULES.cut_after_game is False
    match = new_match(RULES, seed=6, games=2)
    match = _finish(match, random.Random(6))
    assert len(match.games) == 2 and len(match.cuts) == 1
    dealers = [d.dealer for d in match.deals]
    assert all(dealers[i] != dealers[i + 1] for i in range(len(dealers) - 1))


def test_19c_carte_blanche_counts_ten() -> None:
    """19c, **reading**: "the article never mentions carte blanche (its list of what the score is
    composed of leaves it out); 10 as in every other source and in modern Rubicon" - and, being
    counted first, it stops elder's repique."""
    assert RULES.blanche_value == 10
    deal = new_deal(
        RULES,
        "AS KS QS JS TS 9S 8S 7S KH QH JH KD",
        "AH TH 9H 8H 7H AD TD 9D 8D 7D TC 9C",
        "QD JD AC KC QC JC 8C 7C",
    )
    assert deal.phase is Phase.BLANCHE and deal.to_act == YOUNGER
    assert [str(a) for a in deal.legal_actions()] == [
        "blanche:0",
        "blanche:1",
        "blanche:2",
        "blanche:3",
    ]
    deal = act(deal, "blanche:1", "discard:KD", "discard:9C", "decline")
    assert said(deal)[:5] == [
        "younger: Carte blanche!",
        "younger: Carte blanche. I shall discard one card.",
        "elder: elder exchanges 1",
        "younger: shows carte blanche",
        "younger: younger exchanges 1",
    ]
    # elder: point of eight (8), huitieme major and tierce to the king (21), three queens (3)
    deal = act(
        deal,
        "declare:point:AS KS QS JS TS 9S 8S 7S",
        "good",
        "declare:sequence:AS KS QS JS TS 9S 8S 7S",
        "good",
        "declare:set:QS QH QD",
        "good",
    )
    assert timeline(deal) == [
        ("younger", "carte blanche", 10),
        ("elder", "point", 8),
        ("elder", "sequences", 21),
        ("elder", "sets", 3),
    ]
    assert deal.phase is Phase.PLAY  # no question about the missing queen (ask_missing off)


# ---------------------------------------------------------------- the exchange


def test_19c_elder_discards_at_least_one_and_at_most_five() -> None:
    """19c: "He must discard at least one, and may discard five, replacing the number discarded
    from the stock"."""
    deal = new_deal(RULES, Q_ELDER, Q_YOUNGER, Q_STOCK)
    assert deal.to_act == ELDER and deal.discard_range() == (1, 5)
    refused(deal, Discard(CardSet()), "elder must discard 1 to 5 cards, not 0")
    refused(deal, Discard(CardSet.parse("7H 8D KH KD AC TS")), "must discard 1 to 5 cards, not 6")
    refused(deal, Discard(CardSet.parse("9C")), "elder does not hold 9C")


def test_19c_younger_may_take_none() -> None:
    """19c: "He may then discard from his own hand as many as there remain of the stock, and take
    all of the stock cards left. But this is optional; he need not take any, or may take a
    part only"."""
    deal = act(new_deal(RULES, Q_ELDER, Q_YOUNGER, Q_STOCK), "discard:7H 8D")
    assert deal.to_act == YOUNGER and deal.discard_range() == (0, 6)
    none = act(deal, "discard:-")
    assert none.hand(YOUNGER) == CardSet.parse(Q_YOUNGER)
    assert said(none)[-1] == "younger: younger exchanges 0"
    all_six = act(deal, "discard:9S 8S QH JH QD JD")
    assert all_six.hand(YOUNGER) == CardSet.parse("KC QC JC 9C 8C 7C TH 9H 8H TD 9D TC")
    refused(deal, Discard(CardSet.parse("9S 8S QH JH QD JD KC")), "0 to 6 cards, not 7")


def test_19c_elder_looks_at_what_he_leaves_never_at_the_three() -> None:
    """19c: "If the elder hand takes from the stock fewer than five cards, he may look at those
    which he leaves, but he cannot look at the three cards of the stock reserved for the
    younger hand"."""
    deal = act(new_deal(RULES, Q_ELDER, Q_YOUNGER, Q_STOCK), "discard:7H 8D")
    # elder took 7D 7S; he sees TH 9H 8H, the rest of his five, but never TD 9D TC
    assert deal_view(deal, ELDER).stock_seen == CardSet.parse("TH 9H 8H")
    assert deal_view(deal, YOUNGER).stock_seen == CardSet()


def test_19c_younger_looks_then_elder_after_first_card() -> None:
    """19c: "Should the dealer leave any cards in the stock, he has a right to look at them; and if
    he does so, the elder hand may look at them also after he has played; but if the dealer
    does not look at them, neither may the elder hand do so"."""
    deal = act(new_deal(RULES, Q_ELDER, Q_YOUNGER, Q_STOCK), "discard:7H 8D", "discard:9S")
    leftovers = CardSet.parse("9H 8H TD 9D TC")  # younger took TH, the top card
    assert deal.phase is Phase.LEFTOVERS and deal.to_act == YOUNGER
    assert [str(a) for a in deal.legal_actions()] == ["look", "decline"]
    looked = act(deal, "look")
    assert said(looked)[-1] == "younger: younger looks at the cards he left"
    assert deal_view(looked, YOUNGER).stock_seen == leftovers
    elder_own = CardSet.parse("TH 9H 8H")
    looked = elder_speaks_q(looked)
    assert deal_view(looked, ELDER).stock_seen == elder_own  # not yet: he has not played
    looked = play(looked, "AS")
    assert deal_view(looked, ELDER).stock_seen == elder_own | leftovers
    # younger did not look: neither does elder, ever
    blind = elder_speaks_q(act(deal, "decline"))
    assert "younger: younger leaves the stock unseen" in said(blind)
    blind = play(blind, "AS")
    blind = act(blind, "declare:point:KC QC JC 9C 8C 7C")
    blind = play(blind, "8S")
    assert deal_view(blind, YOUNGER).stock_seen == CardSet()
    assert deal_view(blind, ELDER).stock_seen == elder_own


def test_19c_a_card_once_discarded_cannot_be_taken_back() -> None:
    """19c: "A card once discarded cannot be taken back" - no second discard."""
    deal = scenario_q()
    refused(deal, Discard(CardSet.parse("AS")), "no discarding now")


# ---------------------------------------------------------------- the point


def test_19c_point_one_per_card_and_making() -> None:
    """19c: "the elder hand announces the greatest number of cards of the same suit in his hand as
    his point, and counts as many as he has cards, one for each ... If each player has an
    equal number, then the value of the cards is ascertained"."""
    # elder: AS KS QS JS TS (five, making 51); younger: KD QD JD TD 9D (five, making 49)
    deal = new_deal(
        RULES,
        "AS KS QS JS TS AH 7H AC 8C 7C 8D 7D",
        "KD QD JD TD 9D KH QH JH KC QC 9S 8S",
        "9C TC TH 9H 8H AD JC 7S",
    )
    deal = act(deal, "discard:7D", "discard:-", "decline")  # elder takes 9C
    deal = act(deal, "declare:point:AS KS QS JS TS")
    assert said(deal)[-1] == "elder: Point of five."
    assert [str(a) for a in deal.legal_actions()] == ["good", "making"]
    deal = act(deal, "making")
    assert said(deal)[-2:] == ["younger: Making?", "elder: Fifty-one."]
    assert [str(a) for a in deal.legal_actions()] == ["good"]  # 49 is less
    deal = act(deal, "good")
    assert said(deal)[-2:] == ["younger: Good.", "elder: shows AS KS QS JS TS"]
    assert timeline(deal) == [("elder", "point", 5)]


def test_19c_equal_point_is_paid() -> None:
    """19c: "or if both are of equal value, the point is "paid" and counts for neither"."""
    # elder: AS KS QS 9S 8S = 48; younger: AD KD QD 9D 8D = 48
    deal = new_deal(
        RULES,
        "AS KS QS 9S 8S AH 7H JC 9C 7C JD 7S",
        "AD KD QD 9D 8D KH QH KC QC TC JS TS",
        "8C 8H AC TH 9H JH TD 7D",
    )
    deal = act(deal, "discard:7S", "discard:-", "decline")  # elder takes 8C
    deal = act(deal, "declare:point:AS KS QS 9S 8S", "making")
    assert [str(a) for a in deal.legal_actions()] == ["good", "equal"]
    deal = act(deal, "equal")
    assert said(deal)[-3:] == ["younger: Making?", "elder: Forty-eight.", "younger: Equal."]
    assert timeline(deal) == []
    assert deal.to_act == ELDER  # on to the sequences: nothing deferred to after the lead


def test_19c_whichever_party_gains_the_point_must_lay_it_upon_the_table() -> None:
    """19c: "Whichever party gains the point must lay it upon the table" and "All other claims as
    to value of cards are, if admitted, followed by showing the point claimed" (read: every
    admitted claim is shown, sets included)."""
    deal = elder_speaks_q(scenario_q())
    deal = play(deal, "AS")
    deal = act(deal, "declare:point:KC QC JC 9C 8C 7C")
    view = deal_view(deal, ELDER)
    assert view.opponent_shown == CardSet.parse("KC QC JC 9C 8C 7C")
    assert deal_view(deal, YOUNGER).opponent_shown == CardSet.parse("AS KS QS JS TS AH KH AD KD AC")


# ---------------------------------------------------------------- sequences and sets


def test_19c_equal_highest_sequences_count_for_neither() -> None:
    """19c: "If the highest sequence in one hand is of the same value as that held by the
    adversary, no sequences held by either can be counted"."""
    deal = new_deal(
        RULES,
        "AS KS QS 9S 8S 7S AH 7H JC 9C 7C JD",
        "AD KD QD 9D 8D 7D KH QH KC QC TC JS",
        "8C TS 8H AC TH 9H JH TD",
    )
    deal = act(deal, "discard:JD", "discard:-", "decline")  # elder takes 8C
    deal = act(deal, "declare:point:AS KS QS 9S 8S 7S", "making", "equal")
    deal = act(deal, "declare:sequence:AS KS QS")
    assert [str(a) for a in deal.legal_actions()] == ["good", "equal"]
    deal = act(deal, "equal")
    assert timeline(deal) == []
    assert said(deal)[-2:] == ["elder: Tierce major.", "younger: Equal."]


def test_19c_quatorze_or_else_threes() -> None:
    """19c: "Whichever player holds the highest quatorze counts 14, to the exclusion of another or
    others held by his opponent. If neither party has a quatorze, then three of equal value
    ... are counted by the holder for 3"."""
    deal = elder_speaks_q(scenario_q())
    assert said(deal)[-4:] == [
        "elder: Quatorze of aces.",
        "younger: Good.",
        "elder: And three kings.",
        "elder: shows AS KS AH KH AD KD AC",
    ]


def test_sinking_19c_make_your_highest_claim_first() -> None:
    """19c: "make your highest claim first, that is, quatorze rather than threes, if you have both;
    because if your first claim is "paid," or beaten, you cannot then claim the higher"."""
    deal = act(scenario_q(), "declare:point:AS KS QS JS TS", "not-good")
    deal = act(deal, "declare:sequence:AS KS QS JS TS", "good")
    deal = act(deal, "declare:set:KS KH KD")  # three kings, sinking the quatorze of aces
    assert [str(a) for a in deal.legal_actions()] == ["good"]  # younger's queens are less
    deal = act(deal, "good")
    assert said(deal)[-3:] == [
        "elder: Three kings.",
        "younger: Good.",
        "elder: shows KS KH KD",
    ]
    assert deal.phase is Phase.PLAY and deal.to_act == ELDER
    refused(deal, parse_action("declare:set:AS AH AD AC"), "not allowed now")
    deal = play(deal, "AS")
    assert [str(a) for a in deal.legal_actions()] == ["declare:point:KC QC JC 9C 8C 7C"]
    deal = act(deal, "declare:point:KC QC JC 9C 8C 7C")
    # the quatorze is lost: three kings count 3
    assert timeline(deal)[1:3] == [("elder", "sequences", 15), ("elder", "sets", 3)]


# ---------------------------------------------------------------- who speaks when


def test_19c_younger_declares_after_elders_first_lead() -> None:
    """19c: "the elder hand claims the point, sequence, quatorze, or threes ... He then plays his
    first card, and the dealer or younger hand must then, before playing, make his
    claims"."""
    deal = elder_speaks_q(scenario_q())
    assert deal.phase is Phase.PLAY and deal.to_act == ELDER
    refused(deal, parse_action("declare:point:KC QC JC 9C 8C 7C"), "not allowed now")
    deal = play(deal, "AS")
    assert deal.phase is Phase.DECLARE and deal.to_act == YOUNGER
    refused(deal, Play(Card.parse("9S")), "cards are not played yet")
    deal = act(deal, "declare:point:KC QC JC 9C 8C 7C")
    assert said(deal)[-2:] == [
        "younger: Point of six, making 54.",
        "younger: shows KC QC JC 9C 8C 7C",
    ]
    assert deal.phase is Phase.PLAY and deal.to_act == YOUNGER
    # counting order: younger's point first, then elder's sequences, sets and lead
    assert timeline(deal) == [
        ("younger", "point", 6),
        ("elder", "sequences", 15),
        ("elder", "sets", 17),
        ("elder", "lead", 1),
    ]


def test_repique_judged_in_counting_order() -> None:
    """19c: "but in neither case can he do this if the dealer has, on the strength of his hand,
    made a count" - younger's point, declared after elder's lead but counted first, takes
    away the repique elder's 15 + 17 would make."""
    deal = act(elder_speaks_q(scenario_q()), "play:AS")
    deal = act(deal, "declare:point:KC QC JC 9C 8C 7C")
    assert "repique" not in [kind for _, kind, _ in timeline(deal)]
    assert deal.scores == (33, 6)
    # had younger's point been good, elder's 5 + 15 + 17 = 37 is a repique: 97
    good = act(
        scenario_q(),
        "declare:point:AS KS QS JS TS",
        "good",
        "declare:sequence:AS KS QS JS TS",
        "good",
        "declare:set:AS AH AD AC",
        "good",
    )
    assert timeline(good)[-1] == ("elder", "repique", 60)
    assert good.scores == (97, 0)


def test_game_won_mid_deal_in_counting_order() -> None:
    """**Reading** (the article is silent): a game to 100 ends the moment 100 is reached in
    counting order.  Both near 100: younger's point, counted first, wins though elder's
    quint was allowed "good" before it in the dialog."""
    deal = elder_speaks_q(scenario_q(start=(90, 94), target=100))
    assert not deal.is_over and deal.scores == (0, 0)  # held back behind the point
    deal = play(deal, "AS")
    deal = act(deal, "declare:point:KC QC JC 9C 8C 7C")
    assert deal.is_over and deal.game_reached_by == YOUNGER
    assert timeline(deal) == [("younger", "point", 6)]


def test_19c_younger_can_repique_too() -> None:
    """19c: "In like manner the dealer ... if he can, without playing and before the elder hand has
    made a score on the strength of his hand, count 30 on his hand alone, he wins a repique"
    - younger's claims come after elder's lead, but are counted before it."""
    deal = new_deal(RULES, Y_ELDER, Y_YOUNGER, Y_STOCK)
    deal = act(deal, "discard:7S", "discard:-", "decline")  # elder takes 8C
    deal = act(deal, "declare:point:AC QC JC 8C 7C", "not-good")
    assert [str(a) for a in deal.legal_actions()] == ["pass"]  # elder has no sequence
    deal = act(deal, "pass", "declare:set:AS AD AC", "not-good")
    deal = play(deal, "AS")
    deal = act(
        deal,
        "declare:point:AH KH QH JH TH 9H",  # six, making 60: 6
        "declare:sequence:AH KH QH JH TH 9H",  # sixieme major: 16
        "declare:set:KS KH KD KC",  # quatorze of kings: 14
    )
    assert timeline(deal) == [
        ("younger", "point", 6),
        ("younger", "sequences", 16),
        ("younger", "sets", 14),
        ("younger", "repique", 60),
        ("elder", "lead", 1),
    ]
    assert deal.scores == (1, 96)


def test_19c_pique_elder_only() -> None:
    """19c: "if from strength of hand and by taking tricks he can reach 30 before the adversary
    takes a trick, he may call "sixty" ... the dealer, while he cannot gain a pique"."""
    assert RULES.pique_elder_only
    # elder: point of five (51), quint major (15), three aces, kings and queens (9) = 29
    deal = new_deal(
        RULES,
        "AS KS QS JS TS AH QH AD KD KC QC 7D",
        "KH JH TH 9H 7H QD JD TD 9D 8D AC JC",
        "9C 9S 8S 7S 8H TC 8C 7C",
    )
    deal = act(deal, "discard:7D", "discard:-", "decline")  # elder takes 9C
    deal = act(deal, "declare:point:AS KS QS JS TS", "making")
    assert said(deal)[-1] == "elder: Fifty-one."  # younger's best five make 47
    deal = act(deal, "good", "declare:sequence:AS KS QS JS TS", "good")
    deal = act(deal, "declare:set:AS AH AD", "good")
    assert said(deal)[-2] == "elder: And three kings, three queens."
    assert deal.scores == (29, 0)
    deal = play(deal, "AS")  # "Each lead ... counts one": thirty, a pique
    assert timeline(deal)[-2:] == [("elder", "lead", 1), ("elder", "pique", 30)]
    assert deal.scores == (60, 0)
    # younger never gains one: on the 19c timeline his thirty from play is no pique
    tally = Tally()
    for kind, points in ((Kind.POINT, 6), (Kind.SEQUENCES, 16), (Kind.SETS, 3), (Kind.TRICK, 5)):
        tally = tally.add(YOUNGER, kind, points, "", RULES, (0, 0), None)
    assert tally.totals == (0, 30) and Kind.PIQUE not in [e.kind for e in tally.events]


def test_19c_pique_elder_only_knob_in_a_deal() -> None:
    """The knob itself, in a house variant where elder's first lead may count nothing (tenth
    cards only): younger's thirty by play is a pique only when the knob is off."""
    base = RULES.replace(play_scoring=PlayScoring.TENTH_CARDS)
    younger = Y_YOUNGER.replace("KC", "7H")  # AH KH QH JH TH 9H 7H KS KD 9S 8S 9D
    stock = Y_STOCK.replace("7H", "KC")
    for elder_only, expected in ((True, (0, 30)), (False, (0, 60))):
        deal = new_deal(base.replace(pique_elder_only=elder_only), Y_ELDER, younger, stock)
        deal = act(deal, "discard:7S", "discard:-", "decline")  # elder takes 8C
        # elder sinks his three aces, which would be good against three kings
        deal = act(deal, "declare:point:AC QC JC 8C 7C", "not-good", "pass", "pass")
        deal = play(deal, "7D")  # a seven: nothing under tenth cards
        deal = act(
            deal,
            "declare:point:AH KH QH JH TH 9H 7H",  # seven cards: 7
            "declare:sequence:AH KH QH JH TH 9H",  # sixieme major: 16
            "declare:set:KS KH KD",  # three kings: 3
        )
        assert deal.scores == (0, 26)
        deal = play(deal, "KD")  # wins with a tenth card: 27
        deal = play(deal, "AH 7C KH 8C QH JC")  # three tenth cards led: 30
        assert deal.scores == expected
        assert (("younger", "pique", 30) in timeline(deal)) is not elder_only


# ---------------------------------------------------------------- the play


def test_19c_each_lead_counts_one_and_winning_the_others_lead() -> None:
    """19c: "Each lead, whether the trick be taken or not, counts one, and each trick taken counts
    one; but if the party leading takes the trick, he counts one only for both"."""
    deal = act(elder_speaks_q(scenario_q()), "play:AS", "declare:point:KC QC JC 9C 8C 7C")
    start = len(deal.events)
    deal = play(deal, "9S KS 8S")  # elder leads (one) and wins his own lead: nothing more
    deal = play(deal, "7D QD")  # a seven led counts one all the same; younger wins it: one
    deal = play(deal, "JD KD")  # younger leads (one), elder wins it (one)
    assert timeline(deal)[start:] == [
        ("elder", "lead", 1),
        ("elder", "lead", 1),
        ("younger", "trick", 1),
        ("younger", "lead", 1),
        ("elder", "trick", 1),
    ]


def _six_six() -> Deal:
    deal = new_deal(RULES, SIX_ELDER, SIX_YOUNGER, SIX_STOCK)
    deal = act(deal, "discard:7D", "discard:-", "decline")  # elder takes 7C
    # elder: point of six (6), sixieme major and tierce to the nine (19); younger three aces
    # and three kings (6)
    deal = act(
        deal,
        "declare:point:AS KS QS JS TS 9S",
        "good",
        "declare:sequence:AS KS QS JS TS 9S",
        "good",
        "pass",
    )
    deal = play(deal, "AS")
    deal = act(deal, "declare:set:AH AD AC")
    deal = play(deal, "JH KS TH QS JD JS TD TS AC 9S KC")
    return play(deal, "7H AH KH 8H QH 9H AD 9D KD 8D QD 7C")


def test_19c_six_tricks_each_are_divided() -> None:
    """19c: "If each party has six tricks, they are "divided;" but the winner of seven or more
    tricks adds 10 to his score"."""
    deal = _six_six()
    assert deal.won == (6, 6) and deal.is_over
    assert "the cards" not in [kind for _, kind, _ in timeline(deal)]
    # elder: 6 + 19 in hand, seven leads: 32; younger: sets 6, one trick won from elder's
    # lead, five leads, the last trick's extra one: 13
    assert deal.scores == (32, 13)


def test_19c_the_last_trick_counts_two() -> None:
    """19c: "The last trick counts 2 for the winner" - one more than any other trick."""
    deal = _six_six()
    assert timeline(deal)[-2:] == [("younger", "lead", 1), ("younger", "last trick", 1)]


def test_19c_capot_forty_instead_of_ten() -> None:
    """19c: "The capot is won by taking all the 12 tricks, and instead of 10 gives 40 to the
    winner"."""
    deal = new_deal(
        RULES,
        "AS KS QS JS TS 9S 8S 7S AH KH QH JH",
        "TH 9H 8H 7H KD QD JD TD KC QC JC TC",
        "AD 9D 8D 7D AC 9C 8C 7C",
    )
    deal = act(deal, "discard:7S", "discard:-", "decline")  # elder takes AD
    deal = act(
        deal,
        "declare:point:AS KS QS JS TS 9S 8S",  # seven: 7
        "good",
        "declare:sequence:AS KS QS JS TS 9S 8S",  # septieme major 17 and quart major 4
        "good",
        "declare:set:AS AH AD",  # three aces: 3
        "good",
    )
    assert deal.scores == (91, 0)  # 31 in hand: a repique
    deal = play(deal, "AS KC KS QC QS JC JS TC TS KD 9S QD 8S JD")
    deal = play(deal, "AH TH KH 9H QH 8H JH 7H AD TD")
    assert deal.won == (12, 0)
    assert timeline(deal)[-2:] == [("elder", "last trick", 1), ("elder", "capot", 40)]
    assert deal.scores == (91 + 12 + 1 + 40, 0)


def test_19c_seven_tricks_win_the_cards() -> None:
    """19c: "the winner of seven or more tricks adds 10 to his score"."""
    deal = act(elder_speaks_q(scenario_q()), "play:AS", "declare:point:KC QC JC 9C 8C 7C")
    # elder: AS KS QS JS TS AH KH AD KD 7D 8D AC; younger: KC QC JC 9C 8C 7C 9S 8S QH JH QD JD
    deal = play(deal, "9S KS 8S QS QH JS JH TS 7C AH 8C KH 9C AC JC")  # eight to elder
    deal = play(deal, "8D QD KC 7D QC KD JD AD")  # younger wins three, elder the last
    assert deal.won == (9, 3)
    assert timeline(deal)[-3:] == [
        ("elder", "trick", 1),
        ("elder", "last trick", 1),
        ("elder", "the cards", 10),
    ]


def test_19c_follow_suit() -> None:
    """Following suit is enforced, with a message naming the cards held."""
    deal = act(elder_speaks_q(scenario_q()), "play:AS", "declare:point:KC QC JC 9C 8C 7C")
    message = refused(deal, Play(Card.parse("KC")), "you must follow spades")
    assert message == "KC: you must follow spades: you hold 9S 8S"


def test_19c_a_claim_to_what_he_has_not_got() -> None:
    """19c: "A party making a claim to what he has not got counts nothing that hand" - the engine
    refuses such a claim outright."""
    deal = scenario_q()
    refused(deal, parse_action("declare:point:AS KS QS JS TS 9S"), "cannot show", "Allowed")


# ---------------------------------------------------------------- the partie


def _to_last_deal(seed: int) -> Match:
    """A partie played at random (seeded) up to the start of its sixth deal."""
    match = new_match(RULES, seed=seed, format=Format.PARTIE)
    rng = random.Random(seed)
    while match.deal_number < RULES.partie_deals:
        match = match.apply(match.random_action(rng))
    return match


def _finish(match: Match, rng: random.Random) -> Match:
    while not match.finished:
        match = match.apply(match.random_action(rng))
    return match


def _finish_at(match: Match, finals: tuple[int, int]) -> Match:
    """Play the last deal (seeded), the scores before it set so the partie ends at ``finals``.

    The deals of a partie never look at the score (no target), so the same seed plays the
    same last deal whatever the score before it.
    """
    trial = _finish(match, random.Random(99))
    last = trial.deals[-1]
    made = [0, 0]
    for role, player in enumerate(last.players):
        made[player] += last.points[role]
    before = (finals[0] - made[0], finals[1] - made[1])
    assert min(before) >= 0
    done = _finish(dataclasses.replace(match, scores=before), random.Random(99))
    assert done.games[0].scores == finals
    return done


def test_19c_rubicon_partie_of_six_hands() -> None:
    """19c: "Sometimes the "Rubicon" game of six hands is played, in which if one party scores
    less than 100, his score is added to that of the winner, if he has scored 100 or more" -
    otherwise (a reading) the winner scores the difference."""
    match = _to_last_deal(5)
    assert match.deal_number == 6 and not match.finished
    rubicon = _finish_at(match, (160, 60))
    assert len(rubicon.deals) == 6
    (game,) = rubicon.games
    assert (game.winner, game.rubiconed, game.settled) == (0, True, 220)  # 160 + 60
    assert rubicon.result() == {
        "scores": [160, 60],
        "winner": 0,
        "settled": 220,
        "rubiconed": True,
    }
    # both over 100: the difference
    (game,) = _finish_at(match, (130, 170)).games
    assert (game.winner, game.rubiconed, game.settled) == (1, False, 40)
    # nobody at 100 (a reading): the difference
    (game,) = _finish_at(match, (70, 90)).games
    assert (game.winner, game.rubiconed, game.settled) == (1, False, 20)


def test_19c_level_partie_stays_drawn() -> None:
    """**Reading**: "the article says nothing of a partie level after six hands; it stays
    drawn"."""
    assert RULES.partie_tie_extra_deals is False
    level = _finish_at(_to_last_deal(5), (150, 150))
    (game,) = level.games
    assert game.winner is None and level.result()["winner"] is None
    assert len(level.deals) == 6


def test_19c_game_of_a_hundred() -> None:
    """19c: "The game is ordinarily played for 100 points"."""
    assert RULES.target == 100 and RULES.default_format is Format.GAME
    match = new_match(RULES, seed=8)
    rng = random.Random(8)
    match = _finish(match, rng)
    (game,) = match.games
    assert max(game.scores) >= 100
    assert game.winner == game.players[game.scores.index(max(game.scores))]
