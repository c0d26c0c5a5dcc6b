"""The compiled core (piquet._native): one parameter vector generated from Rules's fields,
a module refused when built from other C sources, arrays checked before use.

What it computes is checked against the engine by the differential tests
(test_fast_differential, test_solver, test_fast_env, test_exchange_solver)."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import numpy as np
import pytest

import piquet.native
from piquet.core.rules import PRESETS, Rules
from piquet.fast import kernel as K
from piquet.fast.params import FIELDS, OBJECTIVE_SLOTS, SLOT, compile_rules
from piquet.fast.solver import Mode, Objective, Solver


def test_every_field_of_rules_says_how_it_enters_the_compiled_code() -> None:
    assert set(FIELDS) == {f.name for f in dataclasses.fields(Rules)}
    assert tuple(SLOT) == piquet.native.load().PARAM_NAMES


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_vector_holds_the_knobs(preset: str) -> None:
    rules = PRESETS[preset]
    p = compile_rules(rules)
    assert p[SLOT["TARGET"]] == rules.target and p[SLOT["DECK_SIZE"]] == rules.deck_size
    assert p[SLOT["N_SEQ_VALUES"]] == len(rules.sequence_values)
    assert p[SLOT["STOCK_SIZE"]] == rules.stock_size
    assert not p.flags.writeable


def test_the_solver_reads_the_kernels_vector_and_its_objective() -> None:
    rules = PRESETS["rubicon"]
    s = Solver(rules, Objective(mode=Mode.RACE, remaining=(20, 30)), tt_bits=4)
    kernel = compile_rules(rules)
    rule_slots = [i for name, i in SLOT.items() if name not in OBJECTIVE_SLOTS]
    assert (s._p[rule_slots] == kernel[rule_slots]).all()
    assert (s._p[SLOT["MODE"]], s._p[SLOT["REM0"]], s._p[SLOT["REM1"]]) == (1, 20, 30)


def test_a_module_built_from_other_sources_is_refused(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    here = Path(piquet.native.__file__).parent
    copy = tmp_path / "native"
    shutil.copytree(here, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert piquet.native.sources_digest(copy) == piquet.native.sources_digest()
    (copy / "rules.h").write_text((copy / "rules.h").read_text() + "\n/* edited */\n")
    assert piquet.native.sources_digest(copy) != piquet.native.sources_digest()
    monkeypatch.setattr(piquet.native, "sources_digest", lambda folder=None: "edited")
    with pytest.raises(ImportError, match="scripts/setup-venv"):
        piquet.native.load()


def test_arrays_of_the_wrong_kind_or_size_are_refused_not_read() -> None:
    p = compile_rules(PRESETS["rubicon"])
    deck = np.arange(4, 36, dtype=np.int64)
    deck = deck[deck % 9 != 0]
    args = (np.zeros((K.MAX_TRACE, 2), np.int64), np.zeros((K.MAX_EVENTS, 3), np.int64),
            K.NO_CHOICES, 0, False, np.zeros(K.I_SIZE, np.int64))
    rng = np.ones(1, np.uint64)
    with pytest.raises(TypeError, match="rng"):
        K.play_deal(p, deck, 0, 0, 0, 0, np.ones(1, np.int64), *args)
    with pytest.raises(ValueError, match="tr"):
        K.play_deal(p, deck, 0, 0, 0, 0, rng, np.zeros(4, np.int64), *args[1:])
    with pytest.raises(ValueError, match="nfz"):
        K.play_deal(p, deck, 0, 0, 0, 0, rng, *args[:3], 5, *args[4:])
    with pytest.raises(TypeError, match="takes 13 arguments"):
        K.play_deal(p, deck)
