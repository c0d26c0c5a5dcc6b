"""``piquet glossary [TERM]``: the period terms of Piquet, in plain words, with their sources."""

from __future__ import annotations

import argparse
import json
import shutil
import textwrap
from typing import Any

from piquet.core.errors import PiquetError


def register(sub: Any) -> None:
    p = sub.add_parser(
        "glossary",
        help="explain the period terms (elder, quint, repique, ...)",
        description="With no TERM, list every term with its one-line meaning. With TERM, "
        "print its definition, an example, and how each period text uses it.",
    )
    p.add_argument("term", nargs="*", help="a term, e.g. quatorze or 'carte blanche'")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=run)


def _wrap(line: str, width: int) -> str:
    indent = " " * (len(line) - len(line.lstrip()))
    return textwrap.fill(
        line, width=width, initial_indent="", subsequent_indent=indent + "  ",
        break_on_hyphens=False,
    )


def run(args: argparse.Namespace) -> int:
    from piquet.learn.glossary import GLOSSARY, lookup

    width = max(40, min(100, shutil.get_terminal_size((80, 24)).columns))
    if not args.term:
        if args.json:
            print(json.dumps([_json(t) for t in GLOSSARY.values()], ensure_ascii=False))
            return 0
        for t in GLOSSARY.values():
            first = t.definition.split(". ")[0].rstrip(".")
            print(_wrap(f"{t.name}: {first}.", width))
        return 0
    text = " ".join(args.term)
    term = lookup(text)
    if term is None:
        start = text.strip().lower()[:3]
        near = sorted(t.name for t in GLOSSARY.values() if t.name.lower().startswith(start))
        hint = f"; did you mean {', '.join(near)}?" if near else ""
        raise PiquetError(
            f"{text!r} is not in the glossary{hint} ('piquet glossary' lists every term)"
        )
    if args.json:
        print(json.dumps(_json(term), ensure_ascii=False))
        return 0
    for line in term.lines():
        print(_wrap(line, width))
    return 0


def _json(t: Any) -> dict[str, Any]:
    return {
        "key": t.key,
        "name": t.name,
        "definition": t.definition,
        "example": t.example,
        "forms": list(t.forms),
        "see": list(t.see),
        "uses": [
            {"source": u.source, "source_name": u.source_name, "how": u.how, "quote": u.quote}
            for u in t.uses
        ],
    }
