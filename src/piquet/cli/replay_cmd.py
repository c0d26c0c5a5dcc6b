"""``piquet replay FILE``: replay a record through the engine and check every statement.

Every move must be legal and every stated hand, trick and score must be what
the replay gives; otherwise the record is refused with the line (or action)
and the deal that is wrong, and exit status 2.  ``--show`` shows the game move
by move and the play trick by trick (who led, who won, what was counted, the
score), waiting at a terminal for Enter before each trick and each deal;
``--json`` prints the result as JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.markup import escape

from piquet.cli.text import columns, echo, wrap_line
from piquet.cli.text import is_terminal as _is_terminal
from piquet.core.actions import Action, Play
from piquet.core.cards import Card
from piquet.core.deal import Deal
from piquet.core.match import Match, new_match
from piquet.core.notation import DealNotes, annotate, load, utterance_line
from piquet.core.roles import ELDER, ROLE_NAMES, YOUNGER
from piquet.core.view import deal_view
from piquet.tui.screen import trick_lines

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
    p.add_argument(
        "--show",
        action="store_true",
        help="show the game move by move and trick by trick (who led, who won, the score); "
        "at a terminal it waits for Enter before each trick (d: the rest of the deal, q: stop)",
    )
    p.add_argument(
        "--no-pause",
        action="store_true",
        help="with --show: print it all without waiting (as when the input or output is not "
        "a terminal)",
    )
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
        out = sys.stderr if args.json else sys.stdout
        pause = not args.no_pause and not args.json and _is_terminal(sys.stdin) and \
            _is_terminal(out)
        _show(m, json_mode=args.json, pause=pause)
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
    what = m.format.value if m.games_to_play == 1 else f"match of {m.games_to_play} games"
    moves = "1 move" if len(m.history) == 1 else f"{len(m.history)} moves"
    lines = [
        f"{args.file}: a {what} of {m.rules.name}, seed {m.seed}, {moves}: every move is legal "
        "and every statement agrees."
    ]
    scores = ", ".join(f"{n} {s}" for n, s in zip(m.names, final["scores"], strict=False))
    if m.finished:
        w = final["winner"]
        verdict = "drawn" if w is None else f"{m.names[w]} wins"
        res = m.result()
        # as the table says it at the end of play: the lurch, the rubiconed loser
        lurched = [g.number for g in m.games if g.lurch]
        if len(m.games) == 1:
            lurch = " Lurched: the loser pays double." if lurched else ""
        else:
            games = ", ".join(f"game {n}" for n in lurched)
            lurch = f" Lurched in {games}: the loser pays double." if lurched else ""
        lines.append(f"Result: {scores}: {verdict}.{lurch}")
        if "settled" in res:
            rubiconed = " (rubiconed)" if res.get("rubiconed") else ""
            lines.append(f"Settled for {res['settled']}{rubiconed}.")
    elif rec.resigned is not None:
        # as the table said it: the game ended there, the other player winning
        quitter = m.names[rec.resigned]
        others = [m.names[p] for p in m.in_game if p != rec.resigned]
        wins = f": {others[0]} wins" if len(others) == 1 else ""
        lines.append(
            f"Resigned: {quitter} resigned in game {m.game_number}, deal {m.deal_number}, "
            f"standing {scores}{wins}."
        )
    else:
        lines.append(
            f"Unfinished: game {m.game_number}, deal {m.deal_number}; standing {scores}. "
            f"Go on with: piquet play --resume {args.file}"
        )
    echo("\n".join(lines))
    return 0


def _colour(line: str) -> str:
    """``line`` (plain text) as Rich markup: escaped, hearts and diamonds in red."""
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


# ---------------------------------------------------------------------------- --show
@dataclass(frozen=True, slots=True)
class _Move:
    """One move of the record as the replay made it: the deal before and after it."""

    player: int
    role: int
    action: Action
    notes: tuple[str, ...]
    """What the record's notation says the move did (:func:`piquet.core.notation.annotate`)."""
    before: Deal
    after: Deal
    game_before: dict[int, int]
    """The game's score of each player in it when the move's deal began."""


def _deals_of(m: Match) -> list[tuple[DealNotes, list[_Move]]]:
    """Every deal of ``m`` with its moves, replayed again from the seed (the record has
    already been checked: it replays)."""
    notes = annotate(m)
    cur = new_match(m.rules, seed=m.seed, format=m.format, names=m.names,
                    games=m.games_to_play)
    out: list[tuple[DealNotes, list[_Move]]] = []
    history = iter(m.history)
    for dn in notes:
        moves: list[_Move] = []
        game = dict(zip(cur.in_game, cur.scores, strict=True))
        for note in dn.moves:
            player, action = next(history)
            before = cur.deal
            assert before is not None  # a move is made in a deal
            cur = cur.apply(action, player)
            nxt = cur.deal
            if nxt is not None and len(nxt.history) == len(before.history) + 1:
                after = nxt
            else:
                assert cur.last_deal is not None
                after = cur.last_deal
            moves.append(_Move(player, note.role, action, tuple(note.notes), before, after,
                               game))
        out.append((dn, moves))
    return out


@dataclass(slots=True)
class _Page:
    """Lines of the show waiting to be printed: plain text, or Rich markup as it is."""

    lines: list[tuple[str, str]] = field(default_factory=list)

    def text(self, line: str, *, bold: bool = False) -> None:
        self.lines.append(("bold" if bold else "text", line))

    def markup(self, line: str) -> None:
        self.lines.append(("markup", line))

    def flush(self, console: Console, width: int) -> None:
        for kind, line in self.lines:
            if kind == "markup":
                console.print(line)
                continue
            for part in wrap_line(line, width):
                console.print(f"[bold]{_colour(part)}[/bold]" if kind == "bold" else _colour(part))
        self.lines.clear()


def _score_line(mv: _Move, names: tuple[str, ...]) -> str:
    """The score after ``mv``: this deal's points and the game's, by player."""
    deal = mv.after
    elder, younger = _players_of(mv)
    pts = {elder: deal.scores[ELDER], younger: deal.scores[YOUNGER]}
    now = ", ".join(f"{names[p]} {pts[p]}" for p in mv.game_before)
    game = ", ".join(f"{names[p]} {mv.game_before[p] + pts[p]}" for p in mv.game_before)
    return f"  Score this deal: {now} · the game: {game}"


def _players_of(mv: _Move) -> tuple[int, int]:
    """(elder's player, younger's player) of the move's deal."""
    other = next(p for p in mv.game_before if p != mv.player)
    return (mv.player, other) if mv.role == ELDER else (other, mv.player)


def _said_and_counted(mv: _Move, names: tuple[str, ...]) -> list[str]:
    """What a move made said (the record's words) and counted (by the player's name)."""
    roles = _players_of(mv)
    lines = [f"  {utterance_line(u)}" for u in mv.after.dialog[len(mv.before.dialog):]]
    for e in mv.after.events[len(mv.before.events):]:
        counted = f"  {names[roles[e.role]]} counts {e.points} for {e.kind.value}"
        lines.append(f"{counted}: {e.note}" if e.note else counted)
    return lines


def _trick_lines(lead: _Move | None, mv: _Move, names: tuple[str, ...]) -> list[str]:
    """A card played (``mv``), with the card led just before it if that is ``lead``: the
    trick (who led it, who won it), then what the cards made said and counted."""
    assert isinstance(mv.action, Play)
    roles = _players_of(mv)
    done = mv.after.tricks[len(mv.before.tricks):]
    if not done:  # a card led, alone: the deal ended on it
        head = f"Trick {len(mv.after.tricks) + 1}: {names[mv.player]} leads {mv.action.card}."
        return [head, *_said_and_counted(mv, names)]
    t = done[0]
    n = len(mv.after.tricks)
    leader, follower, winner = (names[roles[r]] for r in (t.leader, 1 - t.leader, t.winner))
    led, followed = Card.from_index(t.lead), Card.from_index(t.follow)
    if lead is None:  # its card led was shown apart (something was done in between)
        head = f"Trick {n}: {follower} plays {followed} to {leader}'s {led}; {winner} wins."
        return [head, *_said_and_counted(mv, names)]
    head = f"Trick {n}: {leader} leads {led}, {follower} plays {followed}; {winner} wins."
    return [head, *_said_and_counted(lead, names), *_said_and_counted(mv, names)]


class _Pauses:
    """Whether the show waits for the reader: before each trick and each deal while
    ``on``; ``d`` lets the rest of the deal through, ``q`` stops the show, the end of
    input lets everything through."""

    def __init__(self, on: bool, page: _Page, console: Console, width: int) -> None:
        self.on = on
        self.in_deal = on
        self.stopped = False
        self._page = page
        self._console = console
        self._width = width

    def wait(self, what: str, *, deal: bool = False) -> None:
        """Print what is waiting, then wait for the reader before ``what`` comes."""
        self._page.flush(self._console, self._width)
        if not (self.on and (deal or self.in_deal)):
            return
        rest = "" if deal else " · d: the rest of this deal"
        try:
            answer = input(f"Enter: {what}{rest} · q: stop> ").strip().lower()
        except EOFError:
            self.on = self.in_deal = False
            return
        if answer in ("q", "quit"):
            self.stopped = True
        elif answer == "d" and not deal:
            self.in_deal = False


def _show(m: Match, *, json_mode: bool, pause: bool) -> None:
    """Step through the game: each deal's opening, the exchange and the declarations,
    then trick by trick (who led, who won, what was counted, the score), then the deal's
    end; with ``pause``, waiting for Enter before each trick and each deal."""
    stream = sys.stderr if json_mode else sys.stdout
    console = Console(highlight=False, file=stream, soft_wrap=True)
    width = columns(stream)
    page = _Page()
    pauses = _Pauses(pause, page, console, width)
    deals = _deals_of(m)
    for i, (dn, moves) in enumerate(deals):
        if i:
            pauses.wait("the next deal", deal=True)
            if pauses.stopped:
                return
        pauses.in_deal = pauses.on
        page.text(dn.opening[0], bold=True)
        for x in dn.opening[1:]:
            page.text(f"  {x}")
        lead: _Move | None = None  # a card led whose trick is not shown yet
        played = False
        for k, mv in enumerate(moves):
            if isinstance(mv.action, Play):
                if not played:  # what came before the first card, then trick by trick
                    played = True
                    pauses.wait("the first trick")
                    if pauses.stopped:
                        return
                ends = k == len(moves) - 1 and mv.after.is_over
                if len(mv.after.tricks) > len(mv.before.tricks) or ends:
                    for x in _trick_lines(lead, mv, m.names):
                        page.text(x)
                    page.text(_score_line(mv, m.names))
                    lead = None
                    if not ends:
                        pauses.wait("the next trick")
                        if pauses.stopped:
                            return
                else:
                    lead = mv  # shown with the card that follows it
                continue
            if lead is not None:  # something is done between the lead and the follow
                for x in _trick_lines(None, lead, m.names):
                    page.text(x)
                lead = None
            page.text(f"{m.names[mv.player]} ({ROLE_NAMES[mv.role]}): {mv.action}", bold=True)
            for x in mv.notes:
                page.text(f"      {x}")
        if lead is not None:  # the record stops on a card led (a game not played out)
            for x in _trick_lines(None, lead, m.names):
                page.text(x)
            page.text(_score_line(lead, m.names))
        if moves and isinstance(moves[-1].action, Play):  # (else the move's notes said it)
            for x in dn.closing:
                page.text(f"  {x}")
        if dn.tricks:
            page.text("")
            elder, younger = dn.players
            names = (m.names[elder], m.names[younger])
            for line in trick_lines(deal_view(moves[-1].after, ELDER), names, None, width - 2):
                page.markup(f"  {line}")
            won = [sum(1 for t in dn.tricks if t[3] == r) for r in (ELDER, YOUNGER)]
            page.text(f"  tricks won: {names[0]} {won[0]}, {names[1]} {won[1]}")
        page.text("")
    page.flush(console, width)
