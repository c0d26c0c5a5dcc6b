"""How often the world sampler must drop the dialog, and whether its worlds replay.

Run from the repository root::

    .venv/bin/python bench/bench_beliefs.py [--deals N] [--worlds W] [--presets P ...]

For every preset it plays ``N`` random deals (every choice from a seeded
``random.Random``) and, at each decision of the play (a seat to act, cards in
hand), asks :func:`piquet.analysis.sampling.sample_worlds` for ``W`` worlds of that seat's
view.  It counts

- *loose*: decisions where no drawn world fitted the dialog, so the sampler fell
  back to worlds that ignore it (every returned world has dialog weight 0);
- *replay failures*: returned worlds (not loose) that do not replay through the
  engine to the same view (:func:`piquet.analysis.sampling.world_deal`);
- *ms*: CPU milliseconds a call of ``sample_worlds`` took, on average;
- the decisions where the other declared a sequence and never showed it (beaten or
  equalled: said by its length and top card only, so its suit is not known): how many
  (*seq*), their CPU milliseconds a call (*seq ms*), how many of them were loose, and the
  share of their worlds that hold the run in the suit it really was in (*true suit*: 1.0
  for a sampler told the suit, about the share of suits it could be in otherwise);
- with ``--expert``, *exp ms*: CPU milliseconds of the expert's own draw at the same
  decisions (``sample_worlds`` with its belief model and its pool of draws per world kept;
  the expert's reading of the other's past cards by the solver is left out).

``--seq-only`` asks for worlds only at the decisions with such a sequence (and replays no
world), to measure them alone over many deals.

Only the public functions are used, so the script measures any commit of the
package (``PYTHONPATH=<other tree>/src``).  The last line is a JSON summary.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

from piquet.analysis.sampling import SamplingError, dialog_weight, sample_worlds, world_deal
from piquet.core.actions import Declare
from piquet.core.deal import Deal, Phase
from piquet.core.declarations import DeclClass
from piquet.core.facts import HoldingShown
from piquet.core.rules import PRESETS
from piquet.core.view import deal_view
from piquet.players.beliefs import BeliefModel
from piquet.players.expert import DEFAULT_POOL


def _unshown_run(deal: Deal, other: int) -> int:
    """The cards of the sequence ``other`` declared and never showed (0 if none)."""
    if any(isinstance(u.fact, HoldingShown) and u.fact.cls is DeclClass.SEQUENCE
           and u.fact.role == other for u in deal.dialog):
        return 0
    return next((a.cards.mask for r, a in deal.history if r == other
                 and isinstance(a, Declare) and a.cls is DeclClass.SEQUENCE), 0)


def _true_suit_share(run: int, hand: int) -> float:
    """1 if ``hand`` holds the run only in its own suit, 1/n if in n suits, 0 if not in it."""
    suit = (run.bit_length() - 1) // 9
    low = run >> (9 * suit)
    holding = [s for s in range(4) if (hand >> (9 * s)) & low == low]
    return 1.0 / len(holding) if suit in holding else 0.0


def measure(
    name: str, deals: int, worlds: int, seed: int, *, seq_only: bool = False,
    expert: bool = False,
) -> dict[str, float]:
    rules = PRESETS[name]
    rng = random.Random(f"{seed}:{name}")
    # the deals and their moves from one stream, the worlds from another: every tree
    # measured meets the same decisions, whatever its sampler draws
    draws = random.Random(f"{seed}:{name}:worlds")
    pack = [i for i in range(36) if rules.deck_size == 36 or i % 9]
    decisions = loose = returned = failed = 0
    sample_cpu = seq_cpu = seq_true = expert_cpu = 0.0
    seq = seq_loose = seq_worlds = 0
    for _ in range(deals):
        rng.shuffle(pack)
        deal = Deal.new(rules, pack)
        while not deal.is_over:
            run = 0
            if deal.phase is Phase.PLAY and deal.to_act is not None and rules.sequences_same_suit:
                run = _unshown_run(deal, 1 - deal.to_act)
            if deal.phase is Phase.PLAY and deal.to_act is not None and (run or not seq_only):
                view = deal_view(deal, deal.to_act)
                if expert:
                    cpu = time.process_time()
                    model = BeliefModel(view, rules)
                    sample_worlds(view, rules, draws, worlds, weigh=model, pool=DEFAULT_POOL)
                    expert_cpu += time.process_time() - cpu
                cpu = time.process_time()
                found = sample_worlds(view, rules, draws, worlds)
                cpu = time.process_time() - cpu
                sample_cpu += cpu
                decisions += 1
                played = view.opponent_played.mask
                fits = [dialog_weight(w.opp_hand | played, view, rules) > 0 for w in found]
                if run:
                    seq += 1
                    seq_cpu += cpu
                    if not any(fits):
                        seq_loose += 1
                    for w in found:
                        seq_worlds += 1
                        seq_true += _true_suit_share(run, w.opp_hand | played)
                if not any(fits) and any(u.cls is not None for u in view.dialog):
                    loose += 1
                elif not seq_only:
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
        "sample_ms": 1000.0 * sample_cpu / max(decisions, 1),
        "seq_decisions": seq,
        "seq_ms": 1000.0 * seq_cpu / max(seq, 1),
        "seq_loose": seq_loose,
        "seq_true_suit": seq_true / max(seq_worlds, 1),
        "expert_ms": 1000.0 * expert_cpu / max(decisions, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=200, help="random deals per preset")
    parser.add_argument("--worlds", type=int, default=8, help="worlds asked per decision")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seq-only", action="store_true",
                        help="only the decisions facing a sequence declared and never shown")
    parser.add_argument("--expert", action="store_true",
                        help="also time the expert's draw (its beliefs and pool)")
    parser.add_argument(
        "--presets", nargs="+", choices=list(PRESETS), default=list(PRESETS), metavar="PRESET"
    )
    args = parser.parse_args(argv)
    if args.deals < 1 or args.worlds < 1:
        parser.error("--deals and --worlds must be at least 1")
    out: dict[str, dict[str, float]] = {}
    print(f"{'preset':<20} {'decisions':>9} {'loose':>5} {'worlds':>6} {'no replay':>9} "
          f"{'ms':>5} {'seq':>4} {'seq ms':>6} {'loose':>5} {'true suit':>9} "
          f"{'exp ms':>6} {'cpu s':>6}")  # fmt: skip
    for name in args.presets:
        cpu = time.process_time()
        r = measure(name, args.deals, args.worlds, args.seed, seq_only=args.seq_only,
                    expert=args.expert)
        r["cpu_s"] = time.process_time() - cpu
        out[name] = r
        print(
            f"{name:<20} {r['decisions']:>9} {r['loose']:>5} {r['worlds']:>6} "
            f"{r['replay_failures']:>9} {r['sample_ms']:>5.2f} {r['seq_decisions']:>4} "
            f"{r['seq_ms']:>6.2f} {r['seq_loose']:>5} {r['seq_true_suit']:>9.2f} "
            f"{r['expert_ms']:>6.2f} {r['cpu_s']:>6.1f}",
            flush=True,
        )
    print(json.dumps({"deals": args.deals, "worlds": args.worlds, "presets": out}))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
