"""The ``piquet`` command: one sub-command per module in this package.

Each module has ``register(subparsers)`` adding its parser, whose ``run``
default takes the parsed arguments and returns the exit status.  Errors of
the :class:`~piquet.core.errors.PiquetError` tree become one line on standard
error starting ``piquet: error:``, as every usage error of every command does
(:func:`report_error`), and exit status 2, never a traceback.  Every
command prints its prose wrapped to the terminal (:mod:`piquet.cli.text`).

A command named first (``piquet advise ...``) imports its own module only, not
every command's (a module imports what its command needs when it runs; the web
server, the tournaments and the terminal table are not loaded to advise a
discard); ``piquet``, ``piquet --help`` and the like build the whole parser.
"""

from __future__ import annotations

import argparse
import errno
import os
import pkgutil
import sys
from collections.abc import Callable, Sequence
from importlib import import_module
from pathlib import Path
from typing import Final, NoReturn

from piquet import __version__
from piquet.cli.text import tell, wrap
from piquet.core.errors import PiquetError

__all__ = [
    "build_parser",
    "check_writable",
    "command_names",
    "ERROR_PREFIX",
    "main",
    "report_error",
    "start_here",
]

#: commands listed first in --help; any other ``piquet/cli/NAME_cmd.py`` follows
FIRST = ("serve", "play", "replay", "rules", "score", "odds", "advise", "tally")


def command_names() -> list[str]:
    """Every sub-command module in this package (``NAME_cmd.py``), ``FIRST`` first."""
    import piquet.cli as pkg

    found = sorted(
        m.name[: -len("_cmd")]
        for m in pkgutil.iter_modules(pkg.__path__)
        if m.name.endswith("_cmd")
    )
    return [n for n in FIRST if n in found] + [n for n in found if n not in FIRST]


def check_writable(path: str) -> None:
    """Refuse, before any work is done, a file that could not be written later: a
    directory, a folder that does not exist, one this user may not write to.

    Raises :class:`PiquetError` ("cannot write 'PATH': REASON", as a failed write says).
    """
    p = Path(path)
    parent = p.parent if str(p.parent) else Path(".")
    if p.is_dir():
        code = errno.EISDIR
    elif p.exists():
        code = 0 if os.access(p, os.W_OK) else errno.EACCES
    elif not parent.exists():
        code = errno.ENOENT
    elif not parent.is_dir():
        code = errno.ENOTDIR
    else:
        code = 0 if os.access(parent, os.W_OK | os.X_OK) else errno.EACCES
    if code:
        raise PiquetError(f"cannot write {path!r}: {os.strerror(code)}")


#: the first commands a newcomer needs, in the order to try them; those not installed (a
#: command module not there) are left out of the list
START_HERE: Final = (
    ("serve", "play in the browser, against the computer or a friend"),
    ("play", "play in this terminal, against the computer (or --hotseat: two people)"),
    ("rules", "the rule sets; 'piquet rules NAME' shows one in full, with its sources"),
    ("glossary", "the words of the game: point, sequence, pique, elder, talon..."),
    ("puzzle", "lessons: positions to solve, each explained"),
)


def start_here(names: Sequence[str] | None = None, *, width: int | None = None) -> str:
    """The "start here" lines for a newcomer: the first commands to try (those of
    :data:`START_HERE` that are installed, i.e. among ``names``), wrapped to ``width``
    (by default standard output's)."""
    have = set(command_names() if names is None else names)
    rows = [(f"piquet {n}", what) for n, what in START_HERE if n in have]
    first = max(len(cmd) for cmd, _ in rows) + 2
    lines = ["Start here:"] + [f"  {cmd:<{first}}{what}" for cmd, what in rows]
    lines.append("Run 'piquet COMMAND --help' for a command's options.")
    return wrap("\n".join(lines), width)


#: how every error line of every command starts, its usage errors included
ERROR_PREFIX: Final = "piquet: error: "


def report_error(message: str) -> None:
    """Write an error on standard error: one line starting with :data:`ERROR_PREFIX`;
    wrapped to the width at a terminal, whole into a pipe or a log."""
    tell(ERROR_PREFIX + message)


class _Parser(argparse.ArgumentParser):
    """argparse's parser, whose usage errors start as every other error does (argparse
    writes ``piquet COMMAND: error:``): the usage, then ``piquet: error: ...``."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        report_error(message)
        sys.exit(2)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The ``piquet`` parser with every command, or with the command ``only`` alone (what
    ``piquet ONLY ...`` parses the same: the rest of its arguments are that command's).
    Raises ValueError for a name that is not a command."""
    if only is not None and only not in command_names():
        raise ValueError(f"no command {only!r}; the commands are: {', '.join(command_names())}")
    parser = _Parser(
        prog="piquet",
        description="Piquet, the two-player card game, under every period and modern rule set.",
        epilog=start_here(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"piquet {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in [only] if only is not None else command_names():
        module = import_module(f"piquet.cli.{name}_cmd")
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``piquet ARGV``; the exit status.

    With no command, the help and where to start are printed and the status is 2, as for
    any call that names no command to run (argparse's status for a usage error): a script
    that calls ``piquet`` bare has made a mistake, and a person reads the same help.
    """
    argv = sys.argv[1:] if argv is None else list(argv)
    first = argv[0] if argv else None
    parser = build_parser(first if first in command_names() else None)
    args = parser.parse_args(argv)
    run: Callable[[argparse.Namespace], int] | None = getattr(args, "run", None)
    if run is None:
        parser.print_help()
        return 2
    try:
        return run(args)
    except PiquetError as exc:
        report_error(str(exc))
        return 2
    except KeyboardInterrupt:
        print("\npiquet: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
