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
    p.add_argument(
        "--format",
        default=None,
        metavar="FORMAT",
        help="rate on whole matches of FORMAT won (game or partie; a drawn partie counts "
        "half) instead of first deals; --deals counts the mirrored pairs of matches a pairing",
    )
    p.add_argument(
        "--scale",
        action="store_true",
        help="play nothing: print the computer's ratings on the accounts' Glicko-2 scale, "
        "per format, as the web table uses them (piquet.levels.scale: the ladder that "
        "measured them)",
    )
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


def print_scale(as_json: bool) -> int:
    """``--scale``: the stored table of :mod:`piquet.levels.scale`."""
    from piquet.levels.scale import MEASURED, SCALE_ANCHOR, glicko_scale

    table = glicko_scale()
    if as_json:
        print(json.dumps({
            "anchor": SCALE_ANCHOR, "measured": MEASURED,
            "formats": {
                fmt: {lv: None if r is None else {"rating": r.rating, "ci95": list(r.ci95),
                                                  "deviation": r.deviation}
                      for lv, r in rows.items()}
                for fmt, rows in table.items()},
        }))
        return 0
    lines = [
        "The computer's ratings on the players' Glicko-2 scale, the one rated games between "
        "accounts move (a new account starts at 1500; 200 points more is about three wins "
        "in four), with 95% intervals.",
        f"Anchor: {SCALE_ANCHOR}.",
        f"Measured by: {MEASURED}.",
    ]
    for fmt, rows in table.items():
        lines.append(f"  {fmt}:")
        rated = sorted((r.rating, lv) for lv, r in rows.items() if r is not None)
        for lv in [lv for _, lv in reversed(rated)] + [lv for lv, r in rows.items() if r is None]:
            r = rows[lv]
            if r is None:
                lines.append(f"    {lv:<8}      ?   (won no {fmt}: below every other level, "
                             "no finite rating)")
            else:
                lines.append(f"    {lv:<8} {r.rating:6.0f}   (95% {r.ci95[0]:5.0f} to "
                             f"{r.ci95[1]:5.0f})")
    echo("\n".join(lines))
    return 0


def run(args: argparse.Namespace) -> int:
    from piquet.levels.scale import SCALE_ANCHOR_LEVEL
    from piquet.players import player_factory
    from piquet.tournament import FORMAT_WORDS, format_of, ladder, on_glicko_scale, plot_ladder

    if args.scale:
        return print_scale(args.json)
    check_common(args)
    rules = get_rules(args.rules)
    fmt = None if args.format is None else format_of(rules, args.format.strip().lower())
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
    per = 1 if fmt is None else 2  # (progress: a deal's pair, or each match)
    prog, advance = progress_bar(
        args.deals * n_matches * per, f"ladder ({rules.name})", enabled=not args.no_progress
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
            format=fmt,
        )
    finally:
        if prog is not None:
            prog.stop()
    glicko = None
    if fmt is not None and SCALE_ANCHOR_LEVEL in levels:
        glicko = on_glicko_scale(result, SCALE_ANCHOR_LEVEL)
    if args.json:
        out = result.to_json()
        if glicko is not None:
            out["glicko"] = {lv: None if g is None else
                             {"rating": round(g[0], 1), "ci95": [round(g[1][0], 1),
                                                                 round(g[1][1], 1)]}
                             for lv, g in glicko.items()}
        print(json.dumps(out))
        if args.plot is not None:
            plot_ladder(result, args.plot)
        return 0
    pairs = "1 mirrored pair" if args.deals == 1 else f"{args.deals} mirrored pairs"
    if fmt is None:
        lines = [f"Ladder under {rules.name}: {pairs} per match, seed {args.seed}"]
    else:
        many = FORMAT_WORDS[fmt][1]
        lines = [f"Ladder of whole {many} under {rules.name}: {pairs} of {many} a pairing, "
                 f"seed {args.seed} (Elo scale on {many} won, {levels[0]} at 0)"]
    order = sorted(range(len(levels)), key=lambda i: -result.ratings[i])
    width = max(8, *(len(lv) for lv in levels))
    if not result.anchor_scored:
        what = "deal" if fmt is None else FORMAT_WORDS[fmt][0]
        lines.append(f"  {levels[0]} won no {what}: no level can be rated against it (the "
                     "ratings are anchored on it); play more deals")
    for i in order:
        ci = result.intervals[i]
        if ci is None:
            lines.append(f"  {levels[i]:<{width}}       ?   (no estimate: "
                         f"{result.why_unrated(i)}; play more deals)")
            continue
        lines.append(f"  {levels[i]:<{width}} {result.ratings[i]:7.0f}   "
                     f"(95% {ci[0]:6.0f} to {ci[1]:6.0f})")
    for w in result.match_results:
        drawn = w.won.get("drawn", 0)
        share = w.won_share
        lines.append(
            f"  {w.a} v {w.b}: won {w.won['a']}-{w.won['b']}"
            + (f", drawn {drawn}" if drawn else "")
            + f"; {w.a}'s share {share.mean:.2f} "
            f"({interval_text(w.pairs, *(share.ci95 or (0.0, 0.0)), label='95%')})"
        )
    for m in result.matches:
        lo, hi = m.ci95
        lines.append(
            f"  {m.a} v {m.b}: {m.margin_per_deal:+.2f} per deal "
            f"({interval_text(m.pairs, lo, hi, label='95%')}), "
            f"deals won {m.deals_won[0]}-{m.deals_won[1]}"
        )
    if glicko is not None:
        lines.append(f"  On the accounts' Glicko-2 scale ({SCALE_ANCHOR_LEVEL} at 1500, where "
                     "a new account starts):")
        for lv, g in sorted(glicko.items(), key=lambda kv: -(kv[1][0] if kv[1] else -1e9)):
            lines.append(f"    {lv:<{width}} ?" if g is None else
                         f"    {lv:<{width}} {g[0]:7.0f}   (95% {g[1][0]:6.0f} to "
                         f"{g[1][1]:6.0f})")
    echo("\n".join(lines))
    if args.plot is not None:  # the ratings are printed first: a failed plot loses nothing
        plot_ladder(result, args.plot)
        unrated = [lv for lv, ci in zip(levels, result.intervals, strict=True) if ci is None]
        absent = f" ({', '.join(unrated)} not drawn: no estimate)" if unrated else ""
        echo(f"  plot: {args.plot}{absent}")
    return 0
