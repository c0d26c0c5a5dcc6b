"""The one decision of every transport over the table: what an entry chosen at some version
of a game is once the game may have moved on (piquet.table.verdict.judge)."""

from __future__ import annotations

import pytest

from piquet.table import TableError, Verdict, judge
from piquet.table.errors import Refusal
from piquet.table.state import TAKEBACK_YES, UNDO, Entry

LOG = (Entry(0, "discard:8S 7S"), Entry(1, "discard:9H"), Entry(0, "point:5"))


@pytest.mark.parametrize(("log", "expect", "player", "text", "verdict", "by"), [
    (LOG, None, 0, "play:AS", Verdict.APPLY, None),
    (LOG, 3, 0, "play:AS", Verdict.APPLY, None),
    (LOG, 0, 0, "discard:8S 7S", Verdict.RETRY, 0),
    (LOG, 0, 0, "discard:7s 8s", Verdict.RETRY, 0),  # any accepted spelling
    (LOG, 0, 0, "discard:7S", Verdict.ALREADY_ACTED, 0),
    (LOG, 1, 0, "discard:7S", Verdict.ACTED_FIRST, 1),
    (LOG, 4, 0, "play:AS", Verdict.CHANGED, None),
    (LOG, -1, 0, "play:AS", Verdict.CHANGED, None),
    ((*LOG, Entry(0, UNDO)), 2, 0, "point:5", Verdict.TAKEN_BACK, 0),
    ((*LOG, Entry(1, TAKEBACK_YES)), 2, 0, "point:6", Verdict.TAKEN_BACK, 0),
    ((*LOG, Entry(0, UNDO)), 1, 0, "point:5", Verdict.ACTED_FIRST, 1),
    ((*LOG, Entry(0, UNDO)), 3, 0, UNDO, Verdict.RETRY, 0),
    (LOG, 0, 0, "not an action", Verdict.ALREADY_ACTED, 0),
])
def test_judge(log: tuple[Entry, ...], expect: int | None, player: int, text: str,
               verdict: Verdict, by: int | None) -> None:
    judged = judge(log, expect, player, text)
    assert judged.verdict is verdict
    assert judged.refused == (verdict not in (Verdict.APPLY, Verdict.RETRY))
    if verdict is not Verdict.APPLY:
        assert judged.by == by


def test_the_refusals_say_what_happened_in_a_players_words() -> None:
    names = ("Ann", "Bob")
    assert judge(LOG, 1, 0, "x").message(names) == "Bob acted first: here is the game as it stands"
    assert judge(LOG, 0, 0, "x").message(names).startswith("your other tab (or a retry)")
    assert judge((*LOG, Entry(0, UNDO)), 2, 0, "point:5").message(names).startswith(
        "that move was taken back since")
    err = judge(LOG, 9, 0, "x").error(names)
    assert isinstance(err, TableError) and err.kind is Refusal.NOT_NOW
    assert err.message == "the game changed meanwhile: here it is as it stands"
