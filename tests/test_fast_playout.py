"""The play-out hook: a determinized world and a deal's history, played out by a policy."""

from __future__ import annotations

import random

import pytest

from piquet.core.cards import pack
from piquet.core.deal import Deal
from piquet.core.errors import IllegalActionError, PiquetError
from piquet.core.rules import PRESETS
from piquet.fast import playout, trace_of
from piquet.fast.engine import actions_of


def _engine_deal(preset: str, seed: int) -> tuple[list[int], Deal]:
    rules = PRESETS[preset]
    deck = pack(rules)
    rng = random.Random(seed)
    rng.shuffle(deck)
    deal = Deal.new(rules, deck)
    while not deal.is_over:
        deal = deal.apply(deal.random_action(rng))
    return deck, deal


@pytest.mark.parametrize("preset", list(PRESETS))
def test_playout_of_a_finished_history_gives_that_deals_scores(preset: str) -> None:
    for seed in range(30):
        deck, deal = _engine_deal(preset, seed)
        history = [a for _, a in deal.history]
        out = playout(PRESETS[preset], deck, history, n=3, seed=seed)
        assert out.mean_scores == (float(deal.scores[0]), float(deal.scores[1]))


def test_playout_from_midway_keeps_the_points_already_made_and_is_seeded() -> None:
    rules = PRESETS["rubicon"]
    deck, deal = _engine_deal("rubicon", 4)
    history = [a for _, a in deal.history][:14]
    one = playout(rules, deck, history, n=200, seed=1, policy="random")
    assert one == playout(rules, deck, history, n=200, seed=1, policy="random")
    assert one != playout(rules, deck, history, n=200, seed=2, policy="random")
    # the book policy is deterministic: every play-out is the same deal
    book = playout(rules, deck, history, n=5, policy="book")
    assert book.mean_scores == playout(rules, deck, history, n=1, policy="book").mean_scores


def test_playout_refuses_a_history_this_world_cannot_have() -> None:
    rules = PRESETS["rubicon"]
    deck, deal = _engine_deal("rubicon", 7)
    history = [a for _, a in deal.history]
    other = pack(rules)
    random.Random(99).shuffle(other)
    with pytest.raises(IllegalActionError, match="not a legal sequence"):
        playout(rules, other, history)
    with pytest.raises(PiquetError, match="1 or more"):
        playout(rules, deck, history, n=0)


def test_trace_of_inverts_actions_of() -> None:
    for preset in PRESETS:
        _, deal = _engine_deal(preset, 11)
        history = [a for _, a in deal.history]
        rows = [(int(r[0]), int(r[1])) for r in trace_of(history)]
        back = actions_of(rows, PRESETS[preset])
        assert back == history
