"""Prose for the terminal: every command's lines wrapped to the width it is read at.

A terminal breaks a line that is too long wherever its last column falls, in the middle
of a word or of a card (``Q`` at the end of one row, ``H`` at the start of the next).
Every command prints its prose through :func:`echo` (or :func:`wrap`), which breaks
lines only between words, never inside one (a card such as ``QH`` is one word), and
indents what follows under the line it continues:

* a line of prose goes on two columns in from where it started;
* a row of a table (cells set apart by two spaces or more) goes on at the start of its
  second cell, so the figures stay in their column; a cell that does not fit whole on
  the row goes to the next line there, and only a cell too wide for that column is
  itself broken between words.

The width is the terminal's (short of its last column, where a terminal may break the
line itself) when the output is a terminal, else ``COLUMNS`` where it is set, else
:data:`DEFAULT_WIDTH`; never less than :data:`MIN_WIDTH`.
"""

from __future__ import annotations

import os
import re
import sys
import textwrap
from typing import Final, TextIO

__all__ = [
    "DEFAULT_WIDTH",
    "MIN_WIDTH",
    "columns",
    "echo",
    "is_terminal",
    "tell",
    "wrap",
    "wrap_line",
]

#: the width of output that is not a terminal (a pipe, a file), unless COLUMNS says
DEFAULT_WIDTH: Final = 80
#: no narrower than this, whatever the terminal says (every line would be a word)
MIN_WIDTH: Final = 40
#: a row's continuation lines keep at least this much room after the column they go on at
_ROOM: Final = 28

_CELL: Final = re.compile(r"\S+(?: \S+)*")


def is_terminal(stream: TextIO) -> bool:
    """Whether ``stream`` is a terminal (False for a pipe, a file, or a stream replaced
    by one that cannot say)."""
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # replaced or closed
        return False


def _columns_env() -> int | None:
    raw = os.environ.get("COLUMNS", "").strip()
    if raw.isascii() and raw.isdigit() and 0 < int(raw) < 10_000:
        return int(raw)
    return None


def columns(stream: TextIO | None = None) -> int:
    """The width to wrap ``stream``'s lines at (standard output by default).

    At a terminal, its width less one column (``COLUMNS`` first, as the shell sets it);
    elsewhere ``COLUMNS`` if it is set, else :data:`DEFAULT_WIDTH`; at least
    :data:`MIN_WIDTH`.
    """
    out = sys.stdout if stream is None else stream
    env = _columns_env()
    if is_terminal(out):
        width = env
        if width is None:
            try:
                width = os.get_terminal_size(out.fileno()).columns
            except (AttributeError, ValueError, OSError):
                width = DEFAULT_WIDTH + 1
        return max(MIN_WIDTH, width - 1)
    return max(MIN_WIDTH, DEFAULT_WIDTH if env is None else env)


def _words(text: str, width: int, *, first: int, rest: int) -> list[str]:
    """``text`` broken between words: its first line at column ``first``, the others at
    ``rest``; a word longer than the room is left whole (never broken)."""
    return textwrap.wrap(
        text,
        width,
        initial_indent=" " * first,
        subsequent_indent=" " * rest,
        break_long_words=False,
        break_on_hyphens=False,
    )


def wrap_line(line: str, width: int) -> list[str]:
    """One line broken into lines of at most ``width`` columns (see the module's words);
    a line that fits is returned as it is, and so is a word wider than the room."""
    line = line.rstrip()
    if len(line) <= width:
        return [line]
    indent = len(line) - len(line.lstrip(" "))
    cells = list(_CELL.finditer(line, indent))
    if len(cells) == 1:
        return _words(line[indent:], width, first=indent, rest=min(indent + 2, width - _ROOM))
    hang = cells[1].start()
    if hang > width - _ROOM:
        hang = indent + 4
    hang = max(0, min(hang, width - _ROOM))
    out: list[str] = []
    current = ""
    for n, cell in enumerate(cells):
        text = cell.group()
        if n == 0:
            parts = _words(text, width, first=indent, rest=min(indent + 2, hang))
            out.extend(parts[:-1])
            current = parts[-1]
            continue
        at = max(cell.start(), len(current) + 2) if not out else len(current) + 2
        if at + len(text) <= width:
            current = current.ljust(at) + text
            continue
        if hang + len(text) <= width:  # whole on the next line, in the column
            out.append(current)
            current = " " * hang + text
            continue
        # too wide for the column anyway: begun here, gone on in the column
        parts = _words(text, width, first=at, rest=hang) if at < width - 10 else []
        if not parts or len(parts[0]) > width:
            out.append(current)
            parts = _words(text, width, first=hang, rest=hang)
        else:
            parts[0] = current + parts[0][len(current):]
        out.extend(parts[:-1])
        current = parts[-1]
    out.append(current)
    return out


def wrap(text: str, width: int | None = None, *, stream: TextIO | None = None) -> str:
    """Every line of ``text`` wrapped to ``width`` (by default :func:`columns` of
    ``stream``, standard output unless named)."""
    w = columns(stream) if width is None else width
    return "\n".join(part for line in text.split("\n") for part in wrap_line(line, w))


def echo(text: str = "", *, file: TextIO | None = None) -> None:
    """Print ``text`` wrapped to the width of ``file`` (standard output by default)."""
    out = sys.stdout if file is None else file
    print(wrap(text, stream=out), file=out)


def tell(text: str) -> None:
    """Print ``text`` on standard error: wrapped at a terminal, each line whole into a
    pipe or a log (where a line is read as one message)."""
    err = sys.stderr
    print(wrap(text, stream=err) if is_terminal(err) else text, file=err)
