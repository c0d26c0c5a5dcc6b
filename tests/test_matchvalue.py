"""Match-aware values (issue 41): what a deal's outcome is worth in the match as it stands,
the solver's TABLE objective, and the expert that uses them."""

from __future__ import annotations

import random

import numpy as np
import pytest

from piquet.analysis.sampling import sample_worlds
from piquet.core.cards import DECK32
from piquet.core.errors import PiquetError
from piquet.core.match import new_match
from piquet.core.rules import PRESETS, Format
from piquet.fast.rollouts import discard_rollout_points
from piquet.fast.solver import DIFF, Mode, Objective, PlayState, Solver
from piquet.players import make_player
from piquet.players.common import discard_candidates, situation
from piquet.players.exchange import all_playout_values, playout_worlds
from piquet.players.matchvalue import (
    LINEAR_TOLERANCE,
    STAKE,
    WIDTH,
    bends,
    deal_outcomes,
    deal_table,
    game_values,
    partie_settlement,
)

RUBICON = PRESETS["rubicon"]
GAME_1754 = PRESETS["court-gamester-1754"]


def _grid(table: tuple[int, ...]) -> np.ndarray:
    return np.asarray(table).reshape(WIDTH, WIDTH)


def test_rubicon_settlement_a_loser_under_100_pays_both_totals() -> None:
    """Parlett's rubicon: the winner scores 100 plus both totals when the loser is under
    100, else 100 plus the difference."""
    s = partie_settlement(RUBICON, np.array([150, 150, 90, 120]), np.array([120, 90, 150, 120]))
    assert list(s) == [130, 340, -340, 0]


def test_the_last_deal_of_a_partie_is_valued_by_its_settlement() -> None:
    t = _grid(deal_table(RUBICON, Format.PARTIE, (80, 20), 0))
    assert t[0, 0] == 100 + 80 + 20  # younger rubiconed
    assert t[20, 80] == 0  # 100-100: nobody wins
    assert t[30, 95] == -(100 + 115 - 110)  # younger wins, elder over the rubicon
    # the point that carries the loser over the rubicon saves him 199 points; the one
    # before it costs him one
    t = _grid(deal_table(RUBICON, Format.PARTIE, (150, 20), 0))
    assert t[0, 79] - t[0, 80] == 199 and t[0, 70] - t[0, 71] == -1


def test_before_the_last_deal_more_points_are_worth_more() -> None:
    t = _grid(deal_table(RUBICON, Format.PARTIE, (0, 0), 5))
    assert t[40, 0] > t[20, 0] > t[0, 0] > t[0, 20] > t[0, 40]


def test_a_game_reached_in_this_deal_is_won_and_a_lurch_pays_double() -> None:
    t = _grid(deal_table(GAME_1754, Format.GAME, (90, 20), 0))
    assert t[10, 0] == 2 * STAKE  # elder reaches 100, younger under 50: lurched
    assert t[10, 40] == STAKE  # younger at 60: no lurch
    assert t[0, 80] == -STAKE  # younger reaches 100, elder at 90
    e, y = game_values(GAME_1754)
    assert y.shape == e.shape
    assert e.shape == (100, 100) and abs(e[0, 0]) < STAKE and e[90, 0] > e[0, 90]


def test_outcomes_are_seeded_and_tables_repeat() -> None:
    assert np.array_equal(deal_outcomes(RUBICON), deal_outcomes(RUBICON))
    deal_table.cache_clear()
    first = deal_table(RUBICON, Format.PARTIE, (10, 30), 3)
    deal_table.cache_clear()
    assert deal_table(RUBICON, Format.PARTIE, (10, 30), 3) == first


def _positions(n: int, seed: int) -> list[PlayState]:
    rng = random.Random(seed)
    cards = [c for c in range(36) if DECK32 >> c & 1]
    out = []
    for _ in range(n):
        rng.shuffle(cards)
        out.append(PlayState(hands=(sum(1 << c for c in cards[:12]),
                                    sum(1 << c for c in cards[12:24])),
                             leader=0, lead=None, won=(0, 0),
                             totals=(rng.randint(0, 40), rng.randint(0, 40))))
    return out


def test_a_table_of_the_difference_gives_the_difference() -> None:
    table = tuple(x - y for x in range(WIDTH) for y in range(WIDTH))
    for st in _positions(12, 1):
        want = Solver(RUBICON, DIFF).value(st)
        assert want is not None
        assert Solver(RUBICON, Objective(mode=Mode.TABLE, table=table)).value(st) == \
            want + st.totals[0] - st.totals[1]


def test_a_table_of_the_settlement_gives_the_partie_objective() -> None:
    before = (70, 85)
    table = deal_table(RUBICON, Format.PARTIE, before, 0)
    partie = Objective(mode=Mode.PARTIE, before=before)
    for st in _positions(8, 2):
        assert Solver(RUBICON, Objective(mode=Mode.TABLE, table=table)).value(st) == \
            Solver(RUBICON, partie).value(st)


def test_a_bad_table_is_refused() -> None:
    with pytest.raises(PiquetError, match="square table"):
        Objective(mode=Mode.TABLE, table=(1, 2, 3))
    with pytest.raises(PiquetError, match="under 2\\*\\*19"):
        Objective(mode=Mode.TABLE, table=(1 << 20,))


def test_the_rollouts_points_are_the_rollouts_values() -> None:
    m = new_match(RUBICON, seed=3)
    book = make_player("book")
    while True:
        p = m.to_act
        assert p is not None
        view = m.view(p)
        assert view.deal is not None
        if view.deal.discard_range is not None:
            break
        m = m.apply(book.choose(view), p)
    deal = view.deal
    worlds = playout_worlds(deal, RUBICON, sample_worlds(deal, RUBICON, random.Random(1), 16))
    lo, hi = deal.discard_range
    cands = discard_candidates(deal.hand.mask, lo, hi, RUBICON, role=deal.role)[:4]
    diffs = all_playout_values(RUBICON, deal.role, worlds, cands, 77)
    points = discard_rollout_points(RUBICON, deal.role, [w.deck for w in worlds],
                                    [w.history for w in worlds], cands, seed=77)
    for d, pts in zip(diffs, points, strict=True):
        assert d is not None and pts is not None
        assert [float(a - b) for a, b in pts] == d


def test_the_match_aware_expert_sees_the_match() -> None:
    m = new_match(RUBICON, seed=4, format="partie")
    view = m.view(m.to_act)
    assert situation(view, RUBICON).objective.mode is Mode.DIFF
    sit = situation(view, RUBICON, match_aware=True)
    # the first deal's table is near a straight line in the points: the play stays DIFF
    assert sit.table is not None and bends(RUBICON, Format.PARTIE, (0, 0), 5) < 6
    assert sit.objective.mode is Mode.DIFF
    game = new_match(GAME_1754, seed=4, format="game")
    assert situation(game.view(game.to_act), GAME_1754, match_aware=True).table is not None


@pytest.mark.parametrize(("preset", "fmt"), [("rubicon", "partie"),
                                              ("court-gamester-1754", "game")])
def test_the_match_aware_expert_plays_whole_matches(preset: str, fmt: str) -> None:
    rules = PRESETS[preset]
    m = new_match(rules, seed=8, format=fmt)
    players = (make_player("expert-match", seed=1, think_ms=10),
               make_player("book", seed=2))
    while not m.finished and len(m.deals) < 3:
        p = m.to_act
        assert p is not None
        m = m.apply(players[p].choose(m.view(p)), p)  # apply() verifies legality
    assert len(m.deals) >= 2 or m.finished


def test_a_table_that_bends_away_from_the_points_is_played_at_the_leaves() -> None:
    """Near the end of a partie the rubicon bends the table far from the points'
    difference; the play then uses it (TABLE), elsewhere DIFF does the same search."""
    assert bends(RUBICON, Format.PARTIE, (40, 20), 1) > LINEAR_TOLERANCE
    assert bends(RUBICON, Format.PARTIE, (150, 60), 1) > LINEAR_TOLERANCE
    assert bends(GAME_1754, Format.GAME, (30, 40), 0) > LINEAR_TOLERANCE


@pytest.mark.parametrize(("preset", "fmt", "seed"), [
    ("rubicon", "partie", 5), ("rubicon", "partie", 8),  # the exchange used to differ
    ("court-gamester-1754", "game", 11)])
def test_where_the_match_values_points_as_points_the_match_aware_expert_is_the_expert(
        preset: str, fmt: str, seed: int) -> None:
    """A first deal from 0-0: its table is nearly straight in the points (DIFF), so the
    match-aware expert's every decision, the exchange included, is today's expert's; the
    two differ only where the match bends the table (issue 41: no loss on first deals)."""
    rules = PRESETS[preset]
    played: list[list[str]] = []
    for level in ("expert-match", "expert"):
        m = new_match(rules, seed=seed, format=fmt)
        players = (make_player(level, seed=3, think_ms=10), make_player("book", seed=2))
        actions: list[str] = []
        while not m.deals:  # the first deal, to its end
            p = m.to_act
            assert p is not None
            action = players[p].choose(m.view(p))
            actions.append(f"{p}:{action}")
            m = m.apply(action, p)
        played.append(actions)
    assert played[0] == played[1]
