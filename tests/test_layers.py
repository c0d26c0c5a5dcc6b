"""The layout shows the architecture, and the imports keep to it (docs/architecture.md):
the core imports nothing outside ``piquet.core``; nothing below the interfaces imports one.
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


def test_analysis_and_the_ai_import_no_interface() -> None:
    below = [
        p
        for p in _modules(ROOT)
        if p.parent == ROOT or p.parent.name in ("players", "advisor", "fast", "sampling")
    ]
    wrong = [
        f"{p.relative_to(ROOT)} imports {m}"
        for p in below
        if p.name not in ("__init__.py", "__main__.py")
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
    beneath = [
        p for p in _modules(ROOT)
        if p.parent == ROOT or p.parent.name in ("core", "players", "advisor", "fast", "sampling")
    ]
    wrong += [
        f"{p.relative_to(ROOT)} imports {m}"
        for p in beneath
        for m in sorted(_imports(p))
        if m.startswith("piquet.table")
    ]
    assert not wrong, "\n".join(wrong)
