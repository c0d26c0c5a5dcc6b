"""``piquet advise``: every legal discard of a hand ranked, the best explained, and verified.

The advisor is imported when the command runs, not when the parser is built (the other
commands do not need it).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import TYPE_CHECKING, Any

from piquet.cli.text import echo
from piquet.core.cards import CardSet
from piquet.core.errors import PiquetError
from piquet.core.rules import get_rules

if TYPE_CHECKING:
    from piquet.advisor import Advice, Explanation
    from piquet.advisor.verify import Verified
    from piquet.analysis.odds import Event

_ROLES = {"elder": 0, "younger": 1}
_ROLE_NAMES = ("elder", "younger")
#: discards verified by default (the advisor's best ones)
VERIFY_CANDIDATES = 3


def register(sub: Any) -> None:
    p = sub.add_parser(
        "advise",
        help="rank every legal discard of a hand, explain the best, verify it by play",
        description=(
            "Rank every legal discard of the twelve cards dealt (elder: 1 to his maximum; "
            "younger: assuming elder took his full allotment unless --stock says how many he "
            "left) by its value: the net points of the deal, or with --score the chance of "
            "winning the game. The declarations are exact over every draw where affordable; "
            "the play is played out for the most promising discards. --verify plays the best "
            "--candidates discards (and any --compare discard) over the same --deals deals "
            "through the engine, the strongest play both sides, and prints each one's mean "
            "with a paired 95% interval against the best."
        ),
    )
    p.add_argument("--rules", help="rule set (preset, alias or house-rule .toml)")
    p.add_argument("--role", choices=sorted(_ROLES), required=True, help="elder or younger")
    p.add_argument("--hand", required=True, help='the twelve cards dealt, e.g. "AS KS QS ..."')
    p.add_argument("--score", help="game scores before the deal: MINE,HIS (e.g. 85,92)")
    p.add_argument("--stock", type=int, metavar="N",
                   help="younger: how many cards elder left him in the stock (default: all)")
    p.add_argument("--seed", type=int, default=0, help="seed of every sample (default 0)")
    p.add_argument(
        "--samples",
        type=int,
        help="worlds each ranked discard is played in (default: the advisor's, 400)",
    )
    p.add_argument(
        "--candidates",
        type=int,
        help=(
            f"with --verify: the advisor's best K discards verified (default "
            f"{VERIFY_CANDIDATES}); without: discards played out in the ranking (default: "
            "the advisor's, 8)"
        ),
    )
    p.add_argument("--top", type=int, default=5, help="discards to print (default 5)")
    p.add_argument(
        "--verify", action="store_true", help="verify the best discards by play over many deals"
    )
    p.add_argument(
        "--deals",
        type=int,
        help="deals each verified discard is played in (default 200)",
    )
    p.add_argument(
        "--compare",
        action="append",
        metavar="CARDS",
        help="verify this discard too, against the advisor's (repeat the option; implies --verify)",
    )
    p.add_argument(
        "--opponent",
        choices=("expert", "book"),
        default="expert",
        help="how the other exchanges in the verification (default expert)",
    )
    p.add_argument(
        "--think",
        type=int,
        metavar="MS",
        help="the expert opponent's thinking budget for his exchange (default 60)",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=2,
        help="processes that share the verification's deals (default 2)",
    )
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=run)


def _score(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    parts = text.replace(" ", "").split(",")
    if len(parts) != 2 or not all(x.isascii() and x.isdigit() and len(x) <= 6 for x in parts):
        raise PiquetError(f"--score is MINE,HIS in whole points, e.g. 85,92; got {text!r:.60}")
    return int(parts[0]), int(parts[1])


def _check_options(args: argparse.Namespace, *, verifying: bool) -> None:
    """Refuse a count no advice can be given with, naming the option and its value."""
    from piquet.core.match import MAX_SEED

    if not 0 <= args.seed <= MAX_SEED:
        raise PiquetError(f"seed must be 0 to {MAX_SEED}")
    if args.top < 1:
        raise PiquetError(f"--top must be at least 1 (discards printed), not {args.top}")
    if args.samples is not None and args.samples < 2:
        raise PiquetError(f"--samples must be at least 2, not {args.samples}")
    if args.candidates is not None:
        if not verifying and args.candidates < 1:
            raise PiquetError(f"--candidates must be at least 1, not {args.candidates}")
        if verifying and args.candidates < (0 if args.compare else 1):
            raise PiquetError(
                f"--candidates must be at least 1 with --verify (0 only with --compare, to "
                f"verify the named discards alone), not {args.candidates}"
            )
    if args.deals is not None and args.deals < 2:
        raise PiquetError(f"--deals must be at least 2 (to measure the noise), not {args.deals}")
    if args.think is not None and args.think < 1:
        raise PiquetError(f"--think must be at least 1 millisecond, not {args.think}")
    if args.workers < 1:
        raise PiquetError(f"--workers must be at least 1, not {args.workers}")


def _progress_bar(enabled: bool) -> Any:
    """A Rich progress bar on standard error (a no-op when not wanted)."""
    if not enabled:
        return None
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    return Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    )


def _to_verify(top: list[CardSet], named: list[CardSet]) -> tuple[list[CardSet], list[str]]:
    """The discards to verify and their labels: the advisor's best ``top``, and the ones
    named with ``--compare`` (marked where they are among the advisor's)."""
    discards = list(top)
    labels = [f"advisor #{i + 1}" for i in range(len(discards))]
    for d in named:
        if d in discards:
            labels[discards.index(d)] += ", named"
        else:
            discards.append(d)
            labels.append("named")
    return discards, labels


def _verdict(pick: Verified, best: Verified) -> str:
    """The advisor's pick against the best by play (each a verified candidate)."""
    if pick is best:
        return f"The advisor's pick {pick.discard} is the best by play."
    if pick.within_noise:
        return (
            f"The advisor's pick {pick.discard} is within the noise of the best by play, "
            f"{best.discard}."
        )
    return (
        f"The advisor's pick {pick.discard} is worse by play than {best.discard}, "
        "beyond the noise."
    )


def run(args: argparse.Namespace) -> int:
    from piquet.advisor import (
        DEFAULT_CANDIDATES,
        DEFAULT_DEALS,
        DEFAULT_SAMPLES,
        DEFAULT_THINK_MS,
        Setup,
        advise,
        verify,
    )
    from piquet.advisor.explain import compare_lines
    from piquet.advisor.ranking import OPPONENT_SAMPLES, opponent_model

    verifying = args.verify or bool(args.compare)
    _check_options(args, verifying=verifying)
    samples = DEFAULT_SAMPLES if args.samples is None else args.samples
    deals = DEFAULT_DEALS if args.deals is None else args.deals
    think = DEFAULT_THINK_MS if args.think is None else args.think
    rules = get_rules(args.rules)
    role = _ROLES[args.role]
    if args.stock is not None and args.role != "younger":
        raise PiquetError("--stock is what elder left younger: give it with --role younger")
    hand = CardSet.parse(args.hand)
    score = _score(args.score)
    named = [CardSet.parse(c) for c in args.compare or []]
    setup = Setup.of(hand, rules, role, args.stock)
    for d in named:
        setup.check_discard(d)
    started = time.perf_counter()
    advice = advise(
        hand,
        rules,
        role=role,
        score=score,
        stock=args.stock,
        seed=args.seed,
        samples=samples,
        candidates=(
            args.candidates
            if args.candidates is not None and not verifying
            else DEFAULT_CANDIDATES
        ),
    )
    advised = time.perf_counter() - started
    if not verifying:
        if args.json:
            out = advice.to_json()
            out["seconds"] = round(advised, 3)
            print(json.dumps(out, indent=2, ensure_ascii=False))
            return 0
        echo("\n".join(advice_lines(advice, top=args.top)))
        echo(f"({advised:.1f} s)")
        return 0

    k = VERIFY_CANDIDATES if args.candidates is None else args.candidates
    discards, labels = _to_verify(advice.top(k), named)
    bar = _progress_bar(sys.stderr.isatty() and not args.json)
    task = None
    if bar is not None:
        bar.start()
        task = bar.add_task(f"playing {len(discards)} discards", total=deals)

    def progress(done: int, total: int) -> None:
        if bar is not None and task is not None:
            bar.update(task, completed=done)

    try:
        ver = verify(
            hand,
            discards,
            rules,
            role=role,
            deals=deals,
            labels=labels,
            score=score,
            stock=args.stock,
            seed=args.seed,
            opponent=args.opponent,
            think_ms=think,
            workers=args.workers,
            progress=progress,
        )
    finally:
        if bar is not None:
            bar.stop()
    elapsed = time.perf_counter() - started
    pick = ver.get(advice.best)
    best = ver.best
    versus = [ver.get(d) for d in named if d.mask != best.discard.mask]
    if best.discard.mask != pick.discard.mask:
        versus = [pick, *[v for v in versus if v.discard.mask != pick.discard.mask]]
    elif len(ver.candidates) > 1 and not versus:
        versus = [ver.candidates[1]]
    his = opponent_model(setup, OPPONENT_SAMPLES, random.Random(f"piquet-advise-{args.seed}"))
    why = [compare_lines(best, v, setup, score=score is not None, opponent=his) for v in versus]
    verdict = _verdict(pick, best)
    if args.json:
        out = advice.to_json()
        out["verification"] = ver.to_json()
        out["verdict"] = verdict
        out["why"] = why
        out["seconds"] = round(elapsed, 3)
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return 0
    echo("\n".join(advice_lines(advice, top=min(args.top, max(k, 1)))))
    echo()
    echo("\n".join(ver.lines()))
    echo(verdict)
    for block in why:
        echo("\n".join(block))
    echo(f"({elapsed:.1f} s)")
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
    from piquet.advisor.explain import LEGEND

    m = advice.method
    score = "" if advice.score is None else f", score {advice.score[0]} to {advice.score[1]}"
    sampled = not m.get("exact", True)
    out = [
        f"{_ROLE_NAMES[advice.role].capitalize()} under {advice.rules}{score}: {advice.hand}",
        f"{len(advice.ranking):,} legal discards ranked by {advice.unit}.",
        f"Declarations: {m['declarations']}.",
        f"Play: {m['play']}.",
        LEGEND,
    ]
    if advice.blanche:
        out.append("You hold carte blanche: announce it before discarding (counted first).")
    if advice.note:
        out.append(advice.note)
    explained = {e.discard: e for e in advice.explanations}
    pct = advice.score is not None
    for i, r in enumerate(advice.ranking[:top], 1):
        out.append(f"{i:>2}. discard {r.discard}   {r.figure(chance=pct, about=sampled)}")
        e = explained.get(r.discard)
        if e is not None:
            play = e.play
            if e.deals:  # its shares are counted over the simulated deals: not exact
                play += f" (about: {e.deals:,} simulated deals)"
            lines = [f"keeps {e.keeps}", chances_line(e), e.opponent, play, e.value]
            if e.why:
                lines.append(e.why)
            out.extend(f"      {line}" for line in lines)
    return out
