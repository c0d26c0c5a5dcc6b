"""Action ids: ``parse_action(str(a)) == a`` for every action seen in play; forgiving input."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from piquet.core.actions import (
    PLAY,
    Action,
    AnnounceBlanche,
    Answer,
    Appoint,
    DealBy,
    Declare,
    Discard,
    Leftover,
    LeftoverChoice,
    NameLead,
    Pass,
    Play,
    Question,
    Reply,
    parse_action,
)
from piquet.core.cards import DECK36, Card, CardSet, Suit
from piquet.core.deal import Deal, Phase
from piquet.core.declarations import DeclClass
from piquet.core.errors import ParseError
from piquet.core.rules import PRESETS, Rules

PROFILE = settings(deadline=None, max_examples=40, suppress_health_check=[HealthCheck.too_slow])


def _pack(rules: Rules, rng: random.Random) -> list[int]:
    pack = [i for i in range(36) if rules.deck_size == 36 or i % 9]
    rng.shuffle(pack)
    return pack


def _every_action_of_a_deal(rules: Rules, seed: int) -> list[Action]:
    """Every action offered (and some discards) along one random deal."""
    rng = random.Random(seed)
    deal = Deal.new(rules, _pack(rules, rng))
    seen: list[Action] = []
    while not deal.is_over:
        if deal.phase is Phase.EXCHANGE:
            seen.extend(deal.random_action(rng) for _ in range(5))
        else:
            seen.extend(deal.legal_actions())
        deal = deal.apply(deal.random_action(rng))
    return seen


@pytest.mark.parametrize("preset", list(PRESETS))
@given(seed=st.integers(0, 2**32))
@PROFILE
def test_every_offered_action_round_trips(preset: str, seed: int) -> None:
    for action in _every_action_of_a_deal(PRESETS[preset], seed):
        text = str(action)
        assert parse_action(text) == action, text
        assert parse_action(f"  {text} ") == action
        assert hash(parse_action(text)) == hash(action)


ALL_KINDS: list[Action] = [
    DealBy(2),
    DealBy(3),
    AnnounceBlanche(0),
    AnnounceBlanche(5),
    Discard(CardSet()),
    Discard(CardSet.parse("7S 8S TH")),
    NameLead(suit=Suit.HEARTS),
    NameLead(card=Card.parse("QS")),
    Appoint(suit=Suit.CLUBS),
    Appoint(card=Card.parse("6D")),
    Leftover(LeftoverChoice.LOOK),
    Leftover(LeftoverChoice.DECLINE),
    Declare(DeclClass.POINT, CardSet.parse("AH KH QH")),
    Declare(DeclClass.SEQUENCE, CardSet.parse("AS KS QS JS")),
    Declare(DeclClass.SET, CardSet.parse("AS AH AD")),
    Pass(),
    *(Answer(r) for r in Reply),
    Question(True),
    Question(False),
    *PLAY,
]


@pytest.mark.parametrize("action", ALL_KINDS, ids=str)
def test_each_action_kind_round_trips(action: Action) -> None:
    assert parse_action(str(action)) == action
    assert parse_action(str(action).upper()) == action


@given(st.integers(0, DECK36), st.sampled_from(list(DeclClass)))
@settings(deadline=None, max_examples=200)
def test_card_carrying_actions_round_trip(mask: int, cls: DeclClass) -> None:
    for action in (Discard(CardSet(mask)), Declare(cls, CardSet(mask))):
        assert parse_action(str(action)) == action


def test_action_ids() -> None:
    assert str(PLAY[Card.parse("QH").index]) == "play:QH"
    assert str(Discard(CardSet.parse("8S 7S"))) == "discard:8S 7S"
    assert str(Discard(CardSet())) == "discard:-"
    assert str(Declare(DeclClass.POINT, CardSet.parse("AH KH QH"))) == "declare:point:AH KH QH"
    assert str(NameLead(suit=Suit.HEARTS)) == "name:H"
    assert str(Appoint(card=Card.parse("TS"))) == "appoint:TS"
    assert str(Answer(Reply.NOT_GOOD)) == "not-good"
    assert [str(Question(b)) for b in (True, False)] == ["ask-missing", "no-question"]
    assert str(Leftover(LeftoverChoice.LOOK)) == "look"
    assert str(AnnounceBlanche(3)) == "blanche:3"
    assert str(DealBy(4)) == "deal:4"
    assert str(Pass()) == "pass"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("play:qh", Play(Card.parse("QH"))),
        ("PLAY: 10h", Play(Card.parse("TH"))),
        ("play:Q♥", Play(Card.parse("QH"))),
        ("play:q h", Play(Card.parse("QH"))),
        ("discard:7s, 8s", Discard(CardSet.parse("7S 8S"))),
        ("discard: - ", Discard(CardSet())),
        ("declare:Point:ah kh", Declare(DeclClass.POINT, CardSet.parse("AH KH"))),
        ("name:hearts", NameLead(suit=Suit.HEARTS)),
        ("name:♠", NameLead(suit=Suit.SPADES)),
        ("name:10d", NameLead(card=Card.parse("TD"))),
        ("appoint:c", Appoint(suit=Suit.CLUBS)),
        ("Not-Good", Answer(Reply.NOT_GOOD)),
        ("MAKING", Answer(Reply.MAKING)),
        ("deal: 3", DealBy(3)),
    ],
)
def test_parse_forgiving_forms(text: str, expected: Action) -> None:
    assert parse_action(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", r"'' is not an action; actions are written like play:QH"),
        ("fly", r"'fly' is not an action; actions are written like play:QH"),
        ("fly:QH", r"'fly:QH' is not an action; actions are written like"),
        ("play:", r"name the card to play"),
        ("play:QX", r"'QX' is not a card"),
        ("discard:AS AS", r"AS is written twice"),
        ("discard:AS XX", r"'XX' is not a card"),
        ("deal:two", r"'deal:two' is not an action"),
        ("blanche:", r"'blanche:' is not an action"),
        ("declare:foo:AS", r"write declare:point:CARDS, declare:sequence:CARDS"),
        ("declare:point", r"write declare:point:CARDS"),
        ("name:heart", r"is not a card"),
        ("appoint:", r"is not a card"),
    ],
)
def test_parse_errors_say_how_actions_are_written(text: str, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        parse_action(text)


def test_actions_are_frozen_values() -> None:
    a = Play(Card.parse("QH"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.card = Card.parse("KH")  # type: ignore[misc]
    assert a == PLAY[Card.parse("QH").index]
    assert Pass() == Pass()
    assert Answer(Reply.GOOD) != Answer(Reply.EQUAL)
    named: object = NameLead(suit=Suit.HEARTS)
    assert named != Appoint(suit=Suit.HEARTS)
    assert len({Question(True), Question(True), Question(False)}) == 2
