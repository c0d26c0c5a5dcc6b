"""The last deal's exchange: `expert` (the search exchange it falls back to where the
objective is the partie's settlement) against `expert-match` (the play-outs valued by the
match's table), issue 41.  Exchange positions of Rubicon parties' sixth deals played by
the book; where the two discard differently, both discards are valued on 1,500 worlds
drawn as the expert draws them, the book's play-outs, in points and in the table's units
over its slope (``match_diff``).  One process; run it niced::

    nice -n 10 .venv/bin/python bench/match_last_exchange.py --positions 20
"""

from __future__ import annotations

import argparse
import time

from match_diff import _exchange_values  # bench/, beside this script
from match_exchange_noise import positions

from piquet.core.actions import Discard
from piquet.core.rules import PRESETS
from piquet.fast.solver import Mode
from piquet.players.common import situation
from piquet.players.expert import ExpertPlayer
from piquet.players.matchvalue import table_line


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--seed", type=int, default=300)
    args = ap.parse_args()
    rules = PRESETS["rubicon"]
    t0 = time.process_time()
    views = [v for v in positions(rules, 6 * args.positions, args.seed)
             if situation(v, rules).objective.mode is Mode.PARTIE][: args.positions]
    pts, tab = [], []
    for k, view in enumerate(views):
        deal = view.deal
        assert deal is not None
        x = ExpertPlayer(k).choose(view)
        m = ExpertPlayer(k, match_aware=True).choose(view)
        if x == m or not (isinstance(x, Discard) and isinstance(m, Discard)):
            print(f"pos {k} {view.scores}: the same discard", flush=True)
            continue
        sit = situation(view, rules, match_aware=True)
        assert sit.table is not None
        slope, _ = table_line(rules, sit.table)
        print(f"pos {k} {view.scores} {'E' if deal.role == 0 else 'Y'}: expert-match {m}, "
              f"expert {x}", flush=True)
        v = _exchange_values(view, rules, sit, [m.cards.mask, x.cards.mask])
        pts.append(v[0][0] - v[1][0])
        tab.append((v[0][1] - v[1][1]) / slope)
    n = len(pts)
    if n:
        print(f"{len(views)} positions, {n} differ: expert-match - expert, points "
              f"{sum(pts) / n:+.2f}, table/slope {sum(tab) / n:+.2f} a differing exchange")
    print(f"cpu {time.process_time() - t0:.0f}s")


if __name__ == "__main__":
    main()
