"""Cards and sets of cards: printing, forgiving parsing, clear errors, ``parse(format(x)) == x``."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from piquet.core.cards import (
    DECK32,
    DECK36,
    SUIT_MASKS,
    Card,
    CardSet,
    Rank,
    Suit,
    card_points,
    mask_cards,
    suit_mask,
)
from piquet.core.errors import ParseError, PiquetError

PROFILE = settings(deadline=None, max_examples=300, suppress_health_check=[HealthCheck.too_slow])

ALL_CARDS = [Card.from_index(i) for i in range(36)]


# ---------------------------------------------------------------------- Card


@pytest.mark.parametrize("card", ALL_CARDS, ids=str)
def test_card_round_trips(card: Card) -> None:
    assert Card.parse(str(card)) is card
    assert Card.from_index(card.index) is card
    assert Card(card.suit, card.rank) is card
    assert card.index == 9 * card.suit + card.rank - 6
    assert card.bit == 1 << card.index
    assert str(card) == card.rank.letter + card.suit.letter
    assert eval(repr(card), {"Card": Card}) is card
    assert pickle.loads(pickle.dumps(card)) is card


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("QH", "QH"),
        ("qh", "QH"),
        ("q h", "QH"),
        ("  Q  H ", "QH"),
        ("10h", "TH"),
        ("10H", "TH"),
        ("10 ♥", "TH"),
        ("TH", "TH"),
        ("Q♥", "QH"),
        ("Q♡", "QH"),
        ("a♠", "AS"),
        ("7♣", "7C"),
        ("6♦", "6D"),
        ("j-d", "JD"),
        ("k/c", "KC"),
        ("Nh", "JH"),
    ],
)
def test_card_parse_forgiving_forms(text: str, expected: str) -> None:
    assert str(Card.parse(text)) == expected


@pytest.mark.parametrize("text", ["", "Q", "H", "QX", "1H", "11H", "ZZ", "QHH", "♥Q", "10"])
def test_card_parse_errors_say_how_to_write_a_card(text: str) -> None:
    with pytest.raises(ParseError) as err:
        Card.parse(text)
    message = str(err.value)
    assert repr(text) in message
    assert "e.g. QH" in message
    assert isinstance(err.value, PiquetError)
    assert isinstance(err.value, ValueError)


def test_card_constructor_rejects_impossible_cards() -> None:
    with pytest.raises(ParseError, match="no such card"):
        Card(Suit.HEARTS, 5)
    with pytest.raises(ParseError, match="no such card"):
        Card(4, Rank.ACE)


def test_cards_are_immutable() -> None:
    card = Card.parse("QH")
    with pytest.raises(AttributeError):
        card.index = 3


def test_card_points_and_courts() -> None:
    assert [Card.parse(t).points for t in ("AS", "KS", "QS", "JS", "TS", "9S", "7S", "6S")] == [
        11,
        10,
        10,
        10,
        10,
        9,
        7,
        6,
    ]
    assert [c.is_court for c in CardSet.parse("AS KS QS JS TS")] == [False, True, True, True, False]
    assert all(card_points(c.index) == c.points for c in ALL_CARDS)


def test_card_order_is_by_rank() -> None:
    assert Card.parse("7S") < Card.parse("8C")
    assert Card.parse("KH") < Card.parse("AS")
    assert not Card.parse("AS") < Card.parse("AS")


# ---------------------------------------------------------------------- Suit and Rank


@pytest.mark.parametrize(
    ("text", "suit"),
    [
        ("S", Suit.SPADES),
        ("h", Suit.HEARTS),
        ("♦", Suit.DIAMONDS),
        ("♧", Suit.CLUBS),
        ("clubs", Suit.CLUBS),
        ("Heart", Suit.HEARTS),
        (" spades ", Suit.SPADES),
    ],
)
def test_suit_parse(text: str, suit: Suit) -> None:
    assert Suit.parse(text) is suit
    assert Suit.parse(str(suit)) is suit
    assert Suit.parse(suit.symbol) is suit
    assert Suit.parse(suit.plural) is suit


def test_suit_and_rank_errors_list_what_is_allowed() -> None:
    with pytest.raises(ParseError, match=r"'X' is not a suit: write S, H, D or C"):
        Suit.parse("X")
    with pytest.raises(ParseError, match=r"'5' is not a rank: write A K Q J T 9 8 7 6"):
        Rank.parse("5")


@pytest.mark.parametrize("rank", list(Rank))
def test_rank_round_trips(rank: Rank) -> None:
    assert Rank.parse(str(rank)) is rank
    assert Rank.parse(rank.letter.lower()) is rank
    assert rank.name_plural.startswith(rank.name_singular[:3])


def test_rank_ten_is_written_t_and_read_as_10() -> None:
    assert str(Rank.TEN) == "T"
    assert Rank.parse("10") is Rank.TEN


# ---------------------------------------------------------------------- CardSet


@given(st.integers(0, DECK36))
@PROFILE
def test_cardset_round_trips(mask: int) -> None:
    cs = CardSet(mask)
    assert CardSet.parse(str(cs)) == cs
    assert CardSet.parse(cs.sorted_text()) == cs
    assert CardSet(list(cs)) == cs
    assert len(cs) == mask.bit_count()
    assert bool(cs) == (mask != 0)
    assert [c.index for c in cs] == list(mask_cards(mask))
    assert eval(repr(cs), {"CardSet": CardSet}) == cs
    assert pickle.loads(pickle.dumps(cs)) == cs
    assert hash(CardSet(mask)) == hash(cs)


@given(st.integers(0, DECK36), st.integers(0, DECK36))
@PROFILE
def test_cardset_algebra_is_the_mask_algebra(a: int, b: int) -> None:
    x, y = CardSet(a), CardSet(b)
    assert (x | y).mask == a | b
    assert (x & y).mask == a & b
    assert (x - y).mask == a & ~b
    assert (x <= y) == (a & ~b == 0)
    for card in ALL_CARDS:
        assert (card in x) == bool(a & card.bit)
    for suit in Suit:
        assert x.of_suit(suit).mask == a & SUIT_MASKS[suit]


def test_cardset_iterates_by_suit_high_rank_first() -> None:
    cs = CardSet.parse("7C AS TH 6S KS QH")
    assert str(cs) == "AS KS 6S QH TH 7C"
    assert cs.sorted_text() == "AS KS 6S  QH TH  7C"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("AS KS qh 10h", "AS KS QH TH"),
        ("AS,KS;QH", "AS KS QH"),
        ("as, ks ,  qh", "AS KS QH"),
        ("q h k s", "KS QH"),
        ("10 h 9 h", "TH 9H"),
        ("A♠ K♥", "AS KH"),
        ("", ""),
        ("   ", ""),
    ],
)
def test_cardset_parse_forgiving_forms(text: str, expected: str) -> None:
    assert str(CardSet.parse(text)) == expected


def test_cardset_parse_errors_name_the_bad_token_or_the_repeat() -> None:
    with pytest.raises(ParseError, match=r"'XX' is not a card"):
        CardSet.parse("AS XX KS")
    with pytest.raises(ParseError, match=r"AS is written twice in 'AS KS as'"):
        CardSet.parse("AS KS as")
    with pytest.raises(ParseError, match="is not a card mask"):
        CardSet(-1)
    with pytest.raises(ParseError, match="is not a card mask"):
        CardSet(DECK36 + 1)


def test_cardset_is_immutable() -> None:
    cs = CardSet.parse("AS")
    with pytest.raises(AttributeError):
        cs.mask = 0


def test_cardset_equality_is_by_cards_only() -> None:
    assert CardSet.parse("AS KS") == CardSet.parse("KS AS")
    assert CardSet.parse("AS") != Card.parse("AS")
    assert CardSet() != 0
    assert len({CardSet.parse("AS KS"), CardSet.parse("ks as")}) == 1


# ---------------------------------------------------------------------- packs and masks


def test_packs() -> None:
    assert DECK36.bit_count() == 36
    assert DECK32.bit_count() == 32
    assert all(c.rank == Rank.SIX for c in CardSet(DECK36 & ~DECK32))
    for s in Suit:
        assert suit_mask(s) == SUIT_MASKS[s]
        assert {c.suit for c in CardSet(SUIT_MASKS[s])} == {s}
        assert len(CardSet(SUIT_MASKS[s])) == 9
    assert sum(SUIT_MASKS) == DECK36


@given(st.integers(0, DECK36))
@PROFILE
def test_mask_cards_lists_each_card_once(mask: int) -> None:
    idx = list(mask_cards(mask))
    assert len(idx) == len(set(idx)) == mask.bit_count()
    assert sum(1 << i for i in idx) == mask
    keys = [(i // 9, -(i % 9)) for i in idx]
    assert keys == sorted(keys)
