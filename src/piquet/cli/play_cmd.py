"""``piquet play``: a game at the terminal, or an unattended game between AI levels.

``piquet play`` sits you down against the computer (``--opponent LEVEL``),
``--hotseat`` against a friend at the same keyboard, ``--auto A B`` lets two
AI levels play it out (``--auto A B C``: three levels play the pool).
``--record FILE`` keeps the record (``.json`` for JSON, else the text notation);
``--resume FILE`` goes on with a saved game.
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.markup import escape

from piquet.core.errors import PiquetError
from piquet.core.match import Match, new_match
from piquet.core.notation import load, save
from piquet.core.rules import Format, get_rules
from piquet.table.summary import settlement_words

if TYPE_CHECKING:
    pass

__all__ = ["default_level", "register", "run"]

def _levels() -> dict[str, Any]:
    """The registry of AI levels (importing the players registers them)."""
    from piquet.players import LEVELS

    return LEVELS


def default_level() -> str:
    """The strongest registered level among expert, book and random."""
    from piquet.players import default_level as strongest

    return strongest()


def register(sub: Any) -> None:
    p = sub.add_parser(
        "play",
        help="play a game in the terminal (against the computer or a friend)",
        description="Play Piquet at the terminal: against the computer, against a friend at "
        "the same keyboard (--hotseat), or let two AI levels play (--auto; three levels play "
        "the pool). Type ? at any prompt for the choices; --levels lists the AI levels.",
    )
    p.add_argument("--rules", metavar="PRESET", help="rule set (preset, alias or .toml file)")
    p.add_argument("--format", choices=[f.value for f in Format], help="game, partie or pool")
    p.add_argument("--games", type=int, default=None, metavar="N", help="games in the match")
    p.add_argument(
        "--players", type=int, choices=(2, 3), default=None, help="3 plays the pool for three"
    )
    p.add_argument(
        "--opponent", metavar="LEVEL", help="the computer's level (default: the strongest)"
    )
    p.add_argument("--levels", action="store_true", help="list the AI levels and stop")
    p.add_argument("--hotseat", action="store_true", help="people in every seat, one keyboard")
    p.add_argument("--name", default=None, help="your name (default: Player)")
    p.add_argument("--names", nargs="+", metavar="NAME", help="hotseat: the players' names")
    p.add_argument("--seed", type=int, default=None, help="seed of the shuffles (a number)")
    p.add_argument("--record", metavar="FILE", help="save the record here (.json: JSON)")
    p.add_argument(
        "--overwrite", action="store_true", help="let --record replace a file already there"
    )
    p.add_argument("--date", default=None, help="the record's Date tag (default: today)")
    p.add_argument("--think-ms", type=int, default=None, metavar="MS", help="AI thinking time")
    p.add_argument("--resume", metavar="FILE", help="go on with a saved game")
    p.add_argument("--no-intro", action="store_true", help="do not offer the rules summary")
    p.add_argument("--no-clear", action="store_true", help="never clear the screen")
    p.add_argument(
        "--auto", nargs="+", metavar="LEVEL",
        help="an unattended game between two AI levels (three levels: the pool for three)",
    )
    p.add_argument("--json", action="store_true", help="with --auto: print the result as JSON")
    p.set_defaults(run=run)


def _check_level(level: str) -> str:
    name = level.strip().lower()
    levels = _levels()
    if name not in levels:
        raise PiquetError(f"unknown AI level {level!r}; the levels are: {', '.join(levels)}")
    return name


def _format(args: argparse.Namespace) -> str | None:
    if args.players == 3:
        if args.format not in (None, "pool"):
            raise PiquetError("three players play a pool: drop --format or use --format pool")
        return "pool"
    if args.players == 2 and args.format == "pool":
        raise PiquetError("a pool needs three players")
    fmt: str | None = args.format
    return fmt


def run(args: argparse.Namespace) -> int:
    if args.levels:
        levels = _levels()
        from piquet.players import LEVEL_NOTES

        print(f"AI levels, weakest first: {', '.join(levels)} (default: {default_level()})")
        import textwrap

        width = max(len(x) for x in levels)
        for x in levels:
            lines = textwrap.wrap(LEVEL_NOTES.get(x, ""), 76 - width) or [""]
            print(f"  {x:<{width}}  {lines[0]}".rstrip())
            for more in lines[1:]:
                print(" " * (width + 4) + more)
        return 0
    if args.json and not args.auto:
        raise PiquetError("--json goes with --auto (an unattended game)")
    if args.think_ms is not None and args.think_ms < 1:
        raise PiquetError(f"--think-ms must be at least 1 millisecond, not {args.think_ms}")
    if args.games is not None and args.games < 1:
        raise PiquetError(f"--games: games must be at least 1, not {args.games}")
    if args.overwrite and not args.record:
        raise PiquetError("--overwrite goes with --record FILE (the file it may replace)")
    if args.auto:
        return _run_auto(args)
    if args.resume:
        return _run_resume(args)
    return _run_new(args)


def _run_auto(args: argparse.Namespace) -> int:
    if args.hotseat or args.resume:
        raise PiquetError("--auto plays without people: drop --hotseat and --resume")
    if len(args.auto) not in (2, 3):
        raise PiquetError(
            f"--auto takes two AI levels (three for the pool), not {len(args.auto)}")
    levels = [_check_level(x) for x in args.auto]
    if args.players is not None and args.players != len(levels):
        raise PiquetError(
            f"--players {args.players} but --auto names {len(levels)} levels: "
            f"give {args.players} levels (three play the pool)")
    args.players = len(levels)
    fmt = _format(args)
    rules = get_rules(args.rules)
    same = len(set(levels)) < len(levels)
    names = [f"{lv} {i + 1}" if same else lv for i, lv in enumerate(levels)]
    match = new_match(rules, seed=args.seed, format=fmt, names=names, games=_games(args))
    from piquet.tui.session import play_unattended

    tags: dict[str, Any] = {}
    if args.date:
        tags["Date"] = args.date
    tags["Levels"] = levels
    if args.record:
        _check_new_record(args.record, overwrite=args.overwrite)
        save(args.record, match, tags=tags)  # a record that cannot be written: before play
    end = play_unattended(match, levels, think_ms=args.think_ms)
    unsaved: PiquetError | None = None
    if args.record:
        try:
            save(args.record, end, tags=tags)
        except PiquetError as exc:  # the result is still printed, then the error
            unsaved = exc
    res = end.result()
    final = {"scores": res["scores"], "winner": res["winner"]}
    if args.json:
        out = {
            "rules": rules.name,
            "format": end.format.value,
            "seed": end.seed,
            "players": list(end.names),
            "levels": levels,
            "deals": len(end.deals),
            "actions": len(end.history),
            "final": final,
            "result": res,
            "record": args.record if unsaved is None else None,
        }
        print(json.dumps(out))
        if unsaved is not None:
            raise unsaved
        return 0
    console = Console(highlight=False, soft_wrap=True)
    for g in end.games:
        a, b = g.players
        verdict = "drawn" if g.winner is None else f"{end.names[g.winner]} wins"
        # what the players settle on, as the table and the tally say it
        verdict += settlement_words(rubiconed=g.rubiconed, settled=g.settled, lurch=g.lurch)
        console.print(
            f"Game {g.number}: {end.names[a]} {g.scores[0]}, {end.names[b]} {g.scores[1]}: "
            f"{verdict}.",
            markup=False,
        )
    verdict = "drawn" if final["winner"] is None else f"{end.names[final['winner']]} wins"
    console.print(
        f"{rules.name}, seed {end.seed}, {len(end.deals)} deals: "
        f"{', '.join(f'{n} {s}' for n, s in zip(end.names, final['scores'], strict=False))}"
        f": {verdict}.",
        markup=False,
    )
    if unsaved is not None:
        raise unsaved
    if args.record:
        console.print(f"Record saved in {args.record}.", markup=False)
    return 0


def _games(args: argparse.Namespace) -> int:
    games: int = 1 if args.games is None else args.games
    return games


def _check_new_record(record: str, *, overwrite: bool) -> None:
    """Refuse a ``--record`` path that names a directory, or a file already there (unless
    ``overwrite``): an existing file is never replaced silently."""
    path = Path(record)
    if path.is_dir():
        raise PiquetError(f"--record {record}: that is a directory; give the name of a file")
    if (path.exists() or path.is_symlink()) and not overwrite:
        raise PiquetError(
            f"--record {record}: that file exists and would be replaced; choose another "
            "name, or add --overwrite to replace it"
        )


def _check_name(name: str) -> str:
    clean = name.strip()
    if not clean or not clean.isprintable():
        raise PiquetError(f"{name!r} is not a name: use one line of printable text")
    return clean


def _shared_name(names: list[str]) -> str | None:
    """Why two of ``names`` are one name at the table (letter case aside), or None."""
    seen: dict[str, str] = {}
    for name in names:
        first = seen.get(name.casefold())
        if first == name:
            return f"two players may not both be called {name!r}"
        if first is not None:
            return f"{first!r} and {name!r} would be one name at the table"
        seen[name.casefold()] = name
    return None


def _run_new(args: argparse.Namespace) -> int:
    rules = get_rules(args.rules)
    fmt = _format(args)
    n = 3 if (fmt == "pool" or (fmt is None and rules.default_format is Format.POOL)) else 2
    level = _check_level(args.opponent) if args.opponent else default_level()
    if args.hotseat:
        if args.opponent:
            raise PiquetError("--hotseat has people in every seat: drop --opponent")
        names = (
            [_check_name(x) for x in args.names]
            if args.names
            else [f"Player {i + 1}" for i in range(n)]
        )
        if len(names) != n:
            raise PiquetError(f"give {n} names to --names, not {len(names)}")
        shared = _shared_name(names)
        if shared is not None:
            raise PiquetError(f"{shared}: give each player a different name with --names")
        levels = ["human"] * n
    else:
        if args.names:
            raise PiquetError("--names is for --hotseat; use --name for your own name")
        me = _check_name(args.name) if args.name else "Player"
        others = [level.capitalize()] if n == 2 else [f"{level.capitalize()} {i}" for i in (1, 2)]
        names = [me, *others]
        if _shared_name(names) is not None:
            raise PiquetError("choose a name different from the computer's")
        levels = ["human"] + [level] * (n - 1)
    if args.record:
        _check_new_record(args.record, overwrite=args.overwrite)
    match = new_match(rules, seed=args.seed, format=fmt, names=names, games=_games(args))
    date = args.date or datetime.date.today().isoformat()
    tags: dict[str, Any] = {"Date": date, "Levels": levels}
    return _session(match, levels, tags, args, record=args.record, intro=not args.no_intro)


def _run_resume(args: argparse.Namespace) -> int:
    given = [
        opt
        for opt, value in (
            ("--rules", args.rules),
            ("--format", args.format),
            ("--games", args.games),
            ("--players", args.players),
            ("--seed", args.seed),
            ("--names", args.names),
            ("--name", args.name),
            ("--hotseat", args.hotseat or None),
            ("--opponent", args.opponent),
        )
        if value is not None
    ]
    if given:
        raise PiquetError(
            f"--resume goes on with the saved game as it was; drop {', '.join(given)}"
        )
    rec = load(args.resume)
    if rec.resigned is not None:
        raise PiquetError(
            f"{args.resume}: {rec.match.names[rec.resigned]} resigned this game; it cannot "
            "be played on (piquet replay shows it)"
        )
    match = rec.match
    tags = dict(rec.tags)
    note = None
    if "Levels" in tags:
        levels = _resumed_levels(args.resume, tags["Levels"], match.n_players)
    else:
        # a record written elsewhere (the tally, the web): you take the first seat
        levels = ["human"] + [default_level()] * (match.n_players - 1)
        others = " and ".join(f"{n}'s" for n in match.names[1:])
        seats = "seat" if match.n_players == 2 else "seats"
        note = (
            f"The record has no Levels tag: you play {match.names[0]}'s seat, the computer "
            f"({default_level()}) plays {others} {seats}."
        )
    if args.date:
        tags["Date"] = args.date
    tags["Levels"] = levels
    record = args.resume
    if args.record and not _same_file(args.record, args.resume):
        _check_new_record(args.record, overwrite=args.overwrite)
        record = args.record
    return _session(match, levels, tags, args, record=record, intro=False, note=note)


def _same_file(a: str, b: str) -> bool:
    try:
        return Path(a).resolve() == Path(b).resolve()
    except OSError:  # pragma: no cover - a path that cannot be resolved is not the same
        return False


def _resumed_levels(path: str, value: Any, n: int) -> list[str]:
    """The ``Levels`` tag of a resumed record: one entry per player, ``human`` or an AI
    level.  Raises :class:`PiquetError` naming the tag when it is not that."""
    allowed = ", ".join(["human", *_levels()])
    if not (
        isinstance(value, list)
        and len(value) == n
        and all(isinstance(x, str) for x in value)
    ):
        raise PiquetError(
            f"{path}: the Levels tag {json.dumps(value)} does not seat the {n} players; "
            f"it must list one of {allowed} for each player, as "
            f"{json.dumps(['human'] + [default_level()] * (n - 1))} (mend the tag, or remove "
            "it to play the first seat against the computer)"
        )
    levels: list[str] = []
    for lv in value:
        if lv == "human":
            levels.append(lv)
        elif lv.strip().lower() in _levels():
            levels.append(lv.strip().lower())
        else:
            raise PiquetError(
                f"{path}: the Levels tag names {lv!r}, which is not a level; "
                f"the levels are: {allowed}"
            )
    return levels


_NO_CLEAR_HOTSEAT = (
    "--no-clear cannot go with a hotseat game: the screen is cleared at each hand-over so "
    "that no player sees another's hand; drop --no-clear"
)


def _session(
    match: Match,
    levels: list[str],
    tags: dict[str, Any],
    args: argparse.Namespace,
    *,
    record: str | None,
    intro: bool,
    note: str | None = None,
) -> int:
    from piquet.tui.session import Session

    humans = sum(1 for lv in levels if lv == "human")
    if humans > 1 and args.no_clear:
        raise PiquetError(_NO_CLEAR_HOTSEAT)
    seats = [None if lv == "human" else lv for lv in levels]
    console = Console(highlight=False, soft_wrap=True)
    if sys.stdin.isatty():
        try:
            import readline  # noqa: F401  (line editing for input())
        except ImportError:  # pragma: no cover
            pass
    session = Session(
        match,
        seats=seats,
        think_ms=args.think_ms,
        console=console,
        record=Path(record) if record else None,
        tags=tags,
        undo=humans == 1 and len(levels) > 1,
        hotseat=humans > 1,
        clear=not args.no_clear,
    )
    session.save()  # a record that cannot be written is refused before anything is shown
    # through the session, which wraps at word boundaries short of the terminal's last
    # column (the terminal never breaks a word)
    session.out(escape(
        f"Piquet, {match.rules.name}: seed {match.seed}"
        + (f", record in {record}" if record else "")
        + ". Type ? at any prompt for help."))
    if note is not None:
        session.out(escape(note))
    return session.run(intro=intro)
