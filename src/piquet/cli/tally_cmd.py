"""``piquet tally``: keep the score of a game played with real cards.

Reads one entry a line from standard input (see ``help``), prints what the
program expects next and the score after each deal with what each player counted,
and saves the game as a record (``--save``) that ``--load`` resumes.  ``--json``
prints the sheet at the end as one JSON object (everything else goes to standard
error).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import textwrap
from pathlib import Path
from typing import Any, Final

from piquet.core.errors import PiquetError, RecordError
from piquet.core.match import DealSummary
from piquet.tally import TallySession, help_text, new_tally, result_text


def register(sub: Any) -> None:
    p = sub.add_parser(
        "tally",
        help="keep the score of a game played with real cards",
        description=(
            "Players at a real table enter each deal's hands, exchanges, declarations and "
            "cards as they go; the program keeps the score under their rule set, refuses what "
            "the rule set forbids (a claim the hand cannot show, a second discard, ...) and "
            "saves the game as a record. Entries are read one a line from standard input; "
            "type 'help' for them."
        ),
    )
    p.add_argument("--rules", help="rule set (preset, alias or house-rule .toml)")
    p.add_argument("--players", default="player 1,player 2", help="the two names, A,B")
    p.add_argument("--format", choices=("game", "partie"), help="default: the rule set's")
    p.add_argument("--games", type=int, default=1, help="games to play (default 1)")
    p.add_argument("--load", help="resume a saved tally record (JSON)")
    p.add_argument(
        "--save",
        help="write the record here after every entry and at the end (a file already there "
        "is refused, unless it is the --load file or --overwrite is given)",
    )
    p.add_argument(
        "--overwrite",
        action="store_true",
        help="let --save and the 'save FILE' entry replace a file already there",
    )
    p.add_argument("--strict", action="store_true", help="stop at the first refused entry")
    p.add_argument("--quiet", action="store_true", help="print only refusals and deal scores")
    p.add_argument(
        "--json",
        action="store_true",
        help="at the end, print the sheet as one JSON object (each deal's points by kind, "
        "the scores, the result, the mistakes recorded); all else goes to standard error",
    )
    p.set_defaults(run=run)


def _load(path: str) -> TallySession:
    """The tally saved in ``path``, read as ``piquet replay`` reads a record (UTF-8, a
    byte-order mark dropped, JSON nested too deeply refused)."""
    from piquet.core.notation import parse_json, read_text

    text = read_text(path)
    try:
        data = parse_json(text)
    except RecordError as exc:
        raise RecordError(f"{path!r} is not a tally record: the JSON is {exc}") from None
    except ValueError as exc:
        raise RecordError(f"{path!r} is not JSON: {exc}") from None
    return TallySession.from_record(data)


def _save(session: TallySession, path: str) -> None:
    from piquet.core.notation import write_whole

    try:
        write_whole(path, json.dumps(session.to_record(), indent=1) + "\n")
    except RecordError as exc:
        raise PiquetError(str(exc)) from None


def _same_file(a: str, b: str | None) -> bool:
    if b is None:
        return False
    try:
        return Path(a).resolve() == Path(b).resolve()
    except OSError:
        return False


class _Saves:
    """Where this session may write: a file already there only if it is the session's own
    (the ``--load`` file, the ``--save`` file once accepted, a file it saved to before) or
    ``--overwrite`` was given; a game is never replaced silently."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.overwrite: bool = args.overwrite
        self.own: list[str] = [p for p in (args.load,) if p]

    def check(self, path: str, how: str) -> None:
        p = Path(path)
        # (a directory is left to the write, which says so as a bad --save path does)
        exists = (p.exists() or p.is_symlink()) and not p.is_dir()
        if exists and not self.overwrite and not any(_same_file(path, o) for o in self.own):
            fix = (
                "add --overwrite to replace it (to go on with it, use --load)"
                if how.startswith("--")
                else "remove it first (this tally was started without --overwrite)"
            )
            raise PiquetError(
                f"{how} {path}: that file exists and would be replaced; choose another "
                f"name, or {fix}"
            )

    def accept(self, path: str) -> None:
        self.own.append(path)


def _score_line(session: TallySession) -> str:
    scores = ", ".join(f"{n} {v}" for n, v in session.scores.items())
    m = session.match
    return f"game {m.game_number}, deal {m.deal_number}: {scores}"


def _by_player(session: TallySession, d: DealSummary) -> dict[str, tuple[int, dict[str, int]]]:
    """A deal's points and its points by kind, for each player in the players' order."""
    out: dict[str, tuple[int, dict[str, int]]] = {n: (0, {}) for n in session.names}
    for p, v, kinds in zip(d.players, d.points, d.by_kind, strict=True):
        out[session.names[p]] = (v, dict(kinds))
    return out


def _deal_lines(session: TallySession, d: DealSummary) -> list[str]:
    """A finished deal: each player's points, then what he counted them for."""
    each = _by_player(session, d)
    head = f"deal {d.number} of game {d.game}: " + ", ".join(
        f"{n} {v}" for n, (v, _) in each.items())
    lines = [head]
    for n, (_, kinds) in each.items():
        what = ", ".join(f"{k} {v}" for k, v in kinds.items()) or "nothing"
        lines.append(f"  {n}: {what}")
    return lines


def _sheet_json(session: TallySession) -> dict[str, Any]:
    """The sheet as JSON: each deal with its points by kind, the games, the result."""
    m = session.match
    names = session.names
    return {
        "rules": session.rules.name,
        "players": list(names),
        "format": session.format.value,
        "games": session.games,
        "deals": [
            {
                "game": d.game,
                "number": d.number,
                "dealer": names[d.dealer],
                "elder": names[d.players[0]],
                "younger": names[d.players[1]],
                "points": {n: v for n, (v, _) in _by_player(session, d).items()},
                "by_kind": {n: k for n, (_, k) in _by_player(session, d).items()},
            }
            for d in m.deals
        ],
        "scores": session.scores,
        "finished": m.finished,
        "result": m.result() if m.finished else None,
        "result_text": result_text(session) if m.finished else None,
        "mistakes": [
            {"entry": i + 1, "text": " ".join(str(x) for x in session.steps[i].to_json()),
             "note": note}
            for i, note in session.notes().items()
        ],
        "next": None if m.finished else session.expecting(),
    }


CLI_HELP: Final = """
  score                       the score so far, and what comes next
  save FILE                   keep the sheet in FILE (--save FILE: after every entry)
  quit                        leave (asked again if the sheet is not saved)"""


def _taken_back(before: TallySession, after: TallySession) -> str:
    """What ``undo`` took back, in the record's words: a line of cards is one entry."""
    gone = before.steps[len(after.steps):]
    plays = [s.text[5:] for s in gone if s.kind == "action" and s.text.startswith("play:")]
    if plays and len(plays) == len(gone):
        n = len(plays)
        return f"took back {n} card{'s' if n != 1 else ''} played: {' '.join(plays)}"
    words = "; ".join(" ".join(str(x) for x in s.to_json()) for s in gone)
    return f"took back: {words}"


def _wrapped(text: str = "") -> None:
    """Print ``text`` wrapped at word boundaries short of the terminal's last column (the
    terminal would break a word), each line's continuation indented under it."""
    width = max(40, shutil.get_terminal_size().columns - 1)
    for line in text.split("\n"):
        if len(line) <= width:
            print(line)
            continue
        indent = " " * (len(line) - len(line.lstrip()) + 2)
        print(textwrap.fill(line, width, subsequent_indent=indent, break_long_words=False,
                            break_on_hyphens=False))


def run(args: argparse.Namespace) -> int:
    from piquet.cli import check_writable

    saves = _Saves(args)
    if args.save:
        # before the first entry, not after it
        saves.check(args.save, "--save")
        check_writable(args.save)
        saves.accept(args.save)
    if args.load:
        session = _load(args.load)
    else:
        names = [n.strip() for n in args.players.split(",")]
        if len(names) != 2:
            raise PiquetError(f"--players takes two names, A,B; got {args.players!r}")
        session = new_tally(args.rules, names=names, format=args.format, games=args.games)
    interactive = sys.stdin.isatty()
    say = _wrapped if sys.stdout.isatty() else print
    if args.json:  # standard output holds the sheet alone

        def say(text: str = "") -> None:
            print(text, file=sys.stderr)

    kept = session  # the session as last saved or loaded: entries since are not kept
    warned = False  # a leave with entries not kept was refused once
    if not args.quiet:
        say(f"Tally under {session.rules.name}: {' and '.join(session.names)}. Type help.")
        if not args.save:
            say("This sheet is kept only if you save it: type save FILE (or start with "
                "--save FILE to save after every entry).")
        if args.load:
            say(_score_line(session))
        say(f"next: {session.expecting()}")
    while True:
        try:
            line = input("tally> ") if interactive else sys.stdin.readline()
        except (EOFError, KeyboardInterrupt):
            line = "quit" if interactive else ""
            if interactive:
                print()
        if not interactive and not line:
            break
        text = line.strip()
        low = text.lower()
        if low in ("quit", "exit"):
            if interactive and session is not kept and not args.save and not warned:
                # a leave would lose the entries: say so once (a second leave goes)
                warned = True
                say("not saved: type save FILE to keep this sheet, or quit again to leave "
                    "without saving")
                continue
            break
        if low == "help":
            say(help_text(session.rules) + CLI_HELP)
            continue
        if low in ("score", "status"):
            for d in session.match.deals:
                for out in _deal_lines(session, d):
                    say(out)
            say(_score_line(session))
            say(f"next: {session.expecting()}")
            continue
        if low.startswith("save"):
            target = text[4:].strip() or args.save
            if not target:
                say("refused: save needs a file name (or --save)")
                continue
            try:
                saves.check(target, "save")
                _save(session, target)
            except PiquetError as exc:
                if args.strict:
                    raise
                say(f"refused: {exc}")  # the session goes on; save it elsewhere
                continue
            saves.accept(target)
            kept = session
            say(f"saved to {target}")
            continue
        deals_before = session.match.deals
        before = session
        try:
            session = session.enter(text)
        except PiquetError as exc:
            if args.strict:
                raise
            say(f"refused: {exc}")
            continue
        warned = False
        if low == "undo" and not args.quiet:
            say(_taken_back(before, session))
        notes = session.notes()
        if len(session.steps) > len(before.steps) and len(session.steps) - 1 in notes:
            say(notes[len(session.steps) - 1])  # a mistake of the table, and what it costs
        # a deal settled (or one settled again: a mistake found after it), with its count
        for i, d in enumerate(session.match.deals):
            if i >= len(deals_before) or deals_before[i] != d:
                for out in _deal_lines(session, d):
                    say(out)
        if args.save:
            try:
                _save(session, args.save)
                kept = session
            except PiquetError as exc:  # the entry stands; the session goes on
                if args.strict:
                    raise
                say(f"not saved: {exc} (type save FILE to save elsewhere)")
        if not args.quiet and text and not text.startswith("#"):
            say(f"next: {session.expecting()}")
    say(_score_line(session) if not session.finished else session.expecting())
    if args.save:
        _save(session, args.save)
    elif session is not kept and not args.quiet:
        say("this sheet was not saved")
    if args.json:
        print(json.dumps(_sheet_json(session), ensure_ascii=False))
    return 0
