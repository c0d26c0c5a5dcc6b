"""Benchmark of the exact declaration pass, the odds and the advisor.

Run: ``.venv/bin/python bench/bench_odds.py [--repeat N] [--json]``

What is measured, in this process:

* the exact declaration pass over every elder discard and every draw of a
  32-card hand (1,585 discards, 14,941,023 final hands), vectorised with numpy,
  alone and with the opponent model the advisor uses;
* the baseline: the same pass as a scalar Python loop, on a subset of the
  discards, extrapolated per hand to all of them; once with the per-suit
  table lookups (:func:`piquet.analysis.drawtables.hand_stats`) and once with the
  engine's own ``best_claim``/``counted`` per hand;
* one hand's exact improvements (``piquet odds --hand``), and the whole
  advice (``piquet advise``) for elder and for younger.

Times are wall-clock seconds (best of ``--repeat``) and the process CPU time
of that run; on a loaded machine the CPU figure is the steadier one.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import time
from collections.abc import Callable
from typing import Any

from piquet.advisor import Setup, advise
from piquet.advisor.ranking import opponent_model
from piquet.analysis.drawtables import declaration_pass, discard_masks, hand_stats, suit_tables
from piquet.analysis.odds import deck_mask, improvements
from piquet.core.cards import CardSet, mask_cards
from piquet.core.declarations import DeclClass, best_claim, counted
from piquet.core.rules import get_rules

HAND = "AS KS QS 7S QH JH TH QD 9D QC 8C 7C"
YOUNGER_HAND = "AS QS 8S AH JH 7H AD TD 9D TC 9C 7C"


def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, float, Any]:
    """(best wall seconds, CPU seconds of that run, result)."""
    best: tuple[float, float, Any] | None = None
    for _ in range(repeat):
        w, c = time.perf_counter(), time.process_time()
        out = fn()
        wall, cpu = time.perf_counter() - w, time.process_time() - c
        if best is None or wall < best[0]:
            best = (wall, cpu, out)
    assert best is not None
    return best


def scalar_tables(hand: int, discards: list[int], unseen: list[int], rules_name: str) -> int:
    rules = get_rules(rules_name)
    tables = suit_tables(rules)
    n = 0
    for d in discards:
        kept = hand & ~d
        total = 0
        for combo in itertools.combinations(unseen, d.bit_count()):
            total += hand_stats(kept | sum(1 << c for c in combo), tables).total
            n += 1
    return n


def scalar_engine(hand: int, discards: list[int], unseen: list[int], rules_name: str) -> int:
    rules = get_rules(rules_name)
    n = 0
    for d in discards:
        kept = hand & ~d
        for combo in itertools.combinations(unseen, d.bit_count()):
            m = kept | sum(1 << c for c in combo)
            for cls in DeclClass:
                claim = best_claim(m, cls, rules)
                if claim is not None:
                    counted(m, claim, rules)
            n += 1
    return n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rules = get_rules("court-gamester-1754")
    hand = CardSet.parse(HAND).mask
    unseen = list(mask_cards(deck_mask(rules) & ~hand))
    discards = discard_masks(hand, 1, 5)
    suit_tables(rules)
    declaration_pass(hand, rules, discards=discards[:20], unseen=unseen)  # warm the caches
    rows: list[dict[str, Any]] = []

    def row(name: str, wall: float, cpu: float, hands: int | None = None) -> None:
        rows.append(
            {"what": name, "wall_s": round(wall, 3), "cpu_s": round(cpu, 3), "hands": hands}
        )

    w, c, res = timed(
        lambda: declaration_pass(hand, rules, discards=discards, unseen=unseen), args.repeat
    )
    row("exact pass, 1,585 elder discards, every draw (numpy)", w, c, res.hands)
    total_hands = res.hands
    opp = opponent_model(Setup.of(hand, rules, 0), 300, random.Random(1))
    w, c, res = timed(
        lambda: declaration_pass(hand, rules, discards=discards, unseen=unseen, opponent=opp),
        args.repeat,
    )
    row("the same, weighed against the opponent model (advisor)", w, c, res.hands)

    subset = [d for d in discards if d.bit_count() == 5][:6]
    w, c, n = timed(lambda: scalar_tables(hand, subset, unseen, rules.name), 1)
    row(f"baseline: scalar loop, table lookups ({n:,} hands)", w, c, n)
    row(
        "  extrapolated to every discard and draw",
        w / n * total_hands,
        c / n * total_hands,
        total_hands,
    )
    small = subset[:1]
    w, c, n = timed(lambda: scalar_engine(hand, small, unseen, rules.name), 1)
    row(f"baseline: scalar loop, engine best_claim/counted ({n:,} hands)", w, c, n)
    row(
        "  extrapolated to every discard and draw",
        w / n * total_hands,
        c / n * total_hands,
        total_hands,
    )

    d5 = CardSet.parse("JH TH 9D 8C 7C")
    w, c, _ = timed(lambda: improvements(CardSet(hand), d5, rules), args.repeat)
    row("one discard's exact improvements (15,504 draws)", w, c, 15504)
    w, c, _ = timed(lambda: advise(CardSet(hand), rules, role=0), args.repeat)
    row("advise, elder (pass + play-out, the leaders exactly)", w, c)
    w, c, _ = timed(lambda: advise(CardSet.parse(YOUNGER_HAND), rules, role=1), args.repeat)
    row("advise, younger", w, c)

    if args.json:
        print(json.dumps(rows, indent=1))
        return
    width = max(len(r["what"]) for r in rows)
    print(f"{'':{width}}  {'wall s':>8}  {'cpu s':>8}  {'hands':>12}")
    for r in rows:
        hands = f"{r['hands']:,}" if r["hands"] else ""
        print(f"{r['what']:{width}}  {r['wall_s']:8.3f}  {r['cpu_s']:8.3f}  {hands:>12}")
    fast = rows[0]["cpu_s"]
    base = rows[3]["cpu_s"]
    print(f"vectorised pass vs scalar table loop (CPU): {base / fast:.0f}x faster")


if __name__ == "__main__":
    main()
