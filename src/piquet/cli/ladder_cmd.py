"""``piquet ladder``: play every pair of AI levels and fit their ratings."""

from __future__ import annotations

import argparse
import json
from typing import Any

from piquet.cli import check_writable
from piquet.cli.text import echo
from piquet.cli.tournament_cmd import add_common, check_common, interval_text, progress_bar
from piquet.core.errors import PiquetError
from piquet.core.rules import get_rules

__all__ = ["default_levels", "register", "run"]


def register(sub: Any) -> None:
    p = sub.add_parser(
        "ladder",
        help="play every pair of AI levels and fit ratings (Elo scale, random = 0)",
        description="Play N mirrored pairs of deals between every pair of levels, then fit "
        "Bradley-Terry ratings on the deals won (ties count half), on an Elo scale with "
        "random anchored at 0, with 95% intervals.  --plot FILE.png draws them.",
    )
    p.add_argument(
        "--levels",
        nargs="+",
        default=None,
        metavar="LEVEL",
        help="levels to rank, random first (default: every listed level but adaptive, "
        "reference included; "
        "a variant such as expert-lookahead or a fixed budget such as expert@1000 may be named)",
    )
    p.add_argument(
        "--pairings",
        nargs="+",
        default=None,
        metavar="A:B",
        help="play only these matches (each A:B a pair of levels; the levels default to those "
        "named): a chain of neighbours places many levels on one scale for less than every pair",
    )
    add_common(p, deals_default=50)
    p.add_argument("--plot", default=None, metavar="FILE.png", help="draw the ratings (PNG)")
    p.set_defaults(run=run)


def default_levels() -> list[str]:
    """The levels a ladder ranks when none are named: every listed level but those whose
    strength follows their opponent (``adaptive``)."""
    from piquet.players import LEVELS
    from piquet.players.base import UNRANKED

    return [lv for lv in LEVELS if lv not in UNRANKED]


def _pairings(given: list[str] | None) -> list[tuple[str, str]] | None:
    if given is None:
        return None
    out: list[tuple[str, str]] = []
    for text in given:
        a, colon, b = text.strip().lower().partition(":")
        if not colon or not a or not b:
            raise PiquetError(f"--pairings takes pairs of levels written A:B (e.g. nell:toby), "
                              f"not {text!r}")
        out.append((a, b))
    return out


def run(args: argparse.Namespace) -> int:
    from piquet.players import player_factory
    from piquet.tournament import ladder, plot_ladder

    check_common(args)
    rules = get_rules(args.rules)
    pairings = _pairings(args.pairings)
    if args.levels:
        levels = [x.strip().lower() for x in args.levels]
    elif pairings is not None:
        levels = list(dict.fromkeys(lv for pair in pairings for lv in pair))
    else:
        levels = default_levels()
    for i, lv in enumerate(levels):
        if lv in levels[:i]:
            raise PiquetError(f"--levels names {lv!r} twice: name each level once")
    if "random" in levels:
        levels.remove("random")
    levels.insert(0, "random")
    for lv in levels:
        player_factory(lv)  # refuses an unknown name, naming the levels
    if args.plot is not None:
        if not args.plot.lower().endswith(".png"):
            raise PiquetError(
                f"--plot writes a PNG: give a file name ending in .png, not {args.plot!r}"
            )
        check_writable(args.plot)  # before the games, not after them
    n_matches = len(levels) * (len(levels) - 1) // 2 if pairings is None else len(pairings)
    prog, advance = progress_bar(
        args.deals * n_matches, f"ladder ({rules.name})", enabled=not args.no_progress
    )
    if prog is not None:
        prog.start()
    try:
        result = ladder(
            rules,
            levels,
            pairs=args.deals,
            seed=args.seed,
            think_ms=args.think,
            workers=args.workers,
            ray_address=args.ray,
            progress=advance,
            pairings=pairings,
        )
    finally:
        if prog is not None:
            prog.stop()
    if args.json:
        print(json.dumps(result.to_json()))
        if args.plot is not None:
            plot_ladder(result, args.plot)
        return 0
    pairs = "1 mirrored pair" if args.deals == 1 else f"{args.deals} mirrored pairs"
    lines = [f"Ladder under {rules.name}: {pairs} per match, seed {args.seed}"]
    order = sorted(range(len(levels)), key=lambda i: -result.ratings[i])
    width = max(8, *(len(lv) for lv in levels))
    if not result.anchor_scored:
        lines.append(f"  {levels[0]} won no deal: no level can be rated against it (the ratings "
                     "are anchored on it); play more deals")
    for i in order:
        ci = result.intervals[i]
        if ci is None:
            lines.append(f"  {levels[i]:<{width}}       ?   (no estimate: "
                         f"{result.why_unrated(i)}; play more deals)")
            continue
        lines.append(f"  {levels[i]:<{width}} {result.ratings[i]:7.0f}   "
                     f"(95% {ci[0]:6.0f} to {ci[1]:6.0f})")
    for m in result.matches:
        lo, hi = m.ci95
        lines.append(
            f"  {m.a} v {m.b}: {m.margin_per_deal:+.2f} per deal "
            f"({interval_text(m.pairs, lo, hi, label='95%')}), "
            f"deals won {m.deals_won[0]}-{m.deals_won[1]}"
        )
    echo("\n".join(lines))
    if args.plot is not None:  # the ratings are printed first: a failed plot loses nothing
        plot_ladder(result, args.plot)
        unrated = [lv for lv, ci in zip(levels, result.intervals, strict=True) if ci is None]
        absent = f" ({', '.join(unrated)} not drawn: no estimate)" if unrated else ""
        echo(f"  plot: {args.plot}{absent}")
    return 0
