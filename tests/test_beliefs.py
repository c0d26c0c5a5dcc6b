"""The sampler reads the dialog's facts: every world it returns replays to the seat's view.

Before the dialog was typed, the sampler read the sentences back: "I laid out none of the
kings." was not understood (every world got weight zero and the sampler fell back to
worlds ignoring the dialog), and an elder's further holdings were required to be
announced before younger had answered.  These tests hold it to the engine: a world is
only returned if the deal, dealt from it and replayed, shows the seat the same view.
"""

from __future__ import annotations

import random

import pytest

from piquet.analysis.sampling import dialog_weight, sample_worlds, world_deal
from piquet.core.actions import Question
from piquet.core.deal import ELDER, YOUNGER, Deal, Phase, Step
from piquet.core.declarations import DeclClass, claims, counted
from piquet.core.facts import MissingTold
from piquet.core.rules import PRESETS, Rules
from piquet.core.view import deal_view

DEALS_PER_PRESET = 400  # six presets: 2,400 random deals (bench/bench_beliefs.py for more)


def _pack(rules: Rules, rng: random.Random) -> list[int]:
    pack = [i for i in range(36) if rules.deck_size == 36 or i % 9]
    rng.shuffle(pack)
    return pack


def _check_worlds(d: Deal, seat: int, rules: Rules, rng: random.Random, n: int) -> int:
    """Sample ``n`` worlds of ``seat``'s view of ``d``; each must replay to that view."""
    view = deal_view(d, seat)
    other = 1 - seat
    if view.opponent_discard_count and d.phase is not Phase.EXCHANGE:
        # the true hand of the other always fits what was said
        assert dialog_weight(d.hands[other] | view.opponent_played.mask, view, rules) > 0
    worlds = sample_worlds(view, rules, rng, n)
    for w in worlds:
        world_deal(view, rules, w, start=d.start)  # raises unless the view is the same
    return len(worlds)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_world_the_sampler_returns_replays_to_the_view(preset: str) -> None:
    rules = PRESETS[preset]
    rng = random.Random(f"beliefs:{preset}")
    checked = 0
    for _ in range(DEALS_PER_PRESET):
        d = Deal.new(rules, _pack(rules, rng))
        stop = rng.randrange(1, 70)
        for _ in range(stop):
            if d.is_over:
                break
            d = d.apply(d.random_action(rng))
        if d.is_over or d.phase is Phase.DEAL or d.to_act is None:
            continue
        checked += _check_worlds(d, d.to_act, rules, rng, 2)
    assert checked >= DEALS_PER_PRESET // 2


@pytest.mark.parametrize("preset", ["cotgrave-1662", "cotton-1674", "court-gamester-1754"])
def test_which_is_missing_dialogs_replay_including_i_laid_out_none(preset: str) -> None:
    """Cotton: "he must tell which is missing"; the holder who laid none of the rank out
    says so ("I laid out none of the kings."), and the sampler understands both answers."""
    rules = PRESETS[preset]
    assert rules.ask_missing
    rng = random.Random(f"missing:{preset}")
    told = {"none": 0, "named": 0}
    for _ in range(3000):
        d = Deal.new(rules, _pack(rules, rng))
        while not d.is_over and d.phase is not Phase.PLAY:
            step = d.step if d.phase is Phase.DECLARE else None
            d = d.apply(Question(True) if step is Step.QUESTION else d.random_action(rng))
        facts = [u.fact for u in d.dialog if isinstance(u.fact, MissingTold)]
        if d.is_over or not facts:
            continue
        for f in facts:
            told["none" if f.card < 0 else "named"] += 1
        assert d.to_act is not None
        for seat in (ELDER, YOUNGER):
            assert _check_worlds(d, seat, rules, rng, 3) == 3
        if min(told.values()) >= 3:
            break
    assert min(told.values()) >= 3, told


@pytest.mark.parametrize("preset", list(PRESETS))
def test_elders_further_holdings_are_not_awaited_before_younger_answers(preset: str) -> None:
    """Elder counts his further holdings ("And three kings.") only once his claim is good:
    while younger is still to answer, a hand of elder's with more to count fits the dialog."""
    rules = PRESETS[preset]
    rng = random.Random(f"extras:{preset}")
    found = 0
    for _ in range(2000):
        d = Deal.new(rules, _pack(rules, rng))
        while not d.is_over and not (d.phase is Phase.DECLARE and d.step is Step.ANSWER):
            if d.phase is Phase.PLAY:
                break
            d = d.apply(d.random_action(rng))
        if d.is_over or d.phase is not Phase.DECLARE or d.elder_claim is None:
            continue
        claim = d.elder_claim
        held, _ = counted(d.hands[ELDER], claim, rules)
        if len(held) < 2:
            continue
        view = deal_view(d, YOUNGER)
        assert dialog_weight(d.hands[ELDER], view, rules) > 0
        found += 1
        if found >= 5:
            break
    assert found >= 1 or not claims(0, DeclClass.SET, rules)
