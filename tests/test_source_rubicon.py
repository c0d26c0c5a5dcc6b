"""The ``rubicon`` preset against David Parlett's published rules of Rubicon Piquet.

There is no period text here: each test quotes the rule as ``piquet.core.sources`` gives it
(``parlett: ...``), or names the **reading** the preset takes.  Hands are written out in
full and every count in the comments was worked by hand.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from enginekit import (
    Q_ELDER,
    Q_STOCK,
    Q_YOUNGER,
    act,
    elder_speaks_q,
    new_deal,
    play,
    refused,
    said,
    timeline,
)
from piquet.core.actions import AnnounceBlanche, DealBy, Discard
from piquet.core.cards import CardSet
from piquet.core.deal import ELDER, YOUNGER, Deal, Phase
from piquet.core.errors import SetupError
from piquet.core.match import Match, new_match
from piquet.core.rules import Format, Settlement, get_rules
from piquet.core.sources import citation
from piquet.core.view import deal_view

RULES = get_rules("rubicon")


# ---------------------------------------------------------------- helpers


def parlett(knob: str) -> str:
    text = citation("rubicon", knob)
    assert text.startswith(("parlett: ", "reading: "))
    return text


def scenario_q(*, look: bool = False) -> Deal:
    deal = new_deal(RULES, Q_ELDER, Q_YOUNGER, Q_STOCK)
    # elder lays out 7H, takes 7D; younger lays out 8S, takes 7S
    return act(deal, "discard:7H", "discard:8S", "look" if look else "decline")


# ---------------------------------------------------------------- deal and exchange


def test_rubicon_deal_twelve_each_in_twos_or_threes() -> None:
    """parlett: "12 each, dealt in twos or in threes, one size for the deal"; talon 8."""
    assert "twos or in threes" in parlett("packet_sizes")
    deal = Deal.new(RULES, [i for i in range(36) if i % 9])
    assert deal.legal_actions() == [DealBy(2), DealBy(3)]
    refused(deal, DealBy(4), "Allowed: deal:2, deal:3")
    dealt = deal.apply(DealBy(3))
    assert len(dealt.hand(ELDER)) == len(dealt.hand(YOUNGER)) == 12 and len(dealt.stock) == 8


def test_rubicon_elder_five_younger_three() -> None:
    """parlett: "elder must exchange at least one card and at most five"; talon 8 (5 for
    elder, 3 for younger)."""
    deal = new_deal(RULES, Q_ELDER, Q_YOUNGER, Q_STOCK)
    assert deal.discard_range() == (1, 5)
    after = act(deal, "discard:7H 8D KH KD AC")
    assert after.discard_range() == (1, 3)


def test_rubicon_younger_must_take_at_least_one() -> None:
    """parlett: "younger too must exchange at least one card" (unlike encyclopedia-19c)."""
    assert "at least one" in parlett("younger_min")
    deal = act(new_deal(RULES, Q_ELDER, Q_YOUNGER, Q_STOCK), "discard:7H")
    assert deal.discard_range() == (1, 7)
    refused(deal, Discard(CardSet()), "younger must discard 1 to 7 cards, not 0")


def test_rubicon_younger_looks_then_elder_after_first_card() -> None:
    """parlett: "if younger looks at the cards he leaves, elder may see them after leading his
    first card; if not, neither does"."""
    leftovers = CardSet.parse("TH 9H 8H TD 9D TC")
    own = CardSet.parse("7S TH 9H 8H")  # the rest of elder's five (younger then took 7S)
    looked = scenario_q(look=True)
    assert deal_view(looked, YOUNGER).stock_seen == leftovers
    looked = elder_speaks_q(looked)
    assert deal_view(looked, ELDER).stock_seen == own
    looked = play(looked, "AS")
    assert deal_view(looked, ELDER).stock_seen == own | leftovers
    blind = play(elder_speaks_q(scenario_q(look=False)), "AS")
    assert deal_view(blind, ELDER).stock_seen == own
    assert deal_view(blind, YOUNGER).stock_seen == CardSet()


B_ELDER = "AS KS QS JS TS 9S 8S 7S KH QH JH KD"
B_YOUNGER = "AH TH 9H 8H 7H AD TD 9D 8D 7D TC 9C"
B_STOCK = "QD JD AC KC QC JC 8C 7C"


def test_rubicon_carte_blanche_scores_ten() -> None:
    """parlett: "carte blanche (no court card in the twelve dealt) scores 10" and "either player
    dealt a blank may claim 10 for it; blanks are not compared, so both can score" (two blanks
    cannot be dealt from 32 cards: only 20 are not court cards)."""
    assert RULES.blanche_value == 10 and RULES.both_blanche_score
    deal = new_deal(RULES, B_ELDER, B_YOUNGER, B_STOCK)
    assert said(deal) == ["younger: Carte blanche!"]
    deal = act(deal, "discard:KD")
    assert timeline(deal) == [("younger", "carte blanche", 10)]
    assert deal_view(deal, ELDER).opponent_shown == CardSet.parse(B_YOUNGER)


def test_rubicon_younger_blanche_announces_no_number_and_exchanges_four() -> None:
    """parlett: "carte blanche is declared and shown; no number of cards is announced, and the
    exchange goes on as usual (a younger holder takes as many as remain, at least one)" - the
    audit's deal: elder exchanges one, younger exchanges four (refused before: he had to name
    a number no larger than the three elder must leave)."""
    assert RULES.blanche_number is False
    deal = new_deal(RULES, B_ELDER, B_YOUNGER, B_STOCK)
    # no number to announce: elder exchanges at once
    assert deal.phase is Phase.EXCHANGE and deal.to_act == ELDER
    assert deal.discard_range() == (1, 5)
    refused(deal, AnnounceBlanche(2), "not allowed now", "discard 1 to 5")
    deal = act(deal, "discard:KD")  # elder takes QD
    assert deal.to_act == YOUNGER and deal.discard_range() == (1, 7)
    deal = act(deal, "discard:TC 9C 8D 7D")
    assert deal.hand(YOUNGER) == CardSet.parse("AH TH 9H 8H 7H AD TD 9D JD AC KC QC")
    assert said(deal)[-3:] == [
        "elder: elder exchanges 1",
        "younger: shows carte blanche",
        "younger: younger exchanges 4",
    ]
    assert timeline(deal) == [("younger", "carte blanche", 10)]


def test_rubicon_elder_blanche_shown_then_exchanged_as_usual() -> None:
    """parlett: carte blanche "declared and shown"; no number is announced, so younger does not
    discard first: elder shows and counts 10, then exchanges as usual, then younger."""
    deal = new_deal(RULES, B_YOUNGER, B_ELDER, B_STOCK)
    assert deal.phase is Phase.EXCHANGE and deal.to_act == ELDER
    assert timeline(deal) == [("elder", "carte blanche", 10)]
    assert deal_view(deal, YOUNGER).opponent_shown == CardSet.parse(B_YOUNGER)
    assert deal.discard_range() == (1, 5)
    deal = act(deal, "discard:TC 9C 8D 7D")
    assert deal.to_act == YOUNGER and deal.discard_range() == (1, 4)
    deal = act(deal, "discard:KD")
    assert deal.phase is not Phase.EXCHANGE


def test_rubicon_pique_from_declarations_and_play_never_the_capot() -> None:
    """parlett: "elder reaching 30 from declarations and play before younger scores adds 30" -
    never by the cards or capot, which come after the play (the audit's deal: 13 in hand, 13
    in play, all twelve tricks: 26 + 40 = 66, not 96)."""
    deal = new_deal(
        RULES,
        "AS KS QS JS AH KH QH AD KD QD JD TD",
        "TS 9S 8S 7S JH TH 9H 8H 7H 9D 8D 7D",
        "AC KC QC JC TC 9C 8C 7C",
    )
    deal = act(deal, "discard:JD", "discard:7D", "decline")  # elder takes AC, younger KC
    # elder sinks to a point of three (3) and counts his quart and two tierces (10); younger,
    # though his point and quint are better, says "good" and counts nothing
    deal = act(deal, "declare:point:AS KS QS", "good", "declare:sequence:AS KS QS JS", "good")
    deal = act(deal, "pass")
    assert deal.scores == (13, 0)
    deal = play(deal, "AS")
    deal = act(deal, "pass")
    deal = play(deal, "7S KS 8S QS 9S JS TS AH 7H KH 8H QH 9H AD 8D KD 9D QD JH TD TH AC KC")
    assert deal.won == (12, 0)
    assert timeline(deal)[-3:] == [
        ("elder", "lead", 1),
        ("elder", "last trick", 1),
        ("elder", "capot", 40),
    ]
    assert deal.scores == (66, 0)
    assert all(kind != "pique" for _, kind, _ in timeline(deal))


# ---------------------------------------------------------------- declarations


def test_rubicon_point_one_per_card_making_decides() -> None:
    """parlett: "the point is the number of cards in a suit; at equal length the pip total
    (ace 11, courts 10) decides, and if that is equal nobody scores"."""
    deal = scenario_q()
    deal = act(deal, "declare:point:AS KS QS JS TS")
    assert said(deal)[-1] == "elder: Point of five."
    # younger has six: "not good"; he may also sink to five and ask "making?"
    assert [str(a) for a in deal.legal_actions()] == ["good", "not-good", "making"]
    deal = act(deal, "not-good", "declare:sequence:AS KS QS JS TS", "good")
    deal = act(deal, "declare:set:AS AH AD AC", "good")
    deal = play(deal, "AS")
    deal = act(deal, "declare:point:KC QC JC 9C 8C 7C")
    assert said(deal)[-2] == "younger: Point of six, making 54."
    assert timeline(deal)[0] == ("younger", "point", 6)


def test_rubicon_elder_declares_leads_then_younger_declares() -> None:
    """parlett: "elder declares all his combinations and leads; younger declares before
    playing to the first trick"; repique is judged in class order all the same."""
    deal = elder_speaks_q(scenario_q())
    assert deal.phase is Phase.PLAY and deal.to_act == ELDER and deal.events == ()
    deal = play(deal, "AS")
    assert deal.phase is Phase.DECLARE and deal.to_act == YOUNGER
    deal = act(deal, "declare:point:KC QC JC 9C 8C 7C")
    assert timeline(deal) == [
        ("younger", "point", 6),
        ("elder", "sequences", 15),
        ("elder", "sets", 17),
        ("elder", "lead", 1),
    ]


def test_repique_judged_in_counting_order() -> None:
    """parlett: "either player reaching 30 from declarations alone before the other scores
    adds 60" - younger's point, counted first though told after the lead, blocks it; a good
    point leaves elder 5 + 15 + 17 = 37, a repique."""
    blocked = act(elder_speaks_q(scenario_q()), "play:AS", "declare:point:KC QC JC 9C 8C 7C")
    assert "repique" not in [kind for _, kind, _ in timeline(blocked)]
    free = act(scenario_q(), "declare:point:AS KS QS JS TS", "good")
    free = act(free, "declare:sequence:AS KS QS JS TS", "good", "declare:set:AS AH AD AC")
    free = act(free, "good")
    assert timeline(free) == [
        ("elder", "point", 5),
        ("elder", "sequences", 15),
        ("elder", "sets", 17),
        ("elder", "repique", 60),
    ]


def test_rubicon_younger_can_repique() -> None:
    """parlett: "either player reaching 30 from declarations alone before the other scores
    adds 60"."""
    deal = new_deal(
        RULES,
        "AS QS JS 7S AD QD JD 7D AC QC JC 7C",
        "AH KH QH JH TH 9H KS KD KC 9S 8S 9D",
        "8C 8D TS 8H 7H TD TC 9C",
    )
    deal = act(deal, "discard:7S", "discard:9D", "decline")  # elder takes 8C, younger 8D
    deal = act(deal, "declare:point:AC QC JC 8C 7C", "not-good", "pass")
    deal = act(deal, "declare:set:AS AD AC", "not-good")
    deal = play(deal, "AS")
    deal = act(
        deal,
        "declare:point:AH KH QH JH TH 9H",
        "declare:sequence:AH KH QH JH TH 9H",
        "declare:set:KS KH KD KC",
    )
    # 6 + 16 + 14 = 36 from declarations alone: 96; then elder's lead
    assert timeline(deal)[-2:] == [("younger", "repique", 60), ("elder", "lead", 1)]
    assert deal.scores == (1, 96)


def test_rubicon_pique_elder_only() -> None:
    """parlett: "elder reaching 30 from declarations and play before younger scores adds 30"
    and "only elder can pique, since his first lead scores before younger plays"."""
    assert RULES.pique_elder_only
    deal = new_deal(
        RULES,
        "AS KS QS JS TS AH QH AD KD KC QC 7D",
        "KH JH TH 9H 7H QD JD TD 9D 8D AC JC",
        "9C 9S 8S 7S 8H TC 8C 7C",
    )
    deal = act(deal, "discard:7D", "discard:JC", "decline")  # elder takes 9C, younger 9S
    deal = act(deal, "declare:point:AS KS QS JS TS", "making", "good")
    deal = act(deal, "declare:sequence:AS KS QS JS TS", "good", "declare:set:AS AH AD", "good")
    # 5 + 15 + three aces, kings and queens 9 = 29; the first lead makes thirty
    deal = play(deal, "AS")
    assert timeline(deal)[-2:] == [("elder", "lead", 1), ("elder", "pique", 30)]
    assert deal.scores == (60, 0)


def test_sinking_rubicon_what_is_not_declared_stays_hidden() -> None:
    """parlett (sinking): what is not declared is lost and stays hidden; **reading**: sets are
    told, not shown."""
    assert "told, not shown" in parlett("show_sets")
    deal = act(scenario_q(), "declare:point:AS KS QS JS TS", "not-good")
    deal = act(deal, "pass")  # elder sinks his quint
    assert said(deal)[-1] == "elder: No sequence declared."
    deal = act(deal, "declare:set:AS AH AD AC", "good")
    assert said(deal)[-3:] == [
        "elder: Quatorze of aces.",
        "younger: Good.",
        "elder: And three kings.",
    ]
    deal = play(deal, "AS")
    deal = act(deal, "declare:point:KC QC JC 9C 8C 7C", "pass")  # younger's tierces sunk too
    assert deal_view(deal, YOUNGER).opponent_shown == CardSet()
    assert deal_view(deal, ELDER).opponent_shown == CardSet.parse("KC QC JC 9C 8C 7C")
    assert timeline(deal) == [
        ("younger", "point", 6),
        ("elder", "sets", 17),
        ("elder", "lead", 1),
    ]


def test_sinking_rubicon_part_of_a_run_is_lost_not_a_further_sequence() -> None:
    """parlett (sinking): what is not declared is lost and stays hidden; "the winner counts
    all his sequences" counts his other runs, not the rest of the one he declared from.
    Elder holds a sixième (A to 9 of hearts) and declares a tierce major, good: he counts
    3 and shows three cards (the engine counted the rest, J-10-9, as "And tierce to the
    knave", 6, and showed all six: a second engine, played deal by deal, found it)."""
    deal = new_deal(
        RULES,
        "AH KH QH JH TH 9H AS KS 7S 8D 9D 7C",
        "QS JS TS 9S AD KD QD JD AC KC QC JC",
        "8S 7H 8H TD 7D TC 9C 8C",
    )
    deal = act(deal, "discard:7S", "discard:9S", "decline", "pass")
    deal = act(deal, "declare:sequence:AH KH QH", "good")
    assert said(deal)[-3:] == [
        "elder: Tierce major.", "younger: Good.", "elder: shows AH KH QH"]
    result = deal.results[1]  # the sequences (counted once the point is settled)
    assert result is not None and result.winner == ELDER and result.points == 3
    assert [h.cards for h in result.holdings] == [CardSet.parse("AH KH QH").mask]
    assert deal_view(deal, YOUNGER).opponent_shown == CardSet.parse("AH KH QH")


# ---------------------------------------------------------------- the play


def test_rubicon_one_per_lead_one_for_winning_the_others_lead() -> None:
    """parlett: "1 for each lead, whatever the card; 1 for winning a trick the other led"."""
    deal = act(elder_speaks_q(scenario_q()), "play:AS", "declare:point:KC QC JC 9C 8C 7C")
    start = len(deal.events)
    deal = play(deal, "9S 7D QD JD KD")
    assert timeline(deal)[start:] == [
        ("elder", "lead", 1),
        ("younger", "trick", 1),
        ("younger", "lead", 1),
        ("elder", "trick", 1),
    ]


def test_rubicon_seven_tricks_the_cards_last_trick_one_extra() -> None:
    """parlett: "1 extra for winning the last trick" and "10 for winning seven or more
    tricks"."""
    deal = act(elder_speaks_q(scenario_q()), "play:AS", "declare:point:KC QC JC 9C 8C 7C")
    # elder: KS QS JS TS AH KH AD KD 8D 7D AC; younger: KC QC JC 9C 8C 7C 9S 7S QH JH QD JD
    deal = play(deal, "9S KS 7S QS QH JS JH TS 7C AH 8C KH 9C AC JC")
    deal = play(deal, "8D QD KC 7D QC KD JD AD")
    assert deal.won == (9, 3)
    assert timeline(deal)[-3:] == [
        ("elder", "trick", 1),
        ("elder", "last trick", 1),
        ("elder", "the cards", 10),
    ]


def test_rubicon_capot_forty_instead() -> None:
    """parlett: "40 for winning all twelve tricks, instead of the 10"."""
    deal = new_deal(
        RULES,
        "AS KS QS JS TS 9S 8S 7S AH KH QH JH",
        "TH 9H 8H 7H KD QD JD TD KC QC JC TC",
        "AD 9D 8D 7D AC 9C 8C 7C",
    )
    deal = act(deal, "discard:7S", "discard:TC", "decline")  # elder takes AD, younger 9D
    deal = act(deal, "declare:point:AS KS QS JS TS 9S 8S", "good")
    deal = act(deal, "declare:sequence:AS KS QS JS TS 9S 8S", "good")
    deal = act(deal, "declare:set:AS AH AD", "good")
    deal = play(deal, "AS KC KS QC QS JC JS 9D TS KD 9S QD 8S JD")
    deal = play(deal, "AH TH KH 9H QH 8H JH 7H AD TD")
    assert deal.won == (12, 0)
    kinds = [kind for _, kind, _ in timeline(deal)]
    assert kinds[-2:] == ["last trick", "capot"] and "the cards" not in kinds


# ---------------------------------------------------------------- the partie


def _to_deal(seed: int, number: int) -> Match:
    """A partie played at random (seeded) up to the start of deal ``number``."""
    match = new_match(RULES, seed=seed)
    rng = random.Random(seed)
    while match.deal_number < number:
        match = match.apply(match.random_action(rng))
    return match


def _play_deal(match: Match, seed: int) -> Match:
    """Play the current deal to its end, seeded."""
    rng = random.Random(seed)
    start = len(match.deals)
    while len(match.deals) == start:
        match = match.apply(match.random_action(rng))
    return match


def _made(match: Match, seed: int) -> tuple[int, int]:
    """What each player makes in the current deal, played with ``seed``."""
    last = _play_deal(match, seed).deals[-1]
    made = [0, 0]
    for role, player in enumerate(last.players):
        made[player] += last.points[role]
    return made[0], made[1]


def _set_before(match: Match, after: tuple[int, int], seed: int) -> Match:
    """The match with the score set so that the current deal (played with ``seed``) ends at
    ``after``: a partie's deals never look at the score, so the deal plays the same."""
    made = _made(match, seed)
    before = (after[0] - made[0], after[1] - made[1])
    assert min(before) >= 0
    return dataclasses.replace(match, scores=before)


def test_rubicon_partie_is_six_deals_dealt_alternately() -> None:
    """parlett: "a partie is six deals, the players dealing alternately"."""
    assert RULES.default_format is Format.PARTIE and RULES.partie_deals == 6
    match = new_match(RULES, seed=11)
    rng = random.Random(11)
    while not match.finished:
        match = match.apply(match.random_action(rng))
    if match.games[0].winner is not None:
        assert len(match.deals) in (6, 8)
    dealers = [d.dealer for d in match.deals]
    assert all(dealers[i] != dealers[i + 1] for i in range(len(dealers) - 1))


@pytest.mark.parametrize(
    ("after", "winner", "settled", "rubiconed"),
    [
        ((180, 120), 0, 160, False),  # 100 + (180 - 120)
        ((150, 60), 0, 310, True),  # 100 + 150 + 60: "rubiconed"
        ((70, 90), 1, 260, True),  # the winner under 100 too: 100 + 90 + 70
    ],
)
def test_rubicon_settlement(
    after: tuple[int, int], winner: int, settled: int, rubiconed: bool
) -> None:
    """parlett: "the winner scores 100 plus the difference, or 100 plus both totals if the
    loser is under 100 (rubiconed)"."""
    assert RULES.settlement is Settlement.PARLETT
    match = _set_before(_to_deal(5, 6), after, 99)
    done = _play_deal(match, 99)
    assert done.finished
    (game,) = done.games
    assert game.scores == after
    assert (game.winner, game.settled, game.rubiconed) == (winner, settled, rubiconed)
    assert done.result() == {
        "scores": list(after),
        "winner": winner,
        "settled": settled,
        "rubiconed": rubiconed,
    }


def test_rubicon_tie_after_six_one_more_deal_each() -> None:
    """parlett: "if the scores are level after six deals, each deals once more"."""
    match = _set_before(_to_deal(5, 6), (140, 140), 99)
    dealer_six = match.dealer
    level = _play_deal(match, 99)
    assert not level.finished and level.scores == (140, 140)
    assert level.deal_number == 7 and level.dealer != dealer_six
    seventh = _play_deal(level, 7)
    assert not seventh.finished and seventh.deal_number == 8
    assert seventh.dealer == dealer_six
    done = _play_deal(seventh, 8)
    assert done.finished and len(done.deals) == 8
    (game,) = done.games
    a, b = game.scores
    assert a != b or game.winner is None


def test_rubicon_level_again_after_eight_is_drawn() -> None:
    """**Reading**: the partie goes on one deal each, once; level again, it is drawn."""
    match = _set_before(_to_deal(5, 6), (140, 140), 99)
    match = _play_deal(_play_deal(match, 99), 7)
    match = _set_before(match, (200, 200), 8)
    done = _play_deal(match, 8)
    assert done.finished and len(done.deals) == 8
    (game,) = done.games
    assert game.scores == (200, 200) and game.winner is None and game.settled == 0
    assert done.result()["winner"] is None


def test_rubicon_single_game_to_a_hundred_is_an_option() -> None:
    """parlett: "the game is the partie of six deals"; **reading**: "the single game to 100
    is kept as an option"."""
    assert RULES.formats == (Format.PARTIE, Format.GAME)
    match = new_match(RULES, seed=4, format="game")
    rng = random.Random(4)
    while not match.finished:
        match = match.apply(match.random_action(rng))
    (game,) = match.games
    assert max(game.scores) >= 100 and game.settled == 0
    with pytest.raises(SetupError, match="does not play a pool"):
        new_match(RULES, seed=4, format="pool")
