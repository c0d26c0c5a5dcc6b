"""The review of a finished game as a learner uses it (analysis.js): the deal's curve, the
biggest mistakes in words with the glossary's terms marked, and "play from here" opening
a practice game at that position with the same cards."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from browserkit import box_of
from conftest import PATIENCE, POLL
from test_web_kit import ThreadServer, chromium_available, pick, screenshot

pytestmark = pytest.mark.skipif(not chromium_available(), reason="no Chromium")

SIZES = [("desktop", {"width": 1280, "height": 900}), ("phone", {"width": 390, "height": 844})]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    # the real analysis on a test's budget (the kit's default): the page is checked,
    # not the advice
    with ThreadServer(tmp_path_factory.mktemp("review"), analyse_as_played=True) as srv:
        yield srv


def played_game(server: ThreadServer, deals: int, seed: int) -> tuple[str, str]:
    """A game against the computer whose first ``deals`` deals were played to their end
    (at random through the API), then resigned.  (id, token)."""
    made = httpx.post(server.url + "/api/games", json={"rules": "rubicon", "opponent": "random",
                                                       "name": "Ada"}).json()
    gid, auth = made["id"], {"Authorization": f"Bearer {made['token']}"}
    rng = random.Random(seed)
    # only the actions count against the bound (looks that found the computer still to
    # act, counted too, ran out on a loaded machine before the deals were played)
    deadline = time.monotonic() + PATIENCE / 1000
    with httpx.Client(base_url=server.url, timeout=30) as c:
        taken = 0
        while taken < 400 * deals:
            g = c.get(f"/api/games/{gid}", headers=auth).json()
            if g["view"]["deal_number"] > deals:
                break
            if g["to_act"] != 0:
                assert time.monotonic() < deadline, "the computer did not move"
                time.sleep(0.05)  # the computer is to act: poll until it has
                continue
            taken += 1
            deadline = time.monotonic() + PATIENCE / 1000
            r = c.post(f"/api/games/{gid}/actions", json={"action": pick(g, rng)},
                       headers=auth)
            assert r.status_code == 200, r.text
        assert c.post(f"/api/games/{gid}/resign", headers=auth).status_code == 200
    return gid, made["token"]


@pytest.fixture(scope="module")
def one_deal_game(server: ThreadServer) -> tuple[str, str]:
    """A finished game of one deal (played at random, then resigned).  (id, token)."""
    return played_game(server, 1, 3)


@pytest.fixture(scope="module")
def three_deal_game(server: ThreadServer) -> tuple[str, str]:
    """A finished game of three deals (played at random, then resigned).  (id, token)."""
    return played_game(server, 3, 5)


def new_page(browser: Any, viewport: dict[str, int]) -> Any:
    page = browser.new_context(viewport=viewport, bypass_csp=True).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page


@pytest.mark.parametrize(("size", "viewport"), SIZES)
def test_the_review_of_a_one_deal_game(
    server: ThreadServer, browser: Any, one_deal_game: tuple[str, str], size: str,
    viewport: dict[str, int],
) -> None:
    game_id, token = one_deal_game
    page = new_page(browser, viewport)
    page.goto(server.url + f"/play/{game_id}#token={token}")
    page.wait_for_selector("#main[data-n]")
    page.goto(server.url + f"/replay/{game_id}")
    page.wait_for_selector('#analysis[data-pending="0"]')
    deal = page.locator("#analysis article.analysis-deal").first
    # the curve: a point after each decision, each one a step of the viewer
    page.wait_for_selector("#analysis svg.review-curve circle.dot")
    assert page.locator("svg.review-curve circle.dot").count() >= 10
    # one deal: no curve over the deals (the deal's own says it all)
    assert page.locator("#analysis .game-curve-box").count() == 0
    assert "How the deal stood after each decision" in deal.inner_text()
    # the words: the biggest mistakes first, each with its cost, in plain sentences
    mistakes = page.locator("ol.review-mistakes li.review-mistake")
    assert mistakes.count() >= 1  # a random player gives points away
    costs = [float(t.split("cost ")[1].split(" point")[0])
             for t in mistakes.all_inner_texts()]
    assert costs == sorted(costs, reverse=True)
    words = page.inner_text("ol.review-mistakes")
    assert "would have" in words and " more" in words
    assert not any(code in words for code in ("AS", "KH", "7C", "TD"))  # names, not codes
    # the glossary's terms are marked, as everywhere
    page.wait_for_selector("#analysis abbr.term")
    # the cards are the table's images, big enough to read
    card = page.locator("ol.review-mistakes .card.mini").first
    assert box_of(card)["width"] >= 40
    deal.scroll_into_view_if_needed()
    screenshot(page, f"review-{size}")
    # a point of the curve shows its step on the viewer
    page.locator("svg.review-curve circle.dot").nth(3).click()
    page.wait_for_function("!document.querySelector('.step').textContent.startsWith('Step 0 ')",
                           polling=POLL)
    # play from here: a new practice game at that decision, the same cards
    first = mistakes.first
    data = httpx.get(server.url + f"/api/games/{game_id}/analysis",
                     headers={"Authorization": f"Bearer {token}"}).json()
    a = data["deals"][0]["analysis"]
    found = sorted(
        [(e["loss"], e["step"]) for e in a["exchange"] if (e.get("loss") or 0) > 0.5]
        + [(e["loss"], e["step"]) for e in a["declarations"] if e["loss"] > 0]
        + [(e["drop"], e["step"]) for e in a["play"]], key=lambda x: -x[0])
    step = found[0][1]
    first.locator("button.play-from").click()
    page.wait_for_url(lambda u: "/play/" in u and game_id not in u)
    page.wait_for_selector("#main[data-n]")
    new_id = page.url.rsplit("/", 1)[1].split("#")[0]
    assert page.get_attribute("#main", "data-n") == str(step)
    seat = page.evaluate(f"JSON.parse(localStorage.getItem('piquet.games'))['{new_id}']")
    old = httpx.get(server.url + f"/api/games/{game_id}/replay", params={"step": step},
                    headers={"Authorization": f"Bearer {token}"}).json()
    new = httpx.get(server.url + f"/api/games/{new_id}",
                    headers={"Authorization": f"Bearer {seat['token']}"}).json()
    assert new["to_act"] == seat["seat"] == new["seat"]
    assert new["view"]["deal"]["hand"] == old["views"][str(seat["seat"])]["deal"]["hand"]
    screenshot(page, f"review-play-from-here-{size}")
    assert not page.errors, page.errors
    page.context.close()


@pytest.mark.parametrize(("size", "viewport"), SIZES)
def test_the_curve_over_the_deals_of_a_three_deal_game(
    server: ThreadServer, browser: Any, three_deal_game: tuple[str, str], size: str,
    viewport: dict[str, int],
) -> None:
    """One curve across the game's three deals, above the deals' own reviews: the deals
    marked (a band each, with the points it moved the margin), each deal's score in words,
    a point of a deal shown on the viewer at its step."""
    game_id, token = three_deal_game
    data = httpx.get(server.url + f"/api/games/{game_id}/analysis",
                     headers={"Authorization": f"Bearer {token}"}).json()
    page = new_page(browser, viewport)
    page.goto(server.url + f"/play/{game_id}#token={token}")
    page.wait_for_selector("#main[data-n]")
    page.goto(server.url + f"/replay/{game_id}")
    page.wait_for_selector('#analysis[data-pending="0"]')
    box = page.locator("#analysis figure.game-curve-box")
    box.wait_for()
    # above the three deals' own reviews
    assert page.evaluate("""() => {
        const g = document.querySelector('#analysis figure.game-curve-box');
        const d = document.querySelector('#analysis article.analysis-deal');
        return !!(g.compareDocumentPosition(d) & Node.DOCUMENT_POSITION_FOLLOWING); }""")
    g = httpx.get(server.url + f"/api/games/{game_id}/analysis",
                  headers={"Authorization": f"Bearer {token}"}).json()["game_curve"]
    assert data["deals_over"] == 3 and len(g["deals"]) == 3 and all(d["curve"] for d in
                                                                      g["deals"])
    chart = box.locator("svg.game-curve")
    assert chart.locator("rect.deal-band").count() == 3
    assert chart.locator("line.deal-mark").count() == 2
    assert chart.locator("text.deal-label").all_text_contents() == ["Deal 1", "Deal 2", "Deal 3"]
    changes = chart.locator("text.deal-change").all_text_contents()
    assert changes == [f"+{d['change']}" if d["change"] > 0 else f"−{-d['change']}"
                       if d["change"] < 0 else "0" for d in g["deals"]]
    # a point for every decision of the three deals (and the start), the deals' ends marked
    assert chart.locator("circle.dot").count() == len(g["points"]) - 1
    assert chart.locator("circle.dot.deal-end").count() == 3
    label = chart.get_attribute("aria-label")
    t = g["totals"]
    assert label.endswith(f"from 0 before the first deal to {t[0] - t[1]} after deal 3")
    # each deal's score in words, and the totals after it
    rows = box.locator("ol.game-curve-deals li").all_inner_texts()
    assert len(rows) == 3
    for row, d in zip(rows, g["deals"], strict=True):
        assert row.startswith(f"Deal {d['number']} (")
        assert f"Ada scored {d['points'][0]}" in row
        assert f"After it: Ada {d['totals'][0]}" in row
    assert "Ada's points less" in box.inner_text()
    # the glossary's terms are marked here too
    assert box.locator("abbr.term").count() >= 1
    box.scroll_into_view_if_needed()
    screenshot(page, f"review-game-{size}")
    # a point inside the second deal shows its step on the viewer
    second = g["deals"][1]
    i = second["first"] + 1
    step = g["points"][i]["step"]
    assert step is not None
    chart.locator("circle.dot").nth(i - 1).click()
    page.wait_for_function(f"document.querySelector('.step').textContent"
                           f".startsWith('Step {step + 1} ')", polling=POLL)
    assert not page.errors, page.errors
    page.context.close()
