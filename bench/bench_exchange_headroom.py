"""How much a better evaluation of the expert's exchange could gain, by two models.

Run from the repository root::

    .venv/bin/python bench/bench_exchange_headroom.py [--preset P] [--deals N]
        [--exact-cards E] [--candidates C] [--worlds W]

For ``N`` deals of seeded packs (the book playing both seats up to the exchange) it
takes the view of elder and of younger about to exchange, draws ``W`` worlds from the
expert's beliefs and splits them in two halves, A and B.  On A it chooses a discard
among the expert's ``C`` candidates (:func:`piquet.players.exchange.wide_candidates`)
two ways, with the expert's switch margin: by the book's play-outs (the expert's
exchange) and by the play of the cards valued by the solver
(:func:`piquet.players.exchange.all_solver_values`, greedy open-handed play down to
``E`` cards, exact from there; ``E=12``: exact from the first card).  It then judges the
choices on the held-out half B by both models: the means over positions of

- the solver's choice minus the play-outs' choice (the gain of re-ranking by the solver);
- the play-outs' choice minus the book's discard (what the play-outs gained);
- the best candidate on B minus the play-outs' choice (in-sample, so biased upwards: a
  bound on any re-ranking of these candidates under that model).

Points of the deal, the seat's minus the other's, per exchange decision.
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections.abc import Callable

from piquet.core.deal import Phase
from piquet.core.rules import PRESETS
from piquet.fast.solver import Solver
from piquet.players import make_player
from piquet.players.exchange import (
    PlayoutWorld,
    all_playout_values,
    all_solver_values,
    margin_choice,
    playout_worlds,
    wide_candidates,
)
from piquet.players.expert import SWITCH_MARGIN, ExpertPlayer
from piquet.tournament import deal_match, deal_pack


def _means(vals: list[list[float] | None], ws: list[PlayoutWorld]) -> dict[int, float]:
    wsum = sum(w.weight for w in ws)
    return {k: sum(w.weight * x for w, x in zip(ws, v, strict=True)) / wsum
            for k, v in enumerate(vals) if v is not None}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="rubicon")
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--exact-cards", type=int, default=6)
    ap.add_argument("--candidates", type=int, default=30)
    ap.add_argument("--worlds", type=int, default=400)
    ap.add_argument("--seed", type=int, default=4242)
    args = ap.parse_args()
    rules = PRESETS[args.preset]
    book = make_player("book")
    expert = ExpertPlayer(1, 500, rules=rules)
    rows: list[tuple[float, ...]] = []
    for i in range(args.deals):
        for role in (0, 1):
            m = deal_match(rules, deal_pack(rules, args.seed, i), elder=0)
            while True:
                d = m.deal
                who = m.to_act
                assert d is not None and who is not None
                if d.phase is Phase.EXCHANGE and d.to_act == role and who == role:
                    break
                m = m.apply(book.choose(m.view(who)), who)
            view = m.view(role).deal
            assert view is not None and view.discard_range is not None
            cands = wide_candidates(view.hand.mask, *view.discard_range, rules, role=role,
                                    limit=args.candidates)
            if len(cands) < 2:
                continue
            ready = playout_worlds(view, rules,
                                   expert._worlds(view, rules, random.Random(i), args.worlds))
            a, b = ready[::2], ready[1::2]

            bk_a = _means(all_playout_values(rules, role, a, cands, 7), a)
            bk_b = _means(all_playout_values(rules, role, b, cands, 7 + 10**6), b)
            s_a = _means(all_solver_values(rules, role, a, cands, 7, Solver(rules),
                                           exact_cards=args.exact_cards)[0], a)
            s_b = _means(all_solver_values(rules, role, b, cands, 7 + 10**6, Solver(rules),
                                           exact_cards=args.exact_cards)[0], b)
            cb, cs = margin_choice(bk_a, SWITCH_MARGIN), margin_choice(s_a, SWITCH_MARGIN)
            rows.append((float(cb != 0), float(cs != 0), float(cb != cs),
                         s_b[cs] - s_b[cb], bk_b[cs] - bk_b[cb], s_b[cb] - s_b[0],
                         bk_b[cb] - bk_b[0], max(s_b.values()) - s_b[cb]))

    def col(k: int) -> list[float]:
        return [r[k] for r in rows]

    def ms(xs: list[float]) -> str:
        sd = statistics.stdev(xs)
        return f"{statistics.mean(xs):+.2f} (sd {sd:.2f}, se {sd / len(xs) ** 0.5:.2f})"

    show: list[tuple[str, Callable[[], list[float]]]] = [
        ("solver's choice - play-outs' choice, judged by the solver", lambda: col(3)),
        ("solver's choice - play-outs' choice, judged by the play-outs", lambda: col(4)),
        ("play-outs' choice - book's discard, judged by the solver", lambda: col(5)),
        ("play-outs' choice - book's discard, judged by the play-outs", lambda: col(6)),
        ("best candidate (in-sample) - play-outs' choice, by the solver", lambda: col(7)),
    ]
    print(f"{args.preset}, exact from {args.exact_cards} cards, {len(rows)} exchanges; "
          f"unlike the book: play-outs {sum(col(0)):.0f}, solver {sum(col(1)):.0f}; "
          f"the two unlike each other: {sum(col(2)):.0f}")
    for name, xs in show:
        print(f"  {name}: {ms(xs())}")


if __name__ == "__main__":
    main()
