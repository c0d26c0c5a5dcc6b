"""Pique in every preset: made from hand and play only, never from the cards or capot.

RULES.md, "Pique, repique, and the order of counting": "A pique is made from hand and play
only: the cards (most tricks) and capot come after the play in counting order and never count
toward it, in every rule set."  1754: "part in Hand, and part by Play"; Parlett: "from
declarations and play".  Cotgrave 1662 and Cotton 1674 go further: the pique is made by
elder's first card at the latest (``pique_by_first_card``).

These check the scoring timeline (:class:`~piquet.core.scoring.Tally`) and the double-dummy solver
(:mod:`piquet.fast.solver`), which counts the play on its own board; the deal's own timeline is
checked against an independent recount over random deals in ``test_properties``.
"""

from __future__ import annotations

import json
import random

import pytest

from piquet.cli import main
from piquet.core.actions import Action, Play
from piquet.core.cards import CardSet
from piquet.core.deal import ELDER, YOUNGER, Deal, Phase
from piquet.core.rules import PRESETS, Rules
from piquet.core.scoring import HAND_KINDS, PLAY_KINDS, Kind, Tally
from piquet.fast.solver import PlayState, Solver
from test_properties import check_finished_deal

PRESET_NAMES = list(PRESETS)


def _count(rules: Rules, *events: tuple[int, Kind, int]) -> Tally:
    tally = Tally()
    for seat, kind, points in events:
        tally = tally.add(seat, kind, points, "", rules, (0, 0), None)
    return tally


def _kinds(tally: Tally) -> list[Kind]:
    return [e.kind for e in tally.events]


def test_hand_and_play_kinds_leave_out_the_cards_and_capot() -> None:
    assert HAND_KINDS == {Kind.BLANCHE, Kind.POINT, Kind.SEQUENCES, Kind.SETS}
    assert PLAY_KINDS == {Kind.LEAD, Kind.TRICK, Kind.LAST_TRICK}
    assert not (HAND_KINDS | PLAY_KINDS) & {Kind.CARDS, Kind.CAPOT}


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("kind", [Kind.CARDS, Kind.CAPOT])
def test_the_cards_and_capot_never_make_a_pique(preset: str, kind: Kind) -> None:
    """RULES.md: "the cards (most tricks) and capot come after the play in counting order and
    never count toward it, in every rule set" - 26 in hand and play, then the cards or capot."""
    rules = PRESETS[preset]
    points = rules.cards_bonus if kind is Kind.CARDS else rules.capot_bonus
    tally = _count(rules, (0, Kind.SEQUENCES, 25), (0, Kind.LAST_TRICK, 1), (0, kind, points))
    assert Kind.PIQUE not in _kinds(tally)
    assert tally.totals == (26 + points, 0)
    assert not tally.open


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_the_last_trick_is_play_and_may_make_a_pique(preset: str) -> None:
    """RULES.md's counting order: "then play in card order, then the last trick" - the last
    trick is part of the play (where the pique is not limited to elder's first card)."""
    rules = PRESETS[preset].replace(pique_by_first_card=False)
    tally = _count(rules, (0, Kind.SEQUENCES, 29), (0, Kind.LAST_TRICK, 1))
    assert _kinds(tally) == [Kind.SEQUENCES, Kind.LAST_TRICK, Kind.PIQUE]
    assert tally.totals == (60, 0)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_a_closed_tally_makes_no_pique(preset: str) -> None:
    """``Tally.closed`` (the deal calls it when younger plays to the first trick under
    ``pique_by_first_card``): nothing after it is a pique or repique, and nothing else changes."""
    rules = PRESETS[preset]
    tally = _count(rules, (0, Kind.SEQUENCES, 29))
    closed = tally.closed()
    assert closed.events == tally.events and closed.totals == tally.totals
    assert not closed.open and closed.closed() is closed
    after = closed.add(0, Kind.LEAD, 1, "", rules, (0, 0), None)
    assert _kinds(after) == [Kind.SEQUENCES, Kind.LEAD] and after.totals == (30, 0)


def test_pique_by_first_card_only_in_cotgrave_and_cotton() -> None:
    """Cotgrave: "and also by playing his first Card up to said number of thirty, before the other
    has played a Card"; Cotton: "before the other hath play'd a Card, or reckoned any thing".
    The other texts put no such limit (1754: "part in Hand, and part by Play")."""
    limited = {name for name, r in PRESETS.items() if r.pique_by_first_card}
    assert limited == {"cotgrave-1662", "cotton-1674"}


def _strong_elder_pack(rules: Rules, rng: random.Random) -> list[int]:
    """A pack dealing elder twelve of the aces, kings, queens and knaves: capots are common."""
    deck = [i for i in range(36) if rules.deck_size == 36 or i % 9]
    top = [i for i in deck if i % 9 >= 5]
    rng.shuffle(top)
    elder = top[:12]
    rest = [i for i in deck if i not in elder]
    rng.shuffle(rest)
    younger, stock = rest[:12], rest[12:]
    size = rules.packet_sizes[0]
    pack: list[int] = []
    while elder or younger:
        pack += elder[:size] + younger[:size]
        elder, younger = elder[size:], younger[size:]
    return pack + stock


def _strong_elder_action(deal: Deal, rng: random.Random) -> Action:
    """Elder plays his highest card; younger sinks every declaration (so he counts nothing in
    hand); everything else at random."""
    if deal.phase is Phase.PLAY and deal.to_act == ELDER:
        plays = [a for a in deal.legal_actions() if isinstance(a, Play)]
        return max(plays, key=lambda a: a.card.index % 9)
    if deal.phase is Phase.DECLARE and deal.to_act == YOUNGER:
        for a in deal.legal_actions():
            if str(a) in ("good", "pass"):
                return a
    return deal.random_action(rng)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_no_pique_after_a_point_from_the_cards_or_capot(preset: str) -> None:
    """RULES.md: the cards and capot "never count toward it, in every rule set" - over deals
    where elder holds the high cards and younger counts nothing in hand (so that thirty is
    often first reached by the cards or the capot), no pique follows them, and the whole
    timeline agrees with the independent recount of ``test_properties``."""
    rules = PRESETS[preset].replace(packet_sizes=[2])
    rng = random.Random(preset)
    crossings = 0
    for _ in range(120):
        deal = Deal.new(rules, _strong_elder_pack(rules, rng))
        while not deal.is_over:
            deal = deal.apply(_strong_elder_action(deal, rng))
        check_finished_deal(deal)
        events = deal.events
        for i, e in enumerate(events):
            if e.kind is Kind.PIQUE:
                assert events[i - 1].kind in PLAY_KINDS
                if rules.pique_by_first_card:
                    assert events[i - 1].kind is Kind.LEAD and e.role == ELDER
            if e.kind in (Kind.CARDS, Kind.CAPOT):
                before = [sum(x.points for x in events[:i] if x.role == s) for s in (0, 1)]
                if before[1 - e.role] == 0 and before[e.role] < 30 <= before[e.role] + e.points:
                    crossings += 1  # the old engine gave a pique here
    assert crossings >= 3, "the deals should often cross thirty by the cards or capot"


# ---------------------------------------------------------------- the solver's own count


def _m(text: str) -> int:
    return CardSet.parse(text).mask


def test_solver_capot_never_makes_a_pique() -> None:
    """1754: "part in Hand, and part by Play" - in the solver too: elder with 25 and the last two
    tricks (leads 1 + 1, the last trick 1, capot 40) ends on 68 with no pique (+43 from here);
    with 27 the last trick makes thirty by play: a pique (+73)."""
    rules = PRESETS["court-gamester-1754"]
    solver = Solver(rules, tt_bits=10)
    hands = (_m("AS KS"), _m("8S 7S"))
    no_pique = PlayState(hands=hands, leader=0, lead=None, won=(10, 0), totals=(25, 0), open=True)
    assert solver.value(no_pique) == 3 + 40
    pique = PlayState(hands=hands, leader=0, lead=None, won=(10, 0), totals=(27, 0), open=True)
    assert solver.value(pique) == 3 + 30 + 40


def test_solver_cotgrave_pique_by_the_first_card_only() -> None:
    """Cotgrave: "and also by playing his first Card up to said number of thirty, before the other
    has played a Card" - elder with 28 in hand can reach only 29 with his first card, so his
    twelve tricks make 9 in play and 40 for the capot, no pique (a house rule without the
    limit makes thirty on the second lead: +30)."""
    rules = PRESETS["cotgrave-1662"]
    state = PlayState(
        hands=(
            _m("AS KS QS JS TS 9S 8S 7S 6S AH KH QH"),
            _m("JH TH 9H 8H 7H 6H AD KD QD JD TD 9D"),
        ),
        leader=0,
        lead=None,
        won=(0, 0),
        totals=(28, 0),
        open=True,
    )
    # eight tenth cards led (8) and the last trick won with one (1), then the capot (40)
    assert Solver(rules, tt_bits=12).value(state) == 9 + 40
    house = rules.replace(pique_by_first_card=False)
    assert Solver(house, tt_bits=12).value(state) == 9 + 30 + 40


# ---------------------------------------------------------------- what `piquet rules` prints


@pytest.mark.parametrize(
    ("preset", "knob", "value", "words"),
    [
        ("cotgrave-1662", "pique_by_first_card", True, "by playing his first Card"),
        ("cotton-1674", "pique_by_first_card", True, "before the other hath play'd a Card"),
        ("court-gamester-1754", "pique_by_first_card", False, "part in Hand, and part by Play"),
        ("rubicon", "blanche_number", False, "no number of cards is announced"),
        ("cotgrave-1662", "blanche_number", True, "I intend to discard such a number"),
    ],
)
def test_piquet_rules_prints_each_new_reading_with_its_words(
    preset: str, knob: str, value: bool, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``piquet rules NAME --json``: the knob, its value, its meaning and its source passage."""
    assert main(["rules", preset, "--json"]) == 0
    entry = json.loads(capsys.readouterr().out)["knobs"][knob]
    assert entry["value"] is value
    assert words in entry["source"]
    assert entry["meaning"]
