"""The computer's levels on the accounts' Glicko-2 scale (piquet.levels.scale), the ladder of whole
matches that places them (``piquet ladder --format``), and a new account's first rating
set from it (web/rated.py ``start_rating``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from piquet.analysis.ratings import NEW_PLAYER
from piquet.core.errors import PiquetError
from piquet.levels.scale import (
    FORMATS,
    SCALE_ANCHOR_LEVEL,
    first_rating,
    from_deal_scale,
    glicko_scale,
    level_rating,
)
from piquet.levels.strengths import SCALE, DealResult
from test_web_accounts import csrf, device, register
from test_web_kit import bearer, client


# ------------------------------------------------------------------ the ladder of matches
def test_a_ladder_of_whole_games_rates_on_games_won_and_moves_onto_the_accounts_scale(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from piquet.cli import main
    from piquet.tournament import ladder, match_tournament, on_glicko_scale

    res = ladder("rubicon", ["random", "nell", "toby"], pairs=4, seed=5, format="game",
                 pairings=[("random", "nell"), ("nell", "toby")])
    assert res.format is not None and res.format.value == "game" and res.matches == ()
    assert [(m.a, m.b) for m in res.match_results] == [("random", "nell"), ("nell", "toby")]
    # each pairing is the tournament of whole matches of the same seed
    alone = match_tournament("rubicon", "nell", "toby", format="game", pairs=4, seed=5)
    assert alone.won == res.match_results[1].won
    assert sum(res.match_results[0].won.values()) == 8  # 4 mirrored pairs: 8 games
    placed = on_glicko_scale(res, "nell")
    nell = placed["nell"]
    assert nell is not None and nell[0] == 1500 and nell[1] == (1500, 1500)
    for level in ("random", "toby"):
        got = placed[level]
        if got is not None:  # (a clean sweep has no finite rating)
            i = res.levels.index(level)
            # (the same differences, but for the fit's whisper of regularisation, which
            # pulls towards the anchor, now another)
            assert got[0] == pytest.approx(1500 + res.ratings[i] - res.ratings[1], abs=5)
            assert got[1][0] < got[0] < got[1][1]
    with pytest.raises(PiquetError, match="not among the ladder's levels"):
        on_glicko_scale(res, "hoyle")
    with pytest.raises(PiquetError, match="not pool"):
        ladder("court-gamester-1754", ["random", "nell"], pairs=1, format="pool")
    with pytest.raises(PiquetError, match="does not play"):
        ladder("court-gamester-1754", ["random", "nell"], pairs=1, format="partie")
    rc = main(["ladder", "--rules", "rubicon", "--format", "partie", "--pairings",
               "random:nell", "--deals", "2", "--no-progress", "--json"])
    assert rc == 0
    out = json.loads(capsys.readouterr().out)
    assert out["format"] == "partie" and out["glicko"]["nell"]["rating"] == 1500
    assert out["matches"][0]["format"] == "partie" and out["matches"][0]["matches"] == 4
    rc = main(["ladder", "--rules", "rubicon", "--format", "game", "--pairings",
               "random:nell", "--deals", "2", "--no-progress"])
    text = capsys.readouterr().out
    assert rc == 0 and "Ladder of whole games under rubicon" in text
    assert "On the accounts' Glicko-2 scale (nell at 1500" in text
    assert "random v nell: won" in text


# ------------------------------------------------------------------ the stored table
def test_the_stored_table_places_every_named_opponent_in_both_formats_nell_at_1500() -> None:
    table = glicko_scale()
    assert set(table) == set(FORMATS) == {"game", "partie"}
    for fmt, rows in table.items():
        assert set(rows) >= {"random", "nell", "toby", "book", "kitty", "colonel", "expert",
                             "hoyle"}
        anchor = rows[SCALE_ANCHOR_LEVEL]
        assert anchor is not None and anchor.rating == 1500
        assert anchor.ci95 == (1500, 1500)
        for level, r in rows.items():
            if r is None:
                continue
            assert r.ci95[0] <= r.rating <= r.ci95[1], (fmt, level)
            assert r.deviation > 0
        # the named opponents in the order they were made: beginner below the expert
        nell, hoyle = rows["nell"], rows["hoyle"]
        assert nell is not None and hoyle is not None and nell.rating < hoyle.rating
    # club plays the Colonel's choices: it has his rating; an unplaced level has none
    assert level_rating("club", "game") == level_rating("colonel", "game")
    assert level_rating("adaptive", "game") is None
    with pytest.raises(PiquetError, match="a game or a partie"):
        level_rating("nell", "pool")


def test_the_piquet_ladder_scale_command_prints_the_table(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from piquet.cli import main

    assert main(["ladder", "--scale"]) == 0
    text = capsys.readouterr().out
    assert "a new account starts at" in text and "nell" in text and "partie:" in text
    assert "1500" in text and "piquet ladder" in text
    assert main(["ladder", "--scale", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["formats"]["game"]["nell"]["rating"] == 1500
    assert set(out["formats"]) == {"game", "partie"}


def test_a_rating_on_the_deal_scale_is_carried_across_through_the_levels() -> None:
    for fmt in FORMATS:
        rows = {lv: r for lv, r in glicko_scale()[fmt].items() if r is not None}
        low = min(SCALE[lv] for lv in rows)
        high = max(SCALE[lv] for lv in rows)
        # at a level's own deal rating: at or above that level's place (rising)
        values = [from_deal_scale(x, fmt) for x in range(int(low) - 100, int(high) + 100, 7)]
        assert values == sorted(values)  # never falls as the deal rating rises
        assert from_deal_scale(low - 500, fmt) == values[0]  # no further than the weakest
        assert from_deal_scale(high + 500, fmt) == values[-1]
        assert from_deal_scale(SCALE["nell"], fmt) >= 1500  # Nell's own place (or above)


def test_a_first_rating_is_a_newcomers_without_results_else_placed_by_them() -> None:
    assert first_rating([], "game") == NEW_PLAYER
    strong = [DealResult("hoyle", 1.0)] * 30
    weak = [DealResult("nell", 0.0)] * 30
    for fmt in FORMATS:
        hi, lo = first_rating(strong, fmt), first_rating(weak, fmt)
        assert hi.rating > 1500 > lo.rating
        assert hi.deviation == lo.deviation == NEW_PLAYER.deviation


# ------------------------------------------------------------------ used by the web table
@pytest.fixture
def c(tmp_path: Path) -> Iterator[TestClient]:
    with client(tmp_path) as first:
        yield first


def test_the_options_give_each_computers_rating_on_the_accounts_scale(c: TestClient) -> None:
    opts = c.get("/api/options").json()
    ratings = opts["level_ratings"]
    for level in ("nell", "toby", "kitty", "colonel", "hoyle"):
        if level in opts["levels"]:
            found = level_rating(level, "game")
            assert found is not None and ratings[level]["game"] == round(found.rating)
    assert ratings.get("nell", {}).get("partie", 1500) == 1500


def test_a_new_accounts_first_rating_comes_from_its_games_against_the_computer(
    c: TestClient, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ada has beaten Mr Hoyle in deals while logged in: her first rated seek starts her
    above 1500 (and above Nell); Bob, with no such deals, starts at 1500 (Nell).  The
    start is a rating of 0 games, and the first rated game moves it."""
    ada, bob = c, device(c)
    register(ada, "Ada")
    register(bob, "Bob")
    engine = c.app.state.piquet.store.engine  # type: ignore[attr-defined]
    import piquet.web.evenmatch as evenmatch

    real = evenmatch.results_of

    def results(games: object, identity: str) -> list[DealResult]:
        ada_identity = engine.connect().execute(sa.text(
            "SELECT identity FROM piquet_accounts WHERE name = 'Ada'")).scalar()
        if identity == ada_identity:
            return [DealResult("hoyle", 1.0)] * 20
        return real(games, identity)  # type: ignore[arg-type]

    monkeypatch.setattr(evenmatch, "results_of", results)
    r = ada.post("/api/seeks", json={"rules": "rubicon", "format": "game"},
                 headers=csrf(ada))
    assert r.status_code == 201
    monkeypatch.undo()
    expected = first_rating([DealResult("hoyle", 1.0)] * 20, "game")
    mine = ada.get("/api/account").json()["account"]["ratings"]["game"]
    assert mine["games"] == 0 and mine["rating"] == round(expected.rating, 2)
    assert mine["rating"] > 1500
    assert c.get("/api/seeks").json()["seeks"][0]["rating"] == round(expected.rating)
    made = bob.post("/api/seeks", json={"rules": "rubicon", "format": "game"},
                    headers=csrf(bob)).json()
    assert made["matched"] is True
    theirs = bob.get("/api/account").json()["account"]["ratings"]["game"]
    assert theirs == {"rating": 1500.0, "deviation": 350.0, "games": 0}
    # Bob resigns: both ratings move from their starts, and the games count one
    r = bob.post(f"/api/games/{made['game']}/resign",
                 headers={**bearer(made["token"]), **csrf(bob)})
    assert r.status_code == 200
    rating = bob.get(f"/api/games/{made['game']}/rating", headers=bearer(made["token"])).json()
    assert rating["settled"] is True
    assert rating["changes"][0]["before"] == round(expected.rating, 2)
    assert rating["changes"][1]["before"] == 1500.0
    after = ada.get("/api/account").json()["account"]["ratings"]["game"]
    assert after["games"] == 1 and after["rating"] > mine["rating"]
