"""What sinking earns: a sinking variant against an opponent, each deal with a sink replayed
with the truthful expert (the same seeds), so that the difference is what the sinks earned.

The deals are those of ``piquet tournament`` / ``scripts/strength-table`` (the same packs and
player seeds), so the first figure is the tournament's margin of VARIANT v OPPONENT; the
variant plays as ``expert`` until its first sink (its decisions are seeded by position;
below 200 ms only: from 200 ms the plain expert decides its declarations by the reference's
search and the sinking variants by theirs, so use ``--replay all`` there), so
the replay of a deal without sinking is the ``expert`` v OPPONENT deal, and the margin of
``expert`` v OPPONENT on the same packs is the variant's minus the earnings.

    PYTHONPATH=src python bench/sink_earnings.py --variant expert-sink1 --pairs 150 \\
        --think 100 --seed 2026 --preset rubicon --json /tmp/play/sink.json

With ``--replay all`` every deal is played by both (any variant against ``--base``, paired
deal by deal: the same packs and seeds, so the deals the two play alike count zero).
"""

from __future__ import annotations

import json
import time
from typing import Any

from _common import ci, paired_parser, player_maker

from piquet.core.deal import ELDER, YOUNGER
from piquet.core.rules import get_rules
from piquet.players.expert import ExpertPlayer
from piquet.tournament import deal_pack, play_deal
from piquet.tournament.pairs import _player_seed


def main() -> None:
    ap = paired_parser(__doc__.splitlines()[0], variant="expert-sink1", pairs=150)
    ap.add_argument("--json", default=None)
    ap.add_argument("--replay", choices=("sinks", "all"), default="sinks",
                    help="replay with the base only the deals with a sink (the variant differs "
                         "from the base only by sinking), or every deal")
    args = ap.parse_args()
    rules = get_rules(args.preset)
    make = player_maker(rules, args.think)

    margins: list[float] = []
    base_margins: list[float] = []
    earned: list[dict[str, Any]] = []
    decisions = 0
    cpu = time.process_time()
    for index in range(args.start, args.start + args.pairs):
        pack = deal_pack(rules, args.seed, index)
        pair = 0.0
        base_pair = 0.0
        for first, elder in ((0, 0), (1, 1)):
            sa = _player_seed(args.seed, index, first, "a")
            sb = _player_seed(args.seed, index, first, "b")
            pa = make(args.variant, sa)
            assert isinstance(pa, ExpertPlayer)
            d = play_deal(rules, pack, (pa, make(args.opponent, sb)), elder=elder)
            a_seat = ELDER if elder == 0 else YOUNGER
            diff = d.scores[a_seat] - d.scores[1 - a_seat]
            decisions += pa.declaration_stats[0]
            base = diff
            if pa.sinks or args.replay == "all":
                plain = make(args.base, sa)
                d0 = play_deal(rules, pack, (plain, make(args.opponent, sb)), elder=elder)
                base = d0.scores[a_seat] - d0.scores[1 - a_seat]
            if pa.sinks:
                earned.append({
                    "pair": index, "elder": elder == 0, "sinks": pa.sinks,
                    "with": diff, "without": base, "earned": diff - base,
                })
            pair += diff / 2
            base_pair += base / 2
        margins.append(pair)
        base_margins.append(base_pair)
        done = index - args.start + 1
        if done % 10 == 0:
            m, lo, hi = ci(margins)
            print(f"{done} pairs: {m:+.2f} ({lo:+.2f} to {hi:+.2f}), sinks in "
                  f"{len(earned)} deals, {time.process_time() - cpu:.0f} s CPU", flush=True)
    m, lo, hi = ci(margins)
    bm, blo, bhi = ci(base_margins)
    gains = [e["earned"] for e in earned]
    em, elo, ehi = ci([g / 1.0 for g in gains])
    diffs = [a - b for a, b in zip(margins, base_margins, strict=True)]
    dm, dlo, dhi = ci(diffs)
    n_sinks = sum(len(e["sinks"]) for e in earned)
    print(f"{args.variant} v {args.opponent}, {args.preset}, {args.pairs} pairs, think "
          f"{args.think}: {m:+.2f} ({lo:+.2f} to {hi:+.2f})")
    print(f"{args.base} v {args.opponent} on the same deals: {bm:+.2f} ({blo:+.2f} to {bhi:+.2f})")
    print(f"difference per pair: {dm:+.3f} ({dlo:+.3f} to {dhi:+.3f})")
    print(f"sinks: {n_sinks} in {len(earned)} of {2 * args.pairs} deals, of {decisions} "
          f"declaration decisions; earned per deal with a sink {em:+.2f} "
          f"({elo:+.2f} to {ehi:+.2f})")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"args": vars(args), "margins": margins, "base_margins": base_margins,
                       "earned": earned, "decisions": decisions}, f, indent=1)


if __name__ == "__main__":
    main()
