"""The match's value of a deal's outcome on hand-made scores where the right answer is plain
(issue 41): the rubicon on the last deal, a huge lead, the first deal against the last, the
game's target and lurch, and whose side the table is read from."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from piquet.analysis.sampling import sample_worlds
from piquet.core.cards import DECK32
from piquet.core.deal import ELDER, YOUNGER
from piquet.core.match import new_match
from piquet.core.rules import PRESETS, Format
from piquet.fast.solver import DIFF, Mode, Objective, PlayState, Solver
from piquet.players import make_player
from piquet.players.common import discard_candidates, partie_deals_left, situation
from piquet.players.exchange import all_playout_values, match_playout_values, playout_worlds
from piquet.players.matchvalue import STAKE, WIDTH, bends, deal_table, table_line

RUBICON = PRESETS["rubicon"]
GAME_1754 = PRESETS["court-gamester-1754"]


def _grid(rules: object, fmt: Format, start: tuple[int, int], left: int = 0) -> np.ndarray:
    return np.asarray(deal_table(rules, fmt, start, left)).reshape(WIDTH, WIDTH)  # type: ignore[arg-type]


def test_last_deal_behind_90_to_150_the_points_that_save_the_rubicon_are_worth_most() -> None:
    """Elder 90, younger 150, the partie's last deal: elder loses whatever he counts under
    60; his tenth point saves him the rubicon (199 settlement points: 100 + 150 + 99 paid
    against 100 + 150 - 100), every other point is worth one."""
    t = _grid(RUBICON, Format.PARTIE, (90, 150))
    assert t[9, 0] == -(100 + 150 + 99)
    assert t[10, 0] == -(100 + 150 - 100)
    gains = np.diff(t[:60, 0])
    assert gains[9] == 199
    # a rubiconed loser's points count for the winner: each one short of 100 costs him one
    assert set(gains[:9].tolist()) == {-1}
    assert set(gains[10:].tolist()) == {1}
    # younger's points: one a point (the difference), never a jump while elder stays behind
    assert set(np.diff(t[30, :40]).tolist()) == {-1}


def test_last_deal_the_partie_changes_hands_where_the_totals_cross() -> None:
    """120 to 115 on the last deal: the settlement jumps by 2 * (100 + difference) where the
    totals cross; a tie settles nothing."""
    t = _grid(RUBICON, Format.PARTIE, (120, 115))
    assert t[10, 15] == 0
    assert t[11, 15] == 100 + 1 and t[10, 16] == -(100 + 1)
    assert t[11, 15] - t[10, 15] > 50 * (t[12, 15] - t[11, 15])


def test_last_deal_is_the_same_from_either_side() -> None:
    """The settlement is a zero-sum affair: elder's table for (a, b) is younger's for (b, a)
    with the points swapped and the sign turned."""
    for a, b in ((90, 150), (120, 115), (300, 20), (40, 60)):
        assert np.array_equal(_grid(RUBICON, Format.PARTIE, (a, b)),
                              -_grid(RUBICON, Format.PARTIE, (b, a)).T)


def test_a_huge_lead_leaves_little_to_play_for() -> None:
    """300 to 20 on the last deal: elder wins the partie whatever happens; his points are
    worth one each, and younger's too while he stays rubiconed (his total counts for the
    winner), until his hundredth point takes twice his total off elder's settlement.  Risk
    aversion: the table is far flatter in the points' difference than a close partie's."""
    t = _grid(RUBICON, Format.PARTIE, (300, 20))
    assert (t > 0).all()
    assert set(np.diff(t[:100, 10]).tolist()) == {1}
    assert t[0, 79] - t[0, 80] == 2 * 99 + 1  # younger reaches 100: no longer rubiconed
    close, _ = table_line(RUBICON, deal_table(RUBICON, Format.PARTIE, (120, 115), 0))
    far, _ = table_line(RUBICON, deal_table(RUBICON, Format.PARTIE, (300, 20), 0))
    assert far < close / 2


@pytest.mark.parametrize(("start", "left"), [
    ((0, 0), 5), ((40, 40), 3), ((70, 85), 1), ((120, 110), 1), ((90, 150), 1),
    ((150, 90), 1), ((80, 20), 2), ((200, 60), 2)])
def test_before_the_last_deal_more_of_ones_own_points_are_worth_more(
        start: tuple[int, int], left: int) -> None:
    """Monotone in one's own points (elder's, the rows) wherever elder is not a sure loser
    (a rubiconed loser's points count for the winner)."""
    t = _grid(RUBICON, Format.PARTIE, start, left)
    assert (np.diff(t[:120, :120], axis=0) >= 0).all()


@pytest.mark.parametrize(("start", "left"), [
    ((0, 0), 5), ((40, 40), 3), ((70, 85), 1), ((120, 110), 1), ((90, 150), 1)])
def test_before_the_last_deal_the_others_points_are_worth_less(
        start: tuple[int, int], left: int) -> None:
    t = _grid(RUBICON, Format.PARTIE, start, left)
    assert (np.diff(t[:120, :120], axis=1) <= 0).all()


def test_the_last_deal_bends_more_than_the_first() -> None:
    """The first deal from 0-0 values points nearly as points; the last deal of a close
    partie does not (its jumps: the rubicon, the partie changing hands)."""
    first = bends(RUBICON, Format.PARTIE, (0, 0), 5)
    last = bends(RUBICON, Format.PARTIE, (110, 100), 0)
    assert first < 6 < last
    slope, _ = table_line(RUBICON, deal_table(RUBICON, Format.PARTIE, (0, 0), 5))
    # a point on the first deal is worth a few settlement points (a partie is won by ~100+)
    assert 1.5 < slope < 4


def test_behind_90_to_150_with_a_deal_to_come_the_rubicon_still_weighs() -> None:
    """One deal after this one: the points that bring elder near 100 are worth more than
    those far past it (the rubicon may still be saved in the next deal)."""
    t = _grid(RUBICON, Format.PARTIE, (90, 150), 1)
    near = t[10, 20] - t[0, 20]
    far = t[60, 20] - t[50, 20]
    assert near > far > 0


def test_a_game_to_100_values_reaching_it_and_the_lurch() -> None:
    """1754: 90 to 20 before a deal; elder's ten points win the game, and with younger
    under 50 at its end a lurch (2 stakes); monotone in elder's points throughout."""
    t = _grid(GAME_1754, Format.GAME, (90, 20))
    assert t[10, 29] == 2 * STAKE and t[10, 30] == STAKE
    assert t[9, 0] < t[10, 0]
    for start in ((0, 0), (30, 40), (60, 20), (20, 60), (90, 20), (80, 85)):
        g = _grid(GAME_1754, Format.GAME, start)
        assert (np.diff(g[:120, :120], axis=0) >= 0).all()
        assert (np.diff(g[:120, :120], axis=1) <= 0).all()


@pytest.mark.parametrize("role", [ELDER, YOUNGER])
def test_the_situation_reads_the_table_from_elders_side_whoever_asks(role: int) -> None:
    """A player at 90 against 150 on the partie's last deal: the start and the table are
    (elder's, younger's) whichever role the player holds, and the objective is the
    partie's settlement from the same totals."""
    m = new_match(RUBICON, seed=4, format="partie")
    p = m.to_act
    assert p is not None
    view = m.view(p)
    assert view.deal is not None
    me = view.in_game.index(view.player)
    scores = [0, 0]
    scores[me], scores[1 - me] = 90, 150
    view = dataclasses.replace(view, scores=tuple(scores), deal_number=RUBICON.partie_deals)
    if view.deal.role != role:
        view = dataclasses.replace(view, deal=dataclasses.replace(view.deal, role=role))
    sit = situation(view, RUBICON, match_aware=True)
    want = (90, 150) if role == ELDER else (150, 90)
    assert sit.start == want and sit.lead == -60
    assert sit.objective.mode is Mode.PARTIE and sit.objective.before == want
    assert sit.table == deal_table(RUBICON, Format.PARTIE, want, 0)


def test_a_level_partie_goes_on_a_deal_each_and_its_seventh_deal_is_not_the_last() -> None:
    """Rubicon: level after six deals, each deals once more (the match plays deals 7 and 8,
    then settles); the seventh deal has one to come, the eighth is the last."""
    assert RUBICON.partie_tie_extra_deals
    assert [partie_deals_left(n, RUBICON) for n in range(1, 9)] == [5, 4, 3, 2, 1, 0, 1, 0]
    m = new_match(RUBICON, seed=4, format="partie")
    p = m.to_act
    assert p is not None
    view = dataclasses.replace(m.view(p), scores=(150, 150), deal_number=7)
    assert situation(view, RUBICON).objective.mode is Mode.DIFF
    sit = situation(view, RUBICON, match_aware=True)
    assert sit.table == deal_table(RUBICON, Format.PARTIE, (150, 150), 1)
    view = dataclasses.replace(view, deal_number=8)
    assert situation(view, RUBICON).objective.mode is Mode.PARTIE
    assert situation(view, RUBICON, match_aware=True).table == \
        deal_table(RUBICON, Format.PARTIE, (150, 150), 0)


_DIFF_TABLE = tuple(x - y for x in range(WIDTH) for y in range(WIDTH))
"""A table worth elder's points less younger's: read from either side it is the points."""


@pytest.mark.parametrize("seed", [3, 6])
def test_the_exchange_reads_the_table_from_its_own_side_elder_or_younger(seed: int) -> None:
    """Valued by a table of the points' difference, each play-out is worth what the points
    exchange counts (this role's less the other's), for elder's exchange and younger's."""
    m = new_match(RUBICON, seed=seed)
    book = make_player("book")
    seen = set()
    while len(seen) < 2:
        p = m.to_act
        assert p is not None
        view = m.view(p)
        deal = view.deal
        assert deal is not None
        if deal.discard_range is not None and deal.to_act == deal.role:
            worlds = playout_worlds(deal, RUBICON,
                                    sample_worlds(deal, RUBICON, random.Random(seed), 12))
            lo, hi = deal.discard_range
            cands = discard_candidates(deal.hand.mask, lo, hi, RUBICON, role=deal.role)[:3]
            assert match_playout_values(RUBICON, deal.role, worlds, cands, 5, _DIFF_TABLE) == \
                all_playout_values(RUBICON, deal.role, worlds, cands, 5)
            seen.add(deal.role)
        m = m.apply(book.choose(view), p)
    assert seen == {ELDER, YOUNGER}


def test_the_play_reads_the_table_from_the_side_of_the_seat_to_move() -> None:
    """Younger to move: under a table of the points' difference each card is worth to him
    the points to come (DIFF's value, his side) less elder's lead in the deal so far."""
    rng = random.Random(11)
    cards = [c for c in range(36) if DECK32 >> c & 1]
    for _ in range(6):
        rng.shuffle(cards)
        elder = sum(1 << c for c in cards[:12])
        younger = sum(1 << c for c in cards[12:24])
        lead = next(c for c in cards[:12])
        st = PlayState(hands=(elder & ~(1 << lead), younger), leader=ELDER, lead=lead,
                       won=(0, 0), totals=(rng.randint(0, 40), rng.randint(0, 40)))
        assert st.to_move == YOUNGER
        diff = Solver(RUBICON, DIFF).move_values(st)
        table = Solver(RUBICON, Objective(mode=Mode.TABLE, table=_DIFF_TABLE)).move_values(st)
        ahead = st.totals[0] - st.totals[1]
        assert table == {c: v - ahead for c, v in diff.items()}
