"""How much of the match-aware exchange's choice is noise (issue 41).

Collects exchange positions of whole matches played by the book (deals 2 to 6 of Rubicon
parties, where the match's table bends from the points), and at each one makes the
match-aware expert's exchange (``expert-match`` at its default budget: the book's
play-outs in belief-weighted worlds, valued by the match's table, the book's discard kept
unless another beats it by a margin) with several seeds.  Each choice is then valued on a
far larger sample of worlds (the same model: the table over the book's play-outs), and the
regret of the choice against the best candidate is reported, in points (the table's units
over its slope), for the margin as it is and for others.  One process; run it niced::

    nice -n 10 .venv/bin/python bench/match_exchange_noise.py --positions 24
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import numpy as np

from piquet.core.match import MatchView, new_match
from piquet.core.rules import PRESETS, Format
from piquet.fast.rollouts import discard_rollout_points
from piquet.fast.solver import Mode
from piquet.players import make_player
from piquet.players.common import situation
from piquet.players.exchange import playout_worlds, wide_candidates
from piquet.players.expert import (
    SWITCH_MARGIN,
    ExpertPlayer,
    exchange_candidates,
    exchange_worlds,
)
from piquet.players.matchvalue import WIDTH, table_line


def positions(rules: Any, n: int, seed: int) -> list[MatchView]:
    """Exchange positions where the match-aware objective is not DIFF (book v book)."""
    out: list[MatchView] = []
    book = make_player("book")
    s = seed
    while len(out) < n:
        m = new_match(rules, seed=s, format=Format.PARTIE)
        s += 1
        while not m.finished and len(out) < n:
            p = m.to_act
            assert p is not None
            view = m.view(p)
            deal = view.deal
            if deal is not None and deal.discard_range is not None and deal.to_act == deal.role:
                sit = situation(view, rules, match_aware=True)
                if sit.objective.mode is not Mode.DIFF:
                    out.append(view)
            m = m.apply(book.choose(view), p)
    return out


def values(player: ExpertPlayer, view: MatchView, rules: Any, cands: list[int], n: int,
           rng: random.Random) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(weights, table values [cand, world], points [cand, world]: this role's less the
    other's) over ``n`` worlds drawn as the expert draws them, the book's play-outs."""
    deal = view.deal
    assert deal is not None
    sit = situation(view, rules, match_aware=True)
    assert sit.table is not None
    worlds = player._worlds(deal, rules, rng, n)
    ready = playout_worlds(deal, rules, worlds)
    seed = rng.randrange(2**31)
    got = discard_rollout_points(rules, deal.role, [pw.deck for pw in ready],
                                 [pw.history for pw in ready], cands, seed=seed)
    grid = np.asarray(sit.table, dtype=np.float64).reshape(WIDTH, WIDTH)
    tab, pts = [], []
    for g in got:
        if g is None:
            tab.append(np.full(len(ready), np.nan))
            pts.append(np.full(len(ready), np.nan))
            continue
        mine = np.minimum(g[:, 0], WIDTH - 1)
        theirs = np.minimum(g[:, 1], WIDTH - 1)
        tab.append(grid[mine, theirs] if deal.role == 0 else -grid[theirs, mine])
        pts.append((g[:, 0] - g[:, 1]).astype(np.float64))
    w = np.array([pw.weight for pw in ready])
    return w / w.sum(), np.array(tab), np.array(pts)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--seeds", type=int, default=4)
    ap.add_argument("--truth", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=100)
    args = ap.parse_args()
    rules = PRESETS["rubicon"]
    t0 = time.process_time()
    views = positions(rules, args.positions, args.seed)
    player = ExpertPlayer(0, None, match_aware=True)
    budget = player._budget()
    n_worlds = exchange_worlds(budget, player.worlds_per_ms, player.max_worlds)
    margins: dict[str, float | str | None] = {
        "table, margin 0.5*slope (as is)": None, "table, margin 2 se": 2.0,
        "table, margin 1 se": 1.0, "points, margin 0.5 (expert)": "points"}
    regret: dict[str, list[float]] = {k: [] for k in margins}
    moved: dict[str, int] = dict.fromkeys(margins, 0)
    book_regret: list[float] = []
    for k, view in enumerate(views):
        deal = view.deal
        assert deal is not None and deal.discard_range is not None
        sit = situation(view, rules, match_aware=True)
        assert sit.table is not None
        slope, _ = table_line(rules, sit.table)
        lo, hi = deal.discard_range
        cands = wide_candidates(deal.hand.mask, lo, hi, rules, role=deal.role, lead=sit.lead,
                                limit=exchange_candidates(budget))
        if len(cands) < 2:
            continue
        tw, tv, _ = values(player, view, rules, cands, args.truth, random.Random(f"truth{k}"))
        truth = np.nan_to_num(tv @ tw, nan=-1e9) / slope
        best = float(truth.max())
        book_regret.append(best - float(truth[0]))
        line = []
        for j in range(args.seeds):
            w, tab, pts = values(player, view, rules, cands, n_worlds,
                                 random.Random(f"s{k}:{j}"))
            for name, z in margins.items():
                v = pts if z == "points" else tab
                scores = v @ w
                order = np.argsort(-np.nan_to_num(scores, nan=-1e18))
                top = int(order[0])
                if z == "points":
                    margin = SWITCH_MARGIN
                elif z is None:
                    margin = SWITCH_MARGIN * slope
                else:
                    d = v[top] - v[0]
                    mean = float(w @ d)
                    se = float(np.sqrt(w @ (d - mean) ** 2) * np.sqrt(np.sum(w ** 2)))
                    assert isinstance(z, float)
                    margin = max(SWITCH_MARGIN * slope, z * se)
                pick = top if scores[top] - scores[0] >= margin else 0
                moved[name] += pick != 0
                regret[name].append(best - float(truth[pick]))
                if z is None:
                    line.append(f"{pick}:{best - truth[pick]:.2f}")
        print(f"pos {k} d{view.deal_number} {view.scores} {'E' if deal.role == 0 else 'Y'} "
              f"slope {slope:.2f} mode {sit.objective.mode.name} book regret "
              f"{best - truth[0]:.2f}  picks {' '.join(line)}", flush=True)
    print(f"book's discard always: mean regret {np.mean(book_regret):.3f} points")
    for name in margins:
        r = np.array(regret[name])
        print(f"{name}: mean regret {r.mean():.3f} points (se {r.std() / np.sqrt(len(r)):.3f}),"
              f" left the book's discard {moved[name]} of {len(r)}")
    print(f"cpu {time.process_time() - t0:.0f}s")


if __name__ == "__main__":
    main()
