"""The ``court-gamester-1754`` preset against Seymour and Johnson, *The Compleat Gamester*
(8th edition, 1754).

Every test quotes the words it rests on.  Hands are written out in full (32 cards, no
sixes) and every count in the comments was worked by hand: ace 11, courts and ten 10,
others their pips; a point is worth ``(total + 5) // 10``.  Where the preset follows a
**reading** (RULES.md, ``piquet.core.sources``), the test says so.
"""

from __future__ import annotations

import itertools
import random

import pytest

from enginekit import (
    SIX_ELDER,
    SIX_STOCK,
    SIX_YOUNGER,
    act,
    dealers_to_the_end,
    new_deal,
    play,
    refused,
    said,
    timeline,
)
from piquet.core.actions import Appoint, DealBy, Discard, NameLead, Play, parse_action
from piquet.core.cards import DECK32, Card, CardSet, Suit
from piquet.core.deal import ELDER, YOUNGER, Deal, Phase
from piquet.core.errors import IllegalActionError, RecordError
from piquet.core.match import Match, new_match
from piquet.core.rules import Format, get_rules
from piquet.core.view import appointable, deal_view
from piquet.players.book import book_action

RULES = get_rules("court-gamester-1754")


# ---------------------------------------------------------------- helpers


def finish(match: Match, rng: random.Random) -> Match:
    while not match.finished:
        match = match.apply(match.random_action(rng))
    return match


# ---------------------------------------------------------------- scenarios

# N: younger has the point (diamonds K Q J T 9 = 49, worth 5); elder a quatorze of aces.
# Elder lays out QC and takes 7C; younger lays out JH and takes 8C.
N_ELDER = "AS AH AD AC 9S 8S 7S 9H 8H 7H KC QC"
N_YOUNGER = "KD QD JD TD 9D KS QS JS TS KH QH JH"
N_STOCK = "7C 8C 9C JC TC 8D 7D TH"


def scenario_n(*, start: tuple[int, int] = (0, 0), target: int | None = None) -> Deal:
    deal = new_deal(RULES, N_ELDER, N_YOUNGER, N_STOCK, start=start, target=target)
    return act(deal, "discard:QC", "discard:JH")


# F: elder's quart major (41, worth 4) and two small tierces against younger's tierce to a
# queen.  Elder lays out 7C, takes 9C; younger lays out 7S, takes 8S.
F_ELDER = "AS KS QS JS JH TH 9H TD 9D 8D 8C 7C"
F_YOUNGER = "QC JC TC AH KH 8H AD KD 7D TS 9S 7S"
F_STOCK = "9C 8S QH 7H QD JD AC KC"


def scenario_f() -> Deal:
    deal = new_deal(RULES, F_ELDER, F_YOUNGER, F_STOCK)
    return act(deal, "discard:7C", "discard:7S", "decline")


# ---------------------------------------------------------------- cards, cut, deal


def test_1754_thirty_two_cards() -> None:
    """1754: "throw out all the Duces, Trays, Fours, Fives, and Sixes. You are to play with the
    rest, which will amount to Thirty-two"."""
    assert RULES.deck_size == 32 and RULES.stock_size == 8
    with pytest.raises(IllegalActionError, match="32-card pack"):
        Deal.new(RULES, list(range(36)))


def test_1754_deal_by_four_three_or_two_the_same_throughout() -> None:
    """1754: "The Dealer may distribute the Cards, by 4, by 3, or by 2 at a Time, as he pleases,
    'till he has dealt 12 a-piece; but he must always go thro' the Deal to the End, with the
    same Number as he begins"."""
    pack = [i for i in range(36) if i % 9]
    deal = Deal.new(RULES, pack)
    assert deal.legal_actions() == [DealBy(2), DealBy(3), DealBy(4)]
    by_four = deal.apply(DealBy(4))
    assert by_four.hands[ELDER] == sum(1 << i for n, i in enumerate(pack[:24]) if n % 8 < 4)
    assert by_four.packet == 4  # one size, chosen once, for the whole deal
    refused(by_four, DealBy(2), "not allowed now")


def test_1754_the_lowest_card_deals_and_a_number_of_games_agreed_deals_alternately() -> None:
    """1754: "He who shews the lowest Card in cutting, is the Dealer", and "Sometimes it is
    agreed to play a certain Number of Games, and to deal alternately to the End of those
    Games": a match of several games cuts once, then the deal alternates to its end, over
    the games' ends too."""
    assert RULES.cut_after_game is False
    match = new_match(RULES, seed=2, games=3)
    cut = dict(match.cuts[0][-2:])
    assert match.dealer == min(cut, key=lambda p: Card.parse(cut[p]).rank)
    match, dealers = dealers_to_the_end(match, random.Random(2))
    assert len(match.games) == 3 and len(match.cuts) == 1, "no new cut within the games agreed"
    assert len(dealers) == len(match.deals)
    assert all(a != b for a, b in itertools.pairwise(dealers))


def test_1754_cut_again_for_the_deal_if_you_play_on() -> None:
    """1754: "When the Game is at an End, you are to cut again for the Deal, if you play on;
    and so every Game you play": playing on after the games agreed is a new match, and every
    match begins with a cut (the seed of the new match decides it, not the last dealer)."""
    dealers = set()
    for seed in range(12):
        match = new_match(RULES, seed=seed)
        [cut] = match.cuts
        cards = dict(cut[-2:])
        assert match.dealer == min(cards, key=lambda p: Card.parse(cards[p]).rank)
        dealers.add(match.dealer)
    assert dealers == {0, 1}


def test_a_house_rule_may_cut_again_after_every_game_of_a_match() -> None:
    """The knob itself (no source sets it): ``cut_after_game = true`` cuts again for the
    deal at every game's end, and the lower card deals the new game."""
    rules = RULES.replace(name="house-cut", cut_after_game=True)
    match = finish(new_match(rules, seed=2, games=2), random.Random(2))
    assert len(match.games) == 2 and len(match.cuts) == 2
    second = dict(match.cuts[1][-2:])
    first_deal_of_second = next(d for d in match.deals if d.game == 2)
    assert first_deal_of_second.dealer == min(second, key=lambda p: Card.parse(second[p]).rank)


# ---------------------------------------------------------------- carte blanche


def test_carte_blanche_procedure() -> None:
    """1754: "he is to declare that he has Carte-blanche: Then he is to tell how many Cards he will
    lay out, and desire the other to discard, that he may shew him his Game. When the other
    has discarded, he who has Carte-blanche, is to shew his Game upon the Table ... But he
    must lay out the same Number of Cards he declared"."""
    deal = new_deal(
        RULES,
        "AS TS 9S 8S 7S AH TH 9H 8H 7H AD TD",
        "KS QS JS KH QH JH KD QD JD 9D 8D 7D",
        "AC KC QC JC TC 9C 8C 7C",
    )
    assert deal.phase is Phase.BLANCHE and deal.to_act == ELDER
    assert [str(a) for a in deal.legal_actions()] == [f"blanche:{n}" for n in range(1, 6)]
    deal = act(deal, "blanche:2")
    assert deal.to_act == YOUNGER and deal.discard_range() == (1, 6)
    assert deal_view(deal, YOUNGER).opponent_shown == CardSet()
    deal = act(deal, "discard:8D 7D")
    assert said(deal)[-2:] == ["younger: younger discards 2", "elder: shows carte blanche"]
    assert deal_view(deal, YOUNGER).opponent_shown == CardSet.parse(
        "AS TS 9S 8S 7S AH TH 9H 8H 7H AD TD"
    )
    assert timeline(deal) == [("elder", "carte blanche", 10)]
    assert deal.discard_range() == (2, 2)
    refused(deal, Discard(CardSet.parse("7S")), "bound to that number, not 1")
    deal = act(deal, "discard:7S 7H")
    assert deal.hand(ELDER) >= CardSet.parse("AC KC")
    assert deal.hand(YOUNGER) >= CardSet.parse("QC JC")  # the top of what elder left


def _blank_younger(blank: bool) -> Deal:
    younger = "AH TH 9H 8H 7H AD TD 9D 8D 7D 9C " + ("TC" if blank else "JC")
    stock = "QD JD AC KC QC " + ("JC" if blank else "TC") + " 8C 7C"
    deal = new_deal(RULES, "AS KS QS JS TS 9S 8S 7S KH QH JH KD", younger, stock)
    if blank:
        deal = act(deal, "blanche:1")
    deal = act(deal, "discard:KD", "discard:9C", "decline")  # elder takes QD, younger JD
    # elder: point AS..7S = 75 (8), huitieme major and tierce to the king (21), three queens
    # (3): 32 in hand
    return act(
        deal,
        "declare:point:AS KS QS JS TS 9S 8S 7S",
        "good",
        "declare:sequence:AS KS QS JS TS 9S 8S 7S",
        "good",
        "declare:set:QS QH QD",
        "good",
    )


def test_1754_carte_blanche_prevents_a_picque_and_re_picque() -> None:
    """1754: "The Carte-blanche is the first Thing reckoned, and therefore prevents a Picque and
    Re-Picque" and "He that hath nothing in his Hand but the Cart-blanche, saves a Picque or
    a Repicque"."""
    saved = _blank_younger(blank=True)
    assert timeline(saved) == [
        ("younger", "carte blanche", 10),
        ("elder", "point", 8),
        ("elder", "sequences", 21),
        ("elder", "sets", 3),
    ]
    saved = play(act(saved, "no-question"), "AS 7H")
    assert saved.scores == (33, 10)
    unsaved = _blank_younger(blank=False)
    assert timeline(unsaved)[-1] == ("elder", "repique", 60)
    assert unsaved.scores == (92, 0)


def test_1754_both_blanks_each_counts() -> None:
    """1754: "The Carte-blanche, as we told you before, is always first told, and must be shewed
    upon the Table, whether in the Hand of the Dealer, or of the other" - each counts his own. With
    32 cards only 20 are not court cards, so two blanks of twelve cannot be dealt: the knob never
    acts under this preset (it does under the 36-card ones)."""
    assert RULES.both_blanche_score
    assert sum(1 for i in range(36) if i % 9 and i % 9 + 6 not in (11, 12, 13)) == 20
    deal = _blank_younger(blank=True)
    assert deal_view(deal, ELDER).opponent_shown >= CardSet.parse("AH TH 9H 8H 7H AD TD")


# ---------------------------------------------------------------- the exchange


def test_1754_elder_takes_at_most_five() -> None:
    """1754: "he, who is to play first, may take 5, which is a great Advantage, and leave but 3 to
    the Dealer. But he is not obliged to take 5 ... he may take in but 2, 3, or 4, observing
    to discard just the same Number"."""
    deal = new_deal(RULES, N_ELDER, N_YOUNGER, N_STOCK)
    assert deal.discard_range() == (1, 5)
    refused(deal, Discard(CardSet.parse("QC KC 7H 8H 9H 7S")), "1 to 5 cards, not 6")
    five = act(deal, "discard:QC KC 7H 8H 9H")
    assert five.discard_range() == (1, 3)  # "leave but 3 to the Dealer"
    two = act(deal, "discard:QC KC")
    assert two.discard_range() == (1, 6)


def test_1754_both_discard_at_least_one() -> None:
    """1754: "Observe that both the Dealer and he that leads, are obliged to discard at least one,
    let their Games be ever so good"."""
    deal = new_deal(RULES, N_ELDER, N_YOUNGER, N_STOCK)
    refused(deal, Discard(CardSet()), "must discard 1 to 5 cards, not 0")
    refused(act(deal, "discard:QC"), Discard(CardSet()), "must discard 1 to 7 cards, not 0")


def test_1754_elder_sees_the_rest_of_his_five() -> None:
    """1754: "When he takes less than 5, he may see the rest of them, and lay them again upon the
    Stock"."""
    deal = act(new_deal(RULES, N_ELDER, N_YOUNGER, N_STOCK), "discard:QC KC")
    assert deal_view(deal, ELDER).stock_seen == CardSet.parse("9C JC TC")
    assert deal_view(deal, YOUNGER).stock_seen == CardSet()


def test_1754_every_gamester_may_look_at_his_own_discard() -> None:
    """1754: "Every Gamester is to lay his Discard near himself, which he has the Liberty of looking
    on as often as he pleases" - and only the count of the other's."""
    deal = scenario_n()
    view = deal_view(deal, ELDER)
    assert view.discards == CardSet.parse("QC")
    assert view.opponent_discard_count == 1
    assert CardSet.parse("JH") & CardSet(view.dealt.mask) == CardSet()
    assert deal_view(deal, YOUNGER).discards == CardSet.parse("JH")


def test_1754_elder_names_card_to_see_leftovers() -> None:
    """1754: "he may also look on the Cards he leaves, and the other may likewise see them, if he
    declares first what Card he will lead. But take Notice, that he is obliged to lead the
    Card he names. And if by Mistake, or otherwise, he should promise to lead a Card of a
    Suit which he had not in his Hand, he is obliged to play what Card the other shall
    appoint him"."""
    deal = scenario_n()
    leftovers = CardSet.parse("9C JC TC 8D 7D TH")
    assert deal.phase is Phase.LEFTOVERS and deal.to_act == ELDER
    legal = deal.legal_actions()
    assert NameLead(card=Card.parse("AS")) in legal and len(legal) == 33
    assert deal_view(deal, YOUNGER).stock_seen == leftovers  # younger looks at his own
    assert deal_view(deal, ELDER).stock_seen == CardSet.parse("8C 9C JC TC")
    named = act(deal, "name:AS")
    assert said(named)[-1] == "elder: elder will lead AS, and sees the stock"
    assert deal_view(named, ELDER).stock_seen == CardSet.parse("8C 9C JC TC 8D 7D TH")
    named = act(named, "pass", "pass", "pass", "pass", "pass", "pass")
    assert named.phase is Phase.PLAY
    refused(named, Play(Card.parse("AH")), "elder is bound to lead AS; playable: AS")
    assert named.legal_actions() == [Play(Card.parse("AS"))]
    # a card he has not: younger appoints, and elder is bound to that card
    lacking = act(deal, "name:KD")
    assert lacking.phase is Phase.APPOINT and lacking.to_act == YOUNGER
    assert said(lacking)[-1] == "elder: elder holds no KD: younger appoints the lead"
    assert Appoint(card=Card.parse("7H")) in lacking.legal_actions()
    assert Appoint(card=Card.parse("KD")) not in lacking.legal_actions()  # his own card
    # a refusal says why: his own card, a suit where a card is appointed, a card not in the pack
    refused(lacking, Appoint(card=Card.parse("KD")), "younger holds KD himself")
    refused(lacking, Appoint(suit=Suit.SPADES), "appointed by its card, not a suit",
            "appoint:KS")
    refused(lacking, Appoint(card=Card.parse("6S")), "no 6S in the 32-card pack")
    refused(deal, NameLead(suit=Suit.SPADES), "named by its card, not a suit")
    # the text restricts nothing else: a card he laid out may be appointed (it binds elder
    # to nothing), so that what was done at a table, and old records, stand; what elder
    # may really hold, as far as younger knows, is narrower, and the book keeps to it
    view = deal_view(lacking, YOUNGER)
    laid_out = view.discards.mask & -view.discards.mask
    assert Appoint(card=Card.from_index(laid_out.bit_length() - 1)) in lacking.legal_actions()
    known = view.hand.mask | view.discards.mask | leftovers.mask | 1 << Card.parse("KD").index
    assert appointable(view, lacking.rules) == DECK32 & ~known
    assert appointable(view, lacking.rules) & lacking.hands[ELDER] == lacking.hands[ELDER]
    book = book_action(view, lacking.rules)
    assert isinstance(book, Appoint) and book.card is not None
    assert appointable(view, lacking.rules) >> book.card.index & 1
    lacking = act(lacking, "appoint:7H")
    assert said(lacking)[-1] == "younger: younger appoints 7H"
    lacking = act(lacking, "pass", "pass", "pass", "pass", "pass", "pass")
    assert lacking.legal_actions() == [Play(Card.parse("7H"))]
    # declining: elder never sees younger's part
    declined = act(deal, "decline")
    assert said(declined)[-1] == "elder: elder leaves younger's leftovers unseen"
    assert deal_view(declined, ELDER).stock_seen == CardSet.parse("8C 9C JC TC")


# ---------------------------------------------------------------- declarations


def test_1754_are_41_good() -> None:
    """1754: "If the Eldest Hand has Ace, King, Queen, and Knave of any Suit, he asks, Are 41 good?
    ... If the other cannot reckon up as many, he is to tell 4 for them"."""
    deal = act(scenario_f(), "declare:point:AS KS QS JS")
    assert said(deal)[-1] == "elder: Point of 41."
    assert [str(a) for a in deal.legal_actions()] == ["good"]
    deal = act(deal, "good")
    assert timeline(deal) == [("elder", "point", 4)]


def test_1754_tierce_major_makes_the_small_ones_good() -> None:
    """1754: "if one has Tierce-Major, and a Tierce of a Knave, and another to a Ten in his Hand,
    and the other has a Tierce to a Queen; he who has the Tierce-Major shall reckon not only
    That, but the two small ones also" - here a quart major."""
    deal = act(scenario_f(), "declare:point:AS KS QS JS", "good", "declare:sequence:AS KS QS JS")
    assert [str(a) for a in deal.legal_actions()] == ["good"]  # younger: QC JC TC, TS 9S 8S
    deal = act(deal, "good")
    assert said(deal)[-3:] == [
        "younger: Good.",
        "elder: And tierce to the knave, tierce to the ten.",
        "elder: shows AS KS QS JS JH TH 9H TD 9D 8D",
    ]
    assert timeline(deal) == [("elder", "point", 4), ("elder", "sequences", 10)]


def test_1754_quatorze_of_tens_beats_three_aces() -> None:
    """1754: "4 Tens must be good, if the other has not 4 of any thing else" and "If there are 4
    Knaves, or Tens, in one Hand, 3 Aces, or Kings, &c. are not to be told in another
    Hand"."""
    deal = new_deal(
        RULES,
        "AS AH AD KS QS 9S KH QH 9H 8D 7D 7C",
        "TS TH TD TC JS JH 8S 7S 8H 7H 9D 9C",
        "KD 8C AC KC QC JC QD JD",
    )
    deal = act(deal, "discard:7C", "discard:9C", "decline")  # elder takes KD, younger 8C
    deal = act(deal, "pass", "pass", "pass", "pass")  # the point and sequences sunk
    deal = act(deal, "declare:set:AS AH AD")
    assert [str(a) for a in deal.legal_actions()] == ["good", "not-good"]
    deal = act(deal, "not-good", "declare:set:TS TH TD TC")
    assert said(deal)[-3:] == [
        "elder: Three aces.",
        "younger: Not good.",
        "younger: Quatorze of tens.",
    ]
    assert timeline(deal) == [("younger", "sets", 14)]


def test_1754_sets_need_not_be_shown() -> None:
    """1754: "He that has Threes, or Quatorzes of Aces, Kings, Queens, Knaves, or Tens, is not
    obliged to shew them" - but the point and sequences are shown."""
    deal = act(scenario_n(), "decline", "declare:point:AS 9S 8S 7S", "not-good")
    deal = act(deal, "declare:point:KD QD JD TD 9D")
    deal = act(deal, "pass", "declare:sequence:KD QD JD TD 9D")  # and the quart in spades
    deal = act(deal, "declare:set:AS AH AD AC", "good")
    assert said(deal)[-2:] == ["elder: Quatorze of aces.", "younger: Good."]
    assert deal_view(deal, YOUNGER).opponent_shown == CardSet()
    assert deal_view(deal, ELDER).opponent_shown == CardSet.parse("KS QS JS TS KD QD JD TD 9D")


def test_which_one_is_missing() -> None:
    """1754: "If you should have in your Hand 3 Aces ... and in discarding lay out 1 or either of
    these, you are to count but 3: Then the other may ask you which Ace, which King, &c. you
    laid out, and you are obliged to tell him"."""
    deal = new_deal(RULES, N_ELDER, N_YOUNGER, N_STOCK)
    deal = act(deal, "discard:AC", "discard:JH", "decline")
    deal = act(deal, "pass", "pass", "pass", "pass", "declare:set:AS AH AD", "good")
    assert deal.to_act == YOUNGER and deal.phase is Phase.DECLARE
    deal = act(deal, "ask-missing")
    assert said(deal)[-2:] == [
        "younger: Which one did you lay out?",
        "elder: The ace of clubs, laid out: here it is.",
    ]


def test_1754_may_ask_to_see_the_missing_card() -> None:
    """1754: "you are obliged to tell him; and if he requires it, you must shew him which you
    laid out" - the laid-out ace is shown to younger (and only that card of the discard)."""
    from piquet.core.cards import Card, CardSet
    from piquet.core.view import deal_view

    deal = new_deal(RULES, N_ELDER, N_YOUNGER, N_STOCK)
    deal = act(deal, "discard:AC", "discard:JH", "decline")
    deal = act(deal, "pass", "pass", "pass", "pass", "declare:set:AS AH AD", "good")
    deal = act(deal, "ask-missing")
    seen = deal_view(deal, YOUNGER).opponent_shown
    assert Card.parse("AC") in seen
    assert CardSet(seen.mask & deal.discards[0]) == CardSet.parse("AC")


def test_sinking_1754_one_of_his_point() -> None:
    """Particular Rules XIII: "It is sometimes proper as well for the elder as younger Hand to
    sink One of his Point, a Tierce, or Three Kings" - a lesser claim, or none."""
    deal = act(scenario_f(), "declare:point:AS KS QS")  # sinking the knave: 31
    assert said(deal)[-1] == "elder: Point of 31."
    assert [str(a) for a in deal.legal_actions()] == ["good"]
    deal = act(deal, "good")
    assert timeline(deal) == [("elder", "point", 3)]


def test_1754_equal_points_neither_reckons() -> None:
    """1754: "whenever the Points, the Tierces, Quartes, or Quints, are equal in both Hands, neither
    is to reckon any Thing for them; tho' as other Games an Advantage in this Case is given
    to the first in Play, or the Eldest Hand"."""
    deal = new_deal(
        RULES,
        "AS KS QS 9S AH 7H 8D 7D 9C 8C 7C TD",
        "AD KD QD 9D KH QH JS TS KC QC JC 8S",
        "JH TH 9H 8H AC TC JD 7S",
    )
    deal = act(deal, "discard:TD", "discard:8S", "decline")  # elder takes JH, younger TH
    # elder: spades A K Q 9 = 40; younger: diamonds A K Q 9 = 40
    deal = act(deal, "declare:point:AS KS QS 9S", "equal")
    deal = act(deal, "declare:sequence:AS KS QS", "equal")
    assert timeline(deal) == []
    assert said(deal)[-4:] == [
        "elder: Point of 40.",
        "younger: Equal.",
        "elder: Tierce major.",
        "younger: Equal.",
    ]


# ---------------------------------------------------------------- the play


def test_1754_tenth_cards_and_the_follower() -> None:
    """1754: "every Card he plays down, above the Degree of a 9, he tells 1 for: But for a 9, and so
    downwards, he can reckon nothing" and "the Follower, that is, he who plays last, never
    reckons for his Card unless he wins the Trick" and "If two Cards of different Suits are
    played, that which leads wins the Trick, tho' the first was but a 7, and the last an
    Ace"."""
    deal = act(scenario_n(), "decline", "pass", "pass", "pass", "pass", "pass", "pass")
    # elder: AS AH AD AC 9S 8S 7S 9H 8H 7H KC 7C; younger: KD QD JD TD 9D KS QS JS TS KH QH 8C
    deal = play(deal, "7S KS")  # a seven led; the king wins: 1 to younger
    deal = play(deal, "QS AS")  # the queen led: 1; the ace wins: 1
    deal = play(deal, "7C 8C")  # the eight wins, nothing for a card under ten
    deal = play(deal, "KH 7H")  # younger leads a king (1); elder's seven cannot win it
    assert timeline(deal) == [
        ("younger", "trick", 1),
        ("younger", "lead", 1),
        ("elder", "trick", 1),
        ("younger", "lead", 1),
    ]
    assert [t.winner for t in deal.tricks] == [YOUNGER, ELDER, YOUNGER, YOUNGER]


def _six_six() -> Deal:
    deal = new_deal(RULES, SIX_ELDER, SIX_YOUNGER, SIX_STOCK)
    deal = act(deal, "discard:7D", "discard:KC", "decline")  # elder takes 7C, younger 8C
    # elder: point of 60 (6), sixieme major and tierce to the nine (19); younger three aces
    deal = act(
        deal,
        "declare:point:AS KS QS JS TS 9S",
        "good",
        "declare:sequence:AS KS QS JS TS 9S",
        "good",
        "pass",
        "declare:set:AH AD AC",
        "no-question",
    )
    deal = play(deal, "AS JH KS TH QS JD JS TD TS AC 9S 8C")
    return play(deal, "7H AH KH 8H QH 9H AD 9D KD 8D QD 7C")


def test_1754_tricks_alike_neither_reckons() -> None:
    """1754: "When the Cards are played out, each is to count his Tricks; and he that has most, is
    to reckon 10 for winning the Cards: If they have Tricks alike, neither is to reckon any
    thing"."""
    deal = _six_six()
    assert deal.won == (6, 6)
    assert "the cards" not in [kind for _, kind, _ in timeline(deal)]
    # elder 6 + 19 + leads AS KS QS JS TS: 30, but younger's aces came first: no pique;
    # younger: 3, the ace winning elder's seven 1, KH QH AD KD QD led 5, the last trick 1
    assert deal.scores == (30, 10)


def test_1754_last_trick_one_with_a_nine_two_with_a_ten() -> None:
    """1754: "he who wins the last Trick reckons 1 for it, though it be won with a 9, 8, or 7; if it
    be won with a 10, or upwards, he reckons 2 for it"."""
    deal = _six_six()
    # won with the queen led: 1 for the lead and 1 for the last trick
    assert timeline(deal)[-2:] == [("younger", "lead", 1), ("younger", "last trick", 1)]
    low = _capot()
    assert str(Card.from_index(low.tricks[-1].lead)) == "8S"  # won with an eight
    assert timeline(low)[-2:] == [("elder", "last trick", 1), ("elder", "capot", 40)]


def _capot() -> Deal:
    deal = new_deal(
        RULES,
        "AS KS QS JS TS 9S 8S 7S AH KH QH JH",
        "TH 9H 8H 7H KD QD JD TD KC QC JC TC",
        "AD 9D 8D 7D AC 9C 8C 7C",
    )
    deal = act(deal, "discard:7S", "discard:TC", "decline")  # elder takes AD, younger 9D
    deal = act(
        deal,
        "declare:point:AS KS QS JS TS 9S 8S",  # 68: 7
        "good",
        "declare:sequence:AS KS QS JS TS 9S 8S",  # septieme major 17, quart major 4
        "good",
        "declare:set:AS AH AD",  # three aces: 3
        "good",
        "no-question",
    )
    # 31 in hand: "If he can make up above 30 in Hand, he reckons as much above 90"
    assert deal.scores == (91, 0)
    deal = play(deal, "AS KC KS QC QS JC JS 9D TS KD 9S QD")
    return play(deal, "AH TH KH 9H QH 8H JH 7H AD JD 8S TD")


def test_1754_capot_forty() -> None:
    """1754: "He who wins all the Tricks, instead of reckoning 10, which is his Right for winning
    the Cards, reckons 40, and this is called a Capot"."""
    deal = _capot()
    assert deal.won == (12, 0)
    assert "the cards" not in [kind for _, kind, _ in timeline(deal)]
    # leads of tenth cards: AS KS QS JS TS AH KH QH JH AD = 10; the last, won with the 8S: 1
    assert deal.scores == (91 + 10 + 1 + 40, 0)


# ---------------------------------------------------------------- pique, repique, winning


def test_1754_picque_part_in_hand_part_by_play() -> None:
    """1754: "He who can make up 30, part in Hand, and part by Play, before the other has told any
    Thing, reckons them for 60; and this is called a Picque"."""
    deal = new_deal(
        RULES,
        "AS KS QS JS TS AH QH AD KD KC QC 7D",
        "KH JH TH 9H 7H QD JD TD 9D 8D AC JC",
        "9C 9S 8S 7S 8H TC 8C 7C",
    )
    deal = act(deal, "discard:7D", "discard:JC", "decline")  # elder takes 9C, younger 9S
    deal = act(
        deal,
        "declare:point:AS KS QS JS TS",  # 51: 5 (younger's best 47)
        "good",
        "declare:sequence:AS KS QS JS TS",  # quint major: 15
        "good",
        "declare:set:AS AH AD",  # three aces, kings, queens: 9
        "good",
        "no-question",
    )
    assert deal.scores == (29, 0)
    deal = play(deal, "AS")
    assert timeline(deal)[-2:] == [("elder", "lead", 1), ("elder", "pique", 30)]
    assert deal.scores == (60, 0)


def test_game_won_mid_deal_in_counting_order() -> None:
    """1754: "if both Parties should be 95 of the Game, and one has in his Hand 45, or 50, for
    Point; which we will suppose to be good; and the other a Quint, or a Quatorze of Aces, he
    who has the Point wins the Game; because ... it is to be reckoned first"."""
    deal = scenario_n(start=(95, 95), target=100)
    deal = act(deal, "decline", "declare:point:AS 9S 8S 7S", "not-good")
    assert not deal.is_over
    deal = act(deal, "declare:point:KD QD JD TD 9D")  # 49: 5
    assert deal.is_over and deal.game_reached_by == YOUNGER
    assert timeline(deal) == [("younger", "point", 5)]
    refused(deal, parse_action("declare:set:AS AH AD AC"), "the deal is over")


def test_1754_at_99_each_the_leader_of_a_tenth_card_wins() -> None:
    """1754: "If the Parties are 99 each when they are to play down, the Leader must win the Game,
    if he plays a tenth Card; because he tells as soon as he plays down, the other cannot till
    after the Trick is won"."""
    deal = scenario_n(start=(99, 99), target=100)
    deal = act(deal, "decline", "pass", "pass", "pass", "pass", "pass", "pass")
    won = play(deal, "AS")
    assert won.is_over and won.game_reached_by == ELDER
    assert won.trick_lead is not None and won.tricks == ()  # before younger can play
    # a seven led tells nothing; younger's king wins the trick and the game
    lost = play(deal, "7S KS")
    assert lost.is_over and lost.game_reached_by == YOUNGER


def test_1754_at_99_he_plays_a_tenth_card_though_he_loses_the_trick() -> None:
    """1754: "If one be 99 of the Game, before he plays down the first Card; he plays it up, if it
    be a tenth Card, tho' he loses the Trick"."""
    deal = scenario_n(start=(99, 80), target=100)
    deal = act(deal, "decline", "pass", "pass", "pass", "pass", "pass", "pass")
    deal = play(deal, "KC")  # younger would win it with nothing: no clubs but the 8C
    assert deal.is_over and deal.game_reached_by == ELDER


def test_1754_lurch_loser_under_fifty_pays_double() -> None:
    """1754: "This Game is always played with Lurches ... when the Loser cannot make up 50, before
    the other wins the Game, he is to pay him double. If they play for a Guinea a Game, he
    that is lurch'd loses Two"."""
    assert RULES.lurch_below == 50
    kinds = set()
    for seed in range(6):
        match = finish(new_match(RULES, seed=seed), random.Random(seed))
        (game,) = match.games
        loser = min(game.scores)
        assert max(game.scores) >= 100
        assert game.lurch == (loser < 50) and game.stake == (2 if loser < 50 else 1)
        result = match.result()
        assert result.get("lurch", False) == game.lurch
        kinds.add(game.lurch)
    assert kinds == {True, False}


def test_1754_the_pool() -> None:
    """1754: "Three Persons are to cut, he who cuts the highest Card, stands out the first Game ...
    they are to lay down a Guinea a-piece ... he who loses the first Game lays down a Guinea
    more, and goes out ... If the first Gamester beats him also, he sweeps the Board ... the
    Pool is never won, till one Person gets two Games successively ... When any Person is
    lurch'd at this Play, he lays down one Guinea to the Pool, and pays another to him who
    lurch'd him"."""
    assert Format.POOL in RULES.formats
    for seed in range(6):
        match = new_match(RULES, seed=seed, format="pool")
        cut = match.cuts[0]
        stood_out = next(p for p in range(3) if p not in match.in_game)
        ranks = {p: Card.parse(text).rank for p, text in cut}
        assert ranks[stood_out] == max(ranks.values())
        match = finish(match, random.Random(seed))
        ledger, pool = [-1, -1, -1], 3  # a guinea apiece
        out = stood_out
        last_winner: int | None = None
        runs: list[int] = []
        for game in match.games:
            assert out not in game.players
            winner = game.winner
            assert winner is not None
            loser = next(p for p in game.players if p != winner)
            ledger[loser] -= 1
            pool += 1
            if game.lurch:
                ledger[loser] -= 1
                ledger[winner] += 1
            runs.append(runs[-1] + 1 if winner == last_winner else 1)
            last_winner = winner
            out = loser  # the loser makes room; the winner stays
        assert runs[-1] == 2 and max(runs[:-1]) == 1, "won by the first two games running"
        assert last_winner is not None
        ledger[last_winner] += pool
        assert list(match.ledger) == ledger and match.pool == 0
        assert sum(match.ledger) == 0
        assert match.result()["winner"] == last_winner


def test_a_record_of_several_games_written_before_the_reading_changed_still_replays() -> None:
    """Until the source audit of 2026-11 a 1754 match of several games cut again for the
    deal after each game.  A record written then (naming the preset only) replays as it was
    played, and is saved again with the rule it was played under."""
    import json

    from piquet.core.notation import dump_json, dump_text, loads

    earlier = RULES.replace(cut_after_game=True)
    for seed in range(6):
        m = finish(new_match(earlier, seed=seed, games=3), random.Random(seed))
        if len(m.cuts) < 2:
            continue
        text = "\n".join(line for line in dump_text(m).splitlines()
                         if not line.startswith("[Knobs")) + "\n"
        data = json.loads(dump_json(m))
        data["rules"] = "court-gamester-1754"
        for old in (text, json.dumps(data)):
            back = loads(old).match
            assert back.rules == earlier and back.history == m.history
            assert back.result() == m.result()
            again = loads(dump_text(back)).match  # saved again: the rule goes with it
            assert again.rules == earlier and again.history == m.history
        # the same record is refused as a record of today's reading
        with pytest.raises(RecordError):
            Match.from_record(data)
        break
    else:  # pragma: no cover
        raise AssertionError("no match of three games cut twice")
