"""Piquet in OpenSpiel: registration, OpenSpiel's own random test, resampling, ISMCTS."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from piquet.core.errors import PiquetError, RulesError  # noqa: E402
from piquet.core.rules import DEFAULT_PRESET, PRESETS  # noqa: E402
from piquet.integrations import openspiel as ops  # noqa: E402
from piquet.integrations.actions import NUM_ACTIONS  # noqa: E402
from piquet.integrations.observation import INFO_SIZE, OBS_SIZE  # noqa: E402

PRESET_NAMES = sorted(PRESETS)


def _sampler() -> object:
    return pyspiel.UniformProbabilitySampler(0.0, 1.0)


def test_the_game_is_registered_with_its_parameters() -> None:
    game = pyspiel.load_game("python_piquet")
    assert game.get_parameters()["rules"] == DEFAULT_PRESET
    assert game.num_distinct_actions() == NUM_ACTIONS
    assert game.max_chance_outcomes() == 36
    assert game.information_state_tensor_size() == INFO_SIZE
    assert game.observation_tensor_size() == OBS_SIZE
    rubicon = pyspiel.load_game("python_piquet", {"rules": "modern"})
    assert rubicon.get_parameters()["rules"] == "rubicon"
    whole = ops.load("rubicon", format="game")
    assert (whole.min_utility(), whole.max_utility()) == (-1.0, 1.0)


def test_bad_parameters_say_what_is_allowed() -> None:
    with pytest.raises(RulesError, match="the presets are"):
        ops.PiquetGame({"rules": "whist"})
    with pytest.raises(PiquetError, match="use one of: deal, game, partie"):
        ops.PiquetGame({"format": "pool"})
    with pytest.raises(PiquetError, match="cotton-1674 does not play a partie; it plays: game"):
        ops.PiquetGame({"rules": "cotton-1674", "format": "partie"})
    with pytest.raises(PiquetError, match="kernel must be true or false"):
        ops.PiquetGame({"kernel": "yes"})


@pytest.mark.parametrize("fmt", ["deal", "game", "partie"])
def test_the_engine_path_passes_random_sim_test_and_plays_the_same_games(fmt: str) -> None:
    """``kernel=False`` (no card on the kernel's board) is the same game, step for step."""
    games = [ops.load("rubicon", format=fmt, max_deals=4, kernel=k) for k in (True, False)]
    assert games[0].get_parameters()["kernel"] is True
    assert games[1].get_parameters()["kernel"] is False
    pyspiel.random_sim_test(games[1], num_sims=1, serialize=False, verbose=False)
    rng = random.Random(3)
    states = [g.new_initial_state() for g in games]
    while not states[0].is_terminal():
        assert states[0].current_player() == states[1].current_player()
        if states[0].is_chance_node():
            outcomes = [o for o, _ in states[0].chance_outcomes()]
            assert outcomes == [o for o, _ in states[1].chance_outcomes()]
            action = rng.choice(outcomes)
        else:
            legal = states[0].legal_actions()
            assert legal == states[1].legal_actions()
            for p in (0, 1):
                assert (states[0].information_state_string(p)
                        == states[1].information_state_string(p))
            action = rng.choice(legal)
        for st in states:
            st.apply_action(action)
    assert states[1].is_terminal() and states[0].returns() == states[1].returns()


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_openspiel_random_sim_test_passes(name: str) -> None:
    game = pyspiel.load_game("python_piquet", {"rules": name})
    pyspiel.random_sim_test(game, num_sims=20, serialize=False, verbose=False)


WHOLE = [(name, fmt) for name in PRESET_NAMES for fmt in ("game", "partie")
         if fmt == "game" or name in ("rubicon", "encyclopedia-19c")]


@pytest.mark.parametrize(("name", "fmt"), WHOLE)
def test_openspiel_random_sim_test_passes_for_a_whole_game_or_partie(name: str, fmt: str) -> None:
    game = ops.load(name, format=fmt)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_the_partie_returns_the_settlement() -> None:
    game = ops.load("rubicon", format="partie")
    assert game.max_utility() >= 100.0
    rng = random.Random(5)
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
        a, b = state.returns()
        assert a == -b and (a == 0 or abs(a) >= 100)
        ep = state.episode
        assert ep.match is not None and ep.match.finished
        assert len(ep.deals) >= 6


def test_the_game_type_says_mctsbot_would_see_hidden_cards() -> None:
    game_type = ops.load("rubicon").get_type()
    assert game_type.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert "MCTSBot would see hidden cards" in game_type.long_name


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_resampled_states_look_the_same_to_the_seat_and_hide_the_rest(name: str) -> None:
    """A resampled state has the seat's information state and legal actions, not its cards."""
    game = ops.load(name)
    rng = random.Random(name)
    differed = 0
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
                continue
            player = state.current_player()
            other = state.resample_from_infostate(player, _sampler())
            assert other.information_state_string(player) == state.information_state_string(player)
            assert np.array_equal(
                other.information_state_tensor(player), state.information_state_tensor(player)
            )
            assert other.observation_string(player) == state.observation_string(player)
            assert other.legal_actions() == state.legal_actions()
            mine, theirs = state.episode.deal, other.episode.deal
            assert mine is not None and theirs is not None
            opp = 1 - state.episode.role_of(player)
            differed += mine.hands[opp] != theirs.hands[opp]
            state.apply_action(rng.choice(state.legal_actions()))
    assert differed > 0


def test_ismcts_plays_a_deal_against_the_random_level() -> None:
    game = ops.load("encyclopedia-19c")
    rs = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, rs),
        uct_c=20.0,
        max_simulations=15,
        random_state=rs,
    )
    returns = ops.play(game, [bot, ops.LevelBot("random", player_id=1, seed=1)], seed=4)
    assert returns[0] == -returns[1]
    assert abs(returns[0]) <= game.max_utility()


def test_level_bots_play_whole_games_through_the_adapter() -> None:
    game = ops.load("court-gamester-1754", format="game")
    bots = [ops.LevelBot("random", player_id=p, seed=p) for p in (0, 1)]
    returns = ops.play(game, bots, seed=9)
    assert sorted(returns) == [-1.0, 1.0]


def test_resampling_in_a_game_keeps_the_past_deals() -> None:
    game = ops.load("rubicon", format="game")
    rng = random.Random(3)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal() and checked < 12:
        if state.is_chance_node():
            state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
            continue
        player = state.current_player()
        if rng.random() < 0.15:
            other = state.resample_from_infostate(player, _sampler())
            assert other.information_state_string(player) == state.information_state_string(player)
            start = state._deal_start
            assert other.history()[:start] == state.history()[:start]
            checked += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 0


def test_a_house_rule_game_loads_again_from_its_own_parameters(tmp_path: Path) -> None:
    """A game from a house-rule file kept only the rule's name as its ``rules``
    parameter: serializing, pickling and ``load_game(str(game))`` then failed ("unknown
    rule set"). The parameter now carries the knobs, so it loads on any machine."""
    import pickle

    path = tmp_path / "house.toml"
    path.write_text('base = "rubicon"\nname = "our-table"\ntarget = 150\n[knobs]\n'
                    "younger_min = 0\n", encoding="utf-8")
    game = pyspiel.load_game("python_piquet", {"rules": str(path)})
    path.unlink()  # nothing below may need the file

    def rules_of(g: Any) -> Any:
        return ops.PiquetGame(g.get_parameters()).rules

    rules = rules_of(game)
    assert rules.name == "our-table" and rules.target == 150 and rules.younger_min == 0
    assert str(game.get_parameters()["rules"]).startswith("knobs:")
    for again in (pyspiel.load_game(str(game)), pickle.loads(pickle.dumps(game))):
        assert rules_of(again) == rules
    state = game.new_initial_state()
    rng = random.Random(3)
    for _ in range(60):
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    g2, s2 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert rules_of(g2) == rules and s2.history() == state.history()
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    # a preset keeps its name
    assert ops.load("1754").get_parameters()["rules"] == "court-gamester-1754"
    with pytest.raises(RulesError, match="not the knobs"):
        pyspiel.load_game("python_piquet", {"rules": "knobs:%%%"})


@pytest.mark.parametrize("name", ["court-gamester-1754", "cotgrave-1662"])
def test_asking_which_card_is_missing_is_in_the_information_state_tensor(name: str) -> None:
    """"Which one is missing?" answered "none of the kings laid out" wrote nothing to the
    tensor: asked-and-told-none and never-asked gave one tensor, two strings. Each node
    where the question may be asked is tried both ways: the tensors of both seats differ
    as their strings do."""
    from piquet.integrations.actions import action_name

    game = ops.load(name)
    found = 0
    for seed in range(400):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
                continue
            legal = state.legal_actions()
            names = {action_name(a): a for a in legal}
            if "ask-missing" in names:
                asked, passed = state.clone(), state.clone()
                asked.apply_action(names["ask-missing"])
                passed.apply_action(names["no-question"])
                for p in (0, 1):
                    assert asked.information_state_string(p) != passed.information_state_string(p)
                    assert not np.array_equal(asked.information_state_tensor(p),
                                              passed.information_state_tensor(p))
                found += 1
                break
            state.apply_action(rng.choice(legal[:2]))  # the first few: sets declared
        if found >= 5:
            break
    assert found >= 5


def _random_episode(game: Any, seed: int) -> Any:
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_a_game_cut_off_at_max_deals_says_it_is_truncated() -> None:
    """Issue 37: a cut-off game is a time limit, not an end.  OpenSpiel has no truncation,
    so the terminal state says it (``is_truncated``) and returns 0 each."""
    cut = [_random_episode(ops.load("rubicon", format="game", max_deals=1), s) for s in range(4)]
    assert any(s.is_truncated() for s in cut)
    for s in cut:
        assert s.is_truncated() == (s.episode.winner is None)
        if s.is_truncated():
            assert s.returns() == [0.0, 0.0]
    for fmt in ("deal", "partie"):
        assert not _random_episode(ops.load("rubicon", format=fmt), 1).is_truncated()
    assert not ops.load("rubicon").new_initial_state().is_truncated()


def test_the_version_parameter_names_the_rule_readings() -> None:
    import warnings

    from piquet.integrations.versions import ENV_VERSION, OldReadingWarning

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        game = pyspiel.load_game("python_piquet")
        assert game.get_parameters()["version"] == ENV_VERSION == 2
        assert "version=2" in str(game)
        assert pyspiel.load_game(str(game)).get_parameters()["version"] == 2
    with pytest.warns(OldReadingWarning, match="version 0"):
        old = pyspiel.load_game("python_piquet(rules=rubicon,version=0)")
    assert old.get_parameters()["version"] == 0
    pyspiel.random_sim_test(old, num_sims=1, serialize=False, verbose=False)
    with pytest.raises(PiquetError, match="version 5 is not known; the versions are 0 "):
        ops.load("rubicon", version=5)
