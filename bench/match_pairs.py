"""Whole matches in mirrored pairs, one pair at a time, kept as they end (issue 41).

`piquet tournament --format F` plays its pairs and reports at the end; a measure that needs
hundreds of pairs of whole parties (some three CPU-hours on two cores) is better played a
pair at a time in a niced process, each pair appended to a JSON-lines file the moment it
ends, so that a run stopped or killed keeps what it played and later runs add to it.  Pair
``i`` here is pair ``i`` of ``piquet tournament --players A B --rules R --format F --seed
S``: the same match seed and the same players' seeds (``piquet.tournament.matches``), so a
file's pairs are the tournament's, whatever order or process played them.

    nice -n 19 .venv/bin/python bench/match_pairs.py play --players expert-match expert \\
        --rules rubicon --format partie --first 1000 --pairs 50 --out pairs.jsonl
    .venv/bin/python bench/match_pairs.py summary pairs.jsonl [more.jsonl ...]

``summary`` reads every file's pairs (a pair played twice is counted once) and prints, per
rule set, format and players, A's stake a pair (settlement points of a partie, the games'
stakes of a game: the mean of A's result at player 0 and at player 1, as piquet
tournament counts it) with its 95% interval
(Student's t over the pairs, ``piquet.tournament.pairs.mean_ci``).
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from piquet.core.rules import get_rules
from piquet.tournament.matches import _MatchTask, _play_match, format_of, match_seed
from piquet.tournament.pairs import mean_ci


def play(args: argparse.Namespace) -> None:
    rules = get_rules(args.rules)
    fmt = format_of(rules, args.format)
    a, b = args.players
    task = _MatchTask(rules, fmt, a, b, args.seed, args.think, ())
    out = Path(args.out)
    for index in range(args.first, args.first + args.pairs):
        t = time.process_time()
        outcomes = [_play_match(task, index, seat) for seat in (0, 1)]
        line = {
            "rules": args.rules, "format": fmt.value, "a": a, "b": b, "seed": args.seed,
            "think_ms": args.think, "index": index, "match_seed": match_seed(args.seed, index),
            "stake": sum(o.stake for o in outcomes) / 2,
            "matches": [{"a_player": o.a_player, "winner": o.winner, "points": o.points,
                         "stake": o.stake, "lurch": o.lurch, "rubicon": o.rubicon,
                         "deals": o.deals} for o in outcomes],
            "cpu_s": round(time.process_time() - t, 2),
        }
        with out.open("a", encoding="utf-8") as f:
            f.write(json.dumps(line) + "\n")
        print(f"pair {index}: stake {line['stake']:+} ({line['cpu_s']} CPU-s)", flush=True)


def summary(args: argparse.Namespace) -> None:
    groups: dict[tuple[Any, ...], dict[int, float]] = defaultdict(dict)
    for name in args.files:
        for line in Path(name).read_text(encoding="utf-8").splitlines():
            if line.strip():
                p = json.loads(line)
                key = (p["rules"], p["format"], p["a"], p["b"], p["seed"], p["think_ms"])
                groups[key][p["index"]] = p["stake"]
    for key, by_index in sorted(groups.items(), key=str):
        stakes = [by_index[i] for i in sorted(by_index)]
        mean, ci = mean_ci(stakes)
        ci_text = "no interval (one pair)" if ci is None else f"{ci[0]:+.2f} to {ci[1]:+.2f}"
        rules, fmt, a, b, seed, think = key
        print(f"{rules} {fmt} {a} − {b} (seed {seed}, think {think}): {len(stakes)} pairs, "
              f"stake a pair {mean:+.2f} (95% {ci_text}), "
              f"pairs won {sum(s > 0 for s in stakes)}-{sum(s < 0 for s in stakes)}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play", help="play pairs, appending each to --out as it ends")
    p.add_argument("--players", nargs=2, required=True, metavar=("A", "B"))
    p.add_argument("--rules", required=True)
    p.add_argument("--format", required=True)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--think", type=int, default=None,
                   help="ms a decision (default: each level's own)")
    p.add_argument("--first", type=int, default=0, help="the first pair's index")
    p.add_argument("--pairs", type=int, required=True)
    p.add_argument("--out", required=True)
    s = sub.add_parser("summary", help="each group's stake a pair with its 95% interval")
    s.add_argument("files", nargs="+")
    args = parser.parse_args(argv)
    (play if args.command == "play" else summary)(args)


if __name__ == "__main__":
    main()
