"""Compile every numba function once, so that their caches are on disk before anyone plays.

``scripts/setup-venv`` runs ``python -m piquet.fast.warm`` after installing: the kernel
(every policy, the play-outs, the resumable board, the adapters' card run, the batch
environment where Gymnasium is installed) and the
double-dummy solver (:mod:`piquet.solver`, through one ``expert`` move and three pieces of
advice) are compiled and cached
(``numba cache=True``), so a new process loads them instead of compiling: no one waits for
a compile in the terminal or the browser.
"""

from __future__ import annotations

import time

__all__ = ["warm"]


def warm(*, verbose: bool = True) -> float:
    """Compile (or load) every cached numba function; returns the seconds it took."""
    start = time.perf_counter()
    from piquet.core.match import new_match
    from piquet.core.rules import PRESETS
    from piquet.fast import playout, random_deals
    from piquet.fast.check import differ, differ_resumed, random_case
    from piquet.players.base import make_player

    rules = PRESETS["rubicon"]
    for policy in ("random", "book"):
        random_deals(rules, 2, policy=policy)
    import random

    deck, _, _ = random_case(rules, random.Random(0))
    differ(rules, deck)
    differ_resumed(rules, deck)
    playout(rules, deck, n=2)
    # the flat board the adapters play the cards on (piquet.integrations.board)
    import numpy as np

    from piquet.fast.engine import FLAT_INFO, FLAT_SIZE, flat_resume, flat_start
    from piquet.fast.kernel import I_ALLOWED, NO_CHOICES
    from piquet.fast.params import compile_rules

    flat = np.zeros(FLAT_SIZE, dtype=np.int64)
    p = compile_rules(rules)
    flat_start(p, np.asarray(deck, dtype=np.int64), 0, 0, 0, NO_CHOICES, 0, flat)
    allowed = int(flat[FLAT_INFO + I_ALLOWED])
    flat_resume(p, flat, (allowed & -allowed).bit_length() - 1)
    try:  # the batch environment needs Gymnasium (the pettingzoo extra); the table does not
        from piquet.fast.env import VectorEnv
    except ImportError:
        pass
    else:
        env = VectorEnv(2, rules="rubicon", format="partie")
        _, info = env.reset(seed=0)
        env.step(info["action_mask"].argmax(axis=1))
    # the solver, through one expert move of each kind it compiles
    match = new_match("rubicon", seed=1)
    player = make_player("expert", seed=1, think_ms=50)
    for _ in range(80):
        if match.to_act is None:
            break
        view = match.view(match.to_act)
        match = match.apply(player.choose(view), match.to_act)
    # the advisor's kernels (the solver's greedy estimate and its search as the ranking
    # calls them, with and without a game score), so a first ``piquet advise`` compiles
    # nothing
    from piquet.advisor import advise
    from piquet.core.cards import CardSet

    hand = CardSet.parse("KS JS TS 9S AH QD TD 8D 7D AC KC TC")
    for role in (0, 1):
        advise(hand, rules, role=role)
    advise(hand, rules, role=0, score=(60, 80))
    took = time.perf_counter() - start
    if verbose:
        print(f"numba caches warm ({took:.1f} s)")
    return took


if __name__ == "__main__":
    warm()
