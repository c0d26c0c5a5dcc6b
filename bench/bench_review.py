"""How long the analysis of a finished game takes, and whether the cheap settings agree
with the expensive ones.

    python bench/bench_review.py [--games 2] [--deals 3] [--seed 7] [--agree]

Plays ``--games`` games of ``--deals`` deals between two AIs (``--level``), then times
:func:`piquet.review.deal.review_deal` over each game's deals with the web's settings
(:class:`piquet.web.analysis.AnalysisSettings`, what a finished game gets), one deal
after another in this one process (a job worker does the same), and prints how soon
after the game's end its review is ready ("ready within N s of the game's end"): the
server analyses each deal as it ends, while the next is played, so only the last deal's
analysis is left at the end (issue 35's Done means: within 10 s for a three-deal game on
the two cores; run it on a quiet machine).  With ``--agree`` each
deal is analysed again with the expensive settings of analysis version 3 (expert 500 ms,
advisor 160 samples, 200 deals played out) and the verdicts are compared: the exchange's
best discard and whether the one made lost, each declaration judged against the expert,
each card that lost points in the play.  (Figures, with what the machine was doing:
docs/web.md, "Beyond the table".)
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from piquet.core.match import new_match
from piquet.core.rules import get_rules
from piquet.players import make_player
from piquet.review.deal import finished_deals, review_deal


def play_game(rules: str, seed: int, deals: int, level: str) -> tuple[Any, list[Any]]:
    first = new_match(rules, seed=seed, names=["A", "B"])
    players = [make_player(level, seed=seed * 2 + i, think_ms=50) for i in range(2)]
    m = first
    history: list[Any] = []
    while not m.finished and len(m.deals) < deals:
        p = m.to_act
        assert p is not None
        a = players[p].choose(m.view(p))
        history.append((p, a))
        m = m.apply(a, p)
    return first, history


def verdicts(body: dict[str, Any]) -> dict[str, Any]:
    """What a reader takes from an analysis: who lost, where."""
    return {
        "exchange": [(e["step"], e.get("best"), (e.get("loss") or 0) > 0.5)
                     for e in body["exchange"]],
        "declarations": sorted((e["step"], e["expert"]) for e in body["declarations"]),
        "play": sorted((e["step"], e["drop"]) for e in body["play"]),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--deals", type=int, default=3)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--rules", default="rubicon")
    ap.add_argument("--level", default="book")
    ap.add_argument("--agree", action="store_true")
    args = ap.parse_args()
    from piquet.web.analysis import AnalysisSettings

    s = AnalysisSettings()
    cheap = {"think_ms": s.think_ms, "samples": s.samples, "verify": s.verify}
    rules = get_rules(args.rules)
    print(f"settings: {cheap}")
    same = {"exchange": [0, 0], "declarations": [0, 0], "play": [0, 0]}
    for g in range(args.games):
        first, history = play_game(args.rules, args.seed + g, args.deals, args.level)
        fds = finished_deals(first, history)
        bodies, walls, cpus = [], [], []
        for fd in fds:
            t0, c0 = time.perf_counter(), time.process_time()
            bodies.append(review_deal(fd, rules, seed=fd.number, think_ms=s.think_ms,
                                      samples=s.samples, verify=s.verify))
            walls.append(time.perf_counter() - t0)
            cpus.append(time.process_time() - c0)
        took, cpu = sum(walls), sum(cpus)
        # the CPU time is the figure to read on a shared machine: the wall time counts
        # the others' work too
        print(f"game {g}: {len(fds)} deals analysed in {took:.1f} s ({cpu:.1f} s of CPU) "
              f"({', '.join(str(len(b.get('curve', []))) for b in bodies)} curve points; "
              f"a deal: {', '.join(f'{w:.1f}' for w in walls)} s)")
        # the server analyses each deal as it ends, while the next is played (web.analysis:
        # Analyses.after_deal): at the game's end only the last deal is left, if the one
        # before was done within the last deal's play (a deal's play takes minutes, its
        # analysis seconds); asked only at the end, every deal waits
        print(f"game {g}: ready within {walls[-1]:.1f} s of the game's end "
              f"({len(fds)}-deal game, each deal analysed as it ends: the last deal's "
              f"{cpus[-1]:.1f} s of CPU); {took:.1f} s if all {len(fds)} are analysed "
              "after it")
        if args.agree:
            for fd, b in zip(fds, bodies, strict=True):
                t0, c0 = time.perf_counter(), time.process_time()
                slow = review_deal(fd, rules, seed=fd.number, think_ms=500, samples=160,
                                   verify=200)
                print(f"  deal {fd.number} with version 3's settings: "
                      f"{time.perf_counter() - t0:.1f} s ({time.process_time() - c0:.1f} s "
                      "of CPU)")
                a, e = verdicts(b), verdicts(slow)
                for part in same:
                    if part == "exchange":
                        pairs = list(zip(a[part], e[part], strict=True))
                        same[part][0] += sum(x[2] == y[2] for x, y in pairs)
                        same[part][1] += len(pairs)
                    else:
                        same[part][0] += len(set(a[part]) & set(e[part]))
                        same[part][1] += len(set(a[part]) | set(e[part]))
    if args.agree:
        for part, (n, of) in same.items():
            print(f"agreement, {part}: {n} of {of}")


if __name__ == "__main__":
    main()
