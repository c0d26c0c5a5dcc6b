"""A new player's walk-through of the browser table, on the page (Debian's Chromium): the
hand stays in view while declaring, the spectator sees each deal's result and the end,
and the smaller things (a friend's seat not yet taken, readable counts, the named lead
recalled, no card left raised on a touch screen).  The API side: test_web_walkthrough.py.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from browserkit import box_of, text_contrast
from conftest import POLL
from test_web_kit import ThreadServer, as_cards
from test_web_table import (
    SIZES,
    Api,
    elder_seat,
    leftovers_for_elder,
    new_page,
    open_seat,
    plain,
    size,
    wait_n_changes,
)

__all__ = ["size"]  # the fixture, shared with test_web_table

pytestmark = pytest.mark.skipif(
    not __import__("test_web_kit").chromium_available(), reason="no Chromium"
)


def few(g: dict[str, Any], rng: random.Random) -> str:
    """Take few cards (so some are left), turn the leftovers up; else any."""
    legal = g["legal_actions"]
    if legal[0]["kind"] == "discard":
        return "discard:" + " ".join(g["view"]["deal"]["hand"][: max(1, legal[0]["min"])])
    for a in legal:
        if a["id"] == "look":
            return "look"
    return str(rng.choice(legal)["id"])


# ---------------------------------------------------------------------- 6. the layout
def test_the_hand_stays_in_view_while_declaring(
    server: ThreadServer, browser: Any, size: str
) -> None:
    """du-coeur-1995, elder declaring: the cards seen out of play sit beside the table,
    each once, and the hand's top is in the viewport (1280x860 and 390x844); on a phone
    the top bar is one row."""
    api = Api(server.url, "du-coeur-1995")
    api.join()
    elder = elder_seat(api.view(0))

    def elder_declares(g: dict[str, Any]) -> bool:
        d = g["view"]["deal"]
        return bool(g["your_turn"] and d and d["phase"] == "declare" and d["leftovers_seen"])

    game = api.drive(elder_declares, few, watch=elder)
    page = new_page(browser, size)
    open_seat(page, server, api, elder)
    page.wait_for_selector("#hand .card")
    top = box_of(page.locator("#hand"))["y"]
    assert 0 <= top < SIZES[size]["height"] - 60, top
    listed = page.eval_on_selector_all(
        "#seen-cards [data-card]", "els => els.map(e => e.dataset.card)"
    )
    # written as cards with their ranks ("A♣ 10♥"): pictures 20 px wide showed no rank
    assert all(len(t) >= 2 for t in page.eval_on_selector_all(
        "#seen-cards .textcard", "els => els.map(e => e.textContent)"))
    assert listed and len(listed) == len(set(listed))  # no card twice
    d = game["view"]["deal"]
    assert set(listed) == set(d["discards"]) | set(d["unused_seen"]) | set(d["leftovers_seen"])
    assert "turned up for both" in page.inner_text("#leftovers-label")
    if size == "phone":
        assert box_of(page.locator(".topbar"))["height"] <= 70
        assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
    assert not page.errors


# ---------------------------------------------------------------------- 2. the spectator
def _watch(server: ThreadServer, browser: Any, api: Api) -> Any:
    r = api.http.post(f"/api/games/{api.id}/watch-link",
                      headers={"Authorization": f"Bearer {api.tokens[0]}"})
    page = new_page(browser)
    page.goto(server.url + r.json()["url"])
    page.wait_for_selector("#watch")
    return page


def test_the_spectator_sees_the_deal_just_over_the_words_and_a_resignation(
    server: ThreadServer, browser: Any
) -> None:
    api = Api(server.url, "rubicon", "partie")
    api.join()
    page = _watch(server, browser, api)
    # the dialog in words, with the speaker's name (not the record's notation)
    said = api.drive(lambda g: bool(g["view"]["deal"] and g["view"]["deal"]["dialog"]))
    line = said["view"]["deal"]["dialog"][-1]
    page.wait_for_function("document.querySelector('#watch-dialog') !== null", polling=POLL)
    text = page.inner_text("#watch-dialog")
    assert as_cards(line["said"]) in text
    if line["text"] != line["said"]:  # "Carte blanche!" reads the same in both
        assert line["text"] not in text
    assert "Ada: " in text or "Bob: " in text
    # a deal over: its result stays in view while the next is dealt and declared
    api.drive(lambda g: len(g["view"]["deals"]) == 1)
    page.wait_for_selector("#watch-last")
    assert "Deal 1 is over" in page.inner_text("#watch-last")
    ld = api.view(0)["last_deal"]
    assert str(ld["scores"]["elder"]) in page.inner_text("#watch-last-result")
    api.drive(lambda g: bool(g["view"]["deal"] and g["view"]["deal"]["phase"] == "play"))
    page.wait_for_selector("#watch-last", state="detached")
    # a resignation: the game is over, and who won
    before = page.get_attribute("#main", "data-n")
    r = api.http.post(f"/api/games/{api.id}/resign",
                      headers={"Authorization": f"Bearer {api.tokens[1]}"})
    assert r.status_code == 200
    page.wait_for_function(
        "document.querySelector('#watch-status').textContent.includes('resigned')",
        polling=POLL,
    )
    # the resignation is an entry of the game's log: the version moves on by it alone
    assert page.get_attribute("#main", "data-n") == str(int(before or 0) + 1)
    assert page.inner_text("#watch-status") == "The game is over. Bob resigned: Ada wins."
    # the deal left in its play stays shown, not the result of the deal before it
    assert not page.is_visible("#watch-last")
    assert not page.errors


def test_the_spectator_sees_who_won(server: ThreadServer, browser: Any) -> None:
    api = Api(server.url, "rubicon", "partie")
    api.join()
    rng = random.Random(2)
    for _ in range(3000):
        g = api.view(0)
        if g["finished"]:
            break
        p = g["to_act"]
        api.act(p, plain(api.view(p), rng))
    res = g["result"]
    w = res["winner"]
    page = _watch(server, browser, api)
    status = page.inner_text("#watch-status")
    if w is None:
        assert "drawn" in status
    else:
        names = ["Ada", "Bob"]
        assert f"{names[w]} wins, {res['scores'][w]} to {res['scores'][1 - w]}." in status
    assert page.is_visible("#watch-last")  # the last deal's result stays
    assert not page.errors


# ---------------------------------------------------------------------- 8. smaller things
def test_a_friends_seat_not_yet_taken_says_so(server: ThreadServer, browser: Any) -> None:
    api = Api(server.url, "rubicon")
    page = new_page(browser)
    open_seat(page, server, api, 0)
    page.wait_for_selector(".opponent .pname")
    assert page.inner_text(".opponent .pname") == "(waiting for the other player)"
    assert "Friend 1" not in page.inner_text("#main")
    assert not page.errors


def test_a_practice_game_with_hints_fits_the_phones_top_bar(
    server: ThreadServer, browser: Any
) -> None:
    """Seven buttons (Rules, Score, Hint, Links, Watch, Resign, New): "New" was cut to "N"
    and the connection dot pushed out of sight, 377 px wanted in 350."""
    import httpx

    g = httpx.post(server.url + "/api/games", json={"opponent": "random", "hints": True}).json()
    page = new_page(browser, "phone")
    page.goto(server.url + f"/play/{g['id']}#token={g['token']}")
    page.wait_for_selector("#nav-new")
    assert page.locator("#nav button").count() == 7
    width = SIZES["phone"]["width"]
    for box in page.eval_on_selector_all(
        "#nav button, #conn", "els => els.map(e => e.getBoundingClientRect().toJSON())"
    ):
        assert box["left"] >= 0 and box["right"] <= width, box
    assert page.evaluate("(() => { const n = document.getElementById('nav'); "
                         "return n.scrollWidth <= n.clientWidth; })()")
    assert box_of(page.locator(".topbar"))["height"] <= 70
    assert not page.errors


def test_named_suits_read_clearly_and_the_lead_recalls_the_name(
    server: ThreadServer, browser: Any
) -> None:
    """cotgrave-1662: "(you hold 1)" is readable; at the first lead the status recalls
    the suit named."""
    api, elder = leftovers_for_elder(server.url, "cotgrave-1662")
    page = new_page(browser)
    open_seat(page, server, api, elder)
    page.wait_for_selector("#naming .name-suit-btn")
    assert text_contrast(page, "#naming .name-suit-btn span.small") >= 4.5
    hand = api.view(elder)["view"]["deal"]["hand"]
    suit = hand[0][-1]
    before = page.get_attribute("#main", "data-n")
    page.click(f'#naming button[data-action="name:{suit}"]')
    wait_n_changes(page, before)
    api.drive(lambda g: bool(g["your_turn"] and g["view"]["deal"]["phase"] == "play"),
              watch=elder)
    page.wait_for_selector('#main[data-phase="play"]')
    names = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
    assert f"You named {names[suit]}" in page.inner_text("#status")
    assert not page.errors


def test_a_tapped_card_does_not_stay_raised_on_a_touch_screen(
    server: ThreadServer, browser: Any
) -> None:
    api = Api(server.url, "rubicon", "partie")
    api.join()
    elder = elder_seat(api.view(0))
    api.drive(lambda g: bool(g["your_turn"] and g["view"]["deal"]["phase"] == "play"),
              watch=elder)
    ctx = browser.new_context(viewport=SIZES["phone"], has_touch=True, is_mobile=True)
    page = ctx.new_page()
    open_seat(page, server, api, elder)
    assert page.evaluate("matchMedia('(hover: none)').matches")
    card = page.locator("#hand .card.playable").first
    card.hover()  # where a touch leaves the pointer
    assert page.evaluate(
        "getComputedStyle(document.querySelector('#hand .card.playable:hover')).transform"
    ) == "none"
    ctx.close()


# ---------------------------------------------------------------------- 4. appointing
def test_appointing_offers_what_elder_may_hold_and_a_free_lead_is_told(
    server: ThreadServer, browser: Any
) -> None:
    """court-gamester-1754: elder names a card he lacks; younger's panel offers only the
    cards elder may hold as far as younger knows; appointed one elder lacks, both tables
    say at his lead that it is free."""
    api, elder = leftovers_for_elder(server.url, "court-gamester-1754")
    younger = 1 - elder
    hand = set(api.view(elder)["view"]["deal"]["hand"])
    lacked = next(a["id"] for a in api.view(elder)["legal_actions"]
                  if a["kind"] == "name" and a["id"][5:] not in hand)
    api.act(elder, lacked)
    g = api.view(younger)
    offered = {a["id"] for a in g["legal_actions"] if a["kind"] == "appoint" and a["offer"]}
    page = new_page(browser)
    open_seat(page, server, api, younger)
    page.wait_for_selector("#naming .name-card")
    on_page = set(page.eval_on_selector_all(
        "#naming .name-card", "els => els.map(e => e.dataset.action)"))
    assert on_page == offered
    d = g["view"]["deal"]
    for c in d["discards"] + d["stock_seen"]:
        assert f"appoint:{c}" not in on_page
    # appoint a card younger laid out himself (the engine allows it): elder's lead is free
    page.close()
    api.act(younger, f"appoint:{d['discards'][0]}")
    api.drive(lambda x: bool(x["your_turn"] and x["view"]["deal"]["phase"] == "play"),
              watch=elder)
    for seat, words in ((elder, "your lead is free"), (younger, "the lead is free")):
        p = new_page(browser)
        open_seat(p, server, api, seat)
        p.wait_for_selector('#main[data-phase="play"]')
        assert words in p.inner_text("#status")
        assert not p.errors
        p.close()
