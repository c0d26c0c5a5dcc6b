"""Sinking (:mod:`piquet.players.sinking`) on hands built so that the right choice is plain:
a point sure to lose tells the other what one holds and scores nothing, so it is sunk; a
quatorze of aces cannot lose, and sinking it gives up at least eleven points, so it is
declared."""

from __future__ import annotations

import random

from enginekit import build_deck
from piquet.analysis.sampling import sample_worlds
from piquet.core.actions import Action, Declare, Discard, Pass
from piquet.core.cards import CardSet
from piquet.core.deal import ELDER, Phase
from piquet.core.declarations import DeclClass
from piquet.core.match import MatchView
from piquet.core.rules import PRESETS
from piquet.fast.solver import DIFF, Solver
from piquet.players import make_player
from piquet.players.common import Situation, truthful_declaration
from piquet.players.expert import ExpertPlayer
from piquet.players.search import _continue_value
from piquet.players.sinking import choose_sink, sink_options
from piquet.tournament import deal_match

RUBICON = PRESETS["rubicon"]
FAST = 20
ALLOWANCE = 1.0  # the variant expert-sink1's: a modest credit for what a sink hides


def _elder_declaring(
    elder: str, younger: str, stock: str, cls: DeclClass, discard: str | None = None
) -> MatchView:
    """Elder's view when he is to declare in ``cls``: the hands dealt as given, elder's
    discard ``discard`` (None: the book's), the rest by the book, the declarations before
    truthful."""
    m = deal_match(RUBICON, build_deck(RUBICON, elder, younger, stock), elder=0)
    book = make_player("book")
    while True:
        who = m.to_act
        d = m.deal
        assert who is not None and d is not None
        view = m.view(who)
        action: Action
        if d.phase is Phase.DECLARE:
            assert view.deal is not None
            if d.to_act == ELDER and d.cls is cls:
                return view
            action = truthful_declaration(view.deal, RUBICON)
        elif d.phase is Phase.EXCHANGE and d.to_act == ELDER and discard is not None:
            action = Discard(CardSet.parse(discard))
        else:
            action = book.choose(view)
        m = m.apply(action, who)


def _sink_choice(view: MatchView, allowance: float) -> tuple[Action, Action, float | None]:
    """The truthful declaration, and ``choose_sink``'s action and cost on 24 drawn deals."""
    deal = view.deal
    assert deal is not None
    default = truthful_declaration(deal, RUBICON)
    assert sink_options(deal, default)
    solver = Solver(RUBICON, DIFF, tt_bits=12)
    sit = Situation(start=(0, 0), objective=DIFF, lead=0)
    worlds = sample_worlds(deal, RUBICON, random.Random(5), 24)
    choice = choose_sink(
        deal, RUBICON, default, worlds,
        lambda d: _continue_value(d, RUBICON, sit, solver, ELDER), allowance=allowance,
    )
    return default, choice.action, choice.cost


def test_a_point_of_four_that_cannot_win_is_sunk() -> None:
    """Elder sees seventeen cards and no heart: younger holds at least five of the eight
    hearts among the fifteen unseen, so elder's point of four loses in every deal; sinking
    it costs nothing and hides his suits."""
    view = _elder_declaring(
        "AC KC 9C 7C AS QS 9S 7S KD JD 9D 7D",
        "AH KH QH JH TH 9H 8H 7H TC QC TS KS",
        "8C JC 8S JS 8D AD QD TD",
        DeclClass.POINT,
        discard="9C 7C 9S 7S 7D",
    )
    deal = view.deal
    assert deal is not None and not deal.hand.mask & CardSet.parse("AH KH QH JH").mask
    default, action, cost = _sink_choice(view, ALLOWANCE)
    assert isinstance(default, Declare) and default.cards.mask.bit_count() == 4
    assert cost == 0.0
    assert action == Pass()

    expert = ExpertPlayer(3, FAST, sink_allowance=ALLOWANCE, rules=RUBICON)
    assert expert.choose(view) == Pass()
    assert [(role, made) for role, made, _, _ in expert.sinks] == [(ELDER, str(Pass()))]
    # with no credit for hiding, a sink that costs nothing gains nothing either
    assert ExpertPlayer(3, FAST, sink_allowance=0.0, rules=RUBICON).choose(view) == default


def test_a_quatorze_of_aces_is_declared() -> None:
    """A quatorze of aces wins the class whatever the other holds: declaring three of the
    aces instead scores three, not fourteen, and passing scores nothing."""
    view = _elder_declaring(
        "AS AH AD AC KS QS JS KH QH KD 7C 8C",
        "KC QC JC TC 9C QD JD TD 9D JH TH 9H",
        "TS 9S 8S 7S 8H 7H 8D 7D",
        DeclClass.SET,
    )
    default, action, cost = _sink_choice(view, ALLOWANCE)
    assert isinstance(default, Declare)
    assert default.cards == CardSet.parse("AS AH AD AC")
    assert cost is not None and cost >= 11.0
    assert action == default

    expert = ExpertPlayer(3, FAST, sink_allowance=ALLOWANCE, rules=RUBICON)
    assert expert.choose(view) == default
    assert expert.sinks == []
    assert expert.declaration_stats == [1, 0]
