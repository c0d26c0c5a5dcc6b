"""An OpenSpiel algorithm (ISMCTS) against the package's strongest level, through the adapter.

    .venv/bin/python examples/openspiel_vs_piquet.py --rules rubicon --deals 4

Needs ``pip install piquet[openspiel]``.  Nothing is trained: OpenSpiel's Python
ISMCTS bot searches each move with random rollouts, drawing the cards it cannot
see with the adapter's ``resample_from_infostate``; our ``expert`` level (or the
strongest level registered, if there is no ``expert``) plays the other seat.
Seats alternate deal by deal; the script prints each deal and the total.

Why ISMCTS and not ``MCTSBot``: Piquet is a game of imperfect information, and
OpenSpiel's ``MCTSBot`` searches clones of the true state, so it would see the
other's hand and the stock (the game type's long name warns of it).  ISMCTS
searches only worlds consistent with what its seat has seen.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from piquet.core.errors import PiquetError
from piquet.integrations import openspiel as ops
from piquet.players import LEVELS


def strongest_level() -> str:
    """``expert`` if registered, else the last level registered (the top of the ladder)."""
    return "expert" if "expert" in LEVELS else list(LEVELS)[-1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="encyclopedia-19c", help="preset (default %(default)s)")
    parser.add_argument("--deals", type=int, default=4, help="deals to play (default 4)")
    parser.add_argument("--simulations", type=int, default=100, help="ISMCTS simulations a move")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--level", default=None, help="our level (default: expert, else the strongest registered)"
    )
    args = parser.parse_args(argv)
    try:
        game = ops.load(args.rules)
    except PiquetError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    level = args.level or strongest_level()
    if level not in LEVELS:
        print(
            f"error: unknown level {level!r}; the levels are: {', '.join(LEVELS)}", file=sys.stderr
        )
        return 2
    note = "" if level == "expert" or args.level else " (no 'expert' level is registered)"
    print(
        f"{args.rules}: OpenSpiel ISMCTS ({args.simulations} simulations a move) "
        f"against piquet level '{level}'{note}"
    )
    ismcts_total = 0.0
    for n in range(args.deals):
        seat = n % 2  # ISMCTS is elder (player 0) in even deals, younger in odd ones
        rs = np.random.RandomState(args.seed + n)
        searcher = ismcts.ISMCTSBot(
            game,
            mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs),
            uct_c=2.0 * game.max_utility() / 10,
            max_simulations=args.simulations,
            random_state=rs,
        )
        ours = ops.LevelBot(level, player_id=1 - seat, seed=args.seed + n)
        bots = [searcher, ours] if seat == 0 else [ours, searcher]
        start = time.perf_counter()
        returns = ops.play(game, bots, seed=args.seed * 1000 + n)
        ismcts_total += returns[seat]
        role = "elder" if seat == 0 else "younger"
        print(
            f"deal {n + 1}: ISMCTS as {role}: {returns[seat]:+.0f} points "
            f"({time.perf_counter() - start:.1f} s)"
        )
    verdict = "ISMCTS" if ismcts_total > 0 else level if ismcts_total < 0 else "nobody"
    print(f"total over {args.deals} deals: ISMCTS {ismcts_total:+.0f} points; ahead: {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
