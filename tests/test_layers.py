"""The layout shows the architecture, and the imports keep to it (docs/architecture.md):
every package has its layer in :data:`LAYERS` (core <- fast <- analysis <- players/advisor <-
table <- interfaces) and imports only from its own layer or beneath; the core imports nothing
outside ``piquet.core``; nothing beneath the table imports it or an interface.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "src" / "piquet"
INTERFACES = ("piquet.cli", "piquet.tui", "piquet.web", "piquet.integrations")


def _imports(path: Path) -> set[str]:
    """Every ``piquet`` module ``path`` imports, at any depth (lazy imports included)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("piquet"))
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("piquet"):
            if node.module == "piquet":
                out.update(f"piquet.{a.name}" for a in node.names)
            else:
                out.add(node.module)
    return out


def _modules(under: Path) -> list[Path]:
    return sorted(under.rglob("*.py"))


def test_the_core_imports_nothing_outside_the_core() -> None:
    wrong = [
        f"{p.relative_to(ROOT)} imports {m}"
        for p in _modules(ROOT / "core")
        for m in sorted(_imports(p))
        if not m.startswith("piquet.core")
    ]
    assert not wrong, "\n".join(wrong)


def _beneath_the_table() -> list[Path]:
    """Every module of a package beneath the table (layers 0 to 4 of :data:`LAYERS`; a
    package not placed there is named by the test that places every package)."""
    return [
        p
        for p in _modules(ROOT)
        if p.parent != ROOT and LAYERS.get(p.relative_to(ROOT).parts[0], 99) < LAYERS["table"]
    ]


def test_analysis_and_the_ai_import_no_interface() -> None:
    """Nothing beneath the table imports an interface."""
    wrong = [
        f"{p.relative_to(ROOT)} imports {m}"
        for p in _beneath_the_table()
        for m in sorted(_imports(p))
        if m.startswith(INTERFACES)
    ]
    assert not wrong, "\n".join(wrong)


def test_the_table_sits_beneath_every_interface_and_above_the_rest() -> None:
    """``piquet.table`` imports no interface, and nothing beneath it imports the table."""
    table = _modules(ROOT / "table")
    wrong = [
        f"{p.relative_to(ROOT)} imports {m}"
        for p in table
        for m in sorted(_imports(p))
        if m.startswith(INTERFACES)
    ]
    wrong += [
        f"{p.relative_to(ROOT)} imports {m}"
        for p in _beneath_the_table()
        for m in sorted(_imports(p))
        if m.startswith("piquet.table")
    ]
    assert not wrong, "\n".join(wrong)


#: every package and loose module of ``piquet``, by layer (docs/architecture.md): a module
#: imports only from its own layer or the layers beneath it.  A new package or module must be
#: placed here (the test below fails until it is).
LAYERS: dict[str, int] = {
    # 0: the rules engine and its game records (core/notation), and what needs nothing of
    # piquet (process pools)
    "core": 0, "util": 0, "__version__": 0,
    # 1: the compiled path (the C extension and its Python faces, the double-dummy solver)
    "native": 1, "_native": 1, "fast": 1,
    # 2: analysis over the rules and a seat's view: odds, the draw tables, the batch scorer,
    # the worlds a view allows (analysis/sampling), ratings
    "analysis": 2,
    # 3: the players and the advisor; the levels' names, the quick level and their strengths
    # (light: what a web process may import of them)
    "players": 3, "advisor": 3, "levels": 3,
    # 4: what uses the players: teaching, reviews, tournaments
    "learn": 4, "review": 4, "tournament": 4,
    # 5: the table, beneath every interface; the computer's work as jobs (its workers
    # import layers 3 and 4, the web process only the queue); the tally (a game played
    # with real cards, scored: its words of a finished game are the table's)
    "table": 5, "jobs": 5, "tally": 5,
    # 6: the interfaces (the command line starts the others: it may import them)
    "tui": 6, "web": 6, "integrations": 6, "cli": 7, "__main__": 7, "piquet": 7,
}


def _unit(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "piquet"


def test_every_package_and_module_has_a_layer_and_imports_only_downwards() -> None:
    unplaced: list[str] = []
    upward: list[str] = []
    for path in _modules(ROOT):
        rel = path.relative_to(ROOT.parent).with_suffix("")
        parts = [p for p in rel.parts if p != "__init__"]
        unit = _unit(".".join(parts))
        if unit not in LAYERS:
            unplaced.append(str(path.relative_to(ROOT)))
            continue
        for m in sorted(_imports(path)):
            other = _unit(m)
            if other not in LAYERS:
                unplaced.append(f"{m} (imported by {path.relative_to(ROOT)})")
            elif LAYERS[other] > LAYERS[unit]:
                upward.append(f"{path.relative_to(ROOT)} (layer {LAYERS[unit]}) imports {m} "
                              f"(layer {LAYERS[other]})")
    assert not unplaced, "place these in LAYERS:\n" + "\n".join(unplaced)
    assert not upward, "\n".join(upward)


def test_no_module_lies_loose_beside_the_packages() -> None:
    """Every module sits in the package of its layer: at ``src/piquet/`` only the package's
    own ``__init__`` and ``__main__``."""
    loose = sorted(
        p.name for p in ROOT.glob("*.py") if p.name not in ("__init__.py", "__main__.py")
    )
    assert not loose, loose
