"""``piquet score``: score the declarations of two hands held after the exchange.

Both players declare all they hold.  With ``--elder`` and ``--younger`` it
prints a table of what each counts and why (or one JSON object with
``--json``).  With no hands it reads JSON lines from standard input, one hand
pair a line, and writes one JSON line per input line, in order; a bad line
gets ``{"error": "..."}`` and the exit status is then 1.  Blank lines are
skipped.
"""

from __future__ import annotations

import argparse
import io
import itertools
import json
import os
import re
import select
import sys
from collections.abc import Iterator, Sequence
from typing import IO, Any, Final

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from piquet.analysis.batch import batch_rows, score_batch
from piquet.analysis.handscore import HandsScore, score_hands
from piquet.cli.text import columns, tell, wrap
from piquet.core.cards import DECK32, DECK36, Card, CardSet, Rank
from piquet.core.declarations import Claim, DeclClass, best_claim, counted, score_of, statement
from piquet.core.errors import ParseError, PiquetError
from piquet.core.roles import ROLE_NAMES
from piquet.core.rules import DEFAULT_PRESET, Rules, get_rules

__all__ = ["parse_hand", "parse_hands", "register", "run"]

#: lines read (at most) before they are scored together
BATCH_LINES: Final = 8192
#: fewer valid lines than this in a batch are scored one by one (less start-up cost)
BATCH_MIN: Final = 256

_FIELDS: Final = ("elder", "younger", "elder_blanche", "younger_blanche")
_EXAMPLE: Final = '{"elder": "AS KS QS JS TS 9S AH KH QH AD KD AC", "younger": "..."}'
_ROLE: Final = ROLE_NAMES


def register(sub: Any) -> None:
    p = sub.add_parser(
        "score",
        help="score the declarations of two hands held after the exchange",
        description="Score point, sequences, sets, carte blanche and repique of two 12-card "
        "hands as held after the exchange, both players declaring all they hold. Cards are "
        "written rank then suit: ranks A K Q J T 9 8 7 6 (10 for T), suits S H D C (lower "
        "case and ♠♥♦♣ too). With no hands, read JSON lines from standard input, e.g. "
        f"{_EXAMPLE} (elder_blanche and younger_blanche optional), and write one JSON line "
        "for each, in order: carte_blanche, point, sequences, sets, repique and totals, or "
        "error for a bad line (then the exit status is 1). Blank lines are skipped.",
    )
    p.add_argument(
        "--rules",
        metavar="PRESET",
        default=None,
        help=f"rule set: a preset, an alias or a house-rule .toml file (default: {DEFAULT_PRESET})",
    )
    p.add_argument("--elder", metavar="CARDS", help="elder's 12 cards, e.g. 'AS KS QS ...'")
    p.add_argument("--younger", metavar="CARDS", help="younger's 12 cards")
    p.add_argument(
        "--elder-blanche", action="store_true", help="elder held carte blanche when dealt"
    )
    p.add_argument(
        "--younger-blanche", action="store_true", help="younger held carte blanche when dealt"
    )
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.set_defaults(run=run)


# ---------------------------------------------------------------------------- hands


def _pack_ranks(rules: Rules) -> str:
    return " ".join(Rank(r).letter for r in range(14, int(rules.low_rank) - 1, -1))


def _token_table() -> dict[str, int]:
    """Bit of each card as commonly written (``QH``, ``qh``, ``10h``, ``Q♥``), via Card.parse."""
    out: dict[str, int] = {}
    for rank in "AKQJT9876akqjt":
        for suit in "SHDCshdc♠♥♦♣":
            out[rank + suit] = Card.parse(rank + suit).bit
    for suit in "SHDCshdc♠♥♦♣":
        out["10" + suit] = Card.parse("10" + suit).bit
    return out


_TOKEN_BITS: Final = _token_table()
_SPLIT: Final = re.compile(r"[,;]+|\s+")


def _read_cards(text: str) -> CardSet:
    """``CardSet.parse(text)``, with a fast path for cards written one token each."""
    mask = 0
    tokens = _SPLIT.split(text.strip()) if "," in text or ";" in text else text.split()
    for tok in tokens or ("",):
        bit = _TOKEN_BITS.get(tok)
        if bit is None or mask & bit:
            return CardSet.parse(text)  # the full parser, and its error messages
        mask |= bit
    return CardSet(mask)


def parse_hand(text: str, rules: Rules, *, who: str) -> int:
    """The mask of one 12-card hand written as text, checked against the rule set's pack.

    Raises :class:`ParseError` for a malformed or repeated card, a card not
    in the pack, or a hand not of exactly 12 cards; the message names ``who``.
    """
    try:
        cards = _read_cards(text)
    except ParseError as exc:
        raise ParseError(f"{who}: {exc}") from None
    pack = DECK36 if rules.deck_size == 36 else DECK32
    if cards.mask & ~pack:
        outside = list(CardSet(cards.mask & ~pack))
        listed = " ".join(str(c) for c in outside)
        raise ParseError(
            f"{who}: {listed} {'is' if len(outside) == 1 else 'are'} not in the "
            f"{rules.deck_size}-card pack of {rules.name}; its ranks are {_pack_ranks(rules)}"
        )
    if len(cards) != 12:
        raise ParseError(
            f"{who} holds {len(cards)} card{'s' if len(cards) != 1 else ''}; a hand after "
            "the exchange holds exactly 12, written rank then suit and separated by spaces"
        )
    return cards.mask


def parse_hands(elder: str, younger: str, rules: Rules) -> tuple[int, int]:
    """Both hands' masks.

    Raises :class:`ParseError` as :func:`parse_hand` does, or if the hands share a card.
    """
    e = parse_hand(elder, rules, who="elder")
    y = parse_hand(younger, rules, who="younger")
    shared = e & y
    if shared:
        listed = " ".join(str(c) for c in CardSet(shared))
        raise ParseError(
            f"both hands hold {listed}: each card is in one hand only (24 different cards)"
        )
    return e, y


# ---------------------------------------------------------------------------- run


def run(args: argparse.Namespace) -> int:
    """Score one hand pair, or every JSON line of standard input.

    Raises :class:`PiquetError` for an unknown rule set or a bad single hand.
    """
    rules = get_rules(args.rules)
    if args.elder is None and args.younger is None:
        if args.elder_blanche or args.younger_blanche:
            raise PiquetError(
                "--elder-blanche and --younger-blanche go with --elder and --younger; "
                'reading standard input, put "elder_blanche": true in the line instead'
            )
        return _run_lines(rules)
    if args.elder is None or args.younger is None:
        missing = "--elder" if args.elder is None else "--younger"
        raise PiquetError(
            f"{missing} is missing: give both --elder and --younger (12 cards each), "
            "or neither to read JSON lines from standard input"
        )
    e, y = parse_hands(args.elder, args.younger, rules)
    result = score_hands(
        e, y, rules, elder_blanche=args.elder_blanche, younger_blanche=args.younger_blanche
    )
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        _print_table(rules, (e, y), (args.elder_blanche, args.younger_blanche), result)
    return 0


# ---------------------------------------------------------------------------- the table


def _claim_words(claim: Claim | None, rules: Rules) -> str:
    return "none" if claim is None else statement(claim, rules)


def _held_words(held: list[Claim], rules: Rules) -> str:
    return ", ".join(f"{statement(c, rules)} ({score_of(c, rules)})" for c in held)


def _class_result(
    cls: DeclClass, hands: tuple[int, int], rules: Rules, winner: int | None, score: int
) -> tuple[str, str, str]:
    best = (best_claim(hands[0], cls, rules), best_claim(hands[1], cls, rules))
    cells = (_claim_words(best[0], rules), _claim_words(best[1], rules))
    if winner is None:
        if best[0] is None and best[1] is None:
            why = "neither holds one"
        else:
            why = "equal: neither counts"
        return cells[0], cells[1], why
    mine, theirs = best[winner], best[1 - winner]
    assert mine is not None
    if theirs is None:
        why = f"{_ROLE[winner]} counts {score}: {_ROLE[1 - winner]} holds none"
    else:
        why = (
            f"{_ROLE[winner]} counts {score}: {statement(mine, rules)} beats "
            f"{statement(theirs, rules)}"
        )
    held, _ = counted(hands[winner], mine, rules)
    if cls is not DeclClass.POINT and (len(held) > 1 or held[0].cards != mine.cards):
        why += f"; counted: {_held_words(held, rules)}"
    return cells[0], cells[1], why


def _row(table: Table, *cells: str) -> None:
    table.add_row(*(escape(c) for c in cells))


def _print_table(
    rules: Rules, hands: tuple[int, int], blanche: tuple[bool, bool], result: HandsScore
) -> None:
    width = columns()
    console = Console(highlight=False, soft_wrap=False, width=width)
    lines = [f"Declarations under {rules.name}, both declaring all they hold:"]
    for seat in (0, 1):
        lines.append(f"  {_ROLE[seat]:<8} {CardSet(hands[seat]).sorted_text()}")
    console.print(escape(wrap("\n".join(lines), width)), soft_wrap=True)
    table = Table(show_lines=True)
    table.add_column("class", no_wrap=True)
    table.add_column("elder")
    table.add_column("younger")
    table.add_column("counted, and why")
    # carte blanche
    pts = result.carte_blanche
    if blanche[0] and blanche[1] and not rules.both_blanche_score:
        why = f"both hold carte blanche: neither counts it under {rules.name}"
    elif any(pts):
        why = ", ".join(f"{_ROLE[s]} counts {pts[s]}" for s in (0, 1) if pts[s])
    else:
        why = "neither counts"
    _row(table, "carte blanche", *("carte blanche" if b else "-" for b in blanche), why)
    for label, cls, outcome in (
        ("point", DeclClass.POINT, result.point),
        ("sequences", DeclClass.SEQUENCE, result.sequences),
        ("sets", DeclClass.SET, result.sets),
    ):
        _row(table, label, *_class_result(cls, hands, rules, outcome.winner, outcome.score))
    if result.repique is None:
        _row(table, "repique", "", "", "none")
    else:
        seat = result.repique
        _row(
            table,
            "repique",
            "",
            "",
            f"{_ROLE[seat]} scores repique, +{rules.repique_bonus}: "
            f"{rules.pique_threshold} in hand before {_ROLE[1 - seat]} counted anything",
        )
    _row(
        table,
        "total",
        str(result.totals[0]),
        str(result.totals[1]),
        "carte blanche, declarations and repique",
    )
    console.print(table)


# ---------------------------------------------------------------------------- JSON lines


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return {str: "a string", int: "a number", float: "a number", list: "a list", dict: "an object"}[
        type(value)
    ]


def _parse_line(text: str, rules: Rules) -> tuple[int, int, bool, bool]:
    """One input line as (elder, younger, elder_blanche, younger_blanche).

    Raises :class:`ParseError` saying what is wrong and what is allowed.
    """
    try:
        data = json.loads(text)
    except RecursionError:
        raise ParseError(
            f"JSON nested too deep: write one flat object per line, e.g. {_EXAMPLE}"
        ) from None
    except json.JSONDecodeError as exc:
        raise ParseError(
            f"not JSON ({exc.msg} at column {exc.colno}): write one object per line, "
            f"e.g. {_EXAMPLE}"
        ) from None
    if not isinstance(data, dict):
        raise ParseError(
            f'a line must be a JSON object with "elder" and "younger", not {_type_name(data)}'
            f"; e.g. {_EXAMPLE}"
        )
    unknown = [k for k in data if k not in _FIELDS]
    if unknown:
        extra = " (the rule set is given by --rules)" if "rules" in unknown else ""
        raise ParseError(
            f"unknown field {unknown[0]!r}{extra}: a line may hold "
            "elder, younger, elder_blanche and younger_blanche"
        )
    hands: list[str] = []
    for who in ("elder", "younger"):
        if who not in data:
            raise ParseError(
                f'"{who}" is missing: each line needs "elder" and "younger", 12 cards each, '
                f"e.g. {_EXAMPLE}"
            )
        value = data[who]
        if not isinstance(value, str):
            raise ParseError(
                f'"{who}" must be a string of 12 cards such as "AS KS QS JS ...", '
                f"not {_type_name(value)}"
            )
        hands.append(value)
    flags: list[bool] = []
    for key in ("elder_blanche", "younger_blanche"):
        value = data.get(key, False)
        if not isinstance(value, bool):
            raise ParseError(f'"{key}" must be true or false, not {_type_name(value)}')
        flags.append(value)
    e, y = parse_hands(hands[0], hands[1], rules)
    return e, y, flags[0], flags[1]


def _ready(fd: int) -> bool:
    """More input is waiting on ``fd`` right now."""
    try:
        readable, _, _ = select.select([fd], [], [], 0)
    except (OSError, ValueError):
        return True
    return bool(readable)


def _fd_batches(fd: int, size: int) -> Iterator[list[bytes]]:
    """Lines read straight from a file descriptor, grouped as they come.

    A batch is handed on when it is full or when no more input is waiting,
    so a program that writes one line and waits for the answer gets it.
    """
    pending = b""
    lines: list[bytes] = []
    while True:
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            break
        pending += chunk
        *complete, pending = pending.split(b"\n")
        lines.extend(complete)
        while len(lines) >= size:
            yield lines[:size]
            lines = lines[size:]
        if lines and not _ready(fd):
            yield lines
            lines = []
    if pending:
        lines.append(pending)
    for i in range(0, len(lines), size):
        yield lines[i : i + size]


def _text_batches(stream: IO[str], size: int) -> Iterator[list[str]]:
    it = iter(stream)
    while batch := list(itertools.islice(it, size)):
        yield batch


def _input_batches(stream: IO[str], size: int) -> Iterator[Sequence[str | bytes]]:
    """Input lines in batches: straight from the descriptor if there is one, else as text."""
    try:
        fd = stream.fileno()
    except (OSError, AttributeError, io.UnsupportedOperation):
        fd = -1
    if fd < 0:
        yield from _text_batches(stream, size)
    else:
        yield from _fd_batches(fd, size)


def _score_lines(lines: Sequence[str | bytes], first: int, rules: Rules) -> tuple[list[str], bool]:
    """The output lines for a batch of input lines (blank ones dropped); any error?"""
    slots: list[dict[str, Any] | None] = []
    valid: list[tuple[int, int, bool, bool]] = []
    errors = False
    for n, raw in enumerate(lines, start=first):
        if isinstance(raw, bytes):
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                slots.append({"error": f"line {n}: not UTF-8 text; write JSON in UTF-8"})
                errors = True
                continue
        else:
            text = raw
        if not text.strip():
            continue
        try:
            valid.append(_parse_line(text, rules))
        except PiquetError as exc:
            slots.append({"error": f"line {n}: {exc}"})
            errors = True
            continue
        slots.append(None)
    if len(valid) >= BATCH_MIN:
        e, y, eb, yb = (list(col) for col in zip(*valid, strict=True))
        rows = batch_rows(score_batch(e, y, rules, elder_blanche=eb, younger_blanche=yb))
    else:
        rows = [
            score_hands(e, y, rules, elder_blanche=eb, younger_blanche=yb).to_json()
            for e, y, eb, yb in valid
        ]
    out: list[str] = []
    scored = iter(rows)
    for slot in slots:
        out.append(json.dumps(next(scored) if slot is None else slot))
    return out, errors


def _stdin_is_a_terminal() -> bool:
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):  # replaced or closed
        return False


def _run_lines(rules: Rules) -> int:
    if _stdin_is_a_terminal():  # not silent at a terminal: say what is read, and how to end
        tell(
            f"piquet score: reading JSON lines, one pair of hands a line, e.g. {_EXAMPLE}; "
            "end with Ctrl-D (or give --elder and --younger)"
        )
    status = 0
    first = 1
    stdout = sys.stdout
    for lines in _input_batches(sys.stdin, BATCH_LINES):
        out, errors = _score_lines(lines, first, rules)
        first += len(lines)
        if errors:
            status = 1
        if out:
            stdout.write("\n".join(out) + "\n")
            stdout.flush()
    return status
