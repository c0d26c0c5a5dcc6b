"""A partie's last deal alone, `expert-match` against `expert`, in mirrored pairs (issue 41).

Whole parties measure the match-aware expert with a noise of some 40 settlement points a
pair: a decision that differs in the second deal changes every score after it.  Here each
pair is one Rubicon partie's sixth deal, dealt from the seeded pack of a match, from scores
before it drawn as five deals of the book's (:func:`piquet.players.matchvalue._futures`):
played once with `expert-match` elder at the elder's score and once with `expert` there
(the same pack, the same scores by seat).  Where the two make the same decisions the pair
cancels exactly; what is left is what the last deal's match-aware decisions (the
exchange, the declarations, the play) are worth in settlement points.  One process; run
it niced::

    nice -n 10 .venv/bin/python bench/match_last_deals.py --pairs 40
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import statistics
import time
from typing import Any

from piquet.core.match import new_match
from piquet.core.matchtypes import settlement
from piquet.core.rules import PRESETS, Format
from piquet.players.expert import ExpertPlayer
from piquet.players.matchvalue import _futures


def last_deal(rules: Any, seed: int, scores: tuple[int, int], players: list[Any]) -> int:
    """Player 0's settlement after the sixth deal of a partie at ``scores`` (player 0
    elder), ``players`` seated 0 and 1."""
    m = new_match(rules, seed=seed, format=Format.PARTIE, names=("p0", "p1"))
    m = dataclasses.replace(m, dealer=1, scores=scores, deal_number=rules.partie_deals,
                            deal=None)._new_deal()
    assert m.deal is not None and m.player_of(0) == 0
    while not m.deals:
        p = m.to_act
        assert p is not None
        m = m.apply(players[p].choose(m.view(p)), p)
    a, b = m.scores
    if a == b:
        return 0
    won, _ = settlement(rules.settlement, max(a, b), min(a, b))
    return int(won) if a > b else -int(won)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pairs", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--think", type=int, default=None)
    args = ap.parse_args()
    rules = PRESETS["rubicon"]
    starts = _futures(rules, True, rules.partie_deals - 1, f"last-deals:{args.seed}").sum(axis=1)
    t0 = time.process_time()
    diffs: list[int] = []
    for i in range(args.pairs):
        scores = (int(starts[i, 0]), int(starts[i, 1]))
        seed = 1000 * args.seed + i
        m_first = last_deal(rules, seed, scores, [ExpertPlayer(2 * i, args.think,
                                                               match_aware=True),
                                                  ExpertPlayer(2 * i + 1, args.think)])
        x_first = last_deal(rules, seed, scores, [ExpertPlayer(2 * i, args.think),
                                                  ExpertPlayer(2 * i + 1, args.think,
                                                               match_aware=True)])
        diffs.append(m_first - x_first)
        print(f"pair {i} scores {scores}: expert-match elder {m_first:+d}, expert elder "
              f"{x_first:+d}: pair {m_first - x_first:+d}", flush=True)
    n = len(diffs)
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(n) if n > 1 else float("nan")
    print(f"{n} pairs: expert-match - expert, settlement a pair {mean:+.1f} "
          f"(95% {mean - half:+.1f} to {mean + half:+.1f}); pairs that differ "
          f"{sum(d != 0 for d in diffs)}; cpu {time.process_time() - t0:.0f}s")


if __name__ == "__main__":
    main()
