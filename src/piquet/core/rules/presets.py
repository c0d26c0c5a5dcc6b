"""The presets (each a named :class:`~piquet.core.rules.Rules` value, with aliases), the
look-up by name, and house rules: a preset with changed knobs, read from a mapping or a TOML
file.  The passage each preset's value rests on is in :mod:`piquet.core.sources`."""

from __future__ import annotations

import dataclasses
import enum
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from piquet.core.cards import Rank
from piquet.core.errors import RulesError
from piquet.core.rules.knobs import (
    KNOB_DOCS,
    Correction,
    FalseClaim,
    Format,
    Leftovers,
    PlayScoring,
    PointMeasure,
    PointScoring,
    Rules,
    Settlement,
    Unshown,
    name_fault,
    toml_text,
)

_BASE_36 = dict(
    deck_size=36,
    packet_sizes=(2, 3, 4),
    elder_max=8,
    younger_min=1,
    point_measure=PointMeasure.PIPS,
    point_scoring=PointScoring.TENS,
    sequence_values=(3, 4, 15, 16, 17, 18, 19),
    play_scoring=PlayScoring.TENTH_CARDS,
    younger_declares_after_lead=False,
    show_sets=False,
    false_claim=FalseClaim.DEBARRED,
)

PRESETS: Final[dict[str, Rules]] = {
    "cotgrave-1662": Rules(
        name="cotgrave-1662",
        **_BASE_36,  # type: ignore[arg-type]
        younger_leftovers=Leftovers.ELDER_NAMES_SUIT,
        ask_missing=True,
        pique_by_first_card=True,
        unshown_claim=Unshown.TO_THE_OTHER,
        call_correction=Correction.BEFORE_HIS_CARD,
    ),
    "cotton-1674": Rules(
        name="cotton-1674",
        **_BASE_36,  # type: ignore[arg-type]
        younger_leftovers=Leftovers.HIDDEN,
        ask_missing=True,
        pique_by_first_card=True,
        renounce_taken_back=False,
    ),
    "du-coeur-1995": Rules(
        name="du-coeur-1995",
        deck_size=36,
        packet_sizes=(2, 3, 4),
        elder_max=8,
        younger_max=8,
        younger_leftovers=Leftovers.YOUNGER_TURNS_UP,
        both_blanche_score=False,
        point_measure=PointMeasure.PIPS,
        point_scoring=PointScoring.TENS,
        sequences_same_suit=False,
        sequence_values=(3, 4, 15, 16, 17, 18, 19),
        show_sets=True,
        play_scoring=PlayScoring.WINNER_TENTHS,
        last_trick_tenth_bonus=2,
        target=121,
        false_claim=FalseClaim.NONE,
        unshown_claim=Unshown.NONE,
        renounce_taken_back=False,
    ),
    "court-gamester-1754": Rules(
        name="court-gamester-1754",
        deck_size=32,
        packet_sizes=(2, 3, 4),
        elder_max=5,
        younger_leftovers=Leftovers.ELDER_NAMES_CARD,
        point_measure=PointMeasure.PIPS,
        point_scoring=PointScoring.TENS,
        sequence_values=(3, 4, 15, 16, 17, 18),
        show_sets=False,
        ask_missing=True,
        show_missing=True,
        play_scoring=PlayScoring.TENTH_CARDS,
        lurch_below=50,
        formats=(Format.GAME, Format.POOL),
        unshown_claim=Unshown.TO_THE_OTHER,
        call_correction=Correction.BEFORE_ANY_CARD,
    ),
    "encyclopedia-19c": Rules(
        name="encyclopedia-19c",
        deck_size=32,
        packet_sizes=(2,),
        elder_max=5,
        younger_min=0,
        younger_leftovers=Leftovers.YOUNGER_LOOKS,
        point_measure=PointMeasure.CARDS,
        point_scoring=PointScoring.PER_CARD,
        younger_declares_after_lead=True,
        show_sets=True,
        play_scoring=PlayScoring.LEADS_AND_WINS,
        pique_elder_only=True,
        formats=(Format.GAME, Format.PARTIE),
        default_format=Format.GAME,
        settlement=Settlement.ENCYCLOPEDIA,
        partie_tie_extra_deals=False,
    ),
    "rubicon": Rules(
        name="rubicon",
        deck_size=32,
        packet_sizes=(2, 3),
        blanche_number=False,
        elder_max=5,
        younger_min=1,
        younger_leftovers=Leftovers.YOUNGER_LOOKS,
        point_measure=PointMeasure.CARDS,
        point_scoring=PointScoring.PER_CARD,
        younger_declares_after_lead=True,
        show_sets=False,
        play_scoring=PlayScoring.LEADS_AND_WINS,
        pique_elder_only=True,
        formats=(Format.PARTIE, Format.GAME),
        default_format=Format.PARTIE,
        settlement=Settlement.PARLETT,
        partie_tie_extra_deals=True,
    ),
}

DEFAULT_PRESET: Final = "encyclopedia-19c"

_ALIASES: Final = {
    "1662": "cotgrave-1662",
    "cotgrave": "cotgrave-1662",
    "1674": "cotton-1674",
    "cotton": "cotton-1674",
    "1995": "du-coeur-1995",
    "du-coeur": "du-coeur-1995",
    "1754": "court-gamester-1754",
    "court-gamester": "court-gamester-1754",
    "19c": "encyclopedia-19c",
    "encyclopedia": "encyclopedia-19c",
    "modern": "rubicon",
    "rubicon-piquet": "rubicon",
}


def get_rules(name: str | None = None) -> Rules:
    """The preset called ``name`` (or an alias); the default preset for ``None``.

    A name ending in ``.toml`` is loaded as a house-rule file.
    Raises :class:`RulesError` naming the known presets.
    """
    if name is None:
        return PRESETS[DEFAULT_PRESET]
    if name.strip().lower().endswith(".toml"):
        return load_rules_file(name)
    return preset(name)


def preset(name: str) -> Rules:
    """The preset called ``name`` (or an alias), never a file: what a record or a request
    names (a house rule travels as its knobs).  Raises :class:`RulesError` naming the
    presets."""
    key = name.strip().lower()
    key = _ALIASES.get(key, key)
    try:
        return PRESETS[key]
    except KeyError:
        raise RulesError(
            f"unknown rule set {name!r}; the presets are: {', '.join(PRESETS)}"
        ) from None


_FIELD_TYPES: Final = {f.name: f for f in dataclasses.fields(Rules)}


def _coerce(knob: str, value: Any, current: Any) -> Any:
    def fail(expected: str) -> RulesError:
        return RulesError(f"knob {knob!r}: {toml_text(value)} is not {expected}")

    if isinstance(current, bool):
        if isinstance(value, bool):
            return value
        raise fail("true or false")
    if isinstance(current, enum.Enum):
        cls = type(current)
        if isinstance(value, cls):
            return value
        if isinstance(value, str):
            for member in cls:
                if value.strip().lower() in (member.value, member.name.lower()):
                    return member
        if cls is Rank:
            try:
                return Rank(int(value)) if isinstance(value, int) else Rank.parse(str(value))
            except ValueError:
                raise fail("a rank (A K Q J T 9 8 7 6)") from None
        choices = ", ".join(str(m.value) for m in cls)
        raise fail(f"one of: {choices}")
    if isinstance(current, int):
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise fail("a whole number")
    if isinstance(current, tuple):
        if not isinstance(value, (list, tuple)) or not value:
            raise fail("a non-empty list")
        if current and isinstance(current[0], Format):
            return tuple(_coerce(knob, v, Format.GAME) for v in value)
        out = []
        for v in value:
            if not isinstance(v, int) or isinstance(v, bool):
                raise fail("a list of whole numbers")
            out.append(v)
        return tuple(out)
    if isinstance(current, str):
        # the only text knob is the rule set's name (checked as a name by _validate)
        if isinstance(value, str) and value.strip():
            return value.strip()
        raise fail("a non-empty string")
    raise fail("a value this knob takes")  # pragma: no cover


def rules_from_mapping(changes: Mapping[str, Any], *, base: Rules | None = None) -> Rules:
    """``base`` (default preset if ``None``) with the knobs in ``changes`` set.

    Raises :class:`RulesError` naming an unknown knob or a bad value.
    """
    start = base if base is not None else PRESETS[DEFAULT_PRESET]
    values = start.knobs()
    for knob, value in changes.items():
        if knob not in _FIELD_TYPES:
            raise RulesError(f"unknown knob {knob!r}; the knobs are: {', '.join(_FIELD_TYPES)}")
        if knob == "set_min_rank":
            values[knob] = _coerce(knob, value, Rank.TEN)
        else:
            values[knob] = _coerce(knob, value, values[knob])
    return Rules(**values)


def load_rules_file(path: str | Path) -> Rules:
    """Load a house rule set from TOML: ``base = "PRESET"`` plus changed knobs.

    Knobs may sit at the top level or under a ``[knobs]`` table::

        name = "our-table"
        base = "rubicon"
        target = 150
        [knobs]
        younger_min = 0
    """
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise RulesError(f"cannot read rule file {str(p)!r}: {exc.strerror}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise RulesError(f"rule file {str(p)!r} is not valid TOML: {exc}") from None
    base_name = data.pop("base", None)
    if base_name is None:
        raise RulesError(
            f'rule file {str(p)!r} must say which preset it starts from, e.g. base = "rubicon"'
        )
    if not isinstance(base_name, str) or base_name.strip().lower().endswith(".toml"):
        # a preset, not another rule file: a house rule is one file (nor can files chain
        # into a loop)
        raise RulesError(
            f"rule file {str(p)!r}: base must be a preset name, one of "
            f"{', '.join((*PRESETS, *_ALIASES))}; got {toml_text(base_name)}"
        )
    base = get_rules(base_name)
    knobs = data.pop("knobs", {})
    if not isinstance(knobs, dict):
        raise RulesError(f"rule file {str(p)!r}: [knobs] must be a table")
    changes = {**data, **knobs}
    if "name" not in changes:
        fault = name_fault(p.stem)
        if fault is not None:
            raise RulesError(
                f"rule file {str(p)!r} takes its name from the file, {p.stem!r}, which cannot "
                f'name a rule set ({fault}): give it one, name = "our-table"'
            )
        changes["name"] = p.stem
    name = changes["name"]
    if isinstance(name, str) and name.strip().lower() in (*PRESETS, *_ALIASES):
        given = "is named" if "name" in data or "name" in knobs else "takes its name from the file:"
        raise RulesError(
            f"rule file {str(p)!r} {given} {name.strip()!r}, a preset's name; a house rule "
            f'needs its own (name = "our-table"): the presets and their aliases take '
            f"{', '.join((*PRESETS, *_ALIASES))}"
        )
    return rules_from_mapping(changes, base=base)


def knob_doc(knob: str) -> str:
    """A knob's meaning, then each preset's value and the passage it rests on."""
    from piquet.core.sources import citation

    if knob not in KNOB_DOCS:
        raise RulesError(f"unknown knob {knob!r}; the knobs are: {', '.join(KNOB_DOCS)}")
    lines = [KNOB_DOCS[knob]]
    if knob != "name":
        for preset, rules in PRESETS.items():
            value = toml_text(getattr(rules, knob))
            lines.append(f"  {preset} = {value}: {citation(preset, knob)}")
    return "\n".join(lines)


_RULES_DOC: dict[str, str] = {}


def rules_doc(own: str) -> str:
    """``Rules``'s docstring ``own`` followed by every knob with each preset's value and
    the passage it rests on (what ``help(Rules)`` shows; made once, when first read)."""
    if own not in _RULES_DOC:
        parts = [own, "Knobs, with each preset's value and source:", ""]
        for knob in KNOB_DOCS:
            if knob != "name":
                parts.append(f"{knob}: " + knob_doc(knob))
                parts.append("")
        _RULES_DOC[own] = "\n".join(parts)
    return _RULES_DOC[own]
