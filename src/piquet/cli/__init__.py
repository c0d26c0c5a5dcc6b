"""The ``piquet`` command: one sub-command per module in this package.

Each module has ``register(subparsers)`` adding its parser, whose ``run``
default takes the parsed arguments and returns the exit status.  Errors of
the :class:`~piquet.core.errors.PiquetError` tree become one line on standard
error and exit status 2, never a traceback.

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

from piquet import __version__
from piquet.core.errors import PiquetError

__all__ = ["build_parser", "check_writable", "command_names", "main"]

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


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The ``piquet`` parser with every command, or with the command ``only`` alone (what
    ``piquet ONLY ...`` parses the same: the rest of its arguments are that command's).
    Raises ValueError for a name that is not a command."""
    if only is not None and only not in command_names():
        raise ValueError(f"no command {only!r}; the commands are: {', '.join(command_names())}")
    parser = argparse.ArgumentParser(
        prog="piquet",
        description="Piquet, the two-player card game, under every period and modern rule set.",
        epilog="Run 'piquet COMMAND --help' for a command's options.",
    )
    parser.add_argument("--version", action="version", version=f"piquet {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in [only] if only is not None else command_names():
        module = import_module(f"piquet.cli.{name}_cmd")
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    first = argv[0] if argv else None
    parser = build_parser(first if first in command_names() else None)
    args = parser.parse_args(argv)
    run: Callable[[argparse.Namespace], int] | None = getattr(args, "run", None)
    if run is None:
        parser.print_help()
        return 0
    try:
        return run(args)
    except PiquetError as exc:
        print(f"piquet: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\npiquet: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
