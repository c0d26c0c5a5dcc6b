"""The OpenSpiel resampler's ``uniform`` option beside the modelled one (issue 37).

Late in the play (four cards left each) the other's possible hands are few, and each
is left by equally many worlds (his played cards and his cards fix his hand after the
exchange; the ways of placing the rest are as many for each hand), so a uniform
resampler gives each possible hand equally often: checked by a chi-square test on a
seeded run.  Both resamplers give only deals the seat cannot tell from the real one;
the game parameter selects them and a bad value is refused in words.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

pytest.importorskip("pyspiel")

from piquet.analysis.sampling import SINK_WEIGHT, sample_worlds
from piquet.core.cards import pack as rules_pack
from piquet.core.deal import Deal, Phase
from piquet.core.errors import PiquetError
from piquet.core.rules import get_rules
from piquet.core.view import deal_view
from piquet.integrations import openspiel as ops
from piquet.players.book import book_action


def _late_deal(seed: int, tricks: int) -> Deal:
    """A deal played by the book to ``tricks`` tricks (then a card to play)."""
    rules = get_rules("rubicon")
    pack = rules_pack(rules)
    random.Random(seed).shuffle(pack)
    deal = Deal.new(rules, pack)
    while not (deal.phase is Phase.PLAY and len(deal.tricks) == tricks
               and deal.trick_lead is None):
        role = deal.to_act
        assert role is not None
        deal = deal.apply(book_action(deal_view(deal, role), rules))
    return deal


# chi-square 0.999 quantiles by degrees of freedom (the test is seeded: no flakes)
_CHI2_999 = {1: 10.83, 2: 13.82, 3: 16.27, 4: 18.47, 5: 20.52, 6: 22.46, 7: 24.32, 8: 26.12,
             9: 27.88, 10: 29.59, 12: 32.91, 14: 36.12, 16: 39.25, 20: 45.31}


def _chi2_limit(df: int) -> float:
    return _CHI2_999[min(k for k in _CHI2_999 if k >= df)] if df <= 20 else 2.0 * df + 12


def _hands(deal: Deal, n: int, *, uniform: bool, seed: int) -> Counter[int]:
    role = deal.to_act
    assert role is not None
    rng = random.Random(f"uniform:{seed}:{uniform}")
    seen = deal_view(deal, role)
    counts: Counter[int] = Counter()
    for _ in range(n):
        new = ops.resample_deal(deal, role, rng, uniform=uniform)
        assert deal_view(new, role) == seen
        counts[new.hands[1 - role]] += 1
    return counts


def _chi2(counts: Counter[int]) -> float:
    n = sum(counts.values())
    expected = n / len(counts)
    return sum((c - expected) ** 2 / expected for c in counts.values())


@pytest.mark.statistical
@pytest.mark.parametrize(("seed", "sunk"), [(1, True), (2, True), (7, False)])
def test_the_uniform_resampler_gives_each_possible_hand_alike(seed: int, sunk: bool) -> None:
    """Four cards left each: the other's possible hands come alike from the uniform
    resampler; where he sank a holding (seeds 1 and 2) the modelled one does not."""
    deal = _late_deal(seed, 8)
    role = deal.to_act
    assert role is not None
    counts = _hands(deal, 500, uniform=True, seed=seed)
    assert deal.hands[1 - role] in counts  # the real hand is among the possible ones
    k = len(counts)
    assert k >= 5
    assert _chi2(counts) < _chi2_limit(k - 1), (k, sorted(counts.values()))
    if sunk:
        modelled = _hands(deal, 500, uniform=False, seed=seed)
        assert set(modelled) <= set(counts)
        full = Counter({h: modelled.get(h, 0) for h in counts})
        assert _chi2(full) > _chi2_limit(k - 1), (k, sorted(full.values()))


def test_both_resamplers_give_deals_the_seat_cannot_tell_apart() -> None:
    for seed in (1, 2):
        for tricks in (0, 5):
            deal = _late_deal(seed, tricks)
            role = deal.to_act
            assert role is not None
            rng = random.Random(seed)
            for uniform in (False, True):
                for _ in range(5):
                    new = ops.resample_deal(deal, role, rng, uniform=uniform)
                    assert deal_view(new, role) == deal_view(deal, role)


def test_uniform_worlds_carry_no_sinking_weight() -> None:
    """Where the modelled sampler weighs a world down for a holding the other sank, the
    uniform one does not: its worlds keep only the draw's own weight."""
    rules = get_rules("rubicon")
    found = False
    for seed in range(40):
        deal = _late_deal(seed, 0)
        role = deal.to_act
        assert role is not None
        view = deal_view(deal, role)
        modelled = sample_worlds(view, rules, random.Random(seed), 40)
        uniform = sample_worlds(view, rules, random.Random(seed), 40, uniform=True)
        assert len(modelled) == len(uniform)
        for m, u in zip(modelled, uniform, strict=True):
            assert m.opp_hand == u.opp_hand
            assert m.weight <= u.weight + 1e-12
        if any(m.weight < u.weight * (SINK_WEIGHT + 1e-9) for m, u in
               zip(modelled, uniform, strict=True)):
            found = True
            break
    assert found, "no deal with a sunk holding among the seeds tried"


def test_the_game_parameter_selects_the_resampler() -> None:
    game = ops.load("rubicon", resampler="uniform")
    assert game.get_parameters()["resampler"] == "uniform"
    assert ops.load("rubicon").get_parameters()["resampler"] == "modelled"
    with pytest.raises(PiquetError, match="resampler 'flat' is not known; use one of"):
        ops.PiquetGame({"resampler": "flat"})
    state = game.new_initial_state()
    rng = random.Random(4)
    while state.is_chance_node() or state.episode.deal is None or \
            state.episode.deal.phase is not Phase.PLAY:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    p = state.current_player()
    other = state.resample_from_infostate(p, rng.random)
    assert other.information_state_string(p) == state.information_state_string(p)
