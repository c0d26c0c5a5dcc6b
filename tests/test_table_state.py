"""The table's state: a match, its seats and the table's own events in one log that
replays (docs/table.md)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from piquet.core.match import new_match
from piquet.core.notation import dump_json, dump_text, loads
from piquet.core.rules import PRESETS
from piquet.table import Entry, Refusal, TableError, TableState, computer, person
from piquet.table.state import RESIGN, UNDO, rematch_entry

RECORDS = Path(__file__).parent / "records"


def practice(seed: int = 1, rules: str = "rubicon") -> TableState:
    m = new_match(rules, seed=seed, names=["Ann", "Random"])
    return TableState.new("g1", [person(0, "Ann"), computer(1, "random")], m)


def same(a: TableState, b: TableState) -> bool:
    """Two tables alike: log, match history, ends, and every seat's view."""
    return (a.log == b.log and a.match.history == b.match.history
            and (a.resigned, a.rematch, a.rematch_by) == (b.resigned, b.rematch, b.rematch_by)
            and all(a.match.view(p).to_json() == b.match.view(p).to_json()
                    for p in range(a.match.n_players)))


def walk(state: TableState, rng: random.Random, steps: int) -> TableState:
    for _ in range(steps):
        if state.to_act is None:
            break
        p = state.to_act
        state = state.apply(p, str(state.match.random_action(rng)))
    return state


@pytest.mark.parametrize("path", sorted(RECORDS.iterdir()), ids=lambda p: p.name)
def test_an_old_record_replays_through_the_table_byte_for_byte(path: Path) -> None:
    """A log of core actions only is the record as it always was."""
    match = loads(path.read_text(encoding="utf-8")).match
    seats = [person(p, n) for p, n in enumerate(match.names)]
    start = new_match(match.rules, seed=match.seed, format=match.format, names=match.names,
                      games=match.games_to_play)
    log = [Entry(p, str(a)) for p, a in match.history]
    state = TableState.replay("old", seats, start, log)
    dump = dump_json if path.suffix == ".json" else dump_text
    assert dump(state.match) == dump(match)
    assert json.dumps(state.record()) == json.dumps(match.to_record())


def test_undo_takes_back_to_before_the_players_last_move_and_the_log_only_grows() -> None:
    state = walk(practice(), random.Random(2), 6)
    before = state
    k = state.match.takeback_index(0)
    assert k is not None and state.can_undo(0)
    undone = state.apply(0, UNDO)
    assert undone.match.history == before.match.history[:k]
    assert undone.version == before.version + 1 and undone.log[-1] == Entry(0, UNDO)
    again = TableState.replay("g1", undone.seats, undone.start, undone.log)
    assert same(again, undone)


def test_undo_is_refused_where_it_may_not_be() -> None:
    state = practice()
    with pytest.raises(TableError, match="no move to take back"):
        state.apply(0, UNDO)
    friends = TableState.new("g2", [person(0, "A"), person(1, "B")], state.start)
    with pytest.raises(TableError, match="practice games"):
        walk(friends, random.Random(1), 3).apply(0, UNDO)


def test_resignation_is_match_state_and_the_record_tags_it() -> None:
    state = walk(practice(), random.Random(3), 5)
    p = state.to_act
    assert p is not None
    out = state.apply(1, RESIGN)
    assert out.over and out.resigned == 1 and out.to_act is None
    assert out.result() == {"resigned": 1, "winner": 0}
    assert out.record()["tags"] == {"Resigned": 1}
    assert out.record()["actions"] == state.match.to_record()["actions"]
    with pytest.raises(TableError, match="a player resigned") as err:
        out.apply(p, str(out.match.legal_actions()[0]))
    assert err.value.kind is Refusal.NOT_NOW
    with pytest.raises(TableError, match="already over"):
        out.apply(0, RESIGN)
    assert loads(json.dumps(out.record())).resigned == 1  # the notation reads it back


def test_a_rematch_follows_the_end_and_the_first_one_stands() -> None:
    state = practice()
    with pytest.raises(TableError, match="follows the end"):
        state.apply(0, rematch_entry("next"))
    over = state.apply(0, RESIGN).apply(1, rematch_entry("next"))
    assert over.rematch == "next" and over.rematch_by == 1
    with pytest.raises(TableError, match="already made"):
        over.apply(0, rematch_entry("other"))
    with pytest.raises(TableError, match="game id") as err:
        state.apply(0, RESIGN).apply(0, "rematch:no spaces")
    assert err.value.kind is Refusal.UNREADABLE
    back = TableState.replay("g1", over.seats, over.start, over.log)
    assert (back.resigned, back.rematch, back.rematch_by) == (0, "next", 1)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_a_random_log_with_undos_replays_to_the_same_table(name: str) -> None:
    rng = random.Random(name)
    state = practice(seed=5, rules=name)
    for _ in range(300):
        if state.over:
            break
        if state.can_undo(0) and rng.random() < 0.1:
            state = state.apply(0, UNDO)
            continue
        p = state.to_act
        assert p is not None
        state = state.apply(p, str(state.match.random_action(rng)))
    again = TableState.replay("g1", state.seats, state.start, state.log)
    assert same(again, state)


def test_a_refused_entry_says_why_and_changes_nothing() -> None:
    state = practice()
    with pytest.raises(TableError, match="not your turn") as err:
        state.apply(1 - (state.to_act or 0), "deal:2")
    assert err.value.kind is Refusal.NOT_NOW
    with pytest.raises(TableError) as err:
        state.apply(state.to_act or 0, "fly:away")
    assert err.value.kind is Refusal.UNREADABLE
    with pytest.raises(TableError, match="no player 7"):
        state.apply(7, "deal:2")
    assert state.version == 0
