"""Where `expert-match` and `expert` decide differently in whole matches (issue 41).

Plays the pairs of a whole-match tournament (`expert-match` against `expert`, the same seeds
as ``piquet tournament --players expert-match expert --seed S``), and at every decision where
the match-aware valuation could matter (the match-aware situation's objective is not
``DIFF``: the table bends, a partie's last deal, a race) asks both levels, each with the
acting player's seed, for their choice.  Where they differ it prints the position, the
scores, both choices, and both choices valued in the same worlds by points and by the
match's table (the exchange: the book's play-outs, as the expert's exchange values them;
the play: the double-dummy solver over drawn worlds).  One process; run it niced::

    nice -n 10 .venv/bin/python bench/match_diff.py --rules rubicon --format partie \
        --seed 0 --pairs 0 1 2
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

import numpy as np

from piquet.analysis.sampling import SamplingError, sample_worlds
from piquet.core.actions import Discard, Play
from piquet.core.match import MatchView, new_match
from piquet.core.rules import PRESETS, Format
from piquet.fast.solver import DIFF, Mode, Objective, Solver
from piquet.players.common import situation
from piquet.players.exchange import all_playout_values, match_playout_values, playout_worlds
from piquet.players.expert import ExpertPlayer
from piquet.players.matchvalue import table_line
from piquet.tournament.matches import match_seed
from piquet.tournament.pairs import _player_seed


def _twin(player: Any, match_aware: bool) -> ExpertPlayer:
    p = ExpertPlayer(player.seed, player.think_ms, match_aware=match_aware,
                     name="expert-match" if match_aware else "expert")
    p.rules = player.rules
    return p


def _exchange_values(view: MatchView, rules: Any, sit: Any, masks: list[int]
                     ) -> list[tuple[float, float]]:
    """(points, table value) of each discard, mean over 1500 worlds drawn as the expert
    draws them (its beliefs), the book's play-outs; then the second minus the first with
    its standard error, in points and in the table's units over its slope."""
    deal = view.deal
    assert deal is not None
    rng = random.Random(12345)
    worlds = ExpertPlayer(0, None)._worlds(deal, rules, rng, 1500)
    ready = playout_worlds(deal, rules, worlds)
    w = np.array([pw.weight for pw in ready])
    w = w / w.sum()
    pts = all_playout_values(rules, deal.role, ready, masks, 99)
    tab = match_playout_values(rules, deal.role, ready, masks, 99, sit.table)
    slope, _ = table_line(rules, sit.table)
    out = []
    for p, t in zip(pts, tab, strict=True):
        if p is None or t is None:
            out.append((float("nan"), float("nan")))
            continue
        out.append((float(w @ np.array(p)), float(w @ np.array(t))))
    if all(x is not None for x in pts) and all(x is not None for x in tab):
        for name, vals, scale in (("points", pts, 1.0), ("table/slope", tab, slope)):
            d = (np.array(vals[1]) - np.array(vals[0])) / scale
            mean = float(w @ d)
            se = float(np.sqrt(w @ (d - mean) ** 2) * np.sqrt(np.sum(w ** 2)))
            print(f"    X - M in {name}: {mean:+.2f} (se {se:.2f}) over {len(ready)} worlds")
    return out


def _play_values(view: MatchView, rules: Any, sit: Any, cards: list[int]
                 ) -> list[tuple[float, float]]:
    """(points to come, table value) of each card, double-dummy over 40 drawn worlds."""
    deal = view.deal
    assert deal is not None
    helper = ExpertPlayer(0, 100)
    rng = random.Random(54321)
    try:
        worlds = sample_worlds(deal, rules, rng, 40)
    except SamplingError:
        return [(float("nan"), float("nan"))] * len(cards)
    states = [helper._state(deal, rules, w) for w in worlds]
    objs = [DIFF, Objective(mode=Mode.TABLE, table=sit.table)]
    out = {c: [0.0, 0.0] for c in cards}
    wsum = 0.0
    for st, w in zip(states, worlds, strict=True):
        vals = [Solver(rules, o).move_values(st, nodes=2_000_000) for o in objs]
        if any(c not in v for v in vals for c in cards):
            continue
        for c in cards:
            out[c][0] += w.weight * vals[0][c]
            out[c][1] += w.weight * vals[1][c]
        wsum += w.weight
    return [(out[c][0] / wsum, out[c][1] / wsum) if wsum else (float("nan"),) * 2
            for c in cards]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rules", default="rubicon")
    ap.add_argument("--format", default="partie")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--pairs", type=int, nargs="+", default=[0])
    ap.add_argument("--think", type=int, default=None)
    ap.add_argument("--no-values", action="store_true")
    args = ap.parse_args()
    rules = PRESETS[args.rules]
    fmt = Format(args.format)
    for index in args.pairs:
        for a_player in (0, 1):
            t0 = time.process_time()
            seats: list[Any] = []
            pa = ExpertPlayer(_player_seed(args.seed, index, 20 + a_player, "a"), args.think,
                              match_aware=True, name="expert-match")
            pb = ExpertPlayer(_player_seed(args.seed, index, 20 + a_player, "b"), args.think)
            pa.rules = pb.rules = rules
            seats = [pb, pa] if a_player else [pa, pb]
            m = new_match(rules, seed=match_seed(args.seed, index), format=fmt,
                          names=("p1", "p2"))
            ndiff = nasked = 0
            while not m.finished:
                p = m.to_act
                assert p is not None
                view = m.view(p)
                actor = seats[p]
                act = actor.choose(view)
                deal = view.deal
                if deal is not None and deal.to_act == deal.role:
                    sit = situation(view, rules, match_aware=True)
                    plain = situation(view, rules)
                    if sit.objective.mode is not Mode.DIFF or plain.objective.mode is not Mode.DIFF:
                        nasked += 1
                        twin = _twin(actor, not actor.match_aware)
                        other = twin.choose(view)
                        if other != act:
                            ndiff += 1
                            mine = act if actor.match_aware else other
                            theirs = other if actor.match_aware else act
                            _report(view, rules, sit, plain, actor.match_aware, mine, theirs,
                                    not args.no_values)
                m = m.apply(act, p)
            g = m.games[-1]
            by = dict(zip(g.players, g.scores, strict=True))
            a_pts, b_pts = by[a_player], by[1 - a_player]
            won = 0 if g.winner is None else 1 if g.winner == a_player else -1
            stake = won * (g.settled if fmt is Format.PARTIE else g.stake)
            print(f"== pair {index} A(expert-match) seat {a_player}: A {a_pts} B {b_pts} "
                  f"stake(A) {stake} "
                  f"asked {nasked} differ {ndiff} cpu {time.process_time() - t0:.0f}s",
                  flush=True)


def _report(view: MatchView, rules: Any, sit: Any, plain: Any, actor_is_match: bool,
            mine: Any, theirs: Any, values: bool) -> None:
    deal = view.deal
    assert deal is not None
    role = "E" if deal.role == 0 else "Y"
    me = view.in_game.index(view.player)
    slope, bend = table_line(rules, sit.table)
    print(f"  g{view.game_number} d{view.deal_number} {role} acts={'M' if actor_is_match else 'X'}"
          f" score {view.scores[me]}-{view.scores[1 - me]} deal pts {deal.scores}"
          f" phase {deal.phase.value} obj M:{sit.objective.mode.name} X:{plain.objective.mode.name}"
          f" slope {slope:.2f} bends {bend:.1f} hand {deal.hand}")
    print(f"    expert-match: {mine}   expert: {theirs}")
    if not values:
        return
    if isinstance(mine, Discard) and isinstance(theirs, Discard):
        v = _exchange_values(view, rules, sit, [mine.cards.mask, theirs.cards.mask])
        print(f"    play-outs (points, table): M {v[0][0]:+.2f} {v[0][1]:+.1f}   "
              f"X {v[1][0]:+.2f} {v[1][1]:+.1f}")
    elif isinstance(mine, Play) and isinstance(theirs, Play):
        v = _play_values(view, rules, sit, [mine.card.index, theirs.card.index])
        print(f"    dd (points to come, table): M {v[0][0]:+.2f} {v[0][1]:+.1f}   "
              f"X {v[1][0]:+.2f} {v[1][1]:+.1f}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
