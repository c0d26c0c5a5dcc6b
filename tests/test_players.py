"""The AI levels: legal, seeded, blind to hidden cards, and in the order of the ladder."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from piquet.core.actions import Action, Discard
from piquet.core.deal import Deal
from piquet.core.errors import IllegalActionError, PiquetError
from piquet.core.match import Match, MatchView, new_match
from piquet.core.rules import PRESETS
from piquet.players import LEVELS, make_player
from piquet.players import book as book_module
from piquet.players.search import SearchPlayer
from piquet.tournament import deal_pack, play_deal

FAST = 20  # milliseconds: enough for the search levels to work, quick for tests


def _play_out(preset: str, level: str, seed: int) -> Match:
    """A whole game (or partie) of ``level`` against ``random``; every action is checked."""
    rules = PRESETS[preset]
    m = new_match(rules, seed=seed, names=("ai", "random"))
    players = (
        make_player(level, seed=seed, think_ms=FAST),
        make_player("random", seed=seed + 1),
    )
    for _ in range(3000):
        if m.finished:
            break
        p = m.to_act
        assert p is not None
        m = m.apply(players[p].choose(m.view(p)), p)  # apply() verifies legality
        if len(m.deals) >= 1:
            break
    return m


def test_the_ladder_is_registered() -> None:
    assert {"random", "book", "club", "reference", "expert"} <= set(LEVELS)


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("level", ["book", "club", "reference", "expert"])
def test_levels_play_legal_actions_under_every_rule_set(preset: str, level: str) -> None:
    m = _play_out(preset, level, seed=11)
    assert m.deals or m.finished


def test_same_seed_same_decisions() -> None:
    rules = PRESETS["rubicon"]
    pack = deal_pack(rules, 5, 0)
    runs = []
    for _ in range(2):
        players = (make_player("expert", seed=3, think_ms=FAST), make_player("book", seed=4))
        runs.append(play_deal(rules, pack, players, elder=0).history)
    assert runs[0] == runs[1]


def test_two_threads_decide_as_one() -> None:
    rules = PRESETS["court-gamester-1754"]
    pack = deal_pack(rules, 9, 1)
    histories = []
    for threads in (1, 2):
        expert = SearchPlayer(7, FAST, level="reference", threads=threads)
        histories.append(play_deal(rules, pack, (expert, make_player("book")), elder=1).history)
    assert histories[0] == histories[1]


def _reachable(obj: object, seen: set[int] | None = None) -> list[object]:
    """Every object reachable through dataclass fields, tuples, lists and dicts."""
    seen = seen if seen is not None else set()
    if id(obj) in seen:
        return []
    seen.add(id(obj))
    out = [obj]
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            out.extend(_reachable(getattr(obj, f.name), seen))
    elif isinstance(obj, (tuple, list, frozenset, set)):
        for x in obj:
            out.extend(_reachable(x, seen))
    elif isinstance(obj, dict):
        for k, v in obj.items():
            out.extend(_reachable(k, seen))
            out.extend(_reachable(v, seen))
    return out


def test_players_receive_nothing_but_the_view() -> None:
    """Structurally: ``choose`` takes a MatchView, and no Deal or Match is reachable from it."""
    m = new_match(PRESETS["rubicon"], seed=2)
    for _ in range(40):
        p = m.to_act
        assert p is not None
        view = m.view(p)
        assert isinstance(view, MatchView)
        assert not any(isinstance(x, (Deal, Match)) for x in _reachable(view))
        m = m.apply(make_player("book").choose(view), p)
    for level in LEVELS:
        player = make_player(level)
        params = list(inspect.signature(player.choose).parameters)
        assert params == ["view"]


def test_a_player_out_of_turn_is_refused() -> None:
    m = new_match(PRESETS["rubicon"], seed=2)
    p = m.to_act
    assert p is not None
    with pytest.raises(IllegalActionError):
        make_player("expert").choose(m.view(1 - p))


def test_book_docstrings_quote_the_particular_rules() -> None:
    text = inspect.getdoc(book_module) or ""
    for rule in ("Rule I,", "Rule II,", "Rule III,", "Rule V,", "Rule VII:", "Rule VIII,",
                 "Rule IX:", "Rule XII:", "Rule XIX:"):
        assert rule in text
    assert "play a pulling Game" in text
    assert "not to regard a low Quatorze" in text


def test_book_beats_random_on_a_handful_of_deals() -> None:
    rules = PRESETS["court-gamester-1754"]
    total = 0
    for i in range(6):
        pack = deal_pack(rules, 1, i)
        for elder in (0, 1):
            d = play_deal(rules, pack, (make_player("book"), make_player("random", seed=i)),
                          elder=elder)
            a = d.scores[0] if elder == 0 else d.scores[1]
            b = d.scores[1] if elder == 0 else d.scores[0]
            total += a - b
    assert total > 0


def test_expert_discards_within_the_range() -> None:
    rules = PRESETS["cotgrave-1662"]
    m = new_match(rules, seed=4)
    expert = make_player("expert", think_ms=FAST)
    while True:
        p = m.to_act
        assert p is not None
        view = m.view(p)
        assert view.deal is not None
        action: Action = expert.choose(view)
        if view.deal.discard_range is not None:
            assert isinstance(action, Discard)
            lo, hi = view.deal.discard_range
            assert lo <= len(action.cards) <= hi
            assert action.cards <= view.deal.hand
            break
        m = m.apply(action, p)


def test_the_game_score_changes_what_a_deal_is_worth() -> None:
    from piquet.core.rules import Format
    from piquet.fast.solver import Mode
    from piquet.players.common import situation

    rules = PRESETS["court-gamester-1754"]
    m = new_match(rules, seed=3)
    p = m.to_act
    assert p is not None
    assert situation(m.view(p), rules).objective.mode is Mode.DIFF
    near = dataclasses.replace(m, scores=(95, 60))
    sit = situation(near.view(p), rules)
    assert sit.objective.mode is Mode.RACE
    assert sorted(sit.objective.remaining) == [5, 40]
    rubicon = PRESETS["rubicon"]
    partie = new_match(rubicon, seed=3, format=Format.PARTIE)
    last = dataclasses.replace(partie, deal_number=rubicon.partie_deals, scores=(80, 120))
    q = last.to_act
    assert q is not None
    assert situation(last.view(q), rubicon).objective.mode is Mode.PARTIE


def test_expert_chooses_declarations_by_simulation_from_200ms() -> None:
    rules = PRESETS["encyclopedia-19c"]
    for elder in (0, 1):
        expert = make_player("expert", seed=1, think_ms=200)
        d = play_deal(rules, deal_pack(rules, 8, 0), (expert, make_player("book")), elder=elder)
        assert d.is_over


def test_the_reference_is_named_reference_in_its_own_code() -> None:
    """The reference level is ``SearchPlayer(level="reference")``, no longer an "expert"
    renamed (issue 34); its generator keeps the key of 2025, so it plays as it did."""
    ref = make_player("reference", seed=3)
    assert isinstance(ref, SearchPlayer) and (ref.level, ref.name) == ("reference", "reference")
    with pytest.raises(PiquetError, match="club or reference"):
        SearchPlayer(3, level="expert")
