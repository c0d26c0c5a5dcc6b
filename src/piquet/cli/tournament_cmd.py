"""``piquet tournament``: measure one AI level against another over mirrored deals."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from piquet.cli.text import echo
from piquet.core.errors import PiquetError
from piquet.core.rules import get_rules

__all__ = ["add_common", "check_common", "interval_text", "progress_bar", "register", "run"]


def add_common(p: argparse.ArgumentParser, *, deals_default: int) -> None:
    """Options shared by ``tournament`` and ``ladder``."""
    p.add_argument(
        "--rules", default=None, metavar="PRESET", help="rule set (preset, alias or .toml file)"
    )
    p.add_argument(
        "--deals",
        type=int,
        default=deals_default,
        metavar="N",
        help=f"mirrored pairs of deals to play (default {deals_default}; each pair is two deals)",
    )
    p.add_argument("--seed", type=int, default=0, metavar="S", help="tournament seed (default 0)")
    p.add_argument(
        "--think",
        type=int,
        default=None,
        metavar="MS",
        help="thinking budget per decision in milliseconds (default: each level's own)",
    )
    p.add_argument(
        "--workers", type=int, default=1, metavar="K", help="local worker processes (default 1)"
    )
    p.add_argument(
        "--ray",
        default=None,
        metavar="ADDRESS",
        help="run on a Ray cluster at ADDRESS ('local' starts one here); needs piquet[ray]",
    )
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


def register(sub: Any) -> None:
    p = sub.add_parser(
        "tournament",
        help="measure AI level A against B over mirrored pairs of deals",
        description="Play N mirrored pairs of deals (the same cards twice, seats swapped) "
        "between two AI levels and print A's mean points per deal minus B's, with a 95% "
        "confidence interval, and the deals won.  --games also plays mirrored whole games "
        "(or parties) and counts them.",
    )
    p.add_argument(
        "--players", nargs=2, required=True, metavar=("A", "B"), help="the two levels"
    )
    add_common(p, deals_default=100)
    p.add_argument(
        "--games", action="store_true", help="also play mirrored whole games (or parties)"
    )
    p.set_defaults(run=run)


def progress_bar(
    total: int, label: str, *, enabled: bool
) -> tuple[Progress | None, Callable[[int], None] | None]:
    """A rich progress bar on standard error (None when disabled)."""
    if not enabled:
        return None, None
    prog = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(file=sys.stderr),
        transient=True,
    )
    task = prog.add_task(label, total=total)

    def advance(n: int) -> None:
        prog.advance(task, n)

    return prog, advance


def check_common(args: argparse.Namespace) -> None:
    """Refuse the options of :func:`add_common` that no tournament can run with."""
    from piquet.core.match import MAX_SEED

    if args.deals < 1:
        raise PiquetError(f"--deals must be at least 1, not {args.deals}")
    if args.workers < 1:
        raise PiquetError(f"--workers must be at least 1, not {args.workers}")
    if args.think is not None and args.think < 1:
        raise PiquetError(f"--think must be at least 1 millisecond, not {args.think}")
    if not 0 <= args.seed <= MAX_SEED:
        raise PiquetError(f"seed must be 0 to {MAX_SEED}")


def interval_text(pairs: int, lo: float, hi: float, *, label: str = "95% CI") -> str:
    """``95% CI +1.20 to +3.40``; with one pair, that there is no interval (the noise is
    measured between pairs)."""
    if pairs < 2:
        return "one pair: no interval; play 2 or more pairs to measure the noise"
    return f"{label} {lo:+.2f} to {hi:+.2f}"


def run(args: argparse.Namespace) -> int:
    from piquet.tournament import tournament

    check_common(args)
    rules = get_rules(args.rules)
    a, b = (x.strip().lower() for x in args.players)
    prog, advance = progress_bar(
        args.deals, f"{a} v {b} ({rules.name})", enabled=not args.no_progress
    )
    if prog is not None:
        prog.start()
    try:
        result = tournament(
            rules,
            a,
            b,
            pairs=args.deals,
            seed=args.seed,
            think_ms=args.think,
            workers=args.workers,
            ray_address=args.ray,
            games=args.games,
            progress=advance,
        )
    finally:
        if prog is not None:
            prog.stop()
    if args.json:
        print(json.dumps(result.to_json()))
        return 0
    lo, hi = result.ci95
    think = f"{args.think} ms" if args.think is not None else "default"
    pairs = "1 mirrored pair" if result.pairs == 1 else f"{result.pairs} mirrored pairs"
    lines = [
        f"{a} v {b} under {rules.name}: {pairs} ({2 * result.pairs} deals), seed {args.seed}, "
        f"think {think}",
        f"  {a} minus {b}: {result.margin_per_deal:+.2f} points per deal "
        f"({interval_text(result.pairs, lo, hi)})",
    ]
    aw, bw, tied = result.deals_won
    lines.append(f"  deals won: {a} {aw}, {b} {bw}, tied {tied}")
    if result.games_won is not None:
        ga, gb, gd = result.games_won
        lines.append(f"  games won: {a} {ga}, {b} {gb}, drawn {gd}; margin "
                     f"{result.game_margin:+.1f}")
    echo("\n".join(lines))
    return 0
