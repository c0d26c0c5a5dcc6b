"""The glossary: every quotation verbatim, every term the interface shows explained, and
``piquet glossary``."""

from __future__ import annotations

import json
import random
import re
import unicodedata
from importlib import import_module
from pathlib import Path

import pytest

from piquet.cli import main
from piquet.core.actions import Reply
from piquet.core.dealtypes import Phase
from piquet.core.declarations import DeclClass
from piquet.core.match import new_match
from piquet.core.roles import ROLE_NAMES
from piquet.core.rules import PRESETS, Format
from piquet.core.scoring import Kind
from piquet.core.sources import SOURCE_FILES
from piquet.core.words import aloud
from piquet.learn.glossary import GLOSSARY, SOURCE_NAMES, lookup, terms_in

_HERE = Path(__file__).resolve()
# shared/ lies beside the main checkout (two folders up) or beside the worktrees' folder
SOURCE_DIR = next(
    (d for d in (_HERE.parents[2] / "shared" / "sources", _HERE.parents[3] / "shared" / "sources",
                 _HERE.parents[1] / "docs" / "sources")
     if d.is_dir()),
    None,
)
STATIC = _HERE.parents[1] / "src" / "piquet" / "web" / "static"


def _collapse(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _fold(text: str) -> str:
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"\s+", " ", plain.lower())


# ---------------------------------------------------------------- the entries
def test_every_quotation_is_verbatim_in_its_text() -> None:
    if SOURCE_DIR is None:
        pytest.skip("the source texts are not available")
    texts = {
        name: _collapse((SOURCE_DIR / file).read_text(encoding="utf-8"))
        for name, file in SOURCE_FILES.items()
        if file is not None
    }
    quoted = 0
    for term in GLOSSARY.values():
        for use in term.uses:
            assert use.source in SOURCE_NAMES, (term.key, use.source)
            if not use.quote:
                # only Parlett's modern rules are given without a passage of a text
                assert use.source == "rubicon", f"{term.key}: {use.source} without a quote"
                continue
            assert _collapse(use.quote) in texts[use.source], (term.key, use.quote)
            quoted += 1
    assert quoted >= 60


def test_every_entry_is_complete_and_found_by_each_of_its_forms() -> None:
    for key, term in GLOSSARY.items():
        assert term.key == key and term.definition.endswith((".", ")")) and term.example
        # the words of the game itself, and the computer's own, that no text needs to give
        assert term.uses or key in ("class", "hand", "trick", "expert", "points"), key
        for other in term.see:
            assert other in GLOSSARY, f"{key}: see {other!r} is not an entry"
        for form in (term.name, *term.forms):
            found = lookup(form)
            assert found is not None, form
            # a form may be shared only by design: none is
            assert found.key == key, f"{form!r} finds {found.key}, not {key}"


def test_terms_in_reads_the_longest_form_first() -> None:
    keys = [t.key for t in terms_in("Not good: his quint major beats your quart to the king.")]
    assert keys == ["not-good", "quint", "major", "quart", "to-the"]
    assert [t.key for t in terms_in("Carte blanche! Making?")] == ["carte-blanche", "making"]
    assert terms_in("nothing here at all") == []


# ---------------------------------------------------------------- what the interface shows
def _period_terms() -> set[str]:
    """The period's own terms: those the 1754 text sets in italics, those the texts say a
    thing "is called", and the engine's own vocabulary (classes, score kinds, answers,
    phases, roles, formats, the words of a claim)."""
    out: set[str] = set()
    if SOURCE_DIR is not None:
        for file in SOURCE_FILES.values():
            if file is None:
                continue
            text = (SOURCE_DIR / file).read_text(encoding="utf-8")
            # (not the bold drop capitals: **T**HE)
            out |= {m.strip(" -") for m in re.findall(r"(?<!\*)\*([A-Z][a-z][A-Za-z' -]*)\*", text)}
            out |= set(re.findall(r'called (?:a |an )?[*"]?([A-Z][A-Za-z-]+)', text))
    # a suit, the French numbers of one passage, a rule the engine makes impossible
    # and "Cards" and "Three", plain words there: "among *Cards*", "a *Three*" (the cards and
    # a trio have their entries)
    out -= {"Spades", "The Great", "Small", "Trois", "Quatre", "Quinze", "Sept", "Renounce",
            "Piquet-Cards", "Cards", "Three"}
    out |= {k.value for k in Kind} | {c.label for c in DeclClass} | set(ROLE_NAMES)
    out |= {r.value.replace("-", " ") for r in Reply} | {f.value for f in Format}
    out |= {p.value for p in Phase if p not in (Phase.DEAL, Phase.PLAY, Phase.OVER)}
    out |= {"tierce", "quart", "quint", "sixième", "septième", "huitième", "neuvième",
            "major", "to the king", "ruff", "trio", "talon", "stock", "lurch", "rubicon",
            "sink", "making", "carte blanche", "deal by 2", "deal by 3", "which one did you "
            "lay out", "the point", "the cards", "capot", "pique", "repique", "quatorze",
            # the computer's own words, in the hints and the coach
            "the book", "expert"}
    return {t for t in out if t.strip()}


def _interface_text() -> str:
    """What the interface can show: the dialog, the spoken words and the score events of
    deals under every rule set, the rules summaries, and the browser's pages."""
    parts: list[str] = []
    for name in PRESETS:
        for seed in range(4):
            m = new_match(name, seed=seed)
            rng = random.Random(seed)
            while not m.finished and len(m.deals) < 2:
                m = m.apply(m.random_action(rng))
            deal = m.last_deal or m.deal
            assert deal is not None
            parts += [u.text for u in deal.dialog] + [aloud(u) for u in deal.dialog]
            parts += [e.kind.value + " " + e.note for e in deal.events]
        for module in ("piquet.web.summary", "piquet.tui.summary", "piquet.table.summary"):
            try:
                summary = import_module(module)
            except ImportError:
                continue
            if hasattr(summary, "rules_summary"):
                parts += list(summary.rules_summary(PRESETS[name]))
    # the sentences the hints, the coach, the lessons, the feedback and the review make
    src = _HERE.parents[1] / "src" / "piquet"
    for module in ("advisor/hints.py", "learn/words.py", "learn/coach.py", "learn/feedback.py",
                   "learn/lessons.py", "review/deal.py"):
        text = (src / module).read_text(encoding="utf-8")
        parts += [a or b for a, b in re.findall(r'"([^"\n]{3,})"|\'([^\'\n]{3,})\'', text)]
    if STATIC.is_dir():
        for path in sorted(STATIC.glob("*.html")):
            parts.append(re.sub(r"<[^>]+>", " ", path.read_text(encoding="utf-8")))
        for path in sorted(STATIC.glob("*.js")):
            src = path.read_text(encoding="utf-8")
            parts += [a or b for a, b in re.findall(r'"([^"\n]{3,})"|`([^`]{3,})`', src)]
    return _fold(" \n ".join(parts))


def test_every_term_the_interface_shows_is_in_the_glossary() -> None:
    shown = _interface_text()
    missing = []
    found = 0
    for term in sorted(_period_terms()):
        if re.search(rf"(?<![\w-]){re.escape(_fold(term))}(?![\w-])", shown):
            found += 1
            if lookup(term) is None and not terms_in(term):
                missing.append(term)
    assert found >= 25, found
    assert not missing, f"shown by the interface but not in the glossary: {missing}"


# ---------------------------------------------------------------- the command
def test_the_glossary_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["glossary", "Quatorze"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("quatorze: Four cards of one rank") and "Cotgrave (1662)" in out
    assert main(["glossary", "elder", "hand"]) == 0
    assert capsys.readouterr().out.startswith("elder: The player who did not deal")
    assert main(["glossary", "--json", "repique"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["key"] == "repique" and data["uses"][0]["quote"]
    assert main(["glossary"]) == 0
    listing = capsys.readouterr().out
    assert all(t.name + ":" in listing for t in GLOSSARY.values())
    assert main(["glossary", "quat"]) == 2
    err = capsys.readouterr().err
    assert "'quat' is not in the glossary; did you mean quart, quatorze?" in err
