"""How often the world sampler must drop the dialog, and whether its worlds replay.

Run from the repository root::

    .venv/bin/python bench/bench_beliefs.py [--deals N] [--worlds W] [--presets P ...]

For every preset it plays ``N`` random deals (every choice from a seeded
``random.Random``) and, at each decision of the play (a seat to act, cards in
hand), asks :func:`piquet.sampling.sample_worlds` for ``W`` worlds of that seat's
view.  It counts

- *loose*: decisions where no drawn world fitted the dialog, so the sampler fell
  back to worlds that ignore it (every returned world has dialog weight 0);
- *replay failures*: returned worlds (not loose) that do not replay through the
  engine to the same view (:func:`piquet.sampling.world_deal`).

Only the public functions are used, so the script measures any commit of the
package (``PYTHONPATH=<other tree>/src``).  The last line is a JSON summary.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

from piquet.core.deal import Deal, Phase
from piquet.core.rules import PRESETS
from piquet.core.view import deal_view
from piquet.sampling import SamplingError, dialog_weight, sample_worlds, world_deal


def measure(name: str, deals: int, worlds: int, seed: int) -> dict[str, float]:
    rules = PRESETS[name]
    rng = random.Random(f"{seed}:{name}")
    pack = [i for i in range(36) if rules.deck_size == 36 or i % 9]
    decisions = loose = returned = failed = 0
    for _ in range(deals):
        rng.shuffle(pack)
        deal = Deal.new(rules, pack)
        while not deal.is_over:
            if deal.phase is Phase.PLAY and deal.to_act is not None:
                view = deal_view(deal, deal.to_act)
                found = sample_worlds(view, rules, rng, worlds)
                decisions += 1
                played = view.opponent_played.mask
                fits = [dialog_weight(w.opp_hand | played, view, rules) > 0 for w in found]
                if not any(fits) and any(u.cls is not None for u in view.dialog):
                    loose += 1
                else:
                    for w in found:
                        returned += 1
                        try:
                            world_deal(view, rules, w, start=deal.start)
                        except SamplingError:
                            failed += 1
            deal = deal.apply(deal.random_action(rng))
    return {
        "decisions": decisions,
        "loose": loose,
        "loose_rate": loose / max(decisions, 1),
        "worlds": returned,
        "replay_failures": failed,
        "replay_failure_rate": failed / max(returned, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=200, help="random deals per preset")
    parser.add_argument("--worlds", type=int, default=8, help="worlds asked per decision")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--presets", nargs="+", choices=list(PRESETS), default=list(PRESETS), metavar="PRESET"
    )
    args = parser.parse_args(argv)
    if args.deals < 1 or args.worlds < 1:
        parser.error("--deals and --worlds must be at least 1")
    out: dict[str, dict[str, float]] = {}
    print(f"{'preset':<24} {'decisions':>9} {'loose':>7} {'rate':>6} {'worlds':>7} "
          f"{'no replay':>9} {'cpu s':>6}")  # fmt: skip
    for name in args.presets:
        cpu = time.process_time()
        r = measure(name, args.deals, args.worlds, args.seed)
        r["cpu_s"] = time.process_time() - cpu
        out[name] = r
        print(
            f"{name:<24} {r['decisions']:>9} {r['loose']:>7} {r['loose_rate']:>6.1%} "
            f"{r['worlds']:>7} {r['replay_failures']:>9} {r['cpu_s']:>6.1f}",
            flush=True,
        )
    print(json.dumps({"deals": args.deals, "worlds": args.worlds, "presets": out}))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
