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
from piquet.players.common import situation
from piquet.players.expert import ExpertPlayer
from piquet.players.matchvalue import _futures


def last_deal(rules: Any, seed: int, scores: tuple[int, int], players: list[Any],
              show: bool = False, deals: int = 1) -> int:
    """Player 0's settlement after the last ``deals`` deals of a partie at ``scores``
    before them (player 0 elder in the first of them), ``players`` seated 0 and 1;
    ``show``: each decision where the other level would choose otherwise is printed, both
    choices valued (``match_diff``)."""
    m = new_match(rules, seed=seed, format=Format.PARTIE, names=("p0", "p1"))
    m = dataclasses.replace(m, dealer=1, scores=scores,
                            deal_number=rules.partie_deals + 1 - deals, deal=None)._new_deal()
    assert m.deal is not None and m.player_of(0) == 0
    while len(m.deals) < deals:
        p = m.to_act
        assert p is not None
        view = m.view(p)
        act = players[p].choose(view)
        if show:
            from match_diff import _report, _twin  # bench/, beside this script

            other = _twin(players[p], not players[p].match_aware).choose(view)
            if other != act:
                mine, theirs = (act, other) if players[p].match_aware else (other, act)
                _report(view, rules, situation(view, rules, match_aware=True),
                        situation(view, rules), players[p].match_aware, mine, theirs, True)
        m = m.apply(act, p)
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
    ap.add_argument("--deals", type=int, default=1, help="the partie's last DEALS deals")
    ap.add_argument("--show", type=int, nargs="*", default=None,
                    help="only these pairs, each differing decision printed")
    args = ap.parse_args()
    rules = PRESETS["rubicon"]
    k = args.deals
    # the first deal played here is elder's; he was elder in the partie's first deal when
    # an even number of deals separates them
    starts = _futures(rules, k % 2 == 1, rules.partie_deals - k,
                      f"last-deals:{args.seed}" if k == 1 else f"last-deals:{args.seed}:{k}"
                      ).sum(axis=1)
    t0 = time.process_time()
    diffs: list[int] = []
    for i in range(args.pairs) if args.show is None else args.show:
        show = args.show is not None
        scores = (int(starts[i, 0]), int(starts[i, 1]))
        seed = 1000 * args.seed + i
        m_first = last_deal(rules, seed, scores, [ExpertPlayer(2 * i, args.think,
                                                               match_aware=True),
                                                  ExpertPlayer(2 * i + 1, args.think)], show, k)
        x_first = last_deal(rules, seed, scores, [ExpertPlayer(2 * i, args.think),
                                                  ExpertPlayer(2 * i + 1, args.think,
                                                               match_aware=True)], show, k)
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
