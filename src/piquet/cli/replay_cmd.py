"""``piquet replay FILE``: replay a record through the engine and check every statement.

Every move must be legal and every stated hand, trick and score must be what
the replay gives; otherwise the record is refused with the line (or action)
and the deal that is wrong, and exit status 2.  ``--show`` steps through the
game deal by deal; ``--json`` prints the result as JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rich.console import Console
from rich.markup import escape

from piquet.core.cards import Card
from piquet.core.match import Match
from piquet.notation import DealNotes, annotate, load

__all__ = ["final_of", "register", "run"]


def register(sub: Any) -> None:
    p = sub.add_parser(
        "replay",
        help="replay a game record, checking every move and score",
        description="Replay a game record (text notation or JSON) through the engine, checking "
        "that every move is legal and every stated hand and score is right, and print the "
        "result. A record that does not replay is refused (exit status 2).",
    )
    p.add_argument("file", help="the record (.pqn text or .json)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--show", action="store_true", help="step through the game deal by deal")
    p.set_defaults(run=run)


def final_of(match: Match) -> dict[str, Any]:
    """``{"scores": [...], "winner": ...}``: the settled result, or the standing so far."""
    if match.finished:
        res = match.result()
        return {"scores": res["scores"], "winner": res["winner"]}
    scores = [0] * match.n_players
    for p, s in zip(match.in_game, match.scores, strict=True):
        scores[p] = s
    return {"scores": scores, "winner": None}


def run(args: argparse.Namespace) -> int:
    rec = load(args.file)
    m = rec.match
    final = final_of(m)
    if args.show:
        _show(m, json_mode=args.json)
    if args.json:
        print(
            json.dumps(
                {
                    "file": args.file,
                    "rules": m.rules.name,
                    "format": m.format.value,
                    "seed": m.seed,
                    "players": list(m.names),
                    "tags": dict(rec.tags),
                    "deals": len(m.deals),
                    "actions": len(m.history),
                    "finished": m.finished,
                    "resigned": rec.resigned,
                    "final": final,
                    "result": m.result() if m.finished else None,
                }
            )
        )
        return 0
    console = _console()
    what = m.format.value if m.games_to_play == 1 else f"match of {m.games_to_play} games"
    moves = "1 move" if len(m.history) == 1 else f"{len(m.history)} moves"
    console.print(
        f"{escape(args.file)}: a {what} of {escape(m.rules.name)}, seed {m.seed}, "
        f"{moves}: every move is legal and every statement agrees.",
    )
    scores = ", ".join(f"{escape(n)} {s}" for n, s in zip(m.names, final["scores"], strict=False))
    if m.finished:
        w = final["winner"]
        verdict = "drawn" if w is None else f"{escape(m.names[w])} wins"
        res = m.result()
        # as the table says it at the end of play: the lurch, the rubiconed loser
        lurched = [g.number for g in m.games if g.lurch]
        if len(m.games) == 1:
            lurch = " Lurched: the loser pays double." if lurched else ""
        else:
            games = ", ".join(f"game {n}" for n in lurched)
            lurch = f" Lurched in {games}: the loser pays double." if lurched else ""
        console.print(f"Result: {scores}: {verdict}.{lurch}")
        if "settled" in res:
            rubiconed = " (rubiconed)" if res.get("rubiconed") else ""
            console.print(f"Settled for {res['settled']}{rubiconed}.")
    elif rec.resigned is not None:
        # as the table said it: the game ended there, the other player winning
        quitter = m.names[rec.resigned]
        others = [m.names[p] for p in m.in_game if p != rec.resigned]
        wins = f": {escape(others[0])} wins" if len(others) == 1 else ""
        console.print(
            f"Resigned: {escape(quitter)} resigned in game {m.game_number}, deal "
            f"{m.deal_number}, standing {scores}{wins}."
        )
    else:
        console.print(
            f"Unfinished: game {m.game_number}, deal {m.deal_number}; standing {scores}. "
            f"Go on with: piquet play --resume {escape(args.file)}"
        )
    return 0


def _colour(line: str) -> str:
    out = []
    for word in escape(line).split(" "):
        bare = word.rstrip(",;:.")
        if len(bare) == 2 and bare[1] in "HD":
            try:
                Card.parse(bare)
            except ValueError:
                out.append(word)
                continue
            word = f"[red]{bare}[/red]{word[2:]}"
        out.append(word)
    return " ".join(out)


def _deal_lines(dn: DealNotes, names: tuple[str, ...]) -> list[str]:
    lines = [f"[bold]{escape(dn.opening[0])}[/bold]"]
    lines += [f"  {_colour(x)}" for x in dn.opening[1:]]
    for mv in dn.moves:
        who = f"{escape(names[mv.player])} ({('elder', 'younger')[mv.role]})"
        lines.append(f"[bold]{who}[/bold]: {_colour(str(mv.action))}")
        lines += [f"      {_colour(x)}" for x in mv.notes]
    if dn.dealt is not None and dn.tricks:
        lines.append("")
        e, y = dn.players
        row_e = " ".join(str(Card.from_index(t[1] if t[0] == 0 else t[2])) for t in dn.tricks)
        row_y = " ".join(str(Card.from_index(t[2] if t[0] == 0 else t[1])) for t in dn.tricks)
        width = max(len(names[e]), len(names[y]))
        lines.append(f"  tricks  {escape(names[e]):<{width}}  {_colour(row_e)}")
        lines.append(f"          {escape(names[y]):<{width}}  {_colour(row_y)}")
        won = [0, 0]
        for t in dn.tricks:
            won[t[3]] += 1
        lines.append(f"  tricks won: {escape(names[e])} {won[0]}, {escape(names[y])} {won[1]}")
    return lines


def _console(*, stderr: bool = False) -> Console:
    """Lines wrapped at word boundaries at a terminal (never in the middle of a word);
    whole lines into a pipe or a file."""
    console = Console(highlight=False, stderr=stderr)
    console.soft_wrap = not console.is_terminal
    return console


def _show(m: Match, *, json_mode: bool) -> None:
    console = _console(stderr=json_mode)
    deals = annotate(m)
    pause = sys.stdin.isatty() and not json_mode
    for i, dn in enumerate(deals):
        for line in _deal_lines(dn, m.names):
            console.print(line)
        console.print("")
        if pause and i + 1 < len(deals):
            try:
                text = input("Enter: the next deal · q: stop> ").strip().lower()
            except EOFError:
                pause = False
                continue
            if text in ("q", "quit"):
                return
