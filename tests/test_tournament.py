"""Tournaments: mirrored, reproducible whatever the workers, and honest about their errors."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pytest

from piquet.cli import main
from piquet.core.errors import PiquetError
from piquet.core.match import new_match
from piquet.core.rules import PRESETS, Format
from piquet.tournament import (
    LadderResult,
    TournamentResult,
    deal_pack,
    fit_ratings,
    ladder,
    match_seed,
    match_tournament,
    mean_ci,
    run_pairs,
    tournament,
)


def test_a_pair_deals_the_same_cards_twice() -> None:
    rules = PRESETS["rubicon"]
    assert deal_pack(rules, 3, 7) == deal_pack(rules, 3, 7)
    assert deal_pack(rules, 3, 7) != deal_pack(rules, 3, 8)
    assert sorted(deal_pack(rules, 3, 7)) == [i for i in range(36) if i % 9]


def test_results_do_not_depend_on_the_workers() -> None:
    one = run_pairs(PRESETS["rubicon"], "book", "random", pairs=6, seed=4, workers=1)
    two = run_pairs(PRESETS["rubicon"], "book", "random", pairs=6, seed=4, workers=2)
    assert one == two


def test_mirrored_margin_and_counts() -> None:
    res = tournament("court-gamester-1754", "book", "random", pairs=4, seed=1)
    assert res.pairs == 4
    assert sum(res.deals_won) == 8
    margins = [o.margin for o in res.outcomes]
    assert math.isclose(res.margin_per_deal, sum(margins) / 4)
    lo, hi = res.ci95
    assert lo <= res.margin_per_deal <= hi


def test_games_are_played_when_asked() -> None:
    res = tournament("rubicon", "book", "random", pairs=1, seed=2, games=True)
    assert res.games_won is not None
    assert sum(res.games_won) == 2


def test_mean_ci() -> None:
    mean, (lo, hi) = mean_ci([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5
    # Student's t with 3 degrees of freedom (3.182), not the normal 1.96: the sample's
    # standard error is sqrt(5/3 / 4)
    assert hi - 2.5 == pytest.approx(3.182 * math.sqrt(5 / 12))
    assert lo == pytest.approx(5.0 - hi)


def test_t_quantiles_fall_to_the_normal_one() -> None:
    from piquet.tournament import t975

    qs = [t975(df) for df in (1, 2, 5, 10, 29, 30, 35, 40, 50, 60, 90, 120, 500, 10_000)]
    assert qs == sorted(qs, reverse=True)
    assert t975(1) == 12.706 and t975(30) == 2.042 and t975(60) == 2.0
    assert t975(50) == pytest.approx(2.009, abs=0.001)  # the table's value
    assert t975(10_000) == pytest.approx(1.960, abs=0.001)
    # from 100 values the normal interval is kept (the published tables were made so)
    values = [float(i % 7) for i in range(100)]
    mean, (_lo, hi) = mean_ci(values)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / 99)
    assert hi - mean == pytest.approx(1.959964 * sd / 10)


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(
        ["tournament", "--rules", "rubicon", "--players", "book", "random", "--deals", "2",
         "--json", "--no-progress"]
    )
    assert rc == 0
    data = json.loads(capsys.readouterr().out)
    for key in ("a", "b", "pairs", "margin_per_deal", "ci95"):
        assert key in data
    assert data["a"] == "book" and data["pairs"] == 2
    assert len(data["ci95"]) == 2


def test_cli_json_one_pair_has_no_interval(capsys: pytest.CaptureFixture[str]) -> None:
    """One pair measures no noise: the JSON gives no interval (null) rather than one of no
    width, as the text says "no interval"."""
    rc = main(["tournament", "--rules", "rubicon", "--players", "book", "random", "--deals", "1",
               "--json", "--no-progress"])
    assert rc == 0
    data = json.loads(capsys.readouterr().out)
    assert data["pairs"] == 1 and data["ci95"] is None


def test_cli_text(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["tournament", "--rules", "1754", "--players", "book", "random", "--deals", "2",
               "--no-progress"])
    assert rc == 0
    out = capsys.readouterr().out
    assert "2 mirrored pairs (4 deals)" in out
    assert "points per deal" in out and "95% CI" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--players", "book", "wizard"], "unknown player level"),
        (["--players", "book", "random", "--deals", "0"], "--deals must be at least 1"),
        (["--players", "book", "random", "--rules", "nope"], "unknown rule set"),
        (["--players", "book", "random", "--workers", "0"], "--workers must be at least 1"),
    ],
)
def test_cli_errors_are_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tournament", "--no-progress", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_ray_asked_for_but_missing_is_a_clean_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # as if piquet[ray] were not installed
    rc = main(["tournament", "--players", "book", "random", "--deals", "1", "--ray", "auto",
               "--no-progress"])
    assert rc == 2
    assert "install piquet[ray]" in capsys.readouterr().err


def test_fit_ratings_orders_and_anchors() -> None:
    levels = ["random", "book", "expert"]
    wins = {
        ("random", "book"): 10.0, ("book", "random"): 90.0,
        ("random", "expert"): 5.0, ("expert", "random"): 95.0,
        ("book", "expert"): 40.0, ("expert", "book"): 60.0,
    }
    games = {("random", "book"): 100.0, ("random", "expert"): 100.0, ("book", "expert"): 100.0}
    ratings, intervals = fit_ratings(levels, wins, games)
    assert ratings[0] == 0.0
    assert 0 < ratings[1] < ratings[2]
    for r, ci in zip(ratings, intervals, strict=True):
        assert ci is not None and ci[0] <= r <= ci[1]


def test_a_clean_sweep_has_no_rating_interval() -> None:
    """Book won every deal against random: the fit's value is its regularisation's, and
    its Wald interval (-2683 to +5040 for 6 of 6) meant nothing; it is said to have none."""
    from piquet.tournament import LadderResult

    levels = ["random", "book", "expert"]
    wins = {("random", "book"): 0.0, ("book", "random"): 6.0,
            ("random", "expert"): 0.0, ("expert", "random"): 6.0,
            ("book", "expert"): 2.0, ("expert", "book"): 4.0}
    games = {("random", "book"): 6.0, ("random", "expert"): 6.0, ("book", "expert"): 6.0}
    _ratings, intervals = fit_ratings(levels, wins, games)
    assert intervals[0] == (0.0, 0.0) and intervals[1] is None and intervals[2] is None
    # one deal the other way makes every rating finite again
    wins[("random", "book")], wins[("book", "random")] = 1.0, 5.0
    assert all(ci is not None for ci in fit_ratings(levels, wins, games)[1])
    res = LadderResult("rubicon", tuple(levels), (0.0, 900.0, 1000.0),
                       ((0.0, 0.0), None, None), ())
    js = res.to_json()
    assert js["ratings"]["book"] is None and js["ci95"]["book"] is None


def test_ladder_and_its_plot(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    res = ladder("rubicon", ["random", "book"], pairs=2, seed=1)
    assert res.levels == ("random", "book") and res.ratings[0] == 0.0
    assert res.ratings[1] > 0
    pytest.importorskip("matplotlib")
    from pathlib import Path

    out = Path(str(tmp_path)) / "ladder.png"
    rc = main(["ladder", "--rules", "rubicon", "--levels", "random", "book", "--deals", "2",
               "--plot", str(out), "--no-progress"])
    assert rc == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    text = capsys.readouterr().out
    assert "book" in text
    if res.intervals[1] is None:  # book won every deal: said once, and why
        assert "random won no deal: no level can be rated against it" in text
        assert "?   (no estimate: random won no deal; play more deals)" in text


def test_the_ladder_plot_draws_only_what_is_estimated_and_says_why_not_the_rest() -> None:
    """Issue 34: the plot drew points where the text says there is no estimate."""
    pytest.importorskip("matplotlib")
    from piquet.tournament import ladder_figure

    swept = TournamentResult("rubicon", "random", "expert", 2, 0, None, -40.0, (-50.0, -30.0),
                             (0, 4, 0))
    played = TournamentResult("rubicon", "random", "book", 2, 0, None, -5.0, (-9.0, -1.0),
                              (1, 3, 0))
    res = LadderResult("rubicon", ("random", "book", "expert"), (0.0, 300.0, 2500.0),
                       ((0.0, 0.0), (100.0, 500.0), None), (played, swept))
    assert res.why_unrated(2) == "a clean sweep between it and random's side"
    assert res.why_unrated(1) is None
    fig = ladder_figure(res)
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["random", "book"]
    drawn = [x for line in ax.get_lines() for x in line.get_xdata()]
    assert 2500.0 not in drawn and 300.0 in drawn
    words = " ".join(t.get_text() for t in fig.texts)
    assert "expert: no estimate (a clean sweep between it and random's side)" in words
    # no level drawn where random won nothing: each one named, with the reason
    alone = LadderResult("rubicon", ("random", "book"), (0.0, 900.0), ((0.0, 0.0), None),
                         (swept,))
    fig = ladder_figure(alone)
    assert [t.get_text() for t in fig.axes[0].get_yticklabels()] == ["random"]
    assert "book: no estimate (random won no deal)" in " ".join(t.get_text() for t in fig.texts)


def test_ladder_refuses_a_bad_plot_name(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["ladder", "--levels", "random", "book", "--deals", "1", "--plot", "x.jpg",
               "--no-progress"])
    assert rc == 2
    assert "PNG" in capsys.readouterr().err


def test_tournament_refuses_bad_counts() -> None:
    with pytest.raises(PiquetError):
        run_pairs(PRESETS["rubicon"], "book", "random", pairs=0)


def test_the_ladder_lists_the_reference_by_default() -> None:
    from piquet.players import LEVELS

    assert "reference" in LEVELS and "expert" in LEVELS


def test_the_ladder_ranks_the_reference(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["ladder", "--rules", "rubicon", "--levels", "book", "reference", "--deals", "1",
               "--think", "5", "--json", "--no-progress"])
    assert rc == 0
    out = json.loads(capsys.readouterr().out)
    assert out["levels"] == ["random", "book", "reference"]


def test_the_ladder_refuses_an_unknown_level(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["ladder", "--levels", "book", "grandmaster", "--deals", "1", "--no-progress"])
    assert rc == 2
    err = capsys.readouterr().err
    assert "unknown player level 'grandmaster'" in err and "reference" in err


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if int(fields[1]) == pid and fields[0] != "Z":
            out.append(int(entry.name))
    return out


def _alive(pid: int) -> bool:
    """Whether ``pid`` still runs (a zombie waiting to be reaped does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2:].split()[0] != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
@pytest.mark.parametrize(
    "argv",
    [
        ["tournament", "--players", "random", "book"],
        ["ladder", "--levels", "random", "book"],
        ["tournament", "--players", "random", "book", "--format", "game"],
    ],
)
def test_workers_end_when_the_tournament_is_killed(argv: list[str]) -> None:
    """Issue 41: ``piquet tournament --workers 2`` killed from outside (SIGKILL, as a time
    limit does) left its two worker processes running for over an hour and a half."""
    import os
    import signal
    import subprocess
    import time

    cmd = [sys.executable, "-m", "piquet", *argv, "--deals", "100000", "--workers", "2",
           "--no-progress"]
    parent = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 300
        while len(workers) < 2 and time.monotonic() < deadline and parent.poll() is None:
            time.sleep(0.1)
            workers = _children(parent.pid)
        assert len(workers) == 2, "the two workers did not start"
        time.sleep(0.5)  # at work on their deals
        assert all(_alive(w) for w in workers)
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        deadline = time.monotonic() + 120
        while any(_alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        left = [w for w in workers if _alive(w)]
        assert not left, f"workers {left} still run after their parent was killed"
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        for w in workers:  # (only if the test failed: ours, by their ids)
            if _alive(w):
                os.kill(w, signal.SIGKILL)


# ------------------------------------------------------------------ whole matches
@pytest.mark.parametrize(
    ("preset", "fmt", "a", "b"),
    [
        ("rubicon", "partie", "book", "random"),
        ("rubicon", "partie", "random", "random"),
        ("court-gamester-1754", "game", "book", "random"),
        ("encyclopedia-19c", "game", "random", "random"),
        ("court-gamester-1754", "pool", "book", "random"),
        ("court-gamester-1754", "pool", "random", "random"),
    ],
)
def test_whole_matches_are_mirrored_and_add_up(preset: str, fmt: str, a: str, b: str) -> None:
    res = match_tournament(preset, a, b, format=fmt, pairs=2, seed=3)
    assert res.format is Format(fmt) and res.pairs == 2 and res.matches == 4
    assert [p.index for p in res.outcomes] == [0, 1]
    rules = PRESETS[preset]
    stakes, points, won = [], [], {"a": 0, "b": 0, "third": 0, None: 0}
    for pair in res.outcomes:
        first, second = pair.matches
        # one seed, the seats swapped: A is player 0, then player 1
        assert (first.a_player, second.a_player) == (0, 1)
        assert pair.seed == match_seed(3, pair.index)
        # the same cards: the first deal of each match is dealt from the same pack
        one = new_match(rules, seed=pair.seed, format=fmt)
        assert one.deal is not None
        assert one.deal.deck == new_match(rules, seed=pair.seed, format=fmt).deal.deck
        for o in pair.matches:
            won[o.winner] += 1
            if fmt == "partie":
                # the settlement is the winner's, at least his margin in points
                margin = o.points[0] - o.points[1]
                assert (o.stake > 0) == (margin > 0) and abs(o.stake) >= abs(margin)
            elif fmt == "game":
                assert o.winner in ("a", "b")
                target = rules.target
                assert max(o.points) >= target
                assert abs(o.stake) == (2 if o.lurch else 1)
                assert o.lurch == (min(o.points) < rules.lurch_below)
            else:
                assert o.ledger is not None
                assert o.stake == o.ledger[0] - o.ledger[1]
                assert sum(o.ledger) == 0  # what one pays, another takes
        stakes.append(sum(o.stake for o in pair.matches) / 2)
        points.append(sum(o.points[0] - o.points[1] for o in pair.matches) / 2)
        if fmt == "pool":
            assert pair.third == (a if pair.index % 2 == 0 else b)
        else:
            assert pair.third is None
    assert res.stake.mean == pytest.approx(sum(stakes) / 2)
    assert res.points.mean == pytest.approx(sum(points) / 2)
    assert sum(res.won.values()) == 4
    assert res.won["a"] == won["a"] and res.won["b"] == won["b"]
    assert res.deals == sum(o.deals for p in res.outcomes for o in p.matches) >= 4
    data = json.loads(json.dumps(res.to_json()))
    assert data["format"] == fmt and data["pairs"] == 2 and data["matches"] == 4
    key = "settlement_margin" if fmt == "partie" else "stake_margin"
    assert set(data[key]) == {"mean", "ci95"} and len(data[key]["ci95"]) == 2
    assert set(data["won_share"]) == {"mean", "ci95"}
    if fmt == "game":
        assert set(data["lurches"]) == {"a", "b"}
    if fmt == "pool":
        assert sum(data["stakes"].values()) == 0
        assert data["third_seat"] == {"a_level": 1, "b_level": 1}


def test_the_same_deals_with_the_seats_swapped() -> None:
    """The two matches of a pair share their seed: whoever sits at player 0 is dealt the
    same cards in the same seat deal by deal, whatever the players do, while both games
    last; A sits there in the first match and B in the second."""
    import random as stdlib_random

    rules = PRESETS["court-gamester-1754"]
    seed = match_seed(7, 0)

    def dealt(rng_seed: int) -> list[tuple[int, int, tuple[int, ...]]]:
        rng = stdlib_random.Random(rng_seed)
        m = new_match(rules, seed=seed, format=Format.GAME)
        out = []
        while not m.finished:
            assert m.deal is not None
            key = (m.deal_number, m.dealer, tuple(m.deal.deck))
            if not out or out[-1] != key:
                out.append(key)
            m = m.apply(m.random_action(rng))
        return out

    one, two = dealt(1), dealt(2)
    common = min(len(one), len(two))
    assert common >= 1 and one[:common] == two[:common]


def test_whole_matches_do_not_depend_on_the_workers() -> None:
    one = match_tournament("rubicon", "book", "random", format="partie", pairs=3, seed=4)
    two = match_tournament("rubicon", "book", "random", format="partie", pairs=3, seed=4,
                           workers=2)
    assert one.outcomes == two.outcomes
    assert one.to_json() == two.to_json()


def test_one_pair_of_matches_has_no_interval() -> None:
    res = match_tournament("rubicon", "book", "random", format="game", pairs=1, seed=1)
    assert res.stake.ci95 is None and res.to_json()["stake_margin"]["ci95"] is None


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--rules", "rubicon", "--format", "pool"],
         "rubicon does not play the three-player pool; --format under it may be: partie, game"),
        (["--rules", "1754", "--format", "partie"],
         "court-gamester-1754 does not play the Rubicon partie; --format under it may be: "
         "game, pool"),
        (["--rules", "rubicon", "--format", "rubber"], "unknown format 'rubber'"),
        (["--rules", "rubicon", "--format", "game", "--games"], "leave out --games"),
        (["--rules", "rubicon", "--format", "game", "--deals", "0"],
         "--deals must be at least 1"),
    ],
)
def test_whole_match_errors_say_what_is_allowed(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tournament", "--players", "book", "random", "--no-progress", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("preset", "fmt", "lines"),
    [
        ("rubicon", "partie", ["whole parties: 2 mirrored pairs (4 parties,",
                               "settlement: book minus random", "parties won: book"]),
        ("1754", "game", ["whole games: 2 mirrored pairs (4 games,", "games won: book",
                          "lurches (the loser under 50", "stakes: book minus random"]),
        ("1754", "pool", ["whole pools: 2 mirrored pairs (4 pools,", "pools won: book",
                          "the third seat: book in the odd-numbered pairs"]),
    ],
)
def test_cli_whole_matches(
    preset: str, fmt: str, lines: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["tournament", "--rules", preset, "--players", "book", "random", "--deals", "2",
            "--format", fmt, "--no-progress"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    for line in [*lines, "95% CI"]:
        assert line in out
    assert ("points: book minus random" in out) == (fmt != "pool")
    assert main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["format"] == fmt and data["a"] == "book" and data["matches"] == 4
