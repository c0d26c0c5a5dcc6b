"""Speed of the AI: the solver's positions per second, and the expert's time per decision.

Usage: .venv/bin/python bench/bench_players.py [--think MS] [--deals N] [--threads T]
       [--presets P ...] [--level expert|reference] [--cpu]
       .venv/bin/python bench/bench_players.py --diagnose A B [--deals N] [--think MS]
       [--presets P ...] [--seed S]

Prints, for each preset, the solver's speed on opening positions (full twelve tricks) and
the expert's time per decision against the book (mean, 95th percentile, slowest), by phase.
The first decision of a process loads the compiled solver and is left out.

``--diagnose A B`` plays the first N mirrored pairs of ``piquet tournament --players A B
--seed S --think MS`` (the same packs and player seeds, so the same deals) and says where
the margin comes from: A's points minus B's per deal split into those counted in hand
(carte blanche, point, sequences, sets, repique) and in play (leads, tricks, the last
trick, the cards, capot, pique); each level's double-dummy regret in the play (the exact
solver on the true deal: the best card's value minus the chosen card's, an oracle no
player can reach); how often the two chose different discards holding the same hand in
the same seat; how many declarations were not the truthful one.  The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections import defaultdict

from piquet.core.actions import Discard, Play
from piquet.core.deal import ELDER, YOUNGER, Deal, Phase
from piquet.core.rules import PRESETS, Rules
from piquet.core.scoring import HAND_KINDS, Kind
from piquet.fast.solver import Solver, play_state
from piquet.players import make_player
from piquet.players.common import truthful_declaration
from piquet.players.expert import ExpertPlayer
from piquet.players.search import DEFAULT_THINK_MS, SearchPlayer
from piquet.tournament import deal_match, deal_pack
from piquet.tournament.pairs import _make, _player_seed


def solver_speed(rules: Rules, n: int = 10) -> tuple[float, float]:
    """Mean milliseconds and positions per second of a full solve of an opening position."""
    solver = Solver(rules)
    total_ms = 0.0
    nodes = 0
    done = 0
    for seed in range(200):
        rng = random.Random(seed)
        pack = [i for i in range(36) if rules.deck_size == 36 or i % 9]
        rng.shuffle(pack)
        d = Deal.new(rules, pack)
        while not d.is_over and d.phase is not Phase.PLAY:
            d = d.apply(d.random_action(rng))
        if d.phase is not Phase.PLAY or d.tricks or d.trick_lead is not None:
            continue
        state = play_state(d)
        solver.reset()
        if done == 0:
            solver.value(state)  # load the compiled code
        start_nodes = solver.nodes
        t = time.perf_counter()
        solver.root_values(state)
        total_ms += (time.perf_counter() - t) * 1000
        nodes += solver.nodes - start_nodes
        done += 1
        if done >= n:
            break
    return total_ms / done, nodes / (total_ms / 1000)


def decision_times(
    rules: Rules, think: int, deals: int, threads: int, level: str = "expert", cpu: bool = False
) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {}
    first = True
    for i in range(deals):
        pack = deal_pack(rules, 99, i)
        for elder in (0, 1):
            if level == "expert":
                expert: SearchPlayer = ExpertPlayer(i, think, threads=threads)
            else:
                expert = SearchPlayer(i, think, threads=threads, name=level)
            book = make_player("book")
            m = deal_match(rules, pack, elder=elder)
            while m.last_deal is None:
                p = m.to_act
                assert p is not None and m.deal is not None
                view = m.view(p)
                if p == 0:
                    t = time.process_time() if cpu else time.perf_counter()
                    action = expert.choose(view)
                    dt = (time.process_time() if cpu else time.perf_counter()) - t
                    if not first:
                        times.setdefault(m.deal.phase.value, []).append(dt)
                    first = False
                else:
                    action = book.choose(view)
                m = m.apply(action, p)
    return times


def diagnose(rules: Rules, a: str, b: str, pairs: int, think: int, seed: int) -> dict[str, object]:
    """Where the points go between levels ``a`` and ``b`` (see the module docstring)."""
    solver = Solver(rules)
    split: dict[str, float] = defaultdict(float)
    regret: dict[str, float] = defaultdict(float)
    plays: dict[str, int] = defaultdict(int)
    declared: dict[str, int] = defaultdict(int)
    untrue: dict[str, int] = defaultdict(int)
    differ = {"elder": 0, "younger": 0}
    margins = []
    for index in range(pairs):
        pack = deal_pack(rules, seed, index)
        margin = 0.0
        discards: list[dict[int, int]] = []
        for first, elder in ((0, 0), (1, 1)):
            players = (
                _make(a, _player_seed(seed, index, first, "a"), think, rules),
                _make(b, _player_seed(seed, index, first, "b"), think, rules),
            )
            names = (a, b)
            m = deal_match(rules, pack, elder=elder)
            chosen: dict[int, int] = {}
            while m.last_deal is None:
                p = m.to_act
                assert p is not None and m.deal is not None
                view = m.view(p)
                assert view.deal is not None
                action = players[p].choose(view)
                if isinstance(action, Play):
                    values = solver.move_values(play_state(m.deal))
                    if values:
                        regret[names[p]] += max(values.values()) - values[action.card.index]
                        plays[names[p]] += 1
                elif isinstance(action, Discard):
                    chosen[view.deal.role] = action.cards.mask
                if view.deal.phase is Phase.DECLARE:
                    declared[names[p]] += 1
                    untrue[names[p]] += action != truthful_declaration(view.deal, rules)
                m = m.apply(action, p)
            deal = m.last_deal
            a_role = ELDER if elder == 0 else YOUNGER
            for e in deal.events:
                sign = 1 if e.role == a_role else -1
                in_hand = e.kind in HAND_KINDS or e.kind is Kind.REPIQUE
                split["hand" if in_hand else "play"] += sign * e.points / 2
            margin += (deal.scores[a_role] - deal.scores[1 - a_role]) / 2
            discards.append(chosen)
        margins.append(margin)
        for role, key in ((ELDER, "elder"), (YOUNGER, "younger")):
            differ[key] += discards[0].get(role) != discards[1].get(role)
    n = len(margins)
    mean = statistics.mean(margins)
    half = 1.96 * statistics.stdev(margins) / n**0.5 if n > 1 else 0.0
    return {
        "rules": rules.name, "a": a, "b": b, "pairs": n, "think_ms": think, "seed": seed,
        "margin_per_deal": round(mean, 3), "ci95": [round(mean - half, 3), round(mean + half, 3)],
        "hand_per_deal": round(split["hand"] / n, 3), "play_per_deal": round(split["play"] / n, 3),
        "play_regret_per_deal": {k: round(v / (2 * n), 3) for k, v in regret.items()},
        "pairs_with_other_discards": differ,
        "declarations": dict(declared), "not_truthful": dict(untrue),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--think", type=int, default=DEFAULT_THINK_MS)
    ap.add_argument("--deals", type=int, default=3)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--presets", nargs="+", default=list(PRESETS))
    ap.add_argument("--level", choices=("expert", "reference"), default="expert")
    ap.add_argument(
        "--cpu", action="store_true",
        help="time decisions in CPU seconds of this process (comparable on a loaded machine)",
    )
    ap.add_argument("--diagnose", nargs=2, metavar=("A", "B"),
                    help="where the points go between two levels (see above)")
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    if args.diagnose:
        a, b = args.diagnose
        for name in args.presets:
            got = diagnose(PRESETS[name], a, b, args.deals, args.think, args.seed)
            print(json.dumps(got), flush=True)
        return
    for name in args.presets:
        rules = PRESETS[name]
        ms, nps = solver_speed(rules)
        times = decision_times(
            rules, args.think, args.deals, args.threads, args.level, args.cpu
        )
        every = sorted(x for v in times.values() for x in v)
        p95 = every[int(0.95 * (len(every) - 1))]
        print(
            f"{name:20} solver: {ms:7.1f} ms per opening, {nps / 1e6:5.2f} M positions/s | "
            f"{args.level} think {args.think} ms x{args.threads}: "
            f"mean {statistics.mean(every):.3f} s, p95 {p95:.3f} s, slowest {every[-1]:.3f} s"
        )
        for phase, v in sorted(times.items()):
            mean = statistics.mean(v)
            print(f"    {phase:10} n={len(v):3d} mean {mean:.3f} s max {max(v):.3f} s")


if __name__ == "__main__":
    main()
