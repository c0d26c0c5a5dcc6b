"""What is said aloud is what the texts say aloud: a sequence by its length and top card
(never its suit), a point by its count (and "making" its pips where the rule set has it), a
set by its rank.  A player's own claims, named for him beside his cards, may name a suit to
tell two of them apart; records written before the words changed still replay.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from piquet.core.cards import CardSet, Suit, pack
from piquet.core.deal import Deal
from piquet.core.declarations import DeclClass, claims, statement
from piquet.core.errors import RecordError
from piquet.core.facts import Declared, FurtherHeld, statement_of
from piquet.core.notation import dump_json, dump_text, loads
from piquet.core.rules import PRESETS
from piquet.core.words import claim_name, claim_words

RECORDS = Path(__file__).parent / "records"
SUIT_WORDS = tuple(s.plural for s in Suit)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_cotgrave_sequences_take_their_denomination_from_the_highest_card(preset: str) -> None:
    """Cotgrave, 1662: "These Sequences take their denomination from the highest Card in
    the Sequence" (1754: "*Tierce to a King* … named from that Card"): two sequences of one
    length to one card, in different suits, are said in the same words and tell the same."""
    rules = PRESETS[preset]
    hearts = CardSet.parse("KH QH JH TH").mask
    clubs = CardSet.parse("KC QC JC TC").mask
    said = {}
    for mask in (hearts, clubs):
        claim = next(c for c in claims(mask, DeclClass.SEQUENCE, rules) if c.size == 4)
        said[mask] = (claim_words(claim, rules), statement_of(claim, rules))
    assert said[hearts] == said[clubs]
    assert said[hearts][0] == "quart to the king"


def test_1754_tierce_to_a_king_is_named_from_that_card() -> None:
    """1754: "King, Queen, and Knave, are called *Tierce to a King*"; "every *Quart*,
    *Quint*, or *Sixieme*, that begins from an Ace, is called … *Sixieme-Major*"."""
    rules = PRESETS["court-gamester-1754"]
    for cards, words in (
        ("KS QS JS", "tierce to the king"),
        ("AD KD QD JD TD 9D", "sixième major"),
    ):
        claim = max(claims(CardSet.parse(cards).mask, DeclClass.SEQUENCE, rules),
                    key=lambda c: c.key)
        assert claim_words(claim, rules) == words


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_nothing_said_aloud_names_a_suit(preset: str) -> None:
    """Over random deals of every preset, no line spoken in the dialog and no holding counted
    in the score names a suit (the cards a player shows are his deed, not his words)."""
    rules = PRESETS[preset]
    rng = random.Random(preset)
    spoken = 0
    for _ in range(300):
        cards = list(pack(rules))
        rng.shuffle(cards)
        deal = Deal.new(rules, cards)
        while not deal.is_over:
            deal = deal.apply(deal.random_action(rng))
        for u in deal.dialog:
            if isinstance(u.fact, (Declared, FurtherHeld)):
                spoken += 1
                assert not any(w in u.text.lower() for w in SUIT_WORDS), u.text
        for e in deal.events:
            assert not any(w in e.note for w in SUIT_WORDS), e.note
    assert spoken > 300


def test_a_players_own_claim_is_named_with_its_suit_beside_his_cards() -> None:
    """Holding two quarts to the king, a player choosing which to declare sees each named
    with its suit; the other hears "Quart to the king" either way."""
    rules = PRESETS["rubicon"]
    hand = CardSet.parse("KH QH JH TH KC QC JC TC 7S 8S 9D 7D").mask
    quarts = [c for c in claims(hand, DeclClass.SEQUENCE, rules) if c.size == 4]
    assert sorted(statement(c, rules) for c in quarts) == [
        "quart to the king in clubs", "quart to the king in hearts"]
    assert {claim_name(c, rules) for c in quarts} == {statement(c, rules) for c in quarts}
    assert {claim_words(c, rules) for c in quarts} == {"quart to the king"}
    # sequences in any suits (du Coeur) name no suit even to their holder
    du_coeur = PRESETS["du-coeur-1995"]
    run = next(c for c in claims(hand, DeclClass.SEQUENCE, du_coeur) if c.size >= 4)
    assert statement(run, du_coeur) == claim_words(run, du_coeur)


@pytest.mark.parametrize(
    "name",
    [
        "court-gamester-1754-before-issue-36.pqn",
        "cotgrave-1662-before-issue-36.pqn",
        "rubicon-before-issue-36.json",
    ],
)
def test_a_record_written_when_sequences_were_said_with_their_suit_still_replays(
    name: str,
) -> None:
    """Records written before issue 36 say "Tierce to the nine in spades." and count
    "tierce major in spades"; they read, every stated line checked, and saved again they
    are in today's words with the same moves."""
    old = (RECORDS / name).read_text(encoding="utf-8")
    assert " in spades" in old or " in hearts" in old or " in clubs" in old \
        or " in diamonds" in old
    match = loads(old).match
    again = dump_json(match) if name.endswith(".json") else dump_text(match)
    assert again != old
    back = loads(again).match
    assert back.history == match.history and back.result() == match.result()
    for line in again.splitlines():
        if ('"' in line and "says" in line) or "for sequences" in line:
            assert not any(f" in {w}" in line for w in SUIT_WORDS), line


def test_an_earlier_record_that_names_the_wrong_suit_is_refused() -> None:
    """The earlier wording is checked too: the suit it names must be the suit of the cards."""
    old = (RECORDS / "court-gamester-1754-before-issue-36.pqn").read_text(encoding="utf-8")
    line = '  elder says "Tierce to the nine in spades."'
    assert line in old
    with pytest.raises(RecordError, match="Tierce to the nine in hearts"):
        loads(old.replace(line, line.replace("spades", "hearts")))
    counted = (
        "younger counts 6 for sequences: tierce major in spades; tierce to the nine in diamonds"
    )
    assert counted in old
    with pytest.raises(RecordError, match="the record states"):
        loads(old.replace(counted, counted.replace("diamonds", "clubs")))
