"""python_piquet with board=True: the same game as board=False, node for node."""

from __future__ import annotations

import pickle
import random
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from piquet.core.errors import IllegalActionError, PiquetError  # noqa: E402
from piquet.core.rules import PRESETS  # noqa: E402
from piquet.integrations import openspiel as ops  # noqa: E402
from piquet.integrations.openspiel_board import BoardPiquetState  # noqa: E402

WHOLE = [(name, fmt) for name in sorted(PRESETS) for fmt in ("deal", "game", "partie")
         if fmt != "partie" or name in ("rubicon", "encyclopedia-19c")]


def _same(a: Any, b: Any, *, strings: bool) -> None:
    assert a.current_player() == b.current_player()
    assert a.is_terminal() == b.is_terminal()
    if a.is_terminal():
        assert a.returns() == b.returns()
        assert a.is_truncated() == b.is_truncated()
    elif a.is_chance_node():
        assert a.chance_outcomes() == b.chance_outcomes()
    else:
        assert a.legal_actions() == b.legal_actions()
    for p in (0, 1):
        for tensor in ("information_state_tensor", "observation_tensor"):
            mine = np.asarray(getattr(a, tensor)(p), dtype=np.float32)
            theirs = np.asarray(getattr(b, tensor)(p), dtype=np.float32)
            assert (mine == theirs).all(), (tensor, p, np.flatnonzero(mine != theirs))
        if strings:
            assert a.information_state_string(p) == b.information_state_string(p)
            assert a.observation_string(p) == b.observation_string(p)


@pytest.mark.parametrize(("name", "fmt"), WHOLE)
def test_board_true_is_the_same_game_node_for_node(name: str, fmt: str) -> None:
    """Random games played on both: at every node the same player, chance outcomes, legal
    ids, tensors of both seats (strings at every fifth node), returns and truncation."""
    games = [ops.load(name, format=fmt, max_deals=3, board=b) for b in (True, False)]
    assert games[0].get_parameters()["board"] is True
    for seed in range(6 if fmt == "deal" else 2):
        rng = random.Random(seed)
        states = [g.new_initial_state() for g in games]
        assert isinstance(states[0], BoardPiquetState)
        step = 0
        while True:
            _same(states[0], states[1], strings=step % 5 == 0)
            if states[0].is_terminal():
                break
            if states[0].is_chance_node():
                action = rng.choice([o for o, _ in states[0].chance_outcomes()])
            else:
                action = rng.choice(states[0].legal_actions())
            for st in states:
                st.apply_action(action)
            step += 1
        assert states[0].history() == states[1].history()


@pytest.mark.parametrize(("name", "fmt"), WHOLE)
def test_board_true_passes_random_sim_test(name: str, fmt: str) -> None:
    game = ops.load(name, format=fmt, board=True)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_board_states_clone_serialize_and_pickle() -> None:
    game = ops.load("rubicon", format="game", board=True)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    rng = random.Random(7)
    state = game.new_initial_state()
    for _ in range(120):
        if state.is_chance_node():
            state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    copies = [state.clone(),
              pyspiel.deserialize_game_and_state(
                  pyspiel.serialize_game_and_state(game, state))[1],
              pickle.loads(pickle.dumps(state))]
    for other in copies:
        assert isinstance(other, BoardPiquetState)
        assert other.history() == state.history()
        _same(other, state, strings=True)
    # a clone moves on its own: the original does not change
    before = state.information_state_tensor(0)
    clone = copies[0]
    while not clone.is_terminal():
        if clone.is_chance_node():
            clone.apply_action(rng.choice([o for o, _ in clone.chance_outcomes()]))
        else:
            clone.apply_action(rng.choice(clone.legal_actions()))
    assert state.information_state_tensor(0) == before
    assert not state.is_terminal()


def test_board_true_refuses_bad_input() -> None:
    with pytest.raises(PiquetError, match="board must be true or false"):
        ops.PiquetGame({"format": "game", "board": "yes"})
    state = ops.load("rubicon", format="game", board=True).new_initial_state()
    with pytest.raises(IllegalActionError, match="player 0 or 1"):
        state.apply_action(5)
    state.apply_action(0)
    state.apply_action(3)
    with pytest.raises(IllegalActionError, match="not one left in the pack"):
        state.apply_action(3)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    legal = state.legal_actions()
    bad = next(a for a in range(480) if a not in legal)
    tensor = state.information_state_tensor(0)
    with pytest.raises(IllegalActionError, match="is not allowed now; legal ids"):
        state.apply_action(bad)
    assert state.legal_actions() == legal and state.information_state_tensor(0) == tensor
    done = ops.load("rubicon", board=True).new_initial_state()
    while not done.is_terminal():
        done.apply_action(done.chance_outcomes()[0][0] if done.is_chance_node()
                           else done.legal_actions()[0])
    with pytest.raises(IllegalActionError, match="the episode is over"):
        done.apply_action(0)


def test_ismcts_searches_a_board_game() -> None:
    """The resampler replays its worlds into board states."""
    from open_spiel.python.algorithms import ismcts, mcts

    game = ops.load("rubicon", format="game", max_deals=1, board=True)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)),
                           uct_c=2.0, max_simulations=8, random_state=np.random.RandomState(2))
    rng = random.Random(2)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal() and moves < 12:
        if state.is_chance_node():
            state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
        else:
            action = bot.step(state) if state.current_player() == 0 else rng.choice(
                state.legal_actions())
            assert action in state.legal_actions()
            state.apply_action(action)
            moves += 1


def test_the_board_is_the_default_and_the_engine_stays_selectable() -> None:
    """board=True by default (pyspiel.load_game and ops.load alike); board=False gives the
    engine's states, and so does ops.load's kernel=False without board (pyspiel fills in
    the parameters' defaults, so there kernel=False alone keeps the board); the game string
    says which."""
    for game in (pyspiel.load_game("python_piquet"), ops.load("rubicon", format="game"),
                 pyspiel.load_game("python_piquet", {"format": "partie"})):
        assert game.get_parameters()["board"] is True
        assert isinstance(game.new_initial_state(), BoardPiquetState)
    assert pyspiel.load_game("python_piquet", {"kernel": False}).get_parameters()["board"]
    for game in (ops.load("rubicon", board=False), ops.load("rubicon", kernel=False),
                 pyspiel.load_game("python_piquet", {"kernel": False, "board": False}),
                 pyspiel.load_game("python_piquet(board=False)")):
        assert game.get_parameters()["board"] is False
        assert isinstance(game.new_initial_state(), ops.PiquetState)
    assert "board=True" in str(pyspiel.load_game("python_piquet"))
