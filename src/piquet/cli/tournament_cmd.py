"""``piquet tournament``: measure one AI level against another over mirrored deals."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from piquet.cli.text import echo
from piquet.core.errors import PiquetError
from piquet.core.rules import Format, Rules, get_rules

if TYPE_CHECKING:
    from piquet.tournament import Measure

__all__ = [
    "add_common", "check_common", "interval_text", "progress_bar", "register", "run",
    "run_matches",
]


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
        "(or parties) and counts them.  --format plays whole matches instead of first "
        "deals, in mirrored pairs (one seed, the seats swapped), and measures what the "
        "format is played for: a partie's settlement, games won and lurches, a pool's "
        "stakes.",
    )
    p.add_argument(
        "--players", nargs=2, required=True, metavar=("A", "B"), help="the two levels"
    )
    add_common(p, deals_default=100)
    p.add_argument(
        "--games", action="store_true", help="also play mirrored whole games (or parties)"
    )
    p.add_argument(
        "--format",
        default=None,
        metavar="FORMAT",
        help="play whole matches of FORMAT (game, partie or pool; those the rule set "
        "plays) instead of first deals; --deals counts the mirrored pairs of matches",
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
    import piquet.integrations.learned_whole  # noqa: F401  (registers learned-whole)
    from piquet.tournament import tournament

    check_common(args)
    rules = get_rules(args.rules)
    if args.format is not None:
        return run_matches(args, rules)
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


def run_matches(args: argparse.Namespace, rules: Rules) -> int:
    """``--format``: mirrored pairs of whole matches, reported by what they are played for."""
    from piquet.tournament import FORMAT_WORDS, format_of, match_tournament

    if args.games:
        raise PiquetError(
            "--games and --format both play whole matches: --format plays only them "
            "(leave out --games); --games plays them beside the first deals"
        )
    fmt = format_of(rules, args.format.strip().lower())
    a, b = (x.strip().lower() for x in args.players)
    one, many = FORMAT_WORDS[fmt]
    prog, advance = progress_bar(  # (one step a match)
        2 * args.deals, f"{a} v {b} ({rules.name}, {many})", enabled=not args.no_progress
    )
    if prog is not None:
        prog.start()
    try:
        result = match_tournament(
            rules, a, b, format=fmt, pairs=args.deals, seed=args.seed, think_ms=args.think,
            workers=args.workers, ray_address=args.ray, progress=advance,
        )
    finally:
        if prog is not None:
            prog.stop()
    if args.json:
        print(json.dumps(result.to_json()))
        return 0
    think = f"{args.think} ms" if args.think is not None else "default"
    n = result.pairs
    pairs = "1 mirrored pair" if n == 1 else f"{n} mirrored pairs"

    def ci(m: Measure) -> str:
        if m.ci95 is None:
            return interval_text(n, 0, 0)
        return interval_text(n, *m.ci95)

    lines = [
        f"{a} v {b} under {rules.name}, whole {many}: {pairs} ({result.matches} {many}, "
        f"{result.deals} deals), seed {args.seed}, think {think}",
    ]
    won = result.won
    share = result.won_share
    if fmt is Format.PARTIE:
        lines += [
            f"  settlement: {a} minus {b} {result.stake.mean:+.1f} points per partie "
            f"({ci(result.stake)})",
            f"  parties won: {a} {won['a']}, {b} {won['b']}, drawn {won['drawn']}; "
            f"won with the other under 100 (rubicon): {a} {result.rubicons[0]}, "
            f"{b} {result.rubicons[1]}",
        ]
    elif fmt is Format.GAME:
        lo, hi = share.ci95 if share.ci95 is not None else (share.mean, share.mean)
        spread = (f"95% CI {lo:.2f} to {hi:.2f}" if share.ci95 is not None
                  else interval_text(n, 0, 0))
        lines.append(f"  games won: {a} {won['a']}, {b} {won['b']}; {a}'s share "
                     f"{share.mean:.2f} ({spread})")
        if rules.lurch_below:
            lines += [
                f"  lurches (the loser under {rules.lurch_below}: the game counts double): "
                f"{a} {result.lurches[0]}, {b} {result.lurches[1]}",
                f"  stakes: {a} minus {b} {result.stake.mean:+.2f} a game, a lurch counting "
                f"2 ({ci(result.stake)})",
            ]
        else:
            lines.append(f"  lurches: none ({rules.name} has no lurch)")
    else:
        assert result.ledger is not None
        la, lb, lt = result.ledger
        lines += [
            f"  stakes: {a} minus {b} {result.stake.mean:+.2f} a pool ({ci(result.stake)}); "
            f"in all {a} {la:+d}, {b} {lb:+d}, the third seat {lt:+d}",
            f"  pools won: {a} {won['a']}, {b} {won['b']}, the third seat {won['third']}",
            f"  the third seat: {a} in the odd-numbered pairs (1st, 3rd, ...), {b} in the "
            f"even-numbered ones",
        ]
    if fmt is not Format.POOL:  # (a pool's games are not all between the two)
        lines.append(
            f"  points: {a} minus {b} {result.points.mean:+.1f} at the {one}'s end "
            f"({ci(result.points)})"
        )
    echo("\n".join(lines))
    return 0
