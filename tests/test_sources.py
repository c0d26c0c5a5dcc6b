"""Every preset's knob values cite their source, and every quotation is verbatim."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from piquet.core.rules import KNOB_DOCS, PRESETS
from piquet.core.sources import SOURCE_FILES, SOURCES, citation

_HERE = Path(__file__).resolve()
_SHARED = _HERE.parents[2] / "shared" / "sources"
_LOCAL = _HERE.parents[1] / "docs" / "sources"
SOURCE_DIR: Path | None = next((d for d in (_SHARED, _LOCAL) if d.is_dir()), None)

KNOBS = [k for k in KNOB_DOCS if k != "name"]
QUOTE = re.compile(r'quote: "(?P<words>.+?)"(?: - (?P<why>\S.*))?', re.DOTALL)
FORMS = ("quote: ", "reading: ", "parlett: ")


def _collapse(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def test_sources_cover_every_preset() -> None:
    assert set(SOURCES) == set(PRESETS)
    assert set(SOURCE_FILES) == set(PRESETS)
    assert SOURCE_FILES["rubicon"] is None
    for name, file in SOURCE_FILES.items():
        if name != "rubicon":
            assert file == f"{name}.txt"


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_knob_has_a_citation(preset: str) -> None:
    table = SOURCES[preset]
    assert set(table) == set(KNOBS), f"missing: {set(KNOBS) - set(table)}"
    for knob in KNOBS:
        text = citation(preset, knob)
        assert text == table[knob]
        assert text.strip(), f"{preset}.{knob}: empty citation"
        assert text.startswith(FORMS), f"{preset}.{knob}: {text!r} has no known form"
        if text.startswith("parlett: "):
            assert preset == "rubicon", f"{preset}.{knob}: parlett: is for rubicon only"
        head, _, body = text.partition(": ")
        assert body.strip(), f"{preset}.{knob}: {head}: says nothing"


@pytest.mark.parametrize("preset", list(PRESETS))
def test_quotations_are_verbatim(preset: str) -> None:
    quotes = {knob: text for knob, text in SOURCES[preset].items() if text.startswith("quote: ")}
    file = SOURCE_FILES[preset]
    if file is None:
        assert not quotes, "a preset without a source file cannot quote one"
        return
    if SOURCE_DIR is None:
        pytest.skip("the source texts are not available")
    source = _collapse((SOURCE_DIR / file).read_text(encoding="utf-8"))
    for knob, text in quotes.items():
        match = QUOTE.fullmatch(text)
        assert match, f'{preset}.{knob}: {text!r} is not quote: "..." [- why]'
        words = _collapse(match["words"])
        assert words, f"{preset}.{knob}: empty quotation"
        assert words in source, f"{preset}.{knob}: not in {file}: {words!r}"


def test_citation_names_what_is_unknown() -> None:
    assert citation(" Rubicon ", "target") == SOURCES["rubicon"]["target"]
    with pytest.raises(KeyError, match="the presets are"):
        citation("no-such-rules", "target")
    with pytest.raises(KeyError, match="the knobs are"):
        citation("rubicon", "no_such_knob")
