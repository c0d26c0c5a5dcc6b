"""Matches: formats (game, games=N, partie, pool), dealers and cuts, results, records."""

from __future__ import annotations

import copy
import itertools
import random
from typing import Any

import pytest

from piquet.core.actions import Action, Pass, parse_action
from piquet.core.cards import Card
from piquet.core.errors import IllegalActionError, PiquetError, RecordError, SetupError
from piquet.core.match import DealSummary, GameResult, Match, new_match
from piquet.core.rules import PRESETS, Format, Settlement
from piquet.players.random_player import RandomPlayer

PRESET_NAMES = list(PRESETS)


def play_out(m: Match, seed: int = 0) -> Match:
    """Play a match to its end with seeded random players."""
    players = [RandomPlayer(seed * 10 + p) for p in range(m.n_players)]
    while not m.finished:
        actor = m.to_act
        assert actor is not None
        m = m.apply(players[actor].choose(m.view(actor)), actor)
    return m


def deals_of(m: Match, game: int) -> list[DealSummary]:
    return [d for d in m.deals if d.game == game]


def decisive_cut(cut: tuple[tuple[int, str], ...]) -> tuple[int, int]:
    """The last two cards of a cut for deal decide; the lower card deals. (dealer, other)."""
    (a, ca), (b, cb) = cut[-2:]
    ra, rb = Card.parse(ca).rank, Card.parse(cb).rank
    assert ra != rb, "equal cards are cut again"
    for (_, c), (_, d) in zip(cut[:-2:2], cut[1:-2:2], strict=True):
        assert Card.parse(c).rank == Card.parse(d).rank, "a cut is only repeated on equal ranks"
    return (a, b) if ra < rb else (b, a)


# ---------------------------------------------------------------------- starting a match


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_new_match_defaults(preset: str) -> None:
    rules = PRESETS[preset]
    m = new_match(preset, seed=11)
    assert m.rules is rules and m.format is rules.default_format
    assert m.names == ("player 1", "player 2") and m.n_players == 2
    assert m.game_number == 1 and m.deal_number == 1 and m.scores == (0, 0)
    assert m.deal is not None and not m.finished and m.history == ()
    assert m.to_act in (0, 1)
    dealer, other = decisive_cut(m.cuts[0])
    assert m.dealer == dealer
    assert m.role_of(dealer) == 1 and m.role_of(other) == 0
    assert m.player_of(1) == dealer and m.player_of(0) == other


def test_new_match_refuses_bad_options() -> None:
    with pytest.raises(SetupError, match="unknown format 'duel'; use one of: game, partie"):
        new_match("rubicon", seed=1, format="duel")
    with pytest.raises(
        SetupError, match="cotton-1674 does not play a partie; it plays: game"
    ):
        new_match("cotton", seed=1, format="partie")
    with pytest.raises(SetupError, match="a pool needs 3 players, not 2"):
        new_match("1754", seed=1, format="pool", names=["a", "b"])
    with pytest.raises(SetupError, match="a game needs 2 players, not 3"):
        new_match("1754", seed=1, names=["a", "b", "c"])
    with pytest.raises(SetupError, match="seed must be 0 to"):
        new_match("rubicon", seed=-1)
    with pytest.raises(SetupError, match="games must be at least 1"):
        new_match("rubicon", seed=1, games=0)
    with pytest.raises(PiquetError, match="unknown rule set"):
        new_match("whist", seed=1)


def test_a_random_seed_is_kept_so_the_record_replays() -> None:
    m = new_match("rubicon")
    assert 0 <= m.seed
    assert Match.from_record(m.to_record()).deal.deck == m.deal.deck  # type: ignore[union-attr]


def test_same_seed_same_deal_different_seed_different_deal() -> None:
    a, b, c = (new_match("19c", seed=s) for s in (5, 5, 6))
    assert a.deal is not None and b.deal is not None and c.deal is not None
    assert a.deal.deck == b.deal.deck and a.dealer == b.dealer
    assert a.deal.deck != c.deal.deck


# ---------------------------------------------------------------------- playing


def test_apply_checks_the_player_and_leaves_the_match_unchanged() -> None:
    m = new_match("rubicon", seed=3)
    actor = m.to_act
    assert actor is not None
    with pytest.raises(
        IllegalActionError, match=r"it is not player \d's turn; player \d is to act"
    ):
        m.apply(m.legal_actions()[0], 1 - actor)
    with pytest.raises(IllegalActionError):
        m.apply(Pass(), actor)
    assert not m.can(Pass(), actor)
    action = m.random_action(random.Random(0))
    assert m.can(action, actor) and m.can(action)
    after = m.apply(action, actor)
    assert after is not m and m.history == () and after.history == ((actor, action),)


def test_a_finished_match_takes_no_actions() -> None:
    m = play_out(new_match("cotgrave", seed=2))
    assert m.finished and m.to_act is None and m.deal is None
    assert m.legal_actions() == []
    with pytest.raises(IllegalActionError, match="the match is over"):
        m.verify(Pass())
    with pytest.raises(IllegalActionError, match="the match is over"):
        m.random_action(random.Random(0))
    assert m.view(0).deal is None and m.view(0).finished


def test_view_of_an_unknown_player() -> None:
    m = new_match("rubicon", seed=1)
    with pytest.raises(IllegalActionError, match="no player 2: players are 0 to 1"):
        m.view(2)


# ---------------------------------------------------------------------- formats


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_game_is_won_at_the_target(preset: str, seed: int) -> None:
    rules = PRESETS[preset]
    m = play_out(new_match(rules, seed=seed, format=Format.GAME), seed)
    assert len(m.games) == 1
    g = m.games[0]
    assert g.winner is not None
    w = g.players.index(g.winner)
    assert g.scores[w] >= rules.target > g.scores[1 - w]
    result = m.result()
    assert result["winner"] == g.winner
    assert result["scores"] == [g.scores[g.players.index(p)] for p in (0, 1)]
    assert set(result) <= {"scores", "winner", "lurch", "stake"}
    if rules.lurch_below and g.scores[1 - w] < rules.lurch_below:
        assert result["lurch"] is True and result["stake"] == 2 and g.stake == 2
    else:
        assert "lurch" not in result and g.stake == 1
    deals = deals_of(m, 1)
    assert deals[-1].reached == g.winner
    assert all(d.reached is None for d in deals[:-1])
    for p in (0, 1):
        assert sum(d.points[d.players.index(p)] for d in deals) == g.scores[g.players.index(p)]


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_dealer_alternates_within_a_game_and_across_games(preset: str) -> None:
    rules = PRESETS[preset]
    m = play_out(new_match(rules, seed=21, format=Format.GAME, games=3), 21)
    assert len(m.games) == 3 and m.finished
    prev_last: DealSummary | None = None
    for g in m.games:
        deals = deals_of(m, g.number)
        assert [d.number for d in deals] == list(range(1, len(deals) + 1))
        for a, b in itertools.pairwise(deals):
            assert b.dealer != a.dealer, "the deal alternates"
            assert b.players == (a.players[1], a.players[0])
        first = deals[0]
        if rules.cut_after_game:
            # cut again for the deal after each game: the lower card deals
            assert len(m.cuts) == 3
            assert first.dealer == decisive_cut(m.cuts[g.number - 1])[0]
        elif prev_last is not None:
            assert len(m.cuts) == 1
            assert first.dealer != prev_last.dealer, "the deal keeps alternating"
        else:
            assert first.dealer == decisive_cut(m.cuts[0])[0]
        prev_last = deals[-1]


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_games_n_counts_games_won(preset: str) -> None:
    m = play_out(new_match(preset, seed=8, format=Format.GAME, games=3), 8)
    result = m.result()
    wins = [0, 0]
    for g in m.games:
        assert g.winner is not None
        wins[g.winner] += g.stake
    assert result["scores"] == wins
    assert result["winner"] == (None if wins[0] == wins[1] else wins.index(max(wins)))
    assert [GameResult(**_game_args(x)) for x in result["games"]] == list(m.games)


def _game_args(data: dict[str, Any]) -> dict[str, Any]:
    return {**data, "players": tuple(data["players"]), "scores": tuple(data["scores"])}


@pytest.mark.parametrize("preset", ["encyclopedia-19c", "rubicon"])
@pytest.mark.parametrize("seed", range(6))
def test_partie_settlement(preset: str, seed: int) -> None:
    rules = PRESETS[preset]
    m = play_out(new_match(rules, seed=seed, format=Format.PARTIE), seed)
    g = m.games[0]
    deals = deals_of(m, 1)
    assert all(d.reached is None for d in deals), "a partie has no target"
    sa, sb = g.scores
    if len(deals) == rules.partie_deals + 2:
        assert rules.partie_tie_extra_deals
        six = [sum(d.points[d.players.index(p)] for d in deals[:6]) for p in g.players]
        assert six[0] == six[1], "extra deals only after a level partie"
    else:
        assert len(deals) == rules.partie_deals
    result = m.result()
    assert set(result) == {"scores", "winner", "settled", "rubiconed"}
    if sa == sb:
        assert g.winner is None and result["winner"] is None
        return
    ws, ls = max(sa, sb), min(sa, sb)
    assert g.winner == g.players[0 if sa > sb else 1] == result["winner"]
    if rules.settlement is Settlement.PARLETT:
        # loser under 100: 100 + both totals; else 100 + the difference
        expected = 100 + ws + ls if ls < 100 else 100 + ws - ls
        assert g.rubiconed == (ls < 100)
    else:
        # loser under 100 and winner at 100 or more: both totals; else the difference
        expected = ws + ls if ls < 100 <= ws else ws - ls
        assert g.rubiconed == (ls < 100 <= ws)
    assert g.settled == expected == result["settled"]


def test_partie_level_after_six_deals_goes_on() -> None:
    """Rubicon: "if both are level after six, each deals once more" (seed found by search)."""
    m = play_out(new_match("rubicon", seed=55, format=Format.PARTIE), 55)
    assert len(m.deals) == 8
    six = [sum(d.points[d.players.index(p)] for d in m.deals[:6]) for p in (0, 1)]
    assert six[0] == six[1]
    dealers = [d.dealer for d in m.deals]
    assert sorted(dealers[6:]) == [0, 1], "each deals once more"
    assert all(a != b for a, b in itertools.pairwise(dealers))
    g = m.games[0]
    assert g.winner is not None and g.scores[0] != g.scores[1]
    # the 19c encyclopedia plays no extra deals
    assert not PRESETS["encyclopedia-19c"].partie_tie_extra_deals


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_pool(seed: int) -> None:
    m = new_match("1754", seed=seed, format=Format.POOL, names=["ann", "bob", "cy"])
    assert m.n_players == 3 and m.ledger == (-1, -1, -1) and m.pool == 3
    # the three cut; the highest card stands out first
    first = m.cuts[0]
    assert [p for p, _ in first] == [0, 1, 2]
    out = next(p for p in range(3) if p not in m.in_game)
    assert m.view(out).deal is None and m.view(out).role is None
    m = play_out(m, seed)
    runs = 0
    last: int | None = None
    for prev, g in itertools.pairwise(m.games):
        assert prev.winner is not None
        assert prev.winner in g.players, "the winner stays"
        loser = next(p for p in prev.players if p != prev.winner)
        assert loser not in g.players, "the loser makes room"
    for g in m.games:
        runs = runs + 1 if runs and g.winner == last else 1
        last = g.winner
        if g is not m.games[-1]:
            assert runs < 2
    assert runs == 2, "the pool goes to whoever wins two games running"
    result = m.result()
    assert result["winner"] == m.games[-1].winner
    assert result["scores"] == list(m.ledger) == result["ledger"]
    assert sum(m.ledger) == 0 and m.pool == 0
    assert len(m.cuts) == len(m.games) + 1


# ---------------------------------------------------------------------- results and records


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_result_shape(preset: str) -> None:
    rules = PRESETS[preset]
    for fmt in rules.formats:
        m = new_match(rules, seed=4, format=fmt)
        unfinished = m.result()
        assert unfinished["winner"] is None and isinstance(unfinished["scores"], list)
        m = play_out(m, 4)
        result = m.result()
        assert isinstance(result["scores"], list)
        assert all(isinstance(s, int) for s in result["scores"])
        assert len(result["scores"]) == m.n_players
        assert result["winner"] is None or result["winner"] in range(m.n_players)
        assert m.to_record()["result"] == result


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_record_round_trip(preset: str) -> None:
    m = play_out(new_match(preset, seed=13), 13)
    record = m.to_record()
    assert record["rules"] == preset and record["piquet"] == 1
    assert all(isinstance(p, int) and isinstance(a, str) for p, a in record["actions"])
    again = Match.from_record(copy.deepcopy(record))
    assert again.to_record() == record
    assert again.result() == m.result()
    assert again.deals == m.deals and again.games == m.games


def test_a_record_of_an_unfinished_match_replays_to_the_same_point() -> None:
    m = new_match("1662", seed=9)
    rng = random.Random(9)
    for _ in range(30):
        m = m.apply(m.random_action(rng))
    again = Match.from_record(m.to_record())
    assert again.history == m.history and again.to_act == m.to_act
    assert again.view(0) == m.view(0) and again.view(1) == m.view(1)


def test_a_house_rule_record_carries_its_knobs() -> None:
    rules = PRESETS["rubicon"].replace(
        target=60, younger_min=0, formats=["game"], default_format="game"
    )
    m = play_out(new_match(rules, seed=5), 5)
    record = m.to_record()
    assert isinstance(record["rules"], dict) and record["rules"]["target"] == 60
    again = Match.from_record(record)
    assert again.rules == rules
    assert again.to_record() == record


def test_replay_from_actions() -> None:
    m = play_out(new_match("rubicon", seed=17), 17)
    again = Match.replay(m.rules, m.seed, m.history, format=m.format)
    assert again.to_record() == m.to_record()


def _record() -> dict[str, Any]:
    m = new_match("rubicon", seed=31)
    rng = random.Random(31)
    for _ in range(25):
        m = m.apply(m.random_action(rng))
    return m.to_record()


@pytest.mark.parametrize(
    ("corrupt", "message"),
    [
        (lambda r: r["actions"].__setitem__(4, [r["actions"][4][0], "fly:QH"]), r"^action 5 "),
        (lambda r: r["actions"].__setitem__(6, [r["actions"][6][0], "deal:7"]), r"^action 7 "),
        (
            lambda r: r["actions"].__setitem__(2, [1 - r["actions"][2][0], r["actions"][2][1]]),
            r"^action 3 .*it is not player",
        ),
        (lambda r: r["actions"].__setitem__(9, "play:QH"), r"^action 10: expected \[player"),
        (lambda r: r["actions"].__setitem__(0, [0]), r"^action 1: expected \[player"),
        (lambda r: r["actions"].__setitem__(3, ["0", r["actions"][3][1]]), r"^action 4: "),
        (lambda r: r["actions"].append([0, "play:AS"]), r"^action 26 "),
    ],
)
def test_corrupt_records_name_the_action(corrupt: Any, message: str) -> None:
    record = _record()
    corrupt(record)
    with pytest.raises(RecordError, match=message):
        Match.from_record(record)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.pop("seed"), "record is missing or mangles a field"),
        (lambda r: r.pop("actions"), "record is missing or mangles a field"),
        (lambda r: r.update(seed="12"), "seed must be an integer and actions a list"),
        (lambda r: r.update(actions="play:QH"), "seed must be an integer and actions a list"),
        (lambda r: r.update(piquet=2), 'not a piquet record: expected an object with "piquet": 1'),
        (lambda r: r.update(format="duel"), "record has a bad value"),
        (lambda r: r.update(rules="whist"), "unknown rule set 'whist'"),
        (lambda r: r.update(rules={"target": "x"}), "knob 'target'"),
        (lambda r: r.update(result={"scores": [1, 2], "winner": 0}), "record states the result"),
        (lambda r: r.update(seed=True), "seed must be an integer"),
        (lambda r: r.update(seed=-5), "record cannot start its match: seed must be 0 to"),
        (lambda r: r.update(games="3"), "games must be a whole number, not '3'"),
        (lambda r: r.update(games=0), "record cannot start its match: games must be at least 1"),
        (lambda r: r.update(players=5), "players must be a list of names, not 5"),
        (lambda r: r.update(players=["a"]), "cannot start its match: a partie needs 2 players"),
        (lambda r: r.update(format="pool"), "cannot start its match: rubicon does not play a pool"),
    ],
)
def test_corrupt_records_are_refused(change: Any, message: str) -> None:
    record = _record()
    change(record)
    with pytest.raises(RecordError, match=message):
        Match.from_record(record)


def test_not_a_record_at_all() -> None:
    junks: list[object] = [None, [], "piquet", {"piquet": "1"}]
    for junk in junks:
        with pytest.raises(RecordError, match="not a piquet record"):
            Match.from_record(junk)


def test_record_actions_parse_back() -> None:
    m = play_out(new_match("du-coeur", seed=3), 3)
    for (player, action), (p2, text) in zip(m.history, m.to_record()["actions"], strict=True):
        parsed: Action = parse_action(text)
        assert parsed == action and player == p2


def test_before_each_gives_the_match_before_every_action_and_who_took_it() -> None:
    """What an undo of a resumed game needs: the match before each action of the history,
    replayed from the seed, and the player who acted."""
    rng = random.Random(4)
    m = new_match("court-gamester-1754", seed=11, format=Format.POOL)
    for _ in range(150):
        m = m.apply(m.random_action(rng), m.to_act)
    states = m.before_each()
    assert len(states) == len(m.history) == 150
    fresh = new_match("court-gamester-1754", seed=11, format=Format.POOL)
    assert states[0][0].to_record() == fresh.to_record()
    for i, ((before, player), (who, _action)) in enumerate(zip(states, m.history, strict=True)):
        assert player == who == before.to_act and before.history == m.history[:i]
    last, player = states[-1]
    assert last.apply(m.history[-1][1], player).to_record() == m.to_record()


def test_a_deal_and_a_match_print_as_one_short_line() -> None:
    match = new_match("rubicon", seed=7, names=["Ann", "Bob"])
    assert repr(match) == "<Match rubicon partie seed 7 | game 1 deal 1 | Ann: 0, Bob: 0 | " + (
        f"{match.names[match.to_act or 0]} to act>")
    deal = match.deal
    assert deal is not None
    line = repr(deal)
    assert line.startswith("<Deal rubicon ") and "\n" not in line and len(line) < 200
    for role in (0, 1):
        assert str(deal.hand(role)) in line
