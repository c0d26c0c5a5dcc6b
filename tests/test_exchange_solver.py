"""The expert's exchange valued with the play of the cards by the solver.

The compiled loop (:func:`piquet.fast.rollouts.discard_solver_values`: the kernel's board
for the dialog, the solver's kernel for the play) is checked against the one-world form on
the public engine (:func:`piquet.players.exchange.solver_playout_value`: the engine's deal
and tally, the solver's Python face).
"""

from __future__ import annotations

import random

import pytest

from piquet.analysis.sampling import sample_worlds
from piquet.core.deal import Phase
from piquet.core.errors import PiquetError
from piquet.core.match import Match
from piquet.core.rules import PRESETS, Rules
from piquet.core.view import DealView, deal_view
from piquet.fast.solver import Mode, Objective, Solver
from piquet.players import VARIANTS, make_player
from piquet.players.exchange import (
    PlayoutWorld,
    all_solver_values,
    playout_worlds,
    solver_playout_value,
    solver_worlds,
    wide_candidates,
)
from piquet.players.expert import ExpertPlayer
from piquet.tournament import deal_match, deal_pack


def _exchange_match(rules: Rules, seed: int, role: int) -> Match:
    """The match where ``role`` is about to exchange (elder first; younger after elder's
    book exchange); player 0 is elder."""
    book = make_player("book")
    m = deal_match(rules, deal_pack(rules, seed, 0), elder=0)
    while True:
        assert m.deal is not None
        if m.deal.phase is Phase.EXCHANGE and m.deal.to_act == role:
            return m
        p = m.to_act
        assert p is not None
        m = m.apply(book.choose(m.view(p)), p)


def _exchange_view(rules: Rules, seed: int, role: int) -> DealView:
    m = _exchange_match(rules, seed, role)
    assert m.deal is not None
    return deal_view(m.deal, role)


def _setup(preset: str, role: int, seed: int, n: int) -> tuple[Rules, list[PlayoutWorld],
                                                               list[int]]:
    rules = PRESETS[preset]
    view = _exchange_view(rules, seed, role)
    assert view.discard_range is not None
    ready = playout_worlds(view, rules, sample_worlds(view, rules, random.Random(seed), n))
    cands = wide_candidates(view.hand.mask, *view.discard_range, rules, role=role, limit=3)
    return rules, ready, cands


@pytest.mark.parametrize("preset", ["rubicon", "du-coeur-1995", "cotgrave-1662",
                                    "encyclopedia-19c", "court-gamester-1754"])
@pytest.mark.parametrize("role", [0, 1])
@pytest.mark.parametrize("exact_cards", [0, 5])
def test_the_compiled_values_are_the_engines(preset: str, role: int, exact_cards: int) -> None:
    """Every discard in every world: the compiled call gives the engine's value."""
    rules, ready, cands = _setup(preset, role, 30 + role, 5)
    assert ready
    got, _ = all_solver_values(rules, role, ready, cands, 11, Solver(rules),
                               exact_cards=exact_cards)
    for c, row in zip(cands, got, strict=True):
        want = [solver_playout_value(rules, role, pw, c, 11 + j, Solver(rules),
                                     exact_cards=exact_cards) for j, pw in enumerate(ready)]
        assert row == want


def test_exact_play_from_the_first_card_matches_the_engine() -> None:
    """Solved exactly from the first card (one world, a slow case kept small)."""
    rules, ready, cands = _setup("rubicon", 0, 7, 2)
    got, exact = all_solver_values(rules, 0, ready[:1], cands[:1], 3, Solver(rules),
                                   exact_cards=12)
    want = solver_playout_value(rules, 0, ready[0], cands[0], 3, Solver(rules),
                                exact_cards=12)
    assert got == [[want]]
    assert exact >= 1


def test_values_repeat_and_bad_calls_are_refused() -> None:
    """An illegal discard gives None; the values repeat; bad arguments are refused."""
    rules, ready, cands = _setup("rubicon", 1, 8, 4)
    a, _ = all_solver_values(rules, 1, ready, cands, 5, Solver(rules), exact_cards=4)
    b, _ = all_solver_values(rules, 1, ready, cands, 5, Solver(rules), exact_cards=4)
    assert a == b
    # a discard of cards the seat does not hold (every card of the pack) is not legal
    everything = sum(1 << c for c in ready[0].deck)
    bad, _ = all_solver_values(rules, 1, ready, [everything], 5, Solver(rules))
    assert bad == [None]
    with pytest.raises(PiquetError):
        all_solver_values(rules, 1, ready, cands, 5, Solver(PRESETS["cotgrave-1662"]))
    with pytest.raises(PiquetError):
        all_solver_values(rules, 1, ready, cands, 5,
                          Solver(rules, Objective(mode=Mode.RACE, remaining=(50, 50))))


def test_solver_worlds_grow_with_the_budget() -> None:
    small = solver_worlds(100, 0.4, 600)
    large = solver_worlds(1000, 0.4, 600)
    assert small < large <= 600
    assert solver_worlds(1000, 0.4, 20) == 20


def test_the_solver_exchange_is_seeded_and_legal() -> None:
    rules = PRESETS["rubicon"]
    m = _exchange_match(rules, 40, 0)
    assert m.deal is not None
    picks = []
    for _ in range(2):
        p = ExpertPlayer(5, 20, solver_exchange=True, exact_cards=4, rules=rules)
        picks.append(p.choose(m.view(0)))
        assert p.solver_stats[0] == 1 and p.solver_stats[3] > 0
    assert picks[0] == picks[1]
    assert m.deal.can(picks[0])


def test_the_solver_variants_are_registered_and_settings_checked() -> None:
    assert any(v.startswith("expert-solx") for v in VARIANTS)
    assert "expert-x1000" in VARIANTS
    sharper = make_player("expert-beta0.7", seed=1)
    assert isinstance(sharper, ExpertPlayer) and sharper.belief_beta == 0.7
    for bad in ({"solver_candidates": 0}, {"solver_worlds_per_ms": 0.0}, {"exact_cards": 13},
                {"exchange_ms": 0}, {"exchange_ms": 1.5}, {"sink_allowance": -1.0},
                {"sink_allowance": float("nan")}, {"consistency": 0.0},
                {"consistency": float("nan")}, {"consistency": -0.5},
                {"first_trick_boost": 0.0}, {"first_trick_boost": float("inf")},
                {"first_trick_boost": float("nan")}, {"belief_beta": -0.1},
                {"belief_beta": float("nan")}, {"belief_beta": float("inf")}):
        with pytest.raises(PiquetError):
            ExpertPlayer(0, 20, **bad)  # type: ignore[arg-type]


def test_the_exchange_budget_can_be_its_own() -> None:
    """With ``exchange_ms`` the exchange decides as the player of that budget does."""
    rules = PRESETS["rubicon"]
    m = _exchange_match(rules, 41, 0)
    own = ExpertPlayer(2, 20, exchange_ms=40, rules=rules).choose(m.view(0))
    same = ExpertPlayer(2, 40, rules=rules).choose(m.view(0))
    assert own == same


def test_the_beliefs_beta_weighs_the_worlds_of_elders_exchange() -> None:
    """``belief_beta`` reaches the belief model: younger's worlds of elder's exchange are
    resampled on it (0: every discard of that size alike), the same seed otherwise."""
    rules = PRESETS["rubicon"]
    view = _exchange_view(rules, 41, 1)
    drawn = {}
    for beta in (0.0, 0.35, 0.35, 3.0):
        p = ExpertPlayer(3, 20, belief_beta=beta, rules=rules)
        drawn.setdefault(beta, []).append(p._worlds(view, rules, random.Random(7), 40))
    assert drawn[0.35][0] == drawn[0.35][1]
    assert drawn[0.0][0] != drawn[0.35][0] != drawn[3.0][0]
