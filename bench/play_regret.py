"""Two ways of choosing the expert's cards compared on the same positions, by the exact
solver on the true deal (double-dummy regret: an oracle, but the same for both).

BASE plays the tournament's deals against OPPONENT (the packs and player seeds of
``piquet tournament`` / ``scripts/strength-table``); at each of its play decisions VARIANT
is asked too, on the same view with the same seed.  Where the two cards differ, both are
valued by the exact solver on the true position; the figure is the variant's card's value
minus the base's, summed per deal (a paired measure: positions where both choose alike
count zero), with a 95% interval over the deals.  Also the CPU seconds per decision of each.

    PYTHONPATH=src python bench/play_regret.py --variant expert-consistent0.5 --pairs 50
"""

from __future__ import annotations

import statistics
import time

from _common import ci, paired_parser, player_maker

from piquet.core.actions import Play
from piquet.core.deal import Phase
from piquet.core.rules import get_rules
from piquet.fast.solver import Solver, play_state
from piquet.players.common import rules_of, situation
from piquet.tournament import deal_match, deal_pack
from piquet.tournament.pairs import _player_seed


def _pct(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def main() -> None:
    ap = paired_parser(__doc__.splitlines()[0], variant="expert-consistent0.5", pairs=50)
    ap.add_argument("--by-trick", action="store_true",
                    help="also the base's double-dummy regret by cards in hand, lead or follow")
    args = ap.parse_args()
    rules = get_rules(args.preset)
    make = player_maker(rules, args.think)

    per_deal: list[float] = []
    differ = 0
    decisions = 0
    t_base: list[float] = []
    t_var: list[float] = []
    by_trick: dict[tuple[int, bool], list[float]] = {}
    for index in range(args.start, args.start + args.pairs):
        pack = deal_pack(rules, args.seed, index)
        for first, elder in ((0, 0), (1, 1)):
            sa = _player_seed(args.seed, index, first, "a")
            sb = _player_seed(args.seed, index, first, "b")
            base = make(args.base, sa)
            var = make(args.variant, sa)
            opp = make(args.opponent, sb)
            players = (base, opp)  # as the tournament: players[elder] is elder
            me = 0
            m = deal_match(rules, pack, elder=elder)
            gain = 0.0
            while True:
                p = m.to_act
                assert p is not None
                view = m.view(p)
                t0 = time.process_time()
                action = players[p].choose(view)
                dt = time.process_time() - t0
                d = m.deal
                assert d is not None
                if p == me:
                    t_base.append(dt)
                if p == me and d.phase is Phase.PLAY and isinstance(action, Play):
                    t0 = time.process_time()
                    other = var.choose(view)
                    t_var.append(time.process_time() - t0)
                    decisions += 1
                    if args.by_trick:
                        sit = situation(view, rules_of(view, rules))
                        vals = Solver(rules, sit.objective, tt_bits=18).move_values(
                            play_state(d))
                        key = (d.hands[d.to_act].bit_count(), d.trick_lead is None)
                        by_trick.setdefault(key, []).append(
                            max(vals.values()) - vals[action.card.index])
                    if other != action:
                        differ += 1
                        sit = situation(view, rules_of(view, rules))
                        solver = Solver(rules, sit.objective, tt_bits=18)
                        vals = solver.move_values(play_state(d))
                        assert isinstance(other, Play)
                        gain += vals[other.card.index] - vals[action.card.index]
                m = m.apply(action, p)
                if m.last_deal is not None:
                    break
            per_deal.append(gain)
        done = index - args.start + 1
        if done % 10 == 0:
            g, lo, hi = ci(per_deal)
            print(f"{done} pairs: variant's card - base's (exact, true deal) {g:+.3f} a deal "
                  f"({lo:+.3f} to {hi:+.3f}); differed {differ} of {decisions}", flush=True)
    g, lo, hi = ci(per_deal)
    print(f"{args.variant} - {args.base} v {args.opponent}, {args.preset}, think {args.think}, "
          f"{len(per_deal)} deals: {g:+.3f} a deal ({lo:+.3f} to {hi:+.3f}); cards differed "
          f"in {differ} of {decisions} play decisions")
    print(f"CPU per play decision: base mean {statistics.fmean(t_base):.3f} s, p95 "
          f"{_pct(t_base, 0.95):.3f}; variant mean {statistics.fmean(t_var or [0.0]):.3f} s, "
          f"p95 {_pct(t_var, 0.95):.3f} (base: all its decisions; variant: its play)")
    if by_trick:
        n_deals = len(per_deal)
        for (cards, leads), xs in sorted(by_trick.items(), reverse=True):
            print(f"  {cards:2d} cards, {'lead  ' if leads else 'follow'}: {len(xs):5d} "
                  f"decisions, regret {sum(xs) / n_deals:.3f} a deal, "
                  f"{statistics.fmean(xs):.3f} a decision")
        total = sum(sum(xs) for xs in by_trick.values()) / n_deals
        print(f"  the base's double-dummy regret in the play: {total:.3f} a deal")


if __name__ == "__main__":
    main()
