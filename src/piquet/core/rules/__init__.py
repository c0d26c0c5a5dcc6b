"""Rule sets as data: one frozen :class:`Rules` value and the preset registry.

Every knob of the project's RULES.md is a field of :class:`Rules`
(:mod:`~piquet.core.rules.knobs`).  A preset is a named ``Rules`` value; a house rule is a
preset with changed knobs, loaded from TOML by :func:`load_rules_file`
(:mod:`~piquet.core.rules.presets`).  The passage each preset's value rests on (or the
reading chosen where the text is silent) is in :mod:`piquet.core.sources` and printed by
``piquet rules NAME``.
"""

from piquet.core.errors import RulesError
from piquet.core.rules.knobs import (
    CHOICE_ENUMS,
    KNOB_DOCS,
    NAME_MAX,
    VALUE_DOCS,
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
    knob_json,
    name_fault,
    pique_words,
    toml_text,
    value_text,
)
from piquet.core.rules.presets import (
    DEFAULT_PRESET,
    PRESETS,
    get_rules,
    knob_doc,
    load_rules_file,
    preset,
    rules_from_mapping,
)

__all__ = [
    "CHOICE_ENUMS",
    "DEFAULT_PRESET",
    "KNOB_DOCS",
    "NAME_MAX",
    "PRESETS",
    "VALUE_DOCS",
    "Correction",
    "FalseClaim",
    "Format",
    "Leftovers",
    "PlayScoring",
    "PointMeasure",
    "PointScoring",
    "Rules",
    "RulesError",
    "Settlement",
    "Unshown",
    "get_rules",
    "knob_doc",
    "knob_json",
    "load_rules_file",
    "name_fault",
    "pique_words",
    "preset",
    "rules_from_mapping",
    "toml_text",
    "value_text",
]
