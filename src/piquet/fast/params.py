"""A rule set as numbers: the one parameter vector every compiled user reads.

The compiled core (:mod:`piquet.native`: the kernel, the solver, the batch environment)
never sees a knob's name or an enum; it reads the slots of one int64 vector, whose list is
``PQ_PARAMS`` in ``src/piquet/native/rules.h`` (``piquet._native.PARAM_NAMES``).  The
vector is generated here from :class:`~piquet.core.rules.Rules`'s fields: :data:`FIELDS`
says, for **every** field, which slots it fills and how, or why the compiled code does not
read it.  A field missing from :data:`FIELDS`, or a slot that no field fills, stops the
import with a message, so a new knob cannot be forgotten by the compiled code.  The
solver's objective takes the slots after the rule set's (:func:`with_objective`).
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from piquet.core.rules import (
    Leftovers,
    PlayScoring,
    PointMeasure,
    PointScoring,
    Rules,
    Settlement,
)
from piquet.native import load

__all__ = ["FIELDS", "N_PARAMS", "OBJECTIVE_SLOTS", "SLOT", "compile_rules", "with_objective"]

_native = load()

#: the slots, in the compiled code's order
SLOT: Final[dict[str, int]] = {name: i for i, name in enumerate(_native.PARAM_NAMES)}
N_PARAMS: Final = len(SLOT)
#: the solver's objective (piquet.fast.solver.Objective), after the rule set's slots
OBJECTIVE_SLOTS: Final = ("MODE", "REM0", "REM1", "BASE0", "BASE1", "SETTLE_CLASSIC",
                          "RACE_BONUS", "TABLE_W")

# Codes of enumerated knobs (rules.h: LEFT_*, PS_*).
LEFT_HIDDEN, LEFT_NAMES_SUIT, LEFT_NAMES_CARD, LEFT_TURNS_UP, LEFT_LOOKS = range(5)
PS_TENTH_CARDS, PS_WINNER_TENTHS, PS_LEADS_AND_WINS = range(3)
_LEFTOVER_CODES: Final = {
    Leftovers.HIDDEN: LEFT_HIDDEN,
    Leftovers.ELDER_NAMES_SUIT: LEFT_NAMES_SUIT,
    Leftovers.ELDER_NAMES_CARD: LEFT_NAMES_CARD,
    Leftovers.YOUNGER_TURNS_UP: LEFT_TURNS_UP,
    Leftovers.YOUNGER_LOOKS: LEFT_LOOKS,
}
_PLAY_CODES: Final = {
    PlayScoring.TENTH_CARDS: PS_TENTH_CARDS,
    PlayScoring.WINNER_TENTHS: PS_WINNER_TENTHS,
    PlayScoring.LEADS_AND_WINS: PS_LEADS_AND_WINS,
}

Fill = Callable[[Any], dict[str, int]]
"""A field's value to the slots it fills."""


def _one(slot: str, code: Callable[[Any], int] = int) -> Fill:
    return lambda v: {slot: code(v)}


def _list(count: str, first: str, room: int) -> Fill:
    """A tuple of numbers: its length in ``count``, its items in ``first0`` .. (``room``)."""

    def fill(v: Any) -> dict[str, int]:
        items = tuple(v)
        if len(items) > room:
            raise ValueError(f"at most {room} values fit the compiled code, not {len(items)}")
        out = {count: len(items)}
        out.update({f"{first}{i}": int(x) for i, x in enumerate(items)})
        out.update({f"{first}{i}": 0 for i in range(len(items), room)})
        return out

    return fill


def _is(member: enum.Enum) -> Callable[[Any], int]:
    return lambda v: int(v is member)


#: every field of Rules: the slots it fills, or (a string) why the compiled code does not
#: read it (the compiled code plays one deal's cards, choices and counts)
FIELDS: Final[dict[str, Fill | str]] = {
    "name": "a label",
    "deck_size": _one("DECK_SIZE"),
    "packet_sizes": _list("N_PACKETS", "PACKETS", 6),
    "cut_after_game": "who deals, between games",
    "carte_blanche": _one("CARTE_BLANCHE"),
    "blanche_value": _one("BLANCHE_VALUE"),
    "both_blanche_score": _one("BOTH_BLANCHE_SCORE"),
    "younger_blanche_bars": _one("YOUNGER_BARS"),
    "blanche_number": _one("BLANCHE_NUMBER"),
    "elder_max": _one("ELDER_MAX"),
    "elder_min": _one("ELDER_MIN"),
    "younger_min": _one("YOUNGER_MIN"),
    "younger_max": _one("YOUNGER_MAX"),
    "elder_sees_unused": "what a seat sees, not what is played or counted",
    "younger_leftovers": _one("LEFTOVERS", lambda v: _LEFTOVER_CODES[v]),
    "appoint_if_card_lacked": _one("APPOINT_LACKED"),
    "point_measure": _one("POINT_BY_CARDS", _is(PointMeasure.CARDS)),
    "point_scoring": _one("POINT_TENS", _is(PointScoring.TENS)),
    "sequences_same_suit": _one("SEQ_SAME_SUIT"),
    "sequence_values": _list("N_SEQ_VALUES", "SEQ_VALUES", 7),
    "set_min_rank": _one("SET_MIN_RANK"),
    "trio_value": _one("TRIO_VALUE"),
    "quatorze_value": _one("QUATORZE_VALUE"),
    "quatorze_beats_trio": _one("QUATORZE_BEATS_TRIO"),
    "younger_declares_after_lead": _one("YOUNGER_AFTER_LEAD"),
    "show_point": "what is shown, not what is counted",
    "show_sequences": "what is shown, not what is counted",
    "show_sets": "what is shown, not what is counted",
    "ask_missing": _one("ASK_MISSING"),
    "show_missing": "what is shown, not what is counted",
    "play_scoring": _one("PLAY_SCORING", lambda v: _PLAY_CODES[v]),
    "lead_value": _one("LEAD_VALUE"),
    "win_value": _one("WIN_VALUE"),
    "last_trick_bonus": _one("LAST_BONUS"),
    "last_trick_tenth_bonus": _one("LAST_TENTH_BONUS"),
    "cards_bonus": _one("CARDS_BONUS"),
    "capot_bonus": _one("CAPOT_BONUS"),
    "pique_threshold": _one("PIQUE_THRESHOLD"),
    "repique_bonus": _one("REPIQUE_BONUS"),
    "pique_bonus": _one("PIQUE_BONUS"),
    "pique_elder_only": _one("PIQUE_ELDER_ONLY"),
    "pique_by_first_card": _one("PIQUE_FIRST_CARD"),
    "pique_by_cards": _one("PIQUE_BY_CARDS"),
    "target": _one("TARGET"),
    "game_ends_mid_deal": _one("ENDS_MID_DEAL"),
    "formats": "the match's format, chosen outside a deal",
    "default_format": "the match's format, chosen outside a deal",
    "partie_deals": _one("PARTIE_DEALS"),
    "settlement": _one("SETTLEMENT_PARLETT", _is(Settlement.PARLETT)),
    "partie_tie_extra_deals": _one("PARTIE_TIE_EXTRA"),
    "lurch_below": "the match's settlement, outside the compiled code",
    "false_claim": "the compiled players never claim falsely",
    "unshown_claim": "the compiled players show what they claim",
    "call_correction": "the compiled players never miscall",
    "renounce_taken_back": "the compiled players never renounce",
}
#: slots filled from properties of the rule set (derived from the fields above)
_DERIVED: Final[dict[str, Callable[[Rules], int]]] = {
    "STOCK_SIZE": lambda r: r.stock_size,
}


def _check_layout() -> None:
    """Every field of Rules is in FIELDS, and the fields fill exactly the compiled slots."""
    names = [f.name for f in dataclasses.fields(Rules)]
    missing = [n for n in names if n not in FIELDS]
    extra = [n for n in FIELDS if n not in names]
    if missing or extra:
        raise ImportError(
            f"piquet.fast.params.FIELDS does not match Rules's fields: missing {missing}, "
            f"unknown {extra}: say how each knob enters the compiled code's parameter vector "
            "(and add its slot to PQ_PARAMS in src/piquet/native/rules.h), or why it does not")
    filled = set(_DERIVED)
    base = Rules()
    for name, how in FIELDS.items():
        if not isinstance(how, str):
            filled |= set(how(getattr(base, name)))
    wanted = set(SLOT) - set(OBJECTIVE_SLOTS)
    if filled != wanted:
        raise ImportError(
            "the parameter vector's slots differ from rules.h's PQ_PARAMS: filled but not "
            f"compiled {sorted(filled - wanted)}, compiled but not filled "
            f"{sorted(wanted - filled)}")


_check_layout()

_CACHE: dict[Rules, npt.NDArray[np.int64]] = {}


def compile_rules(rules: Rules) -> npt.NDArray[np.int64]:
    """The parameter vector of ``rules`` (read-only; cached by the rule set's value); the
    objective's slots are those of the difference of points (the solver's DIFF)."""
    found = _CACHE.get(rules)
    if found is not None:
        return found
    p = np.zeros(N_PARAMS, dtype=np.int64)
    for name, how in FIELDS.items():
        if isinstance(how, str):
            continue
        for slot, value in how(getattr(rules, name)).items():
            p[SLOT[slot]] = value
    for slot, derive in _DERIVED.items():
        p[SLOT[slot]] = derive(rules)
    p.setflags(write=False)
    if len(_CACHE) > 256:
        _CACHE.clear()
    _CACHE[rules] = p
    return p


def with_objective(rules: Rules, **objective: int) -> npt.NDArray[np.int64]:
    """``rules``'s vector with the solver's objective slots set (``MODE=1, REM0=40, ...``;
    see :data:`OBJECTIVE_SLOTS`), a new writable array."""
    p = compile_rules(rules).copy()
    for slot, value in objective.items():
        if slot not in OBJECTIVE_SLOTS:
            raise ValueError(f"{slot!r} is not an objective slot: {', '.join(OBJECTIVE_SLOTS)}")
        p[SLOT[slot]] = value
    return p
