"""The double-dummy solver agrees with the engine's own scoring, found by brute force."""

from __future__ import annotations

import random

import pytest

from piquet.core.deal import ELDER, Deal, Phase
from piquet.core.errors import PiquetError
from piquet.core.rules import PRESETS, Rules
from piquet.fast.check import random_house_rules
from piquet.fast.solver import (
    RACE_BONUS,
    Mode,
    Objective,
    PlayState,
    Solver,
    objective_for,
    play_state,
)


def _deal_in_play(rules: Rules, seed: int, tricks: int, *, target: int | None = None,
                  start: tuple[int, int] = (0, 0)) -> Deal | None:
    """A random deal played at random until ``tricks`` tricks are done (None if it ended)."""
    rng = random.Random(seed)
    pack = [i for i in range(36) if rules.deck_size == 36 or i % 9]
    rng.shuffle(pack)
    d = Deal.new(rules, pack, start=start, target=target)
    while not d.is_over and not (d.phase is Phase.PLAY and len(d.tricks) >= tricks):
        d = d.apply(d.random_action(rng))
    if d.is_over or d.phase is not Phase.PLAY:
        return None
    return d


def _brute(d: Deal, utility: object) -> int:
    """Minimax over the engine itself (elder maximizes ``utility(final deal)``)."""
    if d.is_over:
        return utility(d)  # type: ignore[operator,no-any-return]
    values = [_brute(d.apply(a), utility) for a in d.legal_actions()]
    return max(values) if d.to_act == ELDER else min(values)


def _diff(d: Deal) -> int:
    return d.scores[0] - d.scores[1]


@pytest.mark.parametrize("preset", list(PRESETS))
def test_solver_matches_brute_force_in_the_last_tricks(preset: str) -> None:
    rules = PRESETS[preset]
    solver = Solver(rules, tt_bits=12)
    checked = 0
    for seed in range(40):
        d = _deal_in_play(rules, seed, 8 + seed % 2)
        if d is None:
            continue
        if seed % 3 == 0 and d.trick_lead is None:
            d = d.apply(d.legal_actions()[0])  # a position with a card on the table
            if d.is_over or d.phase is not Phase.PLAY:
                continue
        base = _diff(d)
        assert base + solver.value(play_state(d)) == _brute(d, _diff)
        checked += 1
    assert checked >= 20


def test_solver_matches_brute_force_under_random_house_rules() -> None:
    """Every knob the compiled code reads drawn at random (the play's scoring, the last
    trick, the cards, capot, the pique and its readings among them)."""
    rng = random.Random("solver-house")
    checked = 0
    for r in range(60):
        rules = random_house_rules(rng, PRESETS["rubicon"])
        d = _deal_in_play(rules, r, 9 + r % 2)
        if d is None:
            continue
        solver = Solver(rules, tt_bits=10)
        vals = solver.root_values(play_state(d))
        for a in d.legal_actions():
            after = d.apply(a)
            assert vals[a.card.index] == _brute(after, _diff) - _diff(d), (rules, r, a)
        checked += 1
    assert checked >= 30


def test_pique_is_scored_while_open() -> None:
    # 1754: "part in Hand, and part by Play" - still open at trick 8 (under 1662 and 1674 the
    # pique closes when younger plays to the first trick)
    rules = PRESETS["court-gamester-1754"]
    solver = Solver(rules, tt_bits=12)
    found = 0
    for seed in range(400):
        d = _deal_in_play(rules, seed, 8)
        if d is None or not d.tally.open:
            continue
        assert _diff(d) + solver.value(play_state(d)) == _brute(d, _diff)
        found += 1
        if found >= 5:
            break
    assert found >= 1


def test_race_objective_counts_reaching_the_target_first() -> None:
    rules = PRESETS["court-gamester-1754"]
    checked = 0
    for seed in range(60):
        start = (90, 92)
        d = _deal_in_play(rules, seed, 8, target=100, start=start)
        if d is None:
            continue
        obj = Objective(mode=Mode.RACE, remaining=(100 - start[0], 100 - start[1]))
        solver = Solver(rules, obj, tt_bits=12)

        def race(final: Deal) -> int:
            bonus = 0
            if final.game_reached_by == 0:
                bonus = RACE_BONUS
            elif final.game_reached_by == 1:
                bonus = -RACE_BONUS
            return _diff(final) + bonus

        assert solver.value(play_state(d)) == _brute(d, race)
        checked += 1
    assert checked >= 10


def test_equivalent_cards_share_their_value_and_sides_are_mirrored() -> None:
    rules = PRESETS["rubicon"]
    solver = Solver(rules, tt_bits=14)
    d = _deal_in_play(rules, 3, 6)
    assert d is not None
    state = play_state(d)
    elder_side = solver.root_values(state)
    mine = solver.move_values(state)
    legal = {a.card.index for a in d.legal_actions()}  # type: ignore[attr-defined]
    assert set(elder_side) == legal
    sign = 1 if state.to_move == ELDER else -1
    assert all(mine[c] == sign * elder_side[c] for c in legal)


def test_estimate_is_a_playout_of_the_same_position() -> None:
    rules = PRESETS["encyclopedia-19c"]
    solver = Solver(rules, tt_bits=12)
    for seed in range(10):
        d = _deal_in_play(rules, seed, 0)
        if d is None:
            continue
        est = solver.estimate(play_state(d))
        assert -100 <= est <= 100


def test_bad_positions_are_refused() -> None:
    solver = Solver(PRESETS["rubicon"], tt_bits=10)
    with pytest.raises(PiquetError, match="not a position"):
        solver.value(PlayState(hands=(0b111, 0b111000), leader=0, lead=None, won=(0, 0)))
    with pytest.raises(PiquetError, match="share a card"):
        solver.value(PlayState(hands=(1, 1), leader=0, lead=None, won=(6, 5)))
    with pytest.raises(PiquetError, match="phase"):
        play_state(Deal.new(PRESETS["rubicon"], [i for i in range(36) if i % 9]))


def test_objective_for_chooses_the_mode() -> None:
    rules = PRESETS["rubicon"]
    assert objective_for(rules).mode is Mode.DIFF
    assert objective_for(rules, start=(80, 10), target=100).mode is Mode.RACE
    assert objective_for(rules, partie_last=True).mode is Mode.PARTIE
