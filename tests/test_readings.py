"""The readings the texts leave open, made knobs (issue 36): each preset keeps the reading it
played, the other is one knob of a house rule away, and both are played as they read.

Named after the passages: 1662/1674's two blanks, the 19th-century article's silence on
carte blanche, du Coeur's pique "before the other player has scored anything", 1754's card
named that elder lacks, and Rubicon's carte blanche with no number announced.
"""

from __future__ import annotations

import random

import pytest

from piquet.cli import main
from piquet.core.actions import AnnounceBlanche, Appoint, NameLead, parse_action
from piquet.core.cards import Card, CardSet, pack
from piquet.core.deal import Deal, Phase
from piquet.core.errors import IllegalActionError
from piquet.core.facts import BlancheCalled, LeadLacked
from piquet.core.rules import PRESETS, Rules
from piquet.core.scoring import Kind
from piquet.core.sources import citation, is_reading
from piquet.core.transitions import pack_dealing

READINGS = {
    "younger_blanche_bars": ("cotgrave-1662", "cotton-1674"),
    "carte_blanche": ("encyclopedia-19c",),
    "pique_by_cards": ("du-coeur-1995",),
    "appoint_if_card_lacked": ("court-gamester-1754",),
    "blanche_number": ("rubicon",),
}
"""Each reading of the issue: its knob, and the presets whose text leaves it open."""


def _deal(rules: Rules, elder: str, younger: str, stock: str) -> Deal:
    order = [Card.parse(c).index for c in stock.split()]
    deal = Deal.new(rules, pack_dealing(CardSet.parse(elder).mask,
                                        CardSet.parse(younger).mask, order, 2))
    return deal.apply(parse_action("deal:2")) if deal.phase is Phase.DEAL else deal


def _through_the_exchange(deal: Deal, rng: random.Random) -> Deal:
    while deal.phase in (Phase.BLANCHE, Phase.EXCHANGE):
        deal = deal.apply(deal.random_action(rng))
    return deal


def _blanches(deal: Deal) -> list[tuple[int, int]]:
    return [(e.role, e.points) for e in deal.events if e.kind is Kind.BLANCHE]


@pytest.mark.parametrize("knob", list(READINGS))
def test_each_reading_is_a_knob_cited_as_a_reading_with_both_readings_named(knob: str) -> None:
    for preset in READINGS[knob]:
        text = citation(preset, knob)
        assert is_reading(preset, knob), text
        assert "(true)" in text and "(false)" in text, text
    # every preset keeps the reading it played before the knob
    before = {"younger_blanche_bars": False, "carte_blanche": True, "pique_by_cards": False,
              "appoint_if_card_lacked": True}
    for name, rules in PRESETS.items():
        if knob in before:
            assert getattr(rules, knob) is before[knob], name
        else:
            assert rules.blanche_number is (name != "rubicon")


def test_piquet_rules_marks_a_reading_as_a_reading(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "1662"]) == 0
    assert "(a reading)" in capsys.readouterr().out
    assert main(["rules", "1662", "--json"]) == 0
    import json

    knobs = json.loads(capsys.readouterr().out)["knobs"]
    assert knobs["younger_blanche_bars"]["reading"] is True
    assert knobs["deck_size"]["reading"] is False


# ---------------------------------------------------------------------- two blanks (1662)

BOTH_BLANK = (
    "AS TS 9S 8S 7S 6S AH TH 9H 8H 7H 6H",
    "AD TD 9D 8D 7D 6D AC TC 9C 8C 7C 6C",
    "KS QS JS KH QH JH KD QD JD KC QC JC",
)


@pytest.mark.parametrize("preset", ["cotgrave-1662", "cotton-1674"])
def test_cotgrave_the_youngers_blank_shall_barre_the_former(preset: str) -> None:
    """1662: "if it should chance to fall out that the other have a Blank too, the
    younger's Blank shall barre the former, and hinder his Picy and Repicy; though the
    eldest hand's Blank consists of the bigger Cards".  Read as barring elder's pique and
    repique (the preset), both blanks count; read as barring elder's blank, only younger's
    does (``younger_blanche_bars = true``)."""
    rules = PRESETS[preset]
    assert rules.younger_blanche_bars is False
    rng = random.Random(preset)
    both = _through_the_exchange(_deal(rules, *BOTH_BLANK), rng)
    assert sorted(_blanches(both)) == [(0, 10), (1, 10)]
    other = rules.replace(name="barred", younger_blanche_bars=True)
    barred = _through_the_exchange(_deal(other, *BOTH_BLANK), random.Random(preset))
    assert _blanches(barred) == [(1, 10)]
    # du Coeur's own rule for two blanks stays theirs: neither scores
    assert PRESETS["du-coeur-1995"].blanche_counted(True, True) == (False, False)


# ---------------------------------------------------------------------- carte blanche (19c)


def test_19c_the_article_lists_the_score_without_a_blank() -> None:
    """19th century: the score is "the point, the sequence, the quatorze, the cards, and
    the capot", and carte blanche is never named.  Read as played (the preset: declared,
    shown and 10), or as absent (``carte_blanche = false``: a hand like any other)."""
    elder, younger = "AS TS 9S 8S 7S AH TH 9H 8H 7H AD TD", "KS QS JS KH QH JH KD QD JD 9D 8D 7D"
    stock = "AC KC QC JC TC 9C 8C 7C"
    rules = PRESETS["encyclopedia-19c"]
    played = _deal(rules, elder, younger, stock)
    assert any(isinstance(u.fact, BlancheCalled) for u in played.dialog)
    assert _blanches(_through_the_exchange(played, random.Random(1))) == [(0, 10)]
    absent = _deal(rules.replace(name="no-blanche", carte_blanche=False), elder, younger, stock)
    assert absent.phase is Phase.EXCHANGE and not absent.dialog
    assert _blanches(_through_the_exchange(absent, random.Random(1))) == []


# ---------------------------------------------------------------------- du Coeur's pique

# a deal of random play in which younger's thirty is reached only by the capot
DU_COEUR_PACK = [31, 20, 15, 3, 19, 7, 35, 32, 23, 2, 11, 24, 17, 16, 6, 13, 9, 26, 0, 34, 5,
                 12, 14, 27, 28, 4, 22, 8, 29, 21, 18, 25, 10, 33, 30, 1]


def test_du_coeur_thirty_points_before_the_other_player_has_scored_anything() -> None:
    """du Coeur: a pique is "thirty points before the other player has scored anything".
    Read as every other text (the preset), the cards and the capot, counted after the play,
    never make it; read as anything scored (``pique_by_cards = true``), they may."""
    rules = PRESETS["du-coeur-1995"]
    assert rules.pique_by_cards is False
    other = rules.replace(name="cards-pique", pique_by_cards=True)
    deals = [Deal.new(r, DU_COEUR_PACK) for r in (rules, other)]
    rng = random.Random(0.23416301408949636)
    while not deals[0].is_over:
        action = deals[0].random_action(rng)
        deals = [d.apply(action) for d in deals]
    assert deals[1].is_over
    as_read, other_read = ([e for e in d.events if e.kind is Kind.PIQUE] for d in deals)
    assert as_read == []
    assert [(e.role, e.points) for e in other_read] == [(1, 30)]
    assert deals[1].events[-2].kind is Kind.CAPOT and "the cards" in other_read[0].note


# ---------------------------------------------------------------------- 1754's named card

NAMING = ("KS QS JS TS 9S KH QH JH 8D 7D 8C 7C", "AH TH 9H AD KD QD JD TD AC KC QC JC",
          "8S 7S 8H 7H AS 9D 9C TC")


def test_1754_a_card_of_a_suit_which_he_had_not_in_his_hand() -> None:
    """1754: "if by Mistake, or otherwise, he should promise to lead a Card of a Suit which
    he had not in his Hand, he is obliged to play what Card the other shall appoint him."
    Read for any card he lacks (the preset), naming the ace of spades while holding spades
    has younger appoint; read for that case only (``appoint_if_card_lacked = false``), he may
    name only a card he holds or one of a suit he has none of."""
    rules = PRESETS["court-gamester-1754"]
    deal = _deal(rules, *NAMING)
    rng = random.Random(1)
    deal = deal.apply(parse_action("discard:8D 7D")).apply(parse_action("discard:TD"))
    named = deal.apply(NameLead(card=Card.parse("AS")))
    assert isinstance(named.dialog[-1].fact, LeadLacked) and named.phase is Phase.APPOINT
    assert any(isinstance(a, Appoint) for a in named.legal_actions())
    strict = _deal(rules.replace(name="strict", appoint_if_card_lacked=False), *NAMING)
    strict = strict.apply(parse_action("discard:8D 7D")).apply(parse_action("discard:TD"))
    with pytest.raises(IllegalActionError, match="holds spades"):
        strict.apply(NameLead(card=Card.parse("AS")))
    names = {a.card for a in strict.legal_actions() if isinstance(a, NameLead)}
    hand = strict.hand(0)
    every = [Card.from_index(i) for i in pack(rules)]
    assert names == {c for c in every if c in hand or not any(h.suit == c.suit for h in hand)}
    void = next(c for c in names if c not in hand)
    assert strict.apply(NameLead(card=void)).phase is Phase.APPOINT
    del rng


# ---------------------------------------------------------------------- Rubicon's blanche


def test_rubicon_carte_blanche_without_a_number_or_with_the_older_texts() -> None:
    """No source the project holds settles whether a Rubicon holder announces how many
    cards he will take: Parlett's rules are read as announcing none (the preset); the older
    texts' number, bound to, is ``blanche_number = true``."""
    elder, younger = "AS TS 9S 8S 7S AH TH 9H 8H 7H AD TD", "KS QS JS KH QH JH KD QD JD 9D 8D 7D"
    stock = "AC KC QC JC TC 9C 8C 7C"
    rules = PRESETS["rubicon"]
    assert not rules.blanche_number
    plain = _deal(rules, elder, younger, stock)
    assert not any(isinstance(a, AnnounceBlanche) for a in plain.legal_actions())
    older = _deal(rules.replace(name="number", blanche_number=True), elder, younger, stock)
    assert all(isinstance(a, AnnounceBlanche) for a in older.legal_actions())


def test_encyclopedia_silent_on_blanche_odds_and_advice_follow_the_knob() -> None:
    # "the point, the sequence, the quatorze, the cards, and the capot": with the blank not
    # scored (a house rule away), the odds and the advisor never promise one
    from piquet.advisor import advise
    from piquet.analysis.odds import improvements

    hand = CardSet.parse("AS TS 9S 8S AH TH 9H 8H AD TD 9D 8D")  # no king, queen or knave
    base = PRESETS["encyclopedia-19c"]
    none = base.replace(carte_blanche=False)
    out = CardSet.parse("8S 8H 8D")
    assert improvements(hand, out, base, role=0).blanche.startswith("held")
    assert improvements(hand, out, none, role=0).blanche.startswith("not scored")
    # (whether the advice says carte blanche is the hand's and the knob's, not the search's:
    # the fewest exact worlds do)
    assert advise(hand, base, role=0, samples=8, candidates=2, exact=4).blanche
    assert not advise(hand, none, role=0, samples=8, candidates=2, exact=4).blanche
