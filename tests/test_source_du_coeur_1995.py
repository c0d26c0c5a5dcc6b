"""The ``du-coeur-1995`` preset against Justin du Coeur's 1995 reconstruction of Cotton.

Every test quotes the words it rests on; hands are written out in full (36 cards) and
every count in the comments was worked by hand: ace 11, courts and ten 10, others their
pips; a ruff is worth ``(total + 5) // 10``; sequences run across the suits, each card in
one run only.  Where the preset follows a **reading** (RULES.md, ``piquet.core.sources``), the
test says so.
"""

from __future__ import annotations

import random

from enginekit import act, new_deal, play, refused, said, timeline
from piquet.core.actions import DealBy, Discard, Play, parse_action
from piquet.core.cards import Card, CardSet
from piquet.core.deal import ELDER, YOUNGER, Deal, Phase
from piquet.core.match import new_match
from piquet.core.rules import get_rules
from piquet.core.view import deal_view

RULES = get_rules("du-coeur-1995")


# ---------------------------------------------------------------- helpers


# ---------------------------------------------------------------- scenarios

# P: elder 29 in hand - ruff AS KS QS JS TS = 51 (5), a quint major across the suits
# (T J Q K A) and the tierce 6C 7D 8H (15 + 3), three aces and three kings (6).
P_ELDER = "AS KS QS JS TS AH AD KH KD 7D 6C 9C"
P_YOUNGER = "QH QD QC JH JD JC TH TD 7S 7H 6S 6D"
P_STOCK = "8H 6H 9S 8S 9H 9D 8D AC KC TC 8C 7C"


def scenario_p(*, start: tuple[int, int] = (0, 0), target: int | None = None) -> Deal:
    deal = new_deal(RULES, P_ELDER, P_YOUNGER, P_STOCK, start=start, target=target)
    return act(deal, "discard:9C", "discard:6S", "decline")  # elder takes 8H, younger 6H


def declare_p(deal: Deal) -> Deal:
    return act(
        deal,
        "declare:point:AS KS QS JS TS",
        "good",
        "declare:sequence:AS KS QS JS TS",
        "good",
        "declare:set:AS AH AD",
        "good",
    )


# S: elder's spades A K Q J T 9 (60) and 8H 7H 6H 8D 7D 6C; younger's hearts A K Q J T 9
# (60) and AD KD QD JD TD 7C: the ruffs are equal; elder's neuvieme across the suits wins.
S_ELDER = "AS KS QS JS TS 9S 8H 7H 6H 8D 7D 6D"
S_YOUNGER = "AH KH QH JH TH 9H AD KD QD JD TD 9D"
S_STOCK = "6C 7C AC KC QC JC TC 9C 8C 8S 7S 6S"


def six_six() -> Deal:
    deal = new_deal(RULES, S_ELDER, S_YOUNGER, S_STOCK)
    deal = act(deal, "discard:6D", "discard:9D", "decline")  # elder takes 6C, younger 7C
    deal = act(deal, "declare:point:AS KS QS JS TS 9S", "equal")
    deal = act(deal, "declare:sequence:AS KS QS JS TS 9S 8H 7H 6H", "good", "pass", "pass")
    deal = play(deal, "AS 7C KS TD QS JD JS QD TS 9H 9S TH")  # younger keeps six winners
    return play(deal, "6H AH KH 7H QH 8H JH 6C AD 7D KD 8D")


# ---------------------------------------------------------------- cards and deal


def test_1995_thirty_six_cards_dealt_by_two_three_or_four() -> None:
    """1995: "This game is played with a 36-card deck" and "Deal out 12 cards to each player, in
    sets of 2, 3, or 4 cards at a time ... Leave the remaining 12 cards in the middle"."""
    deal = Deal.new(RULES, list(range(36)))
    assert deal.legal_actions() == [DealBy(2), DealBy(3), DealBy(4)]
    dealt = deal.apply(DealBy(3))
    assert len(dealt.stock) == 12 and len(dealt.hand(ELDER)) == 12


def test_1995_the_deal_alternates_after_a_game() -> None:
    """1995, **reading**: "the report does not say; the deal alternates after each game as in
    Cotton, its source"."""
    match = new_match(RULES, seed=2, games=2)
    rng = random.Random(2)
    while not match.finished:
        match = match.apply(match.random_action(rng))
    assert len(match.games) == 2 and len(match.cuts) == 1
    dealers = [d.dealer for d in match.deals]
    assert all(dealers[i] != dealers[i + 1] for i in range(len(dealers) - 1))


# ---------------------------------------------------------------- blank


def _both_blank(elder_discards: str) -> Deal:
    deal = new_deal(
        RULES,
        "AS TS 9S 8S 7S 6S AH TH 9H 8H 7H 6H",
        "AD TD 9D 8D 7D 6D AC TC 9C 8C 7C 6C",
        "KS QS JS KH QH JH KD QD JD KC QC JC",
    )
    n = len(elder_discards.split())
    deal = act(deal, f"blanche:{n}", "blanche:1", "discard:6D")
    return act(deal, f"discard:{elder_discards}", "decline")


def test_1995_both_blanks_neither_scores() -> None:
    """1995: "As above, if both players are blank, neither scores. Blank is worth ten points, and
    requires showing the entire hand" - and a blank that counts nothing hinders nothing
    (RULES.md: equal classes block nothing)."""
    deal = _both_blank("6S 6H 7H 8H 9H TH")  # elder takes KS QS JS KH QH JH
    assert said(deal)[:7] == [
        "elder: Carte blanche!",
        "younger: Carte blanche!",
        "elder: Carte blanche. I shall discard 6 cards.",
        "younger: Carte blanche. I shall discard one card.",
        "younger: younger discards 1",
        "elder: shows carte blanche",
        "elder: elder exchanges 6",
    ]
    assert "younger: shows carte blanche" in said(deal)
    assert deal.events == ()
    assert deal_view(deal, ELDER).opponent_shown == CardSet.parse(
        "AD TD 9D 8D 7D 6D AC TC 9C 8C 7C 6C"
    )
    # elder: AS KS QS JS TS 9S 8S 7S AH KH QH JH: ruff 75 (8); a huitieme 7 to A and a
    # quart major (18 + 4): thirty, a repique all the same
    deal = act(deal, "declare:point:AS KS QS JS TS 9S 8S 7S", "good")
    deal = act(deal, "declare:sequence:AS KS QS JS TS 9S 8S 7S", "good")
    assert timeline(deal) == [
        ("elder", "point", 8),
        ("elder", "sequences", 22),
        ("elder", "repique", 60),
    ]


def test_1995_younger_blank_names_up_to_what_elder_leaves_at_most_eight() -> None:
    """1995: "We played that Younger may only draw up to eight" - **reading** (blanche_number,
    Cotton's procedure): elder names 3, leaving 9; younger may name 1 to 8."""
    deal = new_deal(
        RULES,
        "AS TS 9S 8S 7S 6S AH TH 9H 8H 7H 6H",
        "AD TD 9D 8D 7D 6D AC TC 9C 8C 7C 6C",
        "KS QS JS KH QH JH KD QD JD KC QC JC",
    )
    deal = act(deal, "blanche:3")
    assert [str(a) for a in deal.legal_actions()] == [f"blanche:{n}" for n in range(1, 9)]
    deal = act(deal, "blanche:8", "discard:TD 9D 8D 7D 6D TC 9C 8C", "discard:6S 6H 7H")
    assert deal.hand(YOUNGER) == CardSet.parse("AD AC 7C 6C KH QH JH KD QD JD KC QC")
    assert deal.events == ()  # both blank: neither scores


def test_1995_one_blank_is_worth_ten_and_shown() -> None:
    """1995: "Blank is worth ten points, and requires showing the entire hand"."""
    deal = new_deal(
        RULES,
        "AS TS 9S 8S 7S 6S AH TH 9H 8H 7H 6H",
        "AD TD 9D 8D 7D 6D AC TC 9C 8C 7C JC",
        "KS QS JS KH QH JH KD QD JD KC QC 6C",
    )
    deal = act(deal, "blanche:2", "discard:7C", "discard:6S 6H")
    assert timeline(deal) == [("elder", "carte blanche", 10)]
    assert deal_view(deal, YOUNGER).opponent_shown == CardSet.parse(
        "AS TS 9S 8S 7S 6S AH TH 9H 8H 7H 6H"
    )


# ---------------------------------------------------------------- the draw


def test_1995_elder_up_to_eight_younger_up_to_eight() -> None:
    """1995: "Elder may now discard up to eight cards from his hand" and "We played that Younger may
    only draw up to eight"."""
    deal = new_deal(RULES, P_ELDER, P_YOUNGER, P_STOCK)
    assert deal.discard_range() == (1, 8)
    one = act(deal, "discard:9C")
    assert one.discard_range() == (1, 8)  # eleven left, but at most eight
    # **reading**: "the report gives no minimum; Cotton, which it reconstructs, obliges both
    # players to discard at least one card"
    refused(one, Discard(CardSet()), "younger must discard 1 to 8 cards, not 0")
    refused(one, Discard(CardSet.parse("QH QD QC JH JD JC TH TD 7S")), "1 to 8 cards, not 9")
    eight = act(deal, "discard:9C 6C 7D KD KH AD AH TS")
    assert eight.discard_range() == (1, 4)


def test_1995_elder_examines_the_rest_of_his_eight() -> None:
    """1995: "if he drew less than eight, he may examine (but not alter) the remaining cards up to
    eight. (In other words, if you draw five, you may look at the next three.)"."""
    deal = act(new_deal(RULES, P_ELDER, P_YOUNGER, P_STOCK), "discard:9C 6C 7D KD KH")
    assert deal_view(deal, ELDER).stock_seen == CardSet.parse("9D 8D AC")
    assert deal_view(deal, YOUNGER).stock_seen == CardSet()


def test_1995_younger_may_flip_up_the_rest_for_both() -> None:
    """1995: "Younger may choose to flip up the remaining cards in the Stock, for both to see"."""
    deal = act(new_deal(RULES, P_ELDER, P_YOUNGER, P_STOCK), "discard:9C", "discard:6S")
    assert deal.phase is Phase.LEFTOVERS and deal.to_act == YOUNGER
    rest = CardSet.parse("9S 8S 9H 9D 8D AC KC TC 8C 7C")
    up = act(deal, "look")
    assert said(up)[-1] == "younger: younger turns up the 10 cards he left"
    assert up.dialog[-1].shown == rest.mask
    assert deal_view(up, ELDER).stock_seen >= rest
    assert deal_view(up, YOUNGER).stock_seen == rest
    down = act(deal, "decline")
    assert said(down)[-1] == "younger: younger leaves the stock face down"
    assert deal_view(down, YOUNGER).stock_seen == CardSet()
    assert deal_view(down, ELDER).stock_seen == CardSet.parse("6H 9S 8S 9H 9D 8D AC")


# ---------------------------------------------------------------- declarations


def test_1995_ruff_one_tenth_rounding_up_from_35() -> None:
    """1995: "Score one-tenth the number of points shown in the Ruff, rounding up. (So a Ruff of 40
    is worth four points, as is one of 35, but 34 is worth three points.)" and "Show the
    cards that win the Ruff"."""
    deal = act(scenario_p(), "declare:point:AS KS QS JS TS", "good")
    assert said(deal)[-3:] == [
        "elder: Ruff of 51.",
        "younger: Good.",
        "elder: shows AS KS QS JS TS",
    ]
    assert timeline(deal) == [("elder", "point", 5)]


def test_1995_sequences_in_any_suit_each_card_in_one_run() -> None:
    """1995: "only sequences within a particular suit count. I can find no evidence of this in
    either Cotton or Cotgrave" and "we decided that you can only count each card in one
    sequence (and must show all sequences you are counting)"."""
    deal = act(scenario_p(), "declare:point:AS KS QS JS TS", "good")
    deal = act(deal, "declare:sequence:AS KS QS JS TS")
    assert said(deal)[-1] == "elder: Quint major."
    deal = act(deal, "good")
    assert said(deal)[-2:] == [
        "elder: And tierce to the eight.",
        "elder: shows AS KS QS JS TS 8H 7D 6C",
    ]
    assert timeline(deal)[-1] == ("elder", "sequences", 18)  # 15 + 3


def test_1995_younger_may_top_a_run_with_a_longer_one() -> None:
    """1995: "Elder goes first, declaring the number of cards in his run, and Younger can top it. If
    there is a tie, it goes to the run with the higher top card"."""
    deal = new_deal(RULES, S_ELDER, S_YOUNGER, S_STOCK)
    deal = act(deal, "discard:6D", "discard:9D", "decline")
    deal = act(deal, "pass", "pass")  # ruffs sunk
    deal = act(deal, "declare:sequence:AS KS QS JS TS 9S")  # a sixieme major, sinking
    # younger's sixieme major (A K Q J T 9 of hearts, or diamonds) ties it: equal
    assert [str(a) for a in deal.legal_actions()] == ["good", "equal"]
    deal = act(deal, "equal")
    assert timeline(deal) == []


def test_1995_tied_runs_of_nine_are_total_ties() -> None:
    """1995: "if it is still tied, we decided that both lose. (Note that tied runs of nine are
    automatically total ties, and are very aggravating.)"."""
    deal = new_deal(
        RULES,
        "AS KH QD JC TS 9H 8D 7C 6S AH KD QC",
        "AD KS QH JS TH 9S 8C 7H 6D AC KC QS",
        "JH JD TD TC 9D 9C 8S 8H 7S 7D 6H 6C",
    )
    deal = act(deal, "discard:QC", "discard:QS", "decline")  # elder takes JH, younger JD
    deal = act(deal, "pass", "pass", "declare:sequence:AS KH QD JH TS 9H 8D 7C 6S")
    assert [str(a) for a in deal.legal_actions()] == ["good", "equal"]
    deal = act(deal, "equal")
    assert said(deal)[-2:] == ["elder: Neuvième major.", "younger: Equal."]
    assert timeline(deal) == []


def test_1995_four_of_a_kind_beats_any_three() -> None:
    """1995: "Only cards of ten or higher count -- sixes through nines are worthless ... the person
    holding the highest set may score all of the sets in his hand ... a four of a kind beats
    any three of a kind" - and the winner shows them ("The better shows the cards")."""
    deal = new_deal(
        RULES,
        "AS AH AD KS KH 9S 9H 9D 9C 8S 7S 6C",
        "TS TH TD TC QS QH QD 8H 7H 6S 6H 8D",
        "KD 7D 6D KC AC JS JH JD JC QC 8C 7C",
    )
    deal = act(deal, "discard:6C", "discard:8D", "decline")  # elder takes KD, younger 7D
    deal = act(deal, "pass", "pass", "pass", "pass")
    deal = act(deal, "declare:set:AS AH AD", "not-good", "declare:set:TS TH TD TC")
    assert said(deal)[-3:] == [
        "younger: Quatorze of tens.",
        "younger: And three queens.",
        "younger: shows QS TS QH TH QD TD TC",
    ]
    assert timeline(deal) == [("younger", "sets", 17)]  # nines, elder's four, count nothing
    assert [str(a) for a in deal.legal_actions()][:1] == ["play:AS"]  # no question in 1995


# ---------------------------------------------------------------- the tricks


def test_1995_winner_takes_one_for_each_ten_or_higher_in_the_trick() -> None:
    """1995: "If a trick involves one or two cards that are ten or higher, the winner of the trick
    takes one point for each such card. (Cotton is rather cryptic on this point; this is our
    best interpretation.)"."""
    deal = declare_p(scenario_p())
    # elder: AS KS QS JS TS AH AD KH KD 8H 7D 6C; younger: QH QD QC JH JD JC TH TD 7S 7H 6H 6D
    start = len(deal.events)
    deal = play(deal, "8H QH")  # the queen wins: 1 to younger
    deal = play(deal, "TH KH")  # a ten led, the king wins: 2 to elder
    deal = play(deal, "KS 7S")  # one tenth card: 1 to elder
    deal = play(deal, "7D 6D")  # no card of ten or higher: nothing
    deal = play(deal, "AD QD")  # two tenth cards: 2 to elder
    assert timeline(deal)[start:] == [
        ("younger", "trick", 1),
        ("elder", "trick", 2),
        ("elder", "trick", 1),
        ("elder", "trick", 2),
    ]
    assert [t.winner for t in deal.tricks] == [YOUNGER, ELDER, ELDER, ELDER, ELDER]


def test_1995_last_trick_bonus_two_extra_with_a_ten() -> None:
    """1995: "Winner of the final trick gets one point, or two points if he wins with a ten" -
    **reading**: a bonus on top of what the trick's tenth cards give."""
    deal = six_six()
    assert timeline(deal)[-2:] == [("younger", "trick", 1), ("younger", "last trick", 2)]
    low = capet(last="7S")  # won with a seven: one
    assert str(Card.from_index(low.tricks[-1].lead)) == "7S"
    assert timeline(low)[-2:] == [("elder", "last trick", 1), ("elder", "capot", 40)]


def test_1995_tied_tricks_nobody_scores_ten() -> None:
    """1995: "At the end of the tricks, the player who took the most tricks takes ten points. Cotton
    is not clear about what happens if tricks tie; we decided that neither player gets any
    points"."""
    deal = six_six()
    assert deal.won == (6, 6)
    assert "the cards" not in [kind for _, kind, _ in timeline(deal)]


def capet(*, last: str) -> Deal:
    deal = new_deal(
        RULES,
        "AS KS QS JS TS 9S 8S 7S 6S AH KH QH",
        "JH TH 9H 8H 7H 6H KD QD JD TD KC QC",
        "AD 9D 8D 7D 6D AC JC TC 9C 8C 7C 6C",
    )
    deal = act(deal, "discard:6S", "discard:6H", "decline")  # elder takes AD, younger 9D
    deal = act(
        deal,
        "declare:point:AS KS QS JS TS 9S 8S 7S",  # 75: 8
        "good",
        "declare:sequence:AS KS QS JS TS 9S 8S 7S",  # huitieme 7 to A (18), A K Q (3)
        "good",
        "declare:set:AS AH AD",  # three aces: 3
        "good",
    )
    assert deal.scores == (92, 0)  # 32 in hand: a repique
    deal = play(deal, "AS KC KS QC QS KD JS QD TS JD 9S TD")
    if last == "7S":
        return play(deal, "AH JH KH TH QH 9H AD 9D 8S 8H 7S 7H")
    return play(deal, "8S 8H 7S 7H AH JH KH TH QH 9H AD 9D")


def test_1995_capet_forty_instead_of_ten() -> None:
    """1995: "If one player has won all of the tricks, it is called "Capet", and he gets forty
    points instead of ten"."""
    deal = capet(last="AD")
    assert deal.won == (12, 0)
    # tenth cards won: AS KC KS QC QS KD JS QD TS JD TD = 11 in the spades, AH JH KH TH QH AD
    # = 6 more; the last trick, won with the ace: 2 extra
    kinds = [kind for _, kind, _ in timeline(deal)]
    assert "the cards" not in kinds
    assert timeline(deal)[-2:] == [("elder", "last trick", 2), ("elder", "capot", 40)]
    assert deal.scores == (92 + 17 + 2 + 40, 0)


# ---------------------------------------------------------------- pique and repique


def test_1995_pique_thirty_before_the_other_scores() -> None:
    """1995: "If one player in a hand manages to get thirty points before the other player has
    scored anything, it is called a "Pique" ... and he gets an extra thirty points"."""
    deal = declare_p(scenario_p())
    assert deal.scores == (29, 0)  # 5 + 18 + 6
    deal = play(deal, "AS 7S")  # the ace wins a trick with one tenth card: thirty
    assert timeline(deal)[-2:] == [("elder", "trick", 1), ("elder", "pique", 30)]
    assert deal.scores == (60, 0)


def test_1995_younger_may_pique() -> None:
    """1995: "If one player in a hand manages to get thirty points" - either player."""
    deal = new_deal(
        RULES,
        "QH QD QC JH JD JC TH TD 7S 7H 6D 9C",
        "AS KS QS JS TS AH AD KH KD 7D 6C 6S",
        "6H 8H 9S 8S 9H 9D 8D AC KC TC 8C 7C",
    )
    deal = act(deal, "discard:9C", "discard:6S", "decline")  # elder takes 6H, younger 8H
    deal = act(deal, "declare:point:QH JH TH 7H 6H", "not-good", "declare:point:AS KS QS JS TS")
    deal = act(deal, "declare:sequence:QH JH TH", "not-good", "declare:sequence:AS KS QS JS TS")
    deal = act(deal, "declare:set:QH QD QC", "not-good", "declare:set:AS AH AD")
    assert deal.scores == (0, 29)
    deal = play(deal, "6D AD")  # a six led; younger wins with the ace: one, thirty
    assert timeline(deal)[-2:] == [("younger", "trick", 1), ("younger", "pique", 30)]


def test_1995_repique_before_the_tricks() -> None:
    """1995: "Moreover, if he manages to do this before they begin playing tricks, this is a
    "Repique" ... and he gets sixty points" (not ninety: "This seems excessive, so we have
    stuck with the modern scoring")."""
    deal = capet(last="AD")
    assert timeline(deal)[:4] == [
        ("elder", "point", 8),
        ("elder", "sequences", 21),
        ("elder", "sets", 3),
        ("elder", "repique", 60),
    ]


def test_1995_pique_in_the_play_after_an_equal_ruff() -> None:
    """An equal ruff scores for nobody ("if both players tie evenly, no one scores"), so elder
    still piques by the tricks."""
    deal = six_six()
    assert timeline(deal)[:7] == [
        ("elder", "sequences", 22),  # neuvieme (19) and tierce to the eight (3)
        ("elder", "trick", 1),  # AS 7C
        ("elder", "trick", 2),  # KS TD
        ("elder", "trick", 2),  # QS JD
        ("elder", "trick", 2),  # JS QD: 29
        ("elder", "trick", 1),  # TS 9H: thirty
        ("elder", "pique", 30),
    ]
    # elder: 22 + 9 + 30 = 61; younger: six tricks with one tenth card each, 2 for the last
    assert deal.scores == (61, 8)


# ---------------------------------------------------------------- winning


def test_1995_wins_are_immediate_at_121() -> None:
    """1995: "Since we had Cribbage boards handy for scoring, we chose to play to 121" and "Note
    that wins are immediate -- you do not finish out the winning hand, but declare the victory as
    soon as it is pegged"."""
    assert RULES.target == 121
    deal = act(scenario_p(start=(117, 100), target=121), "declare:point:AS KS QS JS TS")
    deal = act(deal, "good")
    assert deal.is_over and deal.game_reached_by == ELDER
    assert timeline(deal) == [("elder", "point", 5)]
    refused(deal, parse_action("declare:sequence:AS KS QS JS TS"), "the deal is over")


def test_1995_follow_suit() -> None:
    """1995: "You must follow suit if possible"."""
    deal = play(declare_p(scenario_p()), "AS")
    assert refused(deal, Play(Card.parse("QH")), "you must follow spades") == (
        "QH: you must follow spades: you hold 7S"
    )
