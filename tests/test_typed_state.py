"""The deal's state is visible to the type checker: a misspelt field is a mypy error."""

from __future__ import annotations

from pathlib import Path

import pytest

api = pytest.importorskip("mypy.api")

_BAD = '''
from piquet.core.dealtypes import DealState


def transition(d: DealState) -> None:
    d["hands"] = (0, 0)
    d["handz"] = (0, 0)
    d["to_act"] = 1
    d["lead_rule"] = ("suit", 2)
'''


def test_mypy_rejects_a_misspelt_state_field_and_wrong_types(tmp_path: Path) -> None:
    snippet = tmp_path / "bad_transition.py"
    snippet.write_text(_BAD)
    out, err, status = api.run(
        [
            "--strict",
            "--no-error-summary",
            "--cache-dir",
            str(tmp_path / "cache"),
            "--follow-imports=silent",
            str(snippet),
        ]
    )
    assert status == 1, (out, err)
    assert 'TypedDict "DealState" has no key "handz"' in out, out
    # a role is not a bare int, and a lead rule is not a bare tuple
    assert 'Value of "to_act" has incompatible type "int"' in out, out
    assert 'Value of "lead_rule" has incompatible type' in out, out
    assert out.count("error:") == 3, out


def test_the_deal_reads_every_state_field_with_the_type_the_transitions_write() -> None:
    """``Deal``'s read-only attributes and ``DealState`` are one list of fields: the same
    names with the same types (the private caches aside), so neither can drift."""
    import typing

    from piquet.core import deal, dealtypes
    from piquet.core.deal import Deal
    from piquet.core.dealtypes import DealState

    names = {**vars(dealtypes), **vars(deal)}  # names imported for the type checker only
    state = typing.get_type_hints(DealState, localns=names)
    attrs = {
        k: v
        for k, v in typing.get_type_hints(Deal, localns=names).items()
        if not callable(getattr(Deal, k, None))
    }
    caches = {"_legal", "_play"}
    assert set(state) - caches == set(attrs), (set(state) ^ set(attrs)) - caches
    for name, kind in attrs.items():
        assert state[name] == kind, name
