"""The differential check of the kernel against the public engine.

:func:`differ` plays one pack through the kernel, replays the kernel's choices through
:class:`~piquet.core.deal.Deal`, and says where the two disagree: every score event (role,
kind, points, order), the final scores, who reached the target, and that the engine's deal
ends exactly where the kernel's did.  ``tests/test_fast_differential.py`` runs it over a few
thousand deals of every preset; ``bench/bench_fast.py --diff N`` over N per preset.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from piquet.core.cards import pack
from piquet.core.deal import Deal
from piquet.core.errors import IllegalActionError
from piquet.core.rules import Rules
from piquet.fast.engine import PolicyName, actions_of, play_deal

__all__ = ["differ", "random_case"]


def random_case(rules: Rules, rng: random.Random) -> tuple[list[int], tuple[int, int], int | None]:
    """A shuffled pack, game scores before the deal, and a target: one time in three a
    score near the target, so that the game is often reached mid-deal."""
    deck = pack(rules)
    rng.shuffle(deck)
    target: int | None = rules.target
    if rng.random() < 1 / 3:
        start = (rng.randrange(rules.target - 40, rules.target),
                 rng.randrange(rules.target - 40, rules.target))
    elif rng.random() < 0.5:
        start = (0, 0)
        target = None
    else:
        start = (rng.randrange(0, rules.target), rng.randrange(0, rules.target))
    return deck, start, target


def differ(
    rules: Rules,
    deck: Sequence[int],
    *,
    start: tuple[int, int] = (0, 0),
    target: int | None = None,
    policy: PolicyName = "random",
    seed: int = 0,
) -> str | None:
    """None when the kernel and the engine agree on this deal, else what differs."""
    fast = play_deal(rules, deck, start=start, target=target, policy=policy, seed=seed)
    deal = Deal.new(rules, deck, start=start, target=target)
    for i, action in enumerate(actions_of(fast.trace, rules)):
        if deal.is_over:
            return f"the engine's deal is over before the kernel's choice {i} ({action})"
        try:
            deal = deal.apply(action)
        except IllegalActionError as exc:
            return f"choice {i} ({action}) refused by the engine: {exc}"
    if not deal.is_over:
        return f"the kernel stopped but the engine still waits ({deal.phase}, {deal.to_act})"
    engine = tuple((e.seat, e.kind, e.points) for e in deal.events)
    if engine != fast.events:
        return f"events differ:\n engine {engine}\n kernel {fast.events}"
    if deal.scores != fast.scores:
        return f"scores differ: engine {deal.scores}, kernel {fast.scores}"
    reached = deal.game_reached_by
    if (None if reached is None else int(reached)) != fast.reached:
        return f"target reached by: engine {reached}, kernel {fast.reached}"
    return None
