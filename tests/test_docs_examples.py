"""Every Python example of docs/integrations.md, docs/baselines.md and the README runs as it
is written, every command of docs/baselines.md runs (on a pair of deals, a tiny training
run), and every example in a docstring of the package (``>>>``) runs as a doctest.

A researcher who followed the page stopped at ``NameError: my_policy`` (issue 37): an
example that is not run is an example that breaks.  Each fenced ``python`` block is run
on its own, in a fresh namespace, from a temporary directory; a block that needs a
framework not installed here (the ``openspiel`` or ``pettingzoo`` extra) is skipped,
naming it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = ("docs/integrations.md", "docs/baselines.md", "README.md")
SRC = ROOT / "src"

#: what a block imports -> the package it needs (the extras of pyproject.toml)
NEEDS = {
    "pyspiel": "pyspiel",
    "open_spiel": "pyspiel",
    "piquet.integrations.openspiel": "pyspiel",
    "piquet.integrations.pettingzoo": "pettingzoo",
    "piquet.fast": "gymnasium",
}

_BLOCK = re.compile(r"^```python\n(.*?)^```", flags=re.M | re.S)
_HEADING = re.compile(r"^#+ (.*)$", flags=re.M)


def examples() -> list[Any]:
    """Each Python block of each page, named by its page, section and place."""
    out = []
    for page in PAGES:
        text = (ROOT / page).read_text(encoding="utf-8")
        counts: dict[str, int] = {}
        for block in _BLOCK.finditer(text):
            headings = _HEADING.findall(text, 0, block.start())
            section = headings[-1] if headings else "top"
            counts[section] = counts.get(section, 0) + 1
            name = f"{Path(page).name}: {section} #{counts[section]}"
            out.append(pytest.param(block.group(1), id=name))
    return out


def test_the_pages_have_examples() -> None:
    assert len(examples()) >= 5
    assert any(p.id.startswith("README.md: The engine in Python") for p in examples())


@pytest.mark.parametrize("code", examples())
def test_the_example_runs_as_written(
    code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for module, package in NEEDS.items():
        if re.search(rf"^\s*(import|from) {re.escape(module)}\b", code, flags=re.M):
            pytest.importorskip(package, reason=f"the example needs {package}")
    monkeypatch.chdir(tmp_path)  # whatever an example writes goes there
    namespace: dict[str, Any] = {"__name__": "__docs_example__"}
    exec(compile(code, "<docs example>", "exec"), namespace)
    # what the examples leave behind is what they say it is
    if "returns" in namespace:
        assert sum(namespace["returns"]) == 0  # a zero-sum episode played to its end
    if "e" in namespace and hasattr(namespace["e"], "agents"):
        assert namespace["e"].agents == []  # the PettingZoo episode ran to its end
    if "obs" in namespace and "VectorEnv" in namespace:
        # the researcher's five lines (tests/test_fast_env.py reads them, this runs them):
        # 4096 games' observations and rewards, as arrays
        import numpy as np

        from piquet.fast import batch

        obs, rewards = namespace["obs"], namespace["rewards"]
        assert isinstance(obs, np.ndarray) and obs.shape == (4096, batch.OBS_SIZE)
        assert isinstance(rewards, np.ndarray) and rewards.shape == (4096,)


def test_the_example_script_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """``examples/openspiel_vs_piquet.py``, the script docs/integrations.md points to."""
    pytest.importorskip("pyspiel", reason="the example needs pyspiel")
    import runpy

    script = Path(__file__).resolve().parents[1] / "examples" / "openspiel_vs_piquet.py"
    main = runpy.run_path(str(script))["main"]
    assert main(["--rules", "rubicon", "--deals", "2", "--simulations", "5", "--level",
                 "book"]) == 0
    out = capsys.readouterr().out
    assert "deal 1: ISMCTS as elder" in out and "deal 2: ISMCTS as younger" in out


def docstring_modules() -> list[str]:
    """The package's modules whose docstrings hold an example (``>>>``)."""
    out = []
    for f in sorted((SRC / "piquet").rglob("*.py")):
        if ">>> " in f.read_text(encoding="utf-8"):
            parts = f.relative_to(SRC).with_suffix("").parts
            out.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return out


def test_the_package_has_docstring_examples() -> None:
    assert {"piquet.core.cards", "piquet.core.sources"} <= set(docstring_modules())


@pytest.mark.parametrize("module", docstring_modules())
def test_the_docstring_examples_run(module: str) -> None:
    """Each docstring example gives what it says (doctest, as written)."""
    import doctest
    import importlib

    found = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert found.attempted > 0 and found.failed == 0, found


_SH = re.compile(r"^```sh\n(.*?)^```", flags=re.M | re.S)
_ASSIGN = re.compile(r'^([A-Z_]+)="(.*)"$')
#: what each script of docs/baselines.md's commands is given on top of the page's options
#: (argparse keeps the last): a pair of deals of one preset, a training run of one update
SMALL = {
    "bench/baselines.py": ["--pairs", "1", "--presets", "rubicon"],
    "scripts/train_learned.py": ["--envs", "2", "--steps", "40", "--hidden", "8",
                                 "--hidden2", "8", "--minibatch", "64", "--checkpoints", "0"],
}


def baselines_commands() -> list[list[str]]:
    """docs/baselines.md's shell commands, in order: continued lines joined, the page's
    variables (``B="..."``) put in, comments and ``nice`` left out."""
    import shlex

    text = (ROOT / "docs" / "baselines.md").read_text(encoding="utf-8")
    out = []
    for block in _SH.finditer(text):
        names: dict[str, str] = {}
        for line in block.group(1).replace("\\\n", "").splitlines():
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if m := _ASSIGN.match(line):
                names[m.group(1)] = m.group(2)
                continue
            for name, value in names.items():
                line = line.replace(f"${name}", value)
            words = shlex.split(line)
            if words[:2] == ["nice", "-n"]:
                words = words[3:]
            out.append(words)
    return out


def test_the_baselines_commands_run(tmp_path: Path) -> None:
    """Each command of docs/baselines.md, as written but small (:data:`SMALL`), in a
    temporary directory: the training writes its checkpoint, the tournaments their rows,
    and ``--table`` prints them."""
    import shutil
    import subprocess
    import sys

    pytest.importorskip("torch", reason="the training command needs torch (the train extra)")
    pytest.importorskip("pyspiel", reason="the ISMCTS rows need pyspiel")
    commands = baselines_commands()
    assert any("scripts/train_learned.py" in c for c in commands)
    assert any("--table" in c for c in commands)
    made: dict[str, Path] = {}  # what the small training runs wrote: "cards", "whole"
    for words in commands:
        assert words[0] == ".venv/bin/python", words
        script = words[1]
        assert (ROOT / script).is_file(), script
        args = words[2:]
        if "--table" not in args:
            args += SMALL[script]
        # a checkpoint the page's training run would have written: the small run's
        for w in (w for spec in args for w in spec.split(",") if w.endswith(".npz")):
            path = tmp_path / w.split(":", 1)[-1]
            if not path.exists():
                path.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(made["whole" if "learned-whole" in w else "cards"], path)
        done = subprocess.run([sys.executable, str(ROOT / script), *args], cwd=tmp_path,
                              capture_output=True, text=True, timeout=600, check=False)
        assert done.returncode == 0, (words, done.stderr[-2000:])
        if script == "scripts/train_learned.py":
            kind = "cards" if "cards" in args else "whole"
            name = "learned-0min.npz" if kind == "cards" else "learned-whole-0min.npz"
            made[kind] = next(tmp_path.rglob(name))
        if "--table" in args:
            assert "| player | pairs | margin | 95% interval |" in done.stdout
