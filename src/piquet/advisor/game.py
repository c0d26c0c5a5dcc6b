"""The chance of the game: from the score after a deal, who reaches the target first.

When a deal ends with nobody at the target, the game goes on.  The deals
that follow are drawn from a pool of whole deals played through the engine
by two ``book`` players (:class:`~piquet.players.book.BookPlayer`: the period
advice, for the exchange, the declarations and the play), the deal
alternating; each deal's points are counted in the engine's counting order,
so a target reached in the middle of a deal is reached where the engine
reaches it.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Final

from piquet.advisor.deals import deck_of
from piquet.core.cards import mask_cards
from piquet.core.deal import Deal
from piquet.core.rules import Rules
from piquet.core.view import deal_view
from piquet.players.book import book_action

__all__ = ["FUTURE_POOL", "RACES", "game_chance", "future_pool"]

#: deals in the pool that plays a game on
FUTURE_POOL: Final = 300
#: games played on from each outcome
RACES: Final = 24

Timeline = tuple[tuple[int, int], ...]


@lru_cache(maxsize=8)
def future_pool(rules: Rules) -> tuple[Timeline, ...]:
    """Timelines (role, points), in counting order, of deals between two book players."""
    # a str seed is hashed by SHA-512, not by Python's salted str hash: the same pool in
    # every process (tests/test_advice_ranking.py checks it across hash seeds)
    rng = random.Random(f"piquet-future-{rules.name}")
    pack = mask_cards(deck_of(rules))
    out = []
    for _ in range(FUTURE_POOL):
        d = Deal.new(rules, rng.sample(pack, len(pack)))
        while not d.is_over:
            seat = d.to_act
            assert seat is not None
            d = d.apply(book_action(deal_view(d, seat), rules))
        out.append(tuple((e.role, e.points) for e in d.tally.events))
    return tuple(out)


def game_chance(
    mine: int, his: int, next_role: int, rules: Rules, rng: random.Random, races: int = RACES
) -> float:
    """The chance that I, at ``mine`` against ``his`` and ``next_role`` in the next deal,
    reach the target first (the game played on with deals from :func:`future_pool`)."""
    if rules.game_ends_mid_deal:
        if mine >= rules.target:
            return 1.0
        if his >= rules.target:
            return 0.0
    elif max(mine, his) >= rules.target and mine != his:
        return 1.0 if mine > his else 0.0
    pool = future_pool(rules)
    return sum(_race(mine, his, next_role, pool, rules, rng) for _ in range(races)) / races


def _race(
    a: int,
    b: int,
    role: int,
    pool: tuple[Timeline, ...],
    rules: Rules,
    rng: random.Random,
    max_deals: int = 60,
) -> float:
    target = rules.target
    mid = rules.game_ends_mid_deal
    for _ in range(max_deals):
        for seat, pts in pool[rng.randrange(len(pool))]:
            if seat == role:
                a += pts
                if mid and a >= target:
                    return 1.0
            else:
                b += pts
                if mid and b >= target:
                    return 0.0
        if max(a, b) >= target and a != b:
            return 1.0 if a > b else 0.0
        role = 1 - role
    return 0.5 if a == b else float(a > b)
