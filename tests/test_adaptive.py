"""The adaptive opponent (issue 41): it aims at an even game from the person's results."""

from __future__ import annotations

import pytest

from piquet.core.errors import PiquetError
from piquet.core.match import Match, new_match
from piquet.core.rules import PRESETS
from piquet.players import make_player
from piquet.players.adaptive import (
    ADAPTIVE_LADDER,
    LEARNER_START,
    SCALE,
    AdaptivePlayer,
    DealResult,
    adaptive_level,
    deal_results,
    estimate,
    even_opponent,
)


def test_no_results_leave_the_start_and_results_move_it() -> None:
    assert estimate([]).rating == pytest.approx(LEARNER_START)
    won = estimate([DealResult("toby", 1.0)] * 6)
    lost = estimate([DealResult("toby", 0.0)] * 6)
    assert lost.rating < LEARNER_START < won.rating
    assert won.sd < estimate([]).sd


def test_many_even_deals_against_an_opponent_give_its_rating() -> None:
    even = [DealResult("kitty", 1.0), DealResult("kitty", 0.0)] * 200
    est = estimate(even, start=0.0)
    assert est.rating == pytest.approx(SCALE["kitty"], abs=15) and est.deals == 400
    assert even_opponent(est.rating) == "kitty"


def test_the_even_opponent_is_the_nearest() -> None:
    assert even_opponent(-50) == "random"
    assert even_opponent(SCALE["nell"] + 1) == "nell"
    assert even_opponent(5000) == ADAPTIVE_LADDER[-1]
    ratings = [SCALE[o] for o in ADAPTIVE_LADDER]
    assert ratings == sorted(ratings)  # the ladder is weakest first


def test_bad_results_are_refused_with_what_is_allowed() -> None:
    with pytest.raises(PiquetError, match="has no rating; the rated opponents are: random"):
        estimate([DealResult("grandmaster", 1.0)])
    with pytest.raises(PiquetError, match=r"1 \(won\), 0.5 \(tied\) or 0 \(lost\)"):
        estimate([DealResult("nell", 0.7)])
    with pytest.raises(PiquetError, match="a rating from 0 to 3000"):
        AdaptivePlayer(start=-5)


def test_adaptive_levels_by_name() -> None:
    assert adaptive_level(479.6) == "adaptive-480"
    player = make_player(adaptive_level(650), seed=2)
    assert isinstance(player, AdaptivePlayer) and player.start == 650
    assert isinstance(make_player("adaptive"), AdaptivePlayer)
    with pytest.raises(PiquetError, match="unknown player level"):
        make_player("adaptive-9999")


def _partie(person: str, seed: int) -> tuple[Match, AdaptivePlayer]:
    rules = PRESETS["rubicon"]
    m = new_match(rules, seed=seed, names=("person", "adaptive"), format="partie")
    adaptive = AdaptivePlayer(seed, 10)
    players = (make_player(person, seed=seed, think_ms=10), adaptive)
    while not m.finished:
        p = m.to_act
        assert p is not None
        m = m.apply(players[p].choose(m.view(p)), p)
    return m, adaptive


def test_it_climbs_against_a_strong_person_and_comes_down_to_a_weak_one() -> None:
    strong, adaptive = _partie("book", 4)
    levels = adaptive.levels(strong.view(1))
    assert levels[0] == even_opponent(LEARNER_START)
    assert SCALE[levels[-1]] > SCALE[levels[0]]
    weak, adaptive = _partie("random", 4)
    view = weak.view(1)
    levels = adaptive.levels(view)
    assert SCALE[levels[-1]] <= SCALE[levels[0]]
    assert estimate(deal_results(view, levels)).rating < LEARNER_START


def test_its_decisions_repeat_when_it_is_made_afresh() -> None:
    rules = PRESETS["rubicon"]
    m = new_match(rules, seed=9, names=("person", "adaptive"), format="partie")
    kept = AdaptivePlayer(3, 10)
    person = make_player("book")
    for _ in range(120):
        p = m.to_act
        assert p is not None
        if p == 1:
            action = kept.choose(m.view(1))
            assert action == make_player("adaptive", seed=3, think_ms=10).choose(m.view(1))
        else:
            action = person.choose(m.view(0))
        m = m.apply(action, p)


def test_the_ladder_leaves_the_adaptive_opponent_out_by_default() -> None:
    from piquet.cli.ladder_cmd import default_levels
    from piquet.players.base import UNRANKED

    assert "adaptive" in UNRANKED
    levels = default_levels()
    assert "adaptive" not in levels and levels[0] == "random" and "hoyle" in levels
