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
