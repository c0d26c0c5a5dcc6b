"""docs/learn.md's examples run as written."""

from __future__ import annotations

import doctest
from pathlib import Path

DOC = Path(__file__).resolve().parents[1] / "docs" / "learn.md"


def test_the_examples_in_docs_learn_run() -> None:
    result = doctest.testfile(str(DOC), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 10 and result.failed == 0


def test_the_glossarys_docstring_examples_run() -> None:
    import piquet.learn.glossary as glossary

    result = doctest.testmod(glossary)
    assert result.attempted >= 3 and result.failed == 0
