"""Glicko-2 as Glickman's paper "Example of the Glicko-2 system" (2013) computes it."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from piquet.analysis.ratings import (
    GLICKO2_SCALE,
    NEW_PLAYER,
    Rating,
    RatingError,
    Result,
    rate,
    rate_game,
)


def test_glickman_paper_worked_example() -> None:
    """The paper's example: a 1500/200/0.06 player beats a 1400/30 player and loses to
    1550/100 and 1700/300 (tau 0.5); "the new rating ... r' = 1464.06 ... RD' = 151.52 ...
    sigma' = 0.05999".  The paper rounds mu' to -0.2069 before its step 8 and truncates
    sigma': computed through, the same steps give 1464.05 and 0.059996, within the last
    printed digit of the paper's figures."""
    player = Rating(rating=1500, deviation=200, volatility=0.06)
    after = rate(
        player,
        [
            Result(opponent=Rating(rating=1400, deviation=30), score=1),
            Result(opponent=Rating(rating=1550, deviation=100), score=0),
            Result(opponent=Rating(rating=1700, deviation=300), score=0),
        ],
        tau=0.5,
    )
    assert abs(after.rating - 1464.06) < 0.01
    assert round(GLICKO2_SCALE * round(after.mu, 4) + 1500, 2) == 1464.06  # the paper's way
    assert round(after.deviation, 2) == 151.52
    assert abs(after.volatility - 0.05999) < 0.00001
    assert str(after) == "1464 ± 152 (volatility 0.06000)"


def test_glickman_paper_intermediate_steps() -> None:
    """The paper's intermediate figures: mu 0, phi 1.1513; v = 1.7785; delta = -0.4834;
    sigma' = 0.05999; phi' = 0.8722; mu' = -0.2069."""
    player = Rating(rating=1500, deviation=200, volatility=0.06)
    assert player.mu == 0
    assert round(player.phi, 4) == 1.1513
    after = rate(
        player,
        [
            Result(opponent=Rating(rating=1400, deviation=30), score=1),
            Result(opponent=Rating(rating=1550, deviation=100), score=0),
            Result(opponent=Rating(rating=1700, deviation=300), score=0),
        ],
    )
    assert round(after.phi, 4) == 0.8722
    assert round(after.mu, 4) == -0.2069


def test_glickman_no_games_only_the_deviation_grows() -> None:
    """Step 6 alone: "If the player does not compete during the rating period ... phi' =
    sqrt(phi^2 + sigma^2)"."""
    player = Rating(rating=1620, deviation=80, volatility=0.06)
    after = rate(player, [])
    assert after.rating == 1620 and after.volatility == 0.06
    assert math.isclose(after.phi, math.sqrt(player.phi**2 + 0.06**2))


def test_a_newcomer_is_1500_350_0_06() -> None:
    assert NEW_PLAYER == Rating(rating=1500, deviation=350, volatility=0.06)


def test_rate_game_rates_both_against_the_rating_before() -> None:
    a, b = Rating(rating=1600, deviation=120), Rating(rating=1500, deviation=80)
    new_a, new_b = rate_game(a, b, first_score=0)
    assert new_a == rate(a, [Result(opponent=b, score=0)])
    assert new_b == rate(b, [Result(opponent=a, score=1)])
    assert new_a.rating < a.rating and new_b.rating > b.rating


@pytest.mark.parametrize(
    ("kwargs", "says"),
    [
        ({"deviation": 0}, "deviation must be above 0"),
        ({"volatility": -1}, "volatility must be above 0"),
        ({"rating": math.nan}, "finite number"),
    ],
)
def test_bad_ratings_are_refused_saying_what_is_allowed(
    kwargs: dict[str, float], says: str
) -> None:
    with pytest.raises(RatingError, match=says):
        Rating(**kwargs)


def test_bad_scores_and_tau_are_refused() -> None:
    with pytest.raises(RatingError, match=r"1 \(a win\), 0.5 \(a draw\) or 0 \(a loss\)"):
        Result(opponent=NEW_PLAYER, score=2)
    with pytest.raises(RatingError, match="tau"):
        rate(NEW_PLAYER, [], tau=0)


@given(
    st.floats(min_value=800, max_value=2600),
    st.floats(min_value=30, max_value=350),
    st.floats(min_value=800, max_value=2600),
    st.floats(min_value=30, max_value=350),
    st.sampled_from([0.0, 0.5, 1.0]),
)
def test_a_game_moves_ratings_the_way_the_score_says(
    r1: float, d1: float, r2: float, d2: float, score: float
) -> None:
    a, b = Rating(rating=r1, deviation=d1), Rating(rating=r2, deviation=d2)
    new_a, new_b = rate_game(a, b, first_score=score)
    if score == 1:
        assert new_a.rating > a.rating and new_b.rating < b.rating
    elif score == 0:
        assert new_a.rating < a.rating and new_b.rating > b.rating
    # a game narrows the deviation below its pre-period value (step 7 under step 6)
    assert new_a.phi < math.sqrt(a.phi**2 + new_a.volatility**2)
    assert new_a.deviation > 0 and new_b.deviation > 0
