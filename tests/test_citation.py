"""The citation and the changelog name the package's version (issue 37: "no changelog, no
citation file"): a release that raises the version must raise it in CITATION.cff too."""

from __future__ import annotations

import re
from pathlib import Path

from piquet import __version__

ROOT = Path(__file__).resolve().parents[1]


def test_the_citation_names_the_packages_version() -> None:
    text = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    assert re.search(r"^cff-version: 1\.2\.0$", text, flags=re.M)
    found = re.search(r"^version: (\S+)$", text, flags=re.M)
    assert found is not None and found.group(1) == __version__
    for key in ("message", "title", "authors", "type", "license"):
        assert re.search(rf"^{key}:", text, flags=re.M), key


def test_the_changelog_has_the_version_or_what_is_not_released_yet() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## (.+)$", text, flags=re.M)
    assert headings[0].startswith(("Unreleased", __version__)), headings[0]
    assert any(h.startswith(__version__) for h in headings) or headings[0].startswith(
        "Unreleased")
    # the rule reading that changed, called out
    assert "**2026-11-27: a partly declared run**" in text
