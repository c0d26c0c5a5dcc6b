"""The engine-stepped research adapters on the table (issue 34): the engine stepped and the
table following it when read (TableState.followed, the log apply would write), the seat's
view the table's, the labels the table's menu, and a record of the game through the
table's log that replays byte for byte."""

from __future__ import annotations

import json
import random

import pytest

from piquet.core.errors import RecordError
from piquet.core.rules import PRESETS, get_rules
from piquet.integrations.actions import CHANCE, TERMINAL, Episode, EpisodeFormat
from piquet.table import TableError, TableState, person, seat_view
from piquet.table.errors import Refusal
from piquet.table.menu import MenuKind, menu
from piquet.table.state import TAKEBACK, UNDO
from piquet.table.views import seen

CASES = [("rubicon", EpisodeFormat.PARTIE), ("court-gamester-1754", EpisodeFormat.GAME),
         ("encyclopedia-19c", EpisodeFormat.DEAL), ("rubicon", EpisodeFormat.DEAL)]


def _played(rules: str, fmt: EpisodeFormat, kernel: bool, seed: int,
            stop: int | None = None) -> Episode:
    rng = random.Random(seed)
    ep = Episode.start(get_rules(rules), format=fmt, max_deals=3, kernel=kernel)
    n = 0
    while ep.to_move != TERMINAL and n != stop:
        ids = ep.legal_ids()
        ep = ep.apply(ids[rng.randrange(len(ids))])
        n += 1
    return ep


@pytest.mark.parametrize(("rules", "fmt"), CASES)
@pytest.mark.parametrize("kernel", [True, False])
def test_an_episodes_record_replays_byte_for_byte(rules: str, fmt: EpisodeFormat,
                                                  kernel: bool) -> None:
    for seed, stop in ((1, None), (2, 150)):
        ep = _played(rules, fmt, kernel, seed, stop)
        text = json.dumps(ep.record())
        again = Episode.from_record(json.loads(text))
        assert json.dumps(again.record()) == text
        assert again.to_move == ep.to_move and again.returns() == ep.returns()
        if not ep.selected and ep.to_move != CHANCE:  # (cards laid out, a pack half drawn)
            assert again.legal_ids() == ep.legal_ids()
        record = json.loads(text)
        assert record["packs"] and record["actions"]
        # every action of the record is in the table's log, by the player who took it
        table = ep.table
        assert table is not None
        assert [[e.player, e.text] for e in table.log] == record["actions"]


def test_a_record_that_does_not_replay_is_refused() -> None:
    rec = _played("rubicon", EpisodeFormat.GAME, False, 3).record()
    rec["actions"][3][0] = 1 - rec["actions"][3][0]
    with pytest.raises(RecordError, match=r"does not replay: .* is to move"):
        Episode.from_record(rec)


@pytest.mark.parametrize(("rules", "fmt"), CASES)
def test_the_seats_view_is_the_tables_and_the_labels_its_menu(rules: str,
                                                               fmt: EpisodeFormat) -> None:
    rng = random.Random(5)
    ep = Episode.start(get_rules(rules), format=fmt, max_deals=2, kernel=False)
    seen_labels: set[str] = set()
    while ep.to_move != TERMINAL:
        ids = ep.legal_ids()
        mover = ep.to_move
        if mover != CHANCE:
            table = ep.table
            assert table is not None
            for p in (0, 1):  # the hidden information exactly as the browser shows the seat
                assert ep.view(p) == seat_view(table, p).view.deal
            labels = ep.labels()
            assert sorted(labels) == sorted(ids)
            items = menu(seen(table, mover))
            words = {o.label for o in items}
            for i, label in labels.items():
                assert label in words or label.split(": ")[0] in {
                    o.label for o in items if o.kind is MenuKind.DISCARD}, (i, label)
            seen_labels.update(labels.values())
        ep = ep.apply(ids[rng.randrange(len(ids))])
    assert any(s.startswith("Play the ") for s in seen_labels)


def test_the_table_refuses_a_move_out_of_turn_and_the_episode_says_why() -> None:
    ep = _played("rubicon", EpisodeFormat.GAME, False, 7, stop=40)
    table = ep.table
    assert table is not None and table.to_act is not None
    action = table.match.legal_actions()[0]
    with pytest.raises(TableError, match="not your turn") as err:
        table.apply(1 - table.to_act, action)
    assert err.value.kind is Refusal.NOT_NOW


def test_a_pack_given_to_the_table_is_kept_and_no_move_is_taken_back() -> None:
    from piquet.core.match import new_match

    rules = PRESETS["rubicon"]
    start = TableState.new("g", (person(0, "Ann"), person(1, "Bob")),
                           new_match(rules, seed=1))
    cards = list(range(36))
    if rules.deck_size == 32:
        cards = [c for c in cards if c % 9]
    random.Random(2).shuffle(cards)
    state = start.with_pack(cards, dealer=1)
    assert state.match.deal is not None and state.match.deal.deck == tuple(cards)
    assert state.match.dealer == 1 and state.packs[0].cards == tuple(cards)
    assert state.record()["packs"][0]["at"] == 0
    mover = state.to_act
    assert mover is not None
    state = state.apply(mover, state.match.legal_actions()[0])
    with pytest.raises(TableError, match="before its deal's first move"):
        state.with_pack(cards)
    with pytest.raises(TableError, match="given to the table"):
        state.apply(mover, TAKEBACK)
    with pytest.raises(TableError, match="given to the table"):
        state.apply(mover, UNDO)
    with pytest.raises(TableError) as err:
        start.with_pack(cards[:-1])
    assert err.value.kind is Refusal.UNREADABLE


def test_the_frameworks_hand_out_the_record() -> None:
    pytest.importorskip("pyspiel")
    pytest.importorskip("pettingzoo")
    from piquet.integrations import openspiel as ops
    from piquet.integrations.pettingzoo import raw_env

    game = ops.load("rubicon", format="game", board=False)
    state = game.new_initial_state()
    rng = random.Random(0)
    while not state.is_terminal() and len(state.history()) < 200:
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    rec = state.record()
    assert json.dumps(Episode.from_record(rec).record()) == json.dumps(rec)
    env = raw_env(rules="rubicon", format="deal", board=False)
    env.reset(seed=3)
    for _ in range(30):
        obs = env.observe(env.agent_selection)
        legal = [i for i, m in enumerate(obs["action_mask"]) if m]
        env.step(legal[0])
    rec = env.record()
    assert json.dumps(Episode.from_record(rec).record()) == json.dumps(rec)


def test_a_move_fills_every_field_of_the_table() -> None:
    """``TableState._played`` makes the new state as a copy of the old one's fields (every
    move's path, kept cheap): every field is there, nothing else, each equal to what the
    dataclass would hold."""
    import dataclasses

    from piquet.core.match import new_match
    from piquet.table.state import Entry

    state = TableState.new("g", (person(0, "Ann"), person(1, "Bob")), new_match("rubicon",
                                                                                 seed=4))
    mover = state.to_act
    assert mover is not None
    action = state.match.legal_actions()[0]
    after = state.apply(mover, action)
    names = {f.name for f in dataclasses.fields(TableState)}
    assert names == set(vars(after)) == set(vars(state))
    expected = dataclasses.replace(state, match=state.match.apply(action, mover),
                                   log=(Entry(mover, str(action)),))
    assert all(getattr(after, n) == getattr(expected, n) for n in names - {"match"})
    assert after.match.to_record() == expected.match.to_record()
    assert after.match.view(mover) == expected.match.view(mover)
    assert after.log[0] == Entry(mover, str(action)) and hash(after.log[0])


def test_play_on_is_apply_one_by_one() -> None:
    from piquet.core.match import new_match

    state = TableState.new("g", (person(0, "Ann"), person(1, "Bob")), new_match("rubicon",
                                                                                 seed=6))
    rng = random.Random(1)
    actions = []
    one_by_one = state
    while len(actions) < 60 and not one_by_one.over:
        action = one_by_one.match.random_action(rng)
        actions.append(action)
        mover = one_by_one.to_act
        assert mover is not None
        one_by_one = one_by_one.apply(mover, action)
    at_once = state.play_on(actions)
    assert at_once.log == one_by_one.log
    assert at_once.record() == one_by_one.record()
    assert state.play_on([]) is state
    with pytest.raises(TableError) as err:  # a card not in hand: nothing changes
        state.play_on([*actions[:3], actions[3], actions[3]])
    assert err.value.kind in (Refusal.AGAINST_RULES, Refusal.NOT_NOW)


def test_followed_is_apply_one_by_one() -> None:
    """A table that follows a match moved by the engine has the log, record and views of
    the table moved by ``apply`` one move at a time; it refuses a match that does not
    carry its own on, and a game resigned."""
    from piquet.core.match import new_match
    from piquet.table.state import RESIGN

    state = TableState.new("g", (person(0, "Ann"), person(1, "Bob")), new_match("rubicon",
                                                                                 seed=8))
    rng = random.Random(2)
    one_by_one, m = state, state.match
    while len(m.history) < 90 and not m.finished:
        action = m.random_action(rng)
        mover = m.to_act
        assert mover is not None
        one_by_one = one_by_one.apply(mover, action)
        m = m.apply(action)
        if len(m.history) % 30 == 0:  # followed from a table part of the way there too
            state = state.followed(m)
    followed = TableState.new("g", state.seats, state.start).followed(m)
    for table in (followed, state.followed(m)):
        assert table.log == one_by_one.log
        assert table.record() == one_by_one.record()
        assert table.match.to_record() == one_by_one.match.to_record()
        assert seen(table, 0) == seen(one_by_one, 0)
    assert one_by_one.followed(one_by_one.match) is one_by_one
    other = new_match("rubicon", seed=9)
    other = other.apply(other.random_action(rng))
    with pytest.raises(TableError, match="does not carry"):
        one_by_one.followed(other)
    with pytest.raises(TableError, match="does not carry"):  # a match further back
        one_by_one.followed(state.start)
    resigned = state.apply(0, RESIGN)
    with pytest.raises(TableError, match="resigned"):
        resigned.followed(m.apply(m.random_action(rng)))


@pytest.mark.parametrize(("rules", "fmt"), CASES)
@pytest.mark.parametrize("kernel", [True, False])
def test_a_table_read_at_any_step_is_the_table_read_at_the_end(
    rules: str, fmt: EpisodeFormat, kernel: bool
) -> None:
    """The episode moves the engine and its table follows when read: reading it at every
    step, at some steps or only at the end gives the same log and record."""
    rng = random.Random(11)
    every = Episode.start(get_rules(rules), format=fmt, max_deals=2, kernel=kernel)
    some = never = every
    step = 0
    while every.to_move != TERMINAL:
        assert every.table is not None or every.to_move == CHANCE
        if step % 7 == 0:
            some.table  # noqa: B018 (read: the next step starts from it)
        ids = every.legal_ids()
        i = ids[rng.randrange(len(ids))]
        every, some, never = every.apply(i), some.apply(i), never.apply(i)
        step += 1
    tables = [ep.table for ep in (every, some, never)]
    assert all(t is not None for t in tables)
    logs = [t.log for t in tables if t is not None]
    assert logs[0] == logs[1] == logs[2]
    records = [json.dumps(ep.record()) for ep in (every, some, never)]
    assert records[0] == records[1] == records[2]
