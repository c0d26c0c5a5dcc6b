"""The table as a service: one action path, commit first then memory, versioned entries,
the computer's one seed formula (docs/table.md)."""

from __future__ import annotations

import random

import pytest

from piquet.core.actions import Action
from piquet.core.match import MatchView, new_match
from piquet.core.rules import get_rules
from piquet.table import (
    GameSpec,
    MemoryStore,
    Refusal,
    StoreError,
    TableError,
    Tables,
    TableState,
    computer,
    person,
)
from piquet.table.ai import ai_seed, computer_action, play_computers
from piquet.table.state import RESIGN, UNDO, rematch_entry


def randomly(level: str, seed: int, view: MatchView) -> Action:
    """A quick stand-in for every level: a random legal move, seeded as the level is."""
    assert view.deal is not None
    if view.deal.discard_range is not None:
        from piquet.players import make_player

        return make_player("random", seed=seed).choose(view)
    return random.Random(seed).choice(view.legal_actions)


def spec(game_id: str = "g", *, seed: int = 4, rules: str = "rubicon") -> GameSpec:
    r = get_rules(rules)
    return GameSpec(game_id, r, r.default_format, seed,
                    (person(0, "Ann"), computer(1, "random")))


def test_an_action_is_committed_then_held_and_the_computer_answers() -> None:
    store = MemoryStore()
    tables = Tables(store, chooser=randomly)
    state = tables.play_computers(tables.create(spec()).game_id)
    assert state.to_act == 0
    stored = store.load("g")
    assert stored is not None and stored.log == state.log


def test_a_failing_commit_at_every_write_leaves_memory_views_and_record_as_stored() -> None:
    """Commit first, then memory: a write that fails changes nothing anywhere; checked at
    every write of a game with moves, undos, a resignation and a rematch."""
    store = MemoryStore()
    tables = Tables(store, chooser=randomly)
    tables.create(spec())
    rng = random.Random(7)
    failures = 0
    for step in range(400):
        state = tables.open("g")
        if state.rematch is not None:
            break
        if state.over:
            who, text = 0, rematch_entry("next")
        elif state.to_act == 0 and state.can_undo(0) and rng.random() < 0.1:
            who, text = 0, UNDO
        elif step == 150:
            who, text = 0, RESIGN
        elif state.to_act == 1:
            move = computer_action(state, randomly)
            assert move is not None
            who, text = move[0], str(move[1])
        else:
            who, text = 0, str(state.match.random_action(rng))
        store.fail = StoreError("disk full")
        with pytest.raises(StoreError):
            tables.act("g", who, text, expect=state.version)
        failures += 1
        store.fail = None
        held = tables.held("g")
        stored = store.load("g")
        assert held is not None and stored is not None
        again = TableState.replay("g", stored.spec.seats, stored.spec.start(), stored.log)
        assert held.log == stored.log == state.log
        assert held.record() == again.record()
        assert (held.resigned, held.rematch) == (again.resigned, again.rematch)
        for p in range(2):
            assert held.match.view(p).to_json() == again.match.view(p).to_json()
        tables.act("g", who, text, expect=state.version)
    assert failures > 100 and tables.open("g").rematch == "next"


def test_a_retry_is_applied_once_and_one_taken_back_since_is_stale() -> None:
    """Undo is a versioned action: a delayed retry of a move made before an undo is
    refused as stale, never applied again (issue 39)."""
    tables = Tables(MemoryStore(), chooser=randomly)
    state = tables.play_computers(tables.create(spec()).game_id)
    move = str(state.match.legal_actions()[0])
    seen = state.version
    done, applied = tables.act("g", 0, move, expect=seen)
    assert applied
    again, applied = tables.act("g", 0, move, expect=seen)  # a retry: the game as it stands
    assert not applied and again.version == done.version
    tables.play_computers("g")
    tables.act("g", 0, UNDO)
    with pytest.raises(TableError, match="taken back since") as err:
        tables.act("g", 0, move, expect=seen)
    assert err.value.kind is Refusal.NOT_NOW
    with pytest.raises(TableError, match=r"acted first|already acted"):
        tables.act("g", 0, move, expect=seen + 1)


def test_two_tables_over_one_store_never_fork_a_game() -> None:
    store = MemoryStore()
    a = Tables(store, chooser=randomly, shared=True)
    b = Tables(store, chooser=randomly, shared=True)
    a.create(spec())
    state = a.play_computers("g")
    b.open("g")
    move = str(state.match.legal_actions()[0])
    a.act("g", 0, move, expect=state.version)
    other = str(state.match.legal_actions()[-1])
    if other != move:
        with pytest.raises(TableError, match="already acted"):
            b.act("g", 0, other, expect=state.version)
    assert b.open("g").log == a.open("g").log


def test_a_game_not_kept_is_not_found() -> None:
    with pytest.raises(TableError) as err:
        Tables(MemoryStore()).open("nope")
    assert err.value.kind is Refusal.NOT_FOUND


def test_the_seed_formula_is_the_browsers_and_a_resumed_game_plays_on_alike() -> None:
    """One formula (the browser's: game seed, player, actions so far): a game resumed
    from its log anywhere gets the moves it would have got played straight through."""
    assert ai_seed(3, 1, 0) == 3470287661098041204  # pinned from the browser's formula
    assert ai_seed(2**63 - 1, 0, 57) == 1390213166568515817  # as web.games._ai_seed gave
    m = new_match("rubicon", seed=11, names=["A", "B"])
    seats = [computer(0, "random", "A"), computer(1, "random", "B")]
    whole = play_computers(TableState.new("g", seats, m))
    assert whole.match.finished
    half = TableState.replay("g", seats, m, whole.log[: len(whole.log) // 2])
    assert play_computers(half).log == whole.log
