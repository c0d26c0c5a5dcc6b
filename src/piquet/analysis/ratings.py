"""Glicko-2 ratings, exactly as Mark Glickman's paper "Example of the Glicko-2 system"
(Boston University, 2013) computes them.

A player's strength is a :class:`Rating`: the rating itself (1500 for a newcomer), its
deviation (how unsure it is: 350 for a newcomer, falling as games are played, rising
with time away) and its volatility (how erratic the player's results are). After a
rating period, :func:`rate` turns a rating and the period's :class:`Result` values into
the new rating, following the paper's steps 1 to 8. ::

    >>> from piquet.analysis.ratings import Rating, Result, rate
    >>> player = Rating(rating=1500, deviation=200, volatility=0.06)
    >>> after = rate(player, [
    ...     Result(opponent=Rating(rating=1400, deviation=30), score=1.0),
    ...     Result(opponent=Rating(rating=1550, deviation=100), score=0.0),
    ...     Result(opponent=Rating(rating=1700, deviation=300), score=0.0),
    ... ])
    >>> print(after)
    1464 ± 152 (volatility 0.06000)
    >>> round(after.rating, 2), round(after.deviation, 2), round(after.volatility, 6)
    (1464.05, 151.52, 0.059996)

(The paper prints r' = 1464.06 and sigma' = 0.05999: it rounds mu' to -0.2069 before step
8 and truncates sigma'; computed through, the same steps give 1464.05 and 0.059996.)

Games between people are rated one at a time (each game its own rating period, as online
servers do): :func:`rate_game` rates both players of one game at once, each against the
other's rating before the game. This module is pure: it knows nothing of accounts,
formats or storage; the web table keeps one rating per player and format.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from piquet.core.errors import PiquetError

__all__ = [
    "DEFAULT_TAU",
    "GLICKO2_SCALE",
    "NEW_PLAYER",
    "Rating",
    "RatingError",
    "Result",
    "rate",
    "rate_game",
]

GLICKO2_SCALE = 173.7178
"""The paper's step 2 factor between the Glicko scale and the Glicko-2 scale."""

DEFAULT_TAU = 0.5
"""The system constant tau, which limits how fast volatility changes; the paper suggests
0.3 to 1.2 and works its example with 0.5."""

CONVERGENCE = 0.000001
"""The paper's convergence tolerance epsilon for the volatility iteration (step 5)."""


class RatingError(PiquetError):
    """A rating or a result out of range: the message says what is allowed."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Rating:
    """A Glicko-2 rating on the Glicko scale: rating, deviation (RD) and volatility.

    A newcomer is :data:`NEW_PLAYER`: 1500, RD 350, volatility 0.06 (the paper's step 1).
    Raises :class:`RatingError` for a deviation or volatility that is not positive, or a
    value that is not a finite number.
    """

    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06

    def __post_init__(self) -> None:
        for name in ("rating", "deviation", "volatility"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or not math.isfinite(value):
                raise RatingError(f"{name} {value!r}: a rating's {name} must be a finite number")
        if self.deviation <= 0:
            raise RatingError(f"deviation {self.deviation}: a deviation must be above 0")
        if self.volatility <= 0:
            raise RatingError(f"volatility {self.volatility}: a volatility must be above 0")

    def __str__(self) -> str:
        return f"{self.rating:.0f} ± {self.deviation:.0f} (volatility {self.volatility:.5f})"

    @property
    def mu(self) -> float:
        """The rating on the Glicko-2 scale (step 2)."""
        return (self.rating - 1500.0) / GLICKO2_SCALE

    @property
    def phi(self) -> float:
        """The deviation on the Glicko-2 scale (step 2)."""
        return self.deviation / GLICKO2_SCALE

    def interval(self) -> tuple[float, float]:
        """The 95% interval the paper gives for the player's strength: rating ± 2 RD."""
        return (self.rating - 2 * self.deviation, self.rating + 2 * self.deviation)


NEW_PLAYER = Rating()
"""An unrated player's rating: 1500, RD 350, volatility 0.06."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Result:
    """One game of a rating period: the opponent's rating before it and the score
    (1 a win, 0.5 a draw, 0 a loss). Raises :class:`RatingError` for another score."""

    opponent: Rating
    score: float

    def __post_init__(self) -> None:
        if self.score not in (0, 0.5, 1):
            raise RatingError(
                f"score {self.score!r}: a score is 1 (a win), 0.5 (a draw) or 0 (a loss)"
            )


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(*, phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5: the Illinois iteration for the new volatility."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        spread = phi * phi + v + ex
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * spread * spread) - (x - a) / (
            tau * tau
        )

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > CONVERGENCE:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a = f_a / 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(player: Rating, results: Iterable[Result], *, tau: float = DEFAULT_TAU) -> Rating:
    """The player's rating after a rating period with these results (the paper's steps
    3 to 8). With no games the rating and volatility stay and only the deviation grows
    (step 6 alone). Raises :class:`RatingError` for a tau that is not positive."""
    if not tau > 0 or not math.isfinite(tau):
        raise RatingError(
            f"tau {tau!r}: the system constant must be above 0 (the paper suggests 0.3 to 1.2)"
        )
    games = list(results)
    mu, phi, sigma = player.mu, player.phi, player.volatility
    if not games:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return Rating(rating=player.rating, deviation=phi_star * GLICKO2_SCALE, volatility=sigma)
    # step 3: the estimated variance from game outcomes; step 4: the improvement delta
    inverse_v = 0.0
    total = 0.0
    for game in games:
        g = _g(game.opponent.phi)
        expected = _expected(mu, game.opponent.mu, game.opponent.phi)
        inverse_v += g * g * expected * (1.0 - expected)
        total += g * (game.score - expected)
    v = 1.0 / inverse_v
    delta = v * total
    # step 5: the new volatility; step 6: the pre-period deviation
    new_sigma = _new_volatility(phi=phi, sigma=sigma, delta=delta, v=v, tau=tau)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    # step 7: the new deviation and rating; step 8: back to the Glicko scale
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * total
    return Rating(
        rating=GLICKO2_SCALE * new_mu + 1500.0,
        deviation=GLICKO2_SCALE * new_phi,
        volatility=new_sigma,
    )


def rate_game(
    first: Rating, second: Rating, *, first_score: float, tau: float = DEFAULT_TAU
) -> tuple[Rating, Rating]:
    """Both players' ratings after one game between them, each rated against the other's
    rating before the game; ``first_score`` is the first player's (1, 0.5 or 0)."""
    after_first = rate(first, [Result(opponent=second, score=first_score)], tau=tau)
    after_second = rate(second, [Result(opponent=first, score=1.0 - first_score)], tau=tau)
    return after_first, after_second
