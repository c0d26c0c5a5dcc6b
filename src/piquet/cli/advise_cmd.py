"""``piquet advise``: every legal discard of a hand ranked, the best explained."""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from piquet.advisor import (
    DEFAULT_CANDIDATES,
    DEFAULT_SAMPLES,
    Advice,
    Explanation,
    HeuristicPlay,
    PlayModel,
    SolverPlay,
    advise,
    compare,
)
from piquet.cards import CardSet
from piquet.errors import PiquetError
from piquet.odds import Event
from piquet.rules import Rules, get_rules

_ROLES = {"elder": 0, "younger": 1}
_ROLE_NAMES = ("elder", "younger")


def register(sub: Any) -> None:
    p = sub.add_parser(
        "advise",
        help="rank every legal discard of a hand and explain the best",
        description=(
            "Rank every legal discard of the twelve cards dealt (elder: 1 to his maximum; "
            "younger: assuming elder took his full allotment unless --stock says how many he "
            "left) by its value: the net points of the deal, or with --score the chance of "
            "winning the game. The declarations are exact over every draw where affordable; "
            "the play is simulated for the most promising discards. --compare plays out "
            "chosen discards in many deals, to show by simulation which is right."
        ),
    )
    p.add_argument("--rules", help="rule set (preset, alias or house-rule .toml)")
    p.add_argument("--role", choices=sorted(_ROLES), required=True, help="elder or younger")
    p.add_argument("--hand", required=True, help='the twelve cards dealt, e.g. "AS KS QS ..."')
    p.add_argument("--score", help="game scores before the deal: MINE,HIS (e.g. 85,92)")
    p.add_argument("--stock", type=int, help="younger: cards elder left him (default: the rest)")
    p.add_argument("--seed", type=int, default=0, help="seed of every sample (default 0)")
    p.add_argument(
        "--samples", type=int, default=DEFAULT_SAMPLES, help="simulated deals per discard"
    )
    p.add_argument(
        "--candidates",
        type=int,
        default=DEFAULT_CANDIDATES,
        help="discards played out besides the best of each size",
    )
    p.add_argument("--top", type=int, default=5, help="discards to print (default 5)")
    p.add_argument(
        "--play",
        choices=("heuristic", "solver"),
        default="heuristic",
        help="play model of the simulation (solver: exact double-dummy, slow)",
    )
    p.add_argument(
        "--compare",
        action="append",
        metavar="CARDS",
        help="play out this discard (repeat the option) instead of ranking",
    )
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=run)


def _score(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    parts = text.replace(" ", "").split(",")
    if len(parts) != 2 or not all(x.isdigit() for x in parts):
        raise PiquetError(f"--score is MINE,HIS in whole points, e.g. 85,92; got {text!r}")
    return int(parts[0]), int(parts[1])


def _model(name: str, rules: Rules) -> PlayModel:
    return SolverPlay(rules) if name == "solver" else HeuristicPlay()


def run(args: argparse.Namespace) -> int:
    rules = get_rules(args.rules)
    role = _ROLES[args.role]
    hand = CardSet.parse(args.hand)
    score = _score(args.score)
    model = _model(args.play, rules)
    if args.compare:
        discards = [CardSet.parse(c) for c in args.compare]
        samples = args.samples if args.samples != DEFAULT_SAMPLES else 2000
        stats = compare(
            hand,
            discards,
            rules,
            role=role,
            samples=samples,
            seed=args.seed,
            score=score,
            stock=args.stock,
            play_model=model,
        )
        rows = []
        for d, s in zip(discards, stats, strict=True):
            value = s.win_rate if score is not None else s.mean
            err = s.win_stderr if score is not None else s.stderr
            rows.append(
                {
                    "discard": [str(c) for c in d],
                    "value": value,
                    "stderr": err,
                    "cards": s.share(s.cards_mine),
                    "capot_against": s.share(s.capot_his),
                    "deals": s.n,
                }
            )
        if args.json:
            print(
                json.dumps(
                    {
                        "compare": rows,
                        "unit": "chance of winning the game"
                        if score is not None
                        else "net points in the deal",
                    },
                    indent=2,
                )
            )
            return 0
        unit = "wins the game" if score is not None else "net points"
        print(
            f"{len(discards)} discards played out in the same {stats[0].n} deals "
            f"({model.name} play):"
        )
        for row, d in zip(rows, discards, strict=True):
            v = (
                f"{row['value']:.1%} ±{row['stderr']:.1%}"
                if score is not None
                else f"{row['value']:+.2f} ±{row['stderr']:.2f}"
            )
            print(f"  discard {d}: {unit} {v}; the cards {row['cards']:.0%}")
        return 0
    started = time.perf_counter()
    advice = advise(
        hand,
        rules,
        role=role,
        score=score,
        stock=args.stock,
        seed=args.seed,
        samples=args.samples,
        candidates=args.candidates,
        play_model=model,
    )
    elapsed = time.perf_counter() - started
    if args.json:
        out = advice.to_json()
        out["seconds"] = round(elapsed, 3)
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return 0
    print("\n".join(advice_lines(advice, top=args.top)))
    print(f"({elapsed:.1f} s)")
    return 0


def chances_line(e: Explanation) -> str:
    """What the discard may take in, each chance marked exact (over every draw) or
    "about" (over a sample of draws, with how many were sampled)."""
    imp = e.improvements
    if imp is None:
        return e.chances
    if not imp.draw:
        return "takes in nothing"
    over = (
        f"exact over all {imp.draws:,} draws"
        if imp.exact
        else f"about, from a sample of {imp.draws:,} draws"
    )
    head = f"takes in {imp.draw} of {imp.unseen} ({over})"
    by_name = {ev.name: ev for ev in imp.events}
    shown = [by_name[n] for n in e.named if n in by_name]
    if not shown:
        return f"{head}: no likely improvement"
    about = "" if imp.exact else "about "

    def ratio(ev: Event) -> str:
        rounded = ev.odds.rounded != ev.odds.phrase  # the books' small numbers, not exact
        return f"{'about ' if rounded or not imp.exact else ''}{ev.odds.rounded}"

    return f"{head}: " + "; ".join(
        f"{ev.name} {about}{ev.odds.probability:.0%} ({ratio(ev)})" for ev in shown
    )


def advice_lines(advice: Advice, *, top: int) -> list[str]:
    """The advice for the terminal: as :meth:`Advice.lines`, but no sampled figure is printed
    as if exact (the chances say "about" and how many draws; estimates say "about")."""
    m = advice.method
    score = "" if advice.score is None else f", score {advice.score[0]} to {advice.score[1]}"
    sampled = not m.get("exact", True)
    out = [
        f"{_ROLE_NAMES[advice.role].capitalize()} under {advice.rules}{score}: {advice.hand}",
        f"{len(advice.ranking):,} legal discards ranked by {advice.unit}.",
        f"Declarations: {m['declarations']}.",
        f"Play: {m['play']}.",
    ]
    if advice.blanche:
        out.append("You hold carte blanche: announce it before discarding (counted first).")
    explained = {e.discard: e for e in advice.explanations}
    pct = advice.score is not None
    for i, r in enumerate(advice.ranking[:top], 1):
        value = f"{r.value:.1%}" if pct else f"{r.value:+.1f}"
        if r.stderr is not None:
            value += f" ±{r.stderr:.1%}" if pct else f" ±{r.stderr:.1f}"
        elif r.method == "estimated" or sampled:
            value = f"about {value}"
        out.append(f"{i:>2}. discard {r.discard}   {value} ({r.method})")
        e = explained.get(r.discard)
        if e is not None:
            play = e.play
            if e.deals:  # its shares are counted over the simulated deals: not exact
                play += f" (about: {e.deals:,} simulated deals)"
            lines = [f"keeps {e.keeps}", chances_line(e), play, e.value]
            out.extend(f"      {line}" for line in lines)
    return out
