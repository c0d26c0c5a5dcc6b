"""Two processes holding one game: an undo, a resignation or a rematch made through one is
seen by the other.  Each is an entry of the game's log (the table's own events), written
through the one action path, so the log only grows and a copy is brought up to date by
replaying what it lacks.

Each ``Games`` here stands for a server process (its own store connection, its own memory,
``shared`` as on PostgreSQL); they share one database: a SQLite file, and PostgreSQL's
``test`` database when it is there.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from piquet.core.actions import Action
from piquet.core.cards import CardSet
from piquet.core.match import Match
from piquet.table.errors import TableError
from piquet.table.state import RESIGN, UNDO, rematch_entry
from piquet.web.games import Entry, Games
from piquet.web.store import NewSeat
from test_web_kit import DATABASES, two_processes


def _append(games: Games, game_id: str, match: Match, action: Action) -> Match:
    """``action`` by the player to act, through the action path of ``games``."""
    player = match.to_act
    assert player is not None
    return asyncio.run(games.act(game_id, player, str(action))).live.match


def _event(games: Games, game_id: str, player: int, text: str) -> Entry:
    """One of the table's own entries (undo, resign, rematch) through ``games``."""
    return asyncio.run(games.act(game_id, player, text, event=True))


def _game(games: Games, seed: int | None = None) -> tuple[str, Match]:
    """A new game of a person against ``random`` (dealt from ``seed``, when given)."""
    if seed is None:
        made = games.create(
            rules="rubicon", format="game", opponents=["random"], hints=False, name="A",
            levels=["random"],
        )
        return made.id, games.load(made.id).live.match
    game_id = f"seeded-{seed}"
    games.store.create_game(
        game_id=game_id, rules="rubicon", format="game", seed=seed, games_to_play=1,
        hints=False, seats=[NewSeat("human", None, "A", "x" * 64, None),
                            NewSeat("ai", "random", "Computer", None, None)],
    )
    return game_id, games.load(game_id).live.match


def _choice_taken_back(games: Games, game_id: str) -> bool:
    """Whether seat 0 may take back its last move and had another choice there (a card
    that had to be played, taken back, can only be played again)."""
    state = games.fresh(game_id).live.state
    keep = state.match.takeback_index(0)
    if not state.can_undo(0) or keep is None:
        return False
    return len(_replayed(state.start, state.match.history[:keep]).legal_actions()) > 1


def _undone_and_played_again(
    a: Games, b: Games, rng: random.Random, seed: int | None = None
) -> tuple[str, Match, Match]:
    """A game played 20 actions through ``a`` and held by ``b``; then seat 0 takes back its
    last move through ``a`` and the game is played on to as many actions, otherwise: (its
    id, the match as ``b`` holds it, the match as it now stands).

    The move taken back is one where seat 0 had a choice: a card it had to play (the
    one card of the suit led) would be played again, the same history, and "otherwise"
    could not hold (the intermittent failure of this test, about 1 game in 8)."""
    game_id, m = _game(a, seed)
    while len(m.history) < 20 or not _choice_taken_back(a, game_id):
        m = _append(a, game_id, m, m.random_action(rng))
    assert b.fresh(game_id).live.match.history == m.history  # b holds the game
    again = _event(a, game_id, 0, UNDO).live.match
    assert len(again.history) < len(m.history)
    first = True
    while len(again.history) < len(m.history):
        legal = list(again.legal_actions())
        taken = m.history[len(again.history)][1]
        pick = next((x for x in legal if x != taken), taken) if first else rng.choice(legal)
        first = False
        again = _append(a, game_id, again, pick)
    return game_id, m, again


@pytest.mark.parametrize("seed", [3, 11, 2026])
@pytest.mark.parametrize("kind", DATABASES)
def test_an_undo_then_as_many_new_moves_is_seen_by_the_other_process(
    kind: str, seed: int, tmp_path: Path
) -> None:
    """The log only grows (an undo is an entry), so its length versions the game: after
    an undo and as many new moves the other process's copy is shorter than the log, and
    it replays what it lacks.  (This test failed about 1 run in 8: its own game took back
    a forced card, so the moves played "otherwise" were the same ones; the server was
    right every time.)"""
    with two_processes(kind, tmp_path) as (a, b):
        game_id, m, again = _undone_and_played_again(a, b, random.Random(seed), seed)
        assert again.history != m.history and len(again.history) == len(m.history)
        seen = b.fresh(game_id).live
        assert seen.match.history == again.history
        assert seen.state.log == a.fresh(game_id).live.state.log


@pytest.mark.parametrize("kind", DATABASES)
def test_a_resignation_and_a_rematch_are_seen_by_the_other_process(
    kind: str, tmp_path: Path
) -> None:
    with two_processes(kind, tmp_path) as (a, b):
        game_id, _m = _game(a)
        entry = b.fresh(game_id)
        assert b.seat_json(entry, 0)["resigned"] is None
        _event(a, game_id, 0, RESIGN)
        entry = b.fresh(game_id)
        shown = b.seat_json(entry, 0)
        assert shown["resigned"] == 0 and shown["finished"] is True and shown["legal_actions"] == []
        assert a.store.game(game_id).finished  # type: ignore[union-attr]
        _event(a, game_id, 0, rematch_entry("next-game"))
        entry = b.fresh(game_id)
        assert b.seat_json(entry, 1)["rematch"] == "next-game"


def _stale_move(b: Games, game_id: str, player: int, text: str, n: int) -> None:
    """``player`` acts through ``b`` on ``b``'s copy in memory, as the route does when the
    copy is not known to be the truth."""
    entry = b.peek(game_id)
    assert entry is not None
    asyncio.run(b.act_once(game_id, player, text, expect=n, entry=entry, known=False))


@pytest.mark.parametrize("kind", DATABASES)
def test_a_move_checked_against_a_copy_from_before_an_undo_is_not_written(
    kind: str, tmp_path: Path
) -> None:
    """b holds the game at 20 actions; a takes back and plays 20 again, otherwise; a move
    legal in b's old copy but not now was written (the log had the length b expected) and
    the game never replayed again.  The write checks the revision too: the move is checked
    against the game as it stands and refused, and the game replays in both processes."""
    with two_processes(kind, tmp_path) as (a, b):
        game_id, m, again = _undone_and_played_again(a, b, random.Random(5), 5)
        now = set(again.legal_actions())
        stale = [x for x in m.legal_actions() if x not in now] or list(m.legal_actions())
        assert m.to_act is not None
        held = b.peek(game_id)
        assert held is not None and held.live.match.history == m.history
        n = a.store.game(game_id).n_actions  # type: ignore[union-attr]
        with pytest.raises(TableError):  # chosen on b's copy, a version long gone
            _stale_move(b, game_id, m.to_act, str(stale[0]), len(m.history))
        assert a.store.game(game_id).n_actions == n  # type: ignore[union-attr]
        assert a.load(game_id).live.match.history == again.history
        assert b.fresh(game_id, check=True).live.match.history == again.history


@pytest.mark.parametrize("kind", DATABASES)
def test_a_move_through_the_other_process_after_a_resignation_is_refused(
    kind: str, tmp_path: Path
) -> None:
    """b holds the game; seat 0 resigns through a; seat 1's move through b (checked against
    b's copy, which knew of no resignation) was written after the resignation."""
    with two_processes(kind, tmp_path) as (a, b):
        game_id, m = _game(a)
        rng = random.Random(2)
        while m.to_act != 1:
            m = _append(a, game_id, m, m.random_action(rng))
        n = len(m.history)
        assert b.fresh(game_id).n == n
        _event(a, game_id, 0, RESIGN)
        with pytest.raises(TableError) as info:
            _stale_move(b, game_id, 1, str(m.legal_actions()[0]), n)
        assert "resigned" in info.value.message
        assert a.store.game(game_id).n_actions == n + 1  # type: ignore[union-attr]


@pytest.mark.parametrize("kind", DATABASES)
def test_a_resignation_after_the_last_move_is_not_written(kind: str, tmp_path: Path) -> None:
    """The route checks its copy, then resigns: a last move written meanwhile (an AI's, or
    through the other process) made a finished game "resigned", whose record no longer
    replayed.  The resignation checks the stored game in its own transaction."""
    with two_processes(kind, tmp_path) as (a, b):
        game_id, m = _game(a)
        rng = random.Random(6)
        while not m.finished:
            m = _append(a, game_id, m, m.random_action(rng))
        assert b.peek(game_id) is None or not b.peek(game_id).live.match.finished  # type: ignore[union-attr]
        with pytest.raises(TableError, match="already over: its last move"):
            _event(b, game_id, 0, RESIGN)
        assert a.store.game(game_id).n_actions == len(m.history)  # type: ignore[union-attr]
        assert b.record(b.fresh(game_id))["actions"] == m.to_record()["actions"]
        other, _ = _game(a)
        _event(a, other, 1, RESIGN)
        with pytest.raises(TableError, match="a player resigned"):
            _event(b, other, 0, RESIGN)  # resigned already: nothing more written
        assert b.fresh(other).live.state.resigned == 1
        assert a.store.game(other).n_actions == 1  # type: ignore[union-attr]


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_resignation_whose_commit_fails_changes_nothing(kind: str, tmp_path: Path) -> None:
    """Commit first, then memory (issue 39): a resignation whose write fails left the
    game resigned in that process's memory, serving the record and its seed while the
    game played on.  Now nothing changes: memory, the views and the record stay as the
    database has them."""
    from piquet.table.errors import Refusal
    from piquet.web.store import StoreError

    with two_processes(kind, tmp_path) as (a, b):
        game_id, m = _game(a)
        before = a.seat_body(a.fresh(game_id), 0)

        async def refused(*args: object, **kw: object) -> bool:
            raise StoreError("the disk is full")

        a.store.append_async = refused  # type: ignore[method-assign]
        with pytest.raises(StoreError):
            _event(a, game_id, 0, RESIGN)
        held = a.peek(game_id)
        assert held is not None and held.live.state.resigned is None
        assert not a.over(held) and a.seat_body(held, 0) == before
        with pytest.raises(TableError) as info:
            a.record(held)
        assert info.value.kind is Refusal.NOT_NOW
        assert b.fresh(game_id).live.state.log == held.live.state.log == ()
        assert m.to_act is not None


def test_a_log_that_no_longer_replays_is_refused_without_the_engines_reason(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The engine's reason for refusing a stored move lists what the seat to act may do,
    which is his hand; the refusal reaches the other seat and spectators, so it says only
    where the log stops replaying, and the reason goes to the server's log."""
    with two_processes("sqlite", tmp_path) as (a, b):
        game_id, m = _game(a)
        rng = random.Random(4)
        while m.deal is None or m.deal.phase.value != "declare":
            m = _append(a, game_id, m, m.random_action(rng))
        row = a.store.game(game_id)
        assert row is not None and m.to_act is not None
        assert a.store.append(game_id, idx=len(m.history), revision=row.revision,
                              player=m.to_act, action="declare:point:AS KS QS JS TS 9S 8S 7S",
                              finished=False)
        with pytest.raises(TableError) as info:
            b.load(game_id)
        message = info.value.message
        assert f"at its action {len(m.history) + 1}" in message
        hand = m.deal.hands[m.deal.to_act]  # type: ignore[index]
        assert not any(str(c) in message for c in CardSet(hand)), message
        assert "Allowed" not in message and "declare:" not in message
        assert "does not replay" in caplog.text  # the reason is in the server's log


def _replayed(start: Match, history: tuple[tuple[int, Action], ...]) -> Match:
    m = start
    for player, action in history:
        m = m.apply(action, player)
    return m


@pytest.mark.parametrize("kind", DATABASES)
def test_two_rematches_asked_at_once_leave_one_game(kind: str, tmp_path: Path) -> None:
    """Each process made a game for the rematch; the one whose claim does not stand drops
    its game (no action was taken in it), so the database keeps one."""
    with two_processes(kind, tmp_path) as (a, b):
        game_id, _m = _game(a)
        _event(a, game_id, 0, RESIGN)
        b.fresh(game_id)
        mine, theirs = _game(a)[0], _game(b)[0]
        assert _event(a, game_id, 0, rematch_entry(mine)).live.state.rematch == mine
        with pytest.raises(TableError, match="already made"):
            _event(b, game_id, 1, rematch_entry(theirs))
        assert b.fresh(game_id).live.state.rematch == mine
        assert b.store.drop_unplayed_game(theirs)
        assert b.store.game(theirs) is None and a.store.game(mine) is not None
        played, m = _game(a)
        _append(a, played, m, m.legal_actions()[0])
        assert not a.store.drop_unplayed_game(played)  # a game with moves is never dropped
        assert a.store.game(played) is not None
