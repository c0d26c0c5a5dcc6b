"""``piquet rules [NAME]``: list the presets, or print every knob of one with its source."""

from __future__ import annotations

import argparse
import enum
import json
import tomllib
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from piquet.cli.text import columns, wrap
from piquet.core.rules import (
    DEFAULT_PRESET,
    KNOB_DOCS,
    PRESETS,
    Format,
    Rules,
    get_rules,
    knob_json,
)
from piquet.core.sources import SOURCE_TITLES, citation, is_reading


def register(sub: Any) -> None:
    p = sub.add_parser(
        "rules",
        help="list the rule sets, or show one rule set's knobs and sources",
        description="With no NAME, list the presets. With NAME (a preset, an alias or a "
        ".toml house-rule file), print every knob with its value and the source it rests on.",
    )
    p.add_argument("name", nargs="?", help="preset name, alias, or house-rule .toml file")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=run)


def knob_text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, enum.IntEnum):
        return getattr(value, "letter", str(int(value)))
    if isinstance(value, enum.Enum):
        return str(value.value)
    if isinstance(value, tuple):
        return ", ".join(knob_text(v) for v in value)
    return str(value)


def _base_of(name: str, rules: Rules) -> Rules | None:
    """The preset ``rules`` starts from: itself for a preset, the file's ``base`` for a
    house-rule file (already read and checked by :func:`get_rules`), else ``None``."""
    preset = PRESETS.get(rules.name)
    if preset is not None and preset == rules:
        return preset
    if name.strip().lower().endswith(".toml"):
        base = tomllib.loads(Path(name).read_text(encoding="utf-8")).get("base")
        if isinstance(base, str):
            return get_rules(base)
    return None


def _source_of(rules: Rules, knob: str, base: Rules | None) -> str:
    """The passage a knob's value rests on: the base preset's for a knob the house rules
    leave as the base has it; for a changed knob, what it was and which preset agrees."""
    value = getattr(rules, knob)
    if base is not None and getattr(base, knob) == value:
        return citation(base.name, knob)
    text = "house rule"
    if base is not None:
        text += f", changed from {base.name}'s {knob_text(getattr(base, knob))}"
    for name, preset in PRESETS.items():
        if getattr(preset, knob) == value:
            return f"{text} (same as {name}: {citation(name, knob)})"
    return text


#: narrower than this, the rule sets are listed as lines, not as a table
TABLE_WIDTH = 78


def _list_presets(console: Console, width: int) -> None:
    """The presets: a table on a terminal wide enough for one, else a line each."""
    rows = []
    for name, r in PRESETS.items():
        game = f"{r.target} up" if r.default_format is Format.GAME else (
            f"partie of {r.partie_deals}")
        rows.append((name, " (default)" if name == DEFAULT_PRESET else "",
                     SOURCE_TITLES.get(name, name), f"{r.deck_size} cards",
                     r.point_measure.value, game))
    if width >= TABLE_WIDTH:
        table = Table(title="Piquet rule sets", show_lines=False)
        table.add_column("preset", no_wrap=True)
        table.add_column("source")
        table.add_column("pack", no_wrap=True)
        table.add_column("point")
        table.add_column("game")
        for name, mark, src, pack, point, game in rows:
            table.add_row(escape(name) + (f"\n{mark.strip()}" if mark else ""), escape(src),
                          pack, point, game)
        console.print(table)
    else:
        lines = ["Piquet rule sets"]
        first = max(len(r[0]) for r in rows) + 2
        for name, mark, src, pack, point, game in rows:
            default = "the default: " if mark else ""
            lines.append(f"  {name:<{first}}{default}{src}; {pack}, the point by {point}, {game}")
        console.print(escape(wrap("\n".join(lines), width)))
    console.print(escape(wrap("Show one with: piquet rules NAME", width)))


def _show_knobs(console: Console, width: int, rules: Rules, base: Rules | None,
                title: str) -> None:
    """Every knob of ``rules``: its name and value, then what it means and the passage
    its value rests on, indented under it (readable at any width, 80 columns and less)."""
    console.print(f"[bold]{escape(wrap(title, width))}[/bold]")
    for knob, value in rules.knobs().items():
        if knob == "name":
            continue
        console.print("")
        shown = knob_text(value) + (" (a reading)" if _reading(rules, knob, base) else "")
        console.print(f"[bold]{escape(knob)}[/bold]: " + escape(
            wrap(f"{knob}: {shown}", width)[len(knob) + 2:]))
        meaning = KNOB_DOCS.get(knob, "")
        if meaning:
            console.print(escape(wrap(f"    {meaning}", width)))
        console.print(f"[dim]{escape(wrap(f'    {_source_of(rules, knob, base)}', width))}[/dim]")


def _reading(rules: Rules, knob: str, base: Rules | None) -> bool:
    """Whether the value is a reading of the text (where the rule set is a preset's)."""
    return base is not None and getattr(base, knob) == getattr(rules, knob) and is_reading(
        base.name, knob)


def run(args: argparse.Namespace) -> int:
    width = columns()
    console = Console(highlight=False, soft_wrap=True, width=width)
    if args.name is None:
        if args.json:
            print(json.dumps({"presets": list(PRESETS), "default": DEFAULT_PRESET}))
            return 0
        _list_presets(console, width)
        return 0
    rules = get_rules(args.name)
    base = _base_of(args.name, rules)
    if args.json:
        print(
            json.dumps(
                {
                    "name": rules.name,
                    "base": None if base is None else base.name,
                    "knobs": {
                        k: {
                            "value": knob_json(v),
                            "meaning": KNOB_DOCS.get(k, ""),
                            "source": _source_of(rules, k, base),
                            "reading": _reading(rules, k, base),
                        }
                        for k, v in rules.knobs().items()
                        if k != "name"
                    },
                },
                indent=2,
            )
        )
        return 0
    title = f"Rule set {rules.name}"
    if base is not None and base.name != rules.name:
        title += f" (house rules on {base.name})"
    title += ": every knob, its value, what it means and the passage it rests on"
    _show_knobs(console, width, rules, base, title)
    return 0
