"""Point, sequences and sets against values worked by hand, for every preset's knobs.

Each test says which passage of which source the knob rests on; the hands are written
out and every total below was added up by hand (ace 11, courts and ten 10, others their
pips).
"""

from __future__ import annotations

import pytest

from piquet.core.cards import CardSet, Rank
from piquet.core.declarations import (
    Claim,
    DeclClass,
    best_claim,
    claims,
    counted,
    is_blanche,
    score_of,
    statement,
)
from piquet.core.rules import PRESETS, Rules, get_rules

POINT, SEQ, SET = DeclClass.POINT, DeclClass.SEQUENCE, DeclClass.SET
PIP_PRESETS = ["cotgrave-1662", "cotton-1674", "du-coeur-1995", "court-gamester-1754"]
CARD_PRESETS = ["encyclopedia-19c", "rubicon"]
ONE_SUIT_PRESETS = [name for name in PRESETS if name != "du-coeur-1995"]


def m(text: str) -> int:
    return CardSet.parse(text).mask


def best(hand: str, cls: DeclClass, rules: Rules) -> Claim:
    claim = best_claim(m(hand), cls, rules)
    assert claim is not None, f"{hand} holds no {cls.label}"
    return claim


def cards_of(claim: Claim) -> str:
    return str(CardSet(claim.cards))


# ---------------------------------------------------------------- the point


@pytest.mark.parametrize("preset", ["cotgrave-1662", "cotton-1674", "du-coeur-1995"])
@pytest.mark.parametrize(
    ("suit", "total", "worth"),
    [
        ("QS JS TS", 30, 3),  # 10+10+10
        ("AS KS 7S 6S", 34, 3),  # 11+10+7+6: "34 is worth three points" (1995)
        ("AS KS 8S 6S", 35, 4),  # 11+10+8+6: "as much for thirty five as for forty"
        ("KS QS TS 9S", 39, 4),  # 10+10+10+9
        ("AS KS QS 8S", 39, 4),  # 11+10+10+8
        ("AS KS QS JS", 41, 4),  # 11+10+10+10
        ("AS KS QS 7S 6S", 44, 4),  # 11+10+10+7+6
        ("AS KS QS 8S 6S", 45, 5),  # "as much for forty five as fifty"
        ("AS KS QS JS TS 9S", 60, 6),  # 11+40+9
        ("AS KS QS JS TS 9S 8S 7S 6S", 81, 8),  # the whole suit: 11+40+9+8+7+6
    ],
)
def test_36_card_ruff_counts_one_per_ten_thirty_five_as_forty(
    preset: str, suit: str, total: int, worth: int
) -> None:
    """Cotgrave: "you are to count as much for thirty five as for forty ... but as for thirty
    six, thirty seven, thirty eight, and thirty nine, you count no more than for thirty five"
    ((total + 5) // 10); 1995: "So a Ruff of 40 is worth four points, as is one of 35, but 34
    is worth three points"."""
    rules = get_rules(preset)
    hand = suit + " 8H 7H 6H"  # a 23-pip heart suit never beats the spades here
    claim = best(hand, POINT, rules)
    assert claim.pips == total
    assert cards_of(claim) == suit
    assert score_of(claim, rules) == worth == (total + 5) // 10
    assert statement(claim, rules) == f"ruff of {total}"


@pytest.mark.parametrize(
    ("suit", "total", "worth"),
    [
        ("AS KS QS JS", 41, 4),  # "Are 41 good? ... he is to tell 4 for them"
        ("AS KS QS 9S 7S", 47, 5),  # 11+10+10+9+7: between 45 and 50, as 50
        ("AS KS QS 7S", 38, 4),  # 35 to 39 as 40
        ("KS QS 8S 7S", 35, 4),  # "there is as much reckoned for 35, as for 40"
        ("AS KS 7S", 28, 3),  # 25 to 29 as 30
        ("AS KS QS JS 8S 7S", 56, 6),  # 11+30+8+7: 55 to 59 as 60
    ],
)
def test_1754_point_41_to_44_is_four_and_35_is_four(suit: str, total: int, worth: int) -> None:
    """1754: "As for 41, 42, 43, or 44, you reckon but 4; so that by this you see there is as
    much reckoned for 35, as for 40, viz. 4"."""
    rules = get_rules("court-gamester-1754")
    claim = best(suit + " 8H 7H", POINT, rules)
    assert (claim.pips, score_of(claim, rules)) == (total, worth)
    assert statement(claim, rules) == f"point of {total}"


@pytest.mark.parametrize("preset", PIP_PRESETS)
def test_ruff_is_the_pip_total_not_the_number_of_cards(preset: str) -> None:
    """Cotgrave: "the Ruff, that is, to see how much you can make of a suit"; 1754: "In
    reckoning up your Point, every Card is reckoned, for as much as it bears"."""
    rules = get_rules(preset)
    # spades A K Q J = 41 in four cards; hearts T 9 8 7 = 34 in four, plus clubs 9 8 7 = 24.
    # five diamonds 7 8 9 T J would be 44 but the hand below has only four of them:
    hand = "AS KS QS JS TD 9D 8D 7D 9C 8C 7C TH"
    claim = best(hand, POINT, rules)
    assert cards_of(claim) == "AS KS QS JS"
    assert claim.key == (41, 0)
    # a five-card suit of 40 loses to a four-card suit of 41
    five = best("TH 9H 8H 7H 6H", POINT, get_rules("cotgrave-1662"))
    assert five.key == (40, 0) < claim.key


@pytest.mark.parametrize("preset", CARD_PRESETS)
def test_19c_point_is_the_number_of_cards_pips_only_break_ties(preset: str) -> None:
    """19c: "announces the greatest number of cards of the same suit in his hand as his point,
    and counts as many as he has cards, one for each ... If each player has an equal number,
    then the value of the cards is ascertained"."""
    rules = get_rules(preset)
    five_low = best("JD TD 9D 8D 7D", POINT, rules)  # 10+10+9+8+7 = 44
    four_high = best("AS KS QS JS", POINT, rules)  # 41
    assert five_low.key == (5, 44) > four_high.key == (4, 41)
    assert score_of(five_low, rules) == 5  # "one for each"
    assert score_of(four_high, rules) == 4
    five_high = best("AH KH QH 8H 7H", POINT, rules)  # 11+10+10+8+7 = 46
    assert five_high.key == (5, 46) > five_low.key
    # equal number and equal value: "paid", equal keys
    assert best("AC KC QC 8C 7C", POINT, rules).key == five_high.key
    assert statement(five_low, rules) == "point of five, making 44"
    assert statement(five_low, rules, full=False) == "point of five"


def test_point_best_suit_and_sinking_claims() -> None:
    """1754 (Particular Rules XIII): "It is sometimes proper ... to sink One of his Point":
    the claims of the point are every suit's best cards, the whole suit first."""
    rules = get_rules("court-gamester-1754")
    hand = m("AS KS QS 9S 7S AH TH 8H 7H KD QC JC")
    found = claims(hand, POINT, rules)
    # best first: spades 47 (5 cards), spades 40 (4 best), hearts 36, spades 31, hearts 29, ...
    assert [c.pips for c in found[:5]] == [47, 40, 36, 31, 29]
    assert cards_of(found[1]) == "AS KS QS 9S"  # sinking the seven
    assert cards_of(found[2]) == "AH TH 8H 7H"
    assert best_claim(hand, POINT, rules) == found[0]


# ---------------------------------------------------------------- sequences


@pytest.mark.parametrize("preset", ["cotgrave-1662", "cotton-1674", "du-coeur-1995"])
def test_36_card_sequence_values_to_the_neuvieme(preset: str) -> None:
    """Cotgrave: "You reckon for every Tierce three, Quart four, but for a Quint fifteen, a
    Sixiesm sixteen, and so upward" - to the Neusiesme of nine cards, 19."""
    rules = get_rules(preset)
    whole = "AS KS QS JS TS 9S 8S 7S 6S"
    expected = {3: 3, 4: 4, 5: 15, 6: 16, 7: 17, 8: 18, 9: 19}
    for length, value in expected.items():
        run = " ".join(whole.split()[:length])
        claim = best(run + " AH AD", SEQ, rules)
        assert (claim.size, claim.top, score_of(claim, rules)) == (length, 14, value)
    nine = best(whole, SEQ, rules)
    suit = " in spades" if rules.sequences_same_suit else ""
    assert statement(nine, rules) == f"neuvième major{suit}"


@pytest.mark.parametrize("preset", ["court-gamester-1754", "encyclopedia-19c", "rubicon"])
def test_32_card_sequence_values_to_the_huitieme(preset: str) -> None:
    """1754: "Every Tierce is worth three Points, the Quart four, the Quintes fifteen, the
    Sixieme is worth sixteen, the Septieme seventeen; the Huitieme eighteen"."""
    rules = get_rules(preset)
    whole = "AH KH QH JH TH 9H 8H 7H"
    for length, value in {3: 3, 4: 4, 5: 15, 6: 16, 7: 17, 8: 18}.items():
        run = " ".join(whole.split()[-length:])  # the lowest cards: to the ten, ... to the 9
        claim = best(run + " AS AC", SEQ, rules)
        assert (claim.size, score_of(claim, rules)) == (length, value)
    assert statement(best(whole, SEQ, rules), rules) == "huitième major in hearts"


def test_lowest_tierce_is_to_the_eight_with_36_cards_and_to_the_nine_with_32() -> None:
    """Cotgrave: "so till you come to the lowest Tierce, which is the Tierce of an eight";
    1754 plays without sixes, so its lowest is 9-8-7."""
    low36 = best("8C 7C 6C", SEQ, get_rules("cotgrave-1662"))
    assert (low36.size, low36.top) == (3, 8)
    assert statement(low36, get_rules("cotgrave-1662")) == "tierce to the eight in clubs"
    low32 = best("9C 8C 7C", SEQ, get_rules("court-gamester-1754"))
    assert statement(low32, get_rules("court-gamester-1754")) == "tierce to the nine in clubs"


@pytest.mark.parametrize("preset", ONE_SUIT_PRESETS)
def test_sequences_must_be_in_one_suit(preset: str) -> None:
    """1754: "these Sequents of Cards must be of the same Suit, otherwise they are of no
    Value" (1662 and 1674: a reading, as every later source)."""
    rules = get_rules(preset)
    assert best_claim(m("AS KH QD JC TS 9H"), SEQ, rules) is None
    assert cards_of(best("AS KH QD JC TS 9H 8H 7H", SEQ, rules)) == "9H 8H 7H"


def test_1995_sequences_in_any_suit_each_card_in_one_run() -> None:
    """1995: "in the modern game, only sequences within a particular suit count. I can find no
    evidence of this" and "we decided that you can only count each card in one sequence"."""
    rules = get_rules("du-coeur-1995")
    # ranks 6 7 8 9 T J once (mixed suits) and 9 T J Q K A once more
    hand = m("6S 7H 8D 9C TS JH 9D TC JS QD KC AS")
    claim = best_claim(hand, SEQ, rules)
    assert claim is not None
    assert (claim.size, claim.top) == (9, 14)  # a neuvième 6 to A across the suits
    assert statement(claim, rules) == "neuvième major"
    held, total = counted(hand, claim, rules)
    # greedy (the neuvième, 19, and 9-T-J left, 3) would make 22; two sixièmes make 32
    assert total == 32
    assert sorted(c.key for c in held) == [(6, 11), (6, 14)]
    assert [statement(c, rules) for c in held] == ["sixième major", "sixième to the knave"]
    union = 0
    for c in held:
        assert union & c.cards == 0, "a card counted in two runs"
        union |= c.cards
    assert union == hand


def test_1995_equal_splits_keep_the_declared_run() -> None:
    """1995: "The winner then gets to score all sequences in his hand" - the run he declared
    is among them.  AS KS QS JS TS 9S 8H 7H 6H 8D 7D 6C splits as the neuvieme and a tierce
    (19 + 3) or as a sixieme and two tierces (16 + 3 + 3): 22 either way; the declared
    neuvieme is kept (this once came out as the sixieme and two tierces)."""
    rules = get_rules("du-coeur-1995")
    hand = m("AS KS QS JS TS 9S 8H 7H 6H 8D 7D 6C")
    claim = best("AS KS QS JS TS 9S 8H 7H 6H 8D 7D 6C", SEQ, rules)
    assert cards_of(claim) == "AS KS QS JS TS 9S 8H 7H 6H"
    held, total = counted(hand, claim, rules)
    assert total == 22
    assert [cards_of(c) for c in held] == ["AS KS QS JS TS 9S 8H 7H 6H", "8D 7D 6C"]


def test_1995_best_split_keeps_under_the_claim() -> None:
    """RULES.md: "the winner then counts the split into disjoint runs (each at least a tierce)
    that scores most" - none better than what he claimed (a sunk run stays unspoken)."""
    rules = get_rules("du-coeur-1995")
    hand = m("6S 7H 8D 9C TS JH 9D TC JS QD KC AS")
    quint = next(c for c in claims(hand, SEQ, rules) if c.key == (5, 14))
    held, total = counted(hand, quint, rules)
    # two quints (15 + 15); the two cards left make no run
    assert total == 30
    assert all(c.key <= (5, 14) for c in held)
    assert [c.size for c in held] == [5, 5]


def test_1995_two_runs_of_nine_always_tie() -> None:
    """1995: "Note that tied runs of nine are automatically total ties"."""
    rules = get_rules("du-coeur-1995")
    a = best("AS KH QD JC TS 9H 8D 7C 6S AH KD QC", SEQ, rules)
    b = best("AD KS QH JS TH 9S 8C 7S 6H AC KC QS", SEQ, rules)
    assert a.key == b.key == (9, 14)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_longer_sequence_wins_then_the_higher_top(preset: str) -> None:
    """Cotgrave: "a Quart drowns a Tierce, a Quint a Quart"; 1754: "distinguished in Dignity
    by the Cards they begin from"."""
    rules = get_rules(preset)
    quart_low = best("TD 9D 8D 7D", SEQ, rules)
    tierce_major = best("AS KS QS", SEQ, rules)
    tierce_king = best("KH QH JH", SEQ, rules)
    assert quart_low.key > tierce_major.key > tierce_king.key
    assert best("AC KC QC", SEQ, rules).key == tierce_major.key  # equal: neither counts


@pytest.mark.parametrize("preset", ONE_SUIT_PRESETS)
def test_the_winner_counts_all_his_lesser_sequences(preset: str) -> None:
    """Cotgrave: "he that hath the biggest Sequence, by vertue thereof, reckons all his lesse
    Sequences"; 1754: "he who has the Tierce-Major shall reckon not only That, but the two
    small ones also"."""
    rules = get_rules(preset)
    hand = m("AS KS QS JH TH 9H TC 9C 8C AD QD 7S")
    claim = best_claim(hand, SEQ, rules)
    assert claim is not None and statement(claim, rules) == "tierce major in spades"
    held, total = counted(hand, claim, rules)
    assert [statement(c, rules) for c in held] == [
        "tierce major in spades",
        "tierce to the knave in hearts",
        "tierce to the ten in clubs",
    ]
    assert total == 9


def test_same_suit_counted_leaves_out_a_better_run_that_was_sunk() -> None:
    """1754 (Particular Rules XIII): one may sink "a Tierce"; what is not declared is not
    counted: a quart sunk behind a tierce stays unspoken."""
    rules = get_rules("court-gamester-1754")
    hand = m("KS QS JS TS AH KH QH 9D 8D 7D AC 7C")
    tierce = next(c for c in claims(hand, SEQ, rules) if cards_of(c) == "AH KH QH")
    held, total = counted(hand, tierce, rules)
    assert [cards_of(c) for c in held] == ["AH KH QH", "9D 8D 7D"]  # the quart is left out
    assert total == 6


# ---------------------------------------------------------------- sets


@pytest.mark.parametrize("preset", list(PRESETS))
def test_nines_and_lower_never_make_a_set(preset: str) -> None:
    """Cotgrave: "as for Nines, Eights, Sevens and Sixes, they have no place in this
    account"; 1754: "As for the Nines, Eights, and Sevens, you are allowed nothing"."""
    rules = get_rules(preset)
    assert best_claim(m("9S 9H 9D 9C 8S 8H 8D 7S 7H 7D"), SET, rules) is None
    assert rules.set_min_rank is Rank.TEN
    tens = best("TS TH TD", SET, rules)
    assert (statement(tens, rules), score_of(tens, rules)) == ("three tens", 3)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_1754_quatorze_of_tens_beats_three_aces(preset: str) -> None:
    """1754: "If there are 4 Knaves, or Tens, in one Hand, 3 Aces, or Kings, &c. are not to be
    told in another Hand" (a reading for 1662 and 1674; 1995: "a four of a kind beats any
    three of a kind"; 19c: "If neither party has a quatorze, then three")."""
    rules = get_rules(preset)
    tens = best("TS TH TD TC", SET, rules)
    aces = best("AS AH AD", SET, rules)
    assert tens.key > aces.key
    assert (statement(tens, rules), score_of(tens, rules)) == ("quatorze of tens", 14)


def test_without_quatorze_beats_trio_the_higher_rank_wins() -> None:
    """The knob's other value (a house rule): sets compare by rank first."""
    rules = get_rules("court-gamester-1754").replace(quatorze_beats_trio=False)
    assert best("AS AH AD", SET, rules).key > best("TS TH TD TC", SET, rules).key


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_winner_counts_all_his_lesser_sets(preset: str) -> None:
    """1754: "If one has in his Hand 3 Aces, 3 Knaves, and 3 Tens, and the other 3 Kings; he
    who has the Aces, shall tell all his Threes"."""
    rules = get_rules(preset)
    hand = m("AS AH AD JS JH JC TS TH TD 9S 8S 7S")
    claim = best_claim(hand, SET, rules)
    assert claim is not None and statement(claim, rules) == "three aces"
    held, total = counted(hand, claim, rules)
    assert [statement(c, rules) for c in held] == ["three aces", "three knaves", "three tens"]
    assert total == 9
    kings = best("KS KH KD", SET, rules)
    assert claim.key > kings.key


def test_quatorze_and_threes_counted_together() -> None:
    """19c: "The party having the superior quatorze or threes counts all inferior ones"."""
    rules = get_rules("encyclopedia-19c")
    hand = m("TS TH TD TC AS AH AD KS KH 9S 8S 7S")
    claim = best_claim(hand, SET, rules)
    assert claim is not None and statement(claim, rules) == "quatorze of tens"
    held, total = counted(hand, claim, rules)
    assert [statement(c, rules) for c in held] == ["quatorze of tens", "three aces"]
    assert total == 17


def test_four_held_may_be_told_as_three() -> None:
    """Cotgrave: "He that has four Aces ... after he has discarded one of the four, reckons
    the other three" - and a player may sink one of four (1754, Particular Rules XII)."""
    rules = get_rules("court-gamester-1754")
    found = claims(m("AS AH AD AC KS KH KD 9S 8S 7S 9H 8H"), SET, rules)
    assert [(statement(c, rules), cards_of(c)) for c in found] == [
        ("quatorze of aces", "AS AH AD AC"),
        ("three aces", "AS AH AD"),
        ("three kings", "KS KH KD"),
    ]


# ---------------------------------------------------------------- carte blanche


def test_carte_blanche_is_no_court_card() -> None:
    """Cotgrave: "if he finds never a Court Card among them, says, I have a Blank" - aces and
    tens are not court cards."""
    assert is_blanche(m("AS TS 9S 8S 7S 6S AH TH 9H 8H 7H 6H"))
    assert not is_blanche(m("AS TS 9S 8S 7S 6S AH TH 9H 8H 7H JH"))


@pytest.mark.parametrize("preset", list(PRESETS))
def test_statements_name_the_holding(preset: str) -> None:
    """The dialog's words: a tierce is named by its top card ("a Tierce of a King, when the
    King is the best Card"), the top ace making it "major"."""
    rules = get_rules(preset)
    suit = " in hearts" if rules.sequences_same_suit else ""
    assert statement(best("KH QH JH", SEQ, rules), rules) == f"tierce to the king{suit}"
    assert statement(best("AH KH QH JH", SEQ, rules), rules) == f"quart major{suit}"
    assert statement(best("KS KH KD KC", SET, rules), rules) == "quatorze of kings"
    assert statement(best("QS QH QD", SET, rules), rules) == "three queens"
