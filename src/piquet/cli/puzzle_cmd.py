"""``piquet puzzle``: an exercise from a real deal where one choice is clearly better."""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import textwrap
from typing import Any

from piquet.core.errors import ParseError


def register(sub: Any) -> None:
    p = sub.add_parser(
        "puzzle",
        help="an exercise: a position from a real deal, find the best choice",
        description="Show a position from a real deal (only what your seat sees) and the "
        "choices; answer with a choice's number or its cards; then read what each choice is "
        "worth and why. Themes: discard (the exchange), declare (declarations and sinking), "
        "lead, play.",
    )
    p.add_argument("--rules", help="a preset rule set (default: any)")
    p.add_argument("--theme", help="discard, declare, lead or play (default: any)")
    p.add_argument("--difficulty", help="easy, medium or hard (default: any)")
    p.add_argument("--seed", type=int, help="pick the puzzle by this number (default: the first)")
    p.add_argument("--answer", help="answer without being asked (a number, an id or cards)")
    p.add_argument("--json", action="store_true", help="print the puzzle (and verdict) as JSON")
    p.set_defaults(run=run)


def _wrap(text: str, width: int, indent: str = "") -> str:
    return textwrap.fill(text, width=width, initial_indent=indent,
                         subsequent_indent=indent + "  ", break_on_hyphens=False)


def position_lines(view: Any) -> list[str]:
    """What the seat sees, as lines (a puzzle shows nothing else)."""
    from piquet.core.cards import CardSet
    from piquet.core.deal import ROLE_NAMES
    from piquet.core.words import Voice, narrated, voice

    deal = view.deal
    role = ROLE_NAMES[deal.role]
    out = [f"You are {role} ({'you did not deal' if deal.role == 0 else 'you dealt'}).",
           f"Your hand: {deal.hand}"]
    if deal.discards:
        out.append(f"You laid out: {deal.discards}")
    if deal.stock_seen:
        out.append(f"Stock cards you have seen: {deal.stock_seen}")
    if deal.opponent_shown:
        out.append(f"He has shown: {deal.opponent_shown}")
    names = ("he", "he")
    for line in deal.dialog:
        if voice(line.fact) is Voice.SPEECH:
            who = "You" if line.role == deal.role else "He"
            out.append(f"  {who}: {line.text}")
        else:
            told = narrated(line.fact, deal.role, names)
            out.append(f"  {told[:1].upper() + told[1:]}.")
    for i, t in enumerate(deal.tricks, 1):
        lead, follow = CardSet(1 << t.lead), CardSet(1 << t.follow)
        won = "you" if t.winner == deal.role else "he"
        out.append(f"  Trick {i}: {lead} led, {follow} played; {won} won it.")
    if deal.trick_lead is not None:
        out.append(f"He leads {CardSet(1 << deal.trick_lead)}: your play.")
    e, y = deal.scores
    mine, his = (e, y) if deal.role == 0 else (y, e)
    out.append(f"This deal so far: you {mine}, he {his}.")
    return out


def run(args: argparse.Namespace) -> int:
    from piquet.learn.puzzles import choose

    width = max(40, min(100, shutil.get_terminal_size((80, 24)).columns))
    puzzle = choose(rules=args.rules, theme=args.theme, difficulty=args.difficulty,
                    seed=args.seed)
    view = puzzle.view()
    labels = puzzle.labels()
    shown = puzzle.shown()
    if args.json and args.answer is None:
        print(json.dumps({**_public(puzzle), "view": view.to_json(),
                          "choices": [str(a) for a, _ in shown]}))
        return 0
    if not args.json:
        print(_wrap(f"Puzzle {puzzle.id} ({puzzle.rules}; {puzzle.theme.title}; "
                    f"{puzzle.difficulty.value})", width))
        for line in position_lines(view):
            print(_wrap(line, width))
        print("Your choices:")
        for n, (_, label) in enumerate(shown, 1):
            print(f"  {n}. {label}")
    text = args.answer
    while text is None:
        try:
            text = input("Your choice> ")
        except EOFError:
            print()
            return 1
        if not text.strip():
            text = None
    try:
        action = puzzle.read(text)
    except ParseError as exc:
        print(f"piquet: error: {exc}", file=sys.stderr)
        return 2
    verdict = puzzle.verdict(action)
    if args.json:
        print(json.dumps({**_public(puzzle), "answer": str(action), "best": verdict.best,
                          "cost": verdict.cost, "verdict": verdict.text,
                          "values": dict(zip(puzzle.options, puzzle.values, strict=True))}))
        return 0
    print(_wrap(verdict.text, width))
    print("What each choice is worth (points of the deal, on average):")
    for label, v in zip(labels, puzzle.values, strict=True):
        print(f"  {label}: {v:+.1f}")
    return 0


def _public(puzzle: Any) -> dict[str, Any]:
    """The puzzle's description (never its answer)."""
    return {"id": puzzle.id, "rules": puzzle.rules, "theme": puzzle.theme.value,
            "difficulty": puzzle.difficulty.value}
