"""Beyond the table, as a person uses it: the lobby, the spectator link, the analysis.

Playwright driving Debian's Chromium (headless), at a desktop size and a 390x844 phone.
Screenshots go to /tmp/piquet-beyond/ (to be looked at; the docs' own are made by the
screenshot script).  Skipped when /usr/bin/chromium is not installed.
"""

from __future__ import annotations

import random
import time
from typing import Any

import httpx
import pytest

from browserkit import box_of
from conftest import PATIENCE, POLL
from test_web_kit import CARD, ThreadServer, chromium_available, pick, screenshot

pytestmark = pytest.mark.skipif(not chromium_available(), reason="no Chromium")

DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}
SIZES = [("desktop", DESKTOP), ("phone", PHONE)]


def new_page(browser: Any, viewport: dict[str, int]) -> Any:
    ctx = browser.new_context(viewport=viewport, bypass_csp=True)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.errors = errors
    return page


def shot(page: Any, name: str, *, full: bool = False) -> None:
    screenshot(page, name, full_page=full)


def no_sideways_scroll(page: Any, viewport: dict[str, int]) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]


def seat_of(page: Any, game_id: str) -> dict[str, Any]:
    data: dict[str, Any] = page.evaluate(
        f"JSON.parse(localStorage.getItem('piquet.games'))['{game_id}']"
    )
    return data


def play_random(url: str, game_id: str, tokens: dict[int, str], steps: int, seed: int) -> int:
    """Take ``steps`` random legal actions through the API (the seats whose turn it is).

    Only the actions count: a look that finds the computer still to act waits on, up to
    a ceiling in time (counted as steps, a loaded machine's slow computer used them up
    before the game ended)."""
    rng = random.Random(seed)
    n = 0
    deadline = time.monotonic() + PATIENCE / 1000
    with httpx.Client(base_url=url, timeout=30) as c:
        taken = 0
        while taken < steps:
            g = c.get(f"/api/games/{game_id}",
                      headers={"Authorization": f"Bearer {tokens[0]}"}).json()
            if g["finished"]:
                break
            p = g["to_act"]
            if p not in tokens:
                assert time.monotonic() < deadline, "the computer did not move"
                time.sleep(0.05)
                continue
            taken += 1
            deadline = time.monotonic() + PATIENCE / 1000
            mine = c.get(f"/api/games/{game_id}",
                         headers={"Authorization": f"Bearer {tokens[p]}"}).json()
            r = c.post(f"/api/games/{game_id}/actions", json={"action": pick(mine, rng)},
                       headers={"Authorization": f"Bearer {tokens[p]}"})
            assert r.status_code == 200, r.text
            n = r.json()["n"]
    return n


@pytest.mark.parametrize(("size", "viewport"), SIZES)
def test_post_and_accept_a_challenge(
    server: ThreadServer, browser: Any, size: str, viewport: dict[str, int]
) -> None:
    """One player posts a challenge; another sees it in the lobby and takes the seat."""
    ada = new_page(browser, DESKTOP)
    ada.goto(server.url + "/")
    ada.fill("#name", f"Ada {size}")
    ada.wait_for_selector("#challenge-rules option", state="attached")
    ada.select_option("#challenge-rules", "rubicon")
    ada.click("#post-challenge")
    ada.wait_for_url("**/play/*")
    game_id = ada.url.rsplit("/", 1)[1]
    ada.wait_for_selector("#offer-lobby[disabled]")  # the invite box says it is offered
    assert "Offered in the lobby" in ada.inner_text("#invite")
    # on her own home page, Ada's challenge is hers: she may withdraw it, not accept it
    home = ada.context.new_page()
    home.goto(server.url + "/")
    own = home.locator('#challenges [data-challenge]:has-text("(you)")')
    own.wait_for()
    assert own.locator("button.withdraw").count() == 1
    assert own.locator("button.accept").count() == 0
    home.locator("#lobby").scroll_into_view_if_needed()
    shot(home, f"lobby-own-{size}")
    home.close()

    bob = new_page(browser, viewport)
    bob.goto(server.url + "/")
    row = bob.locator(f'#challenges [data-challenge]:has-text("Ada {size}")')
    row.wait_for()
    assert "rubicon" in row.inner_text() and "partie" in row.inner_text()
    assert "(you)" not in row.inner_text()
    bob.locator("#lobby").scroll_into_view_if_needed()
    shot(bob, f"lobby-{size}")
    no_sideways_scroll(bob, viewport)
    box = box_of(row.locator("button.accept"))
    assert box["height"] >= 44 and box["width"] >= 44  # a finger's target
    row.locator("button.accept").click()
    bob.wait_for_url(f"**/play/{game_id}")
    bob.wait_for_selector("#main[data-n]")
    assert seat_of(bob, game_id)["seat"] == 1
    # the challenge left the lobby, and Ada's table shows Bob seated
    ada.wait_for_selector("#invite", state="detached")
    listed = httpx.get(server.url + "/api/lobby").json()["challenges"]
    assert all(c["name"] != f"Ada {size}" for c in listed)
    shot(bob, f"lobby-accepted-{size}")
    assert not ada.errors and not bob.errors, (ada.errors, bob.errors)
    ada.context.close()
    bob.context.close()


@pytest.mark.parametrize(("size", "viewport"), SIZES)
def test_spectator_link_shows_only_public_cards(
    server: ThreadServer, browser: Any, size: str, viewport: dict[str, int]
) -> None:
    """A seat makes the link; the spectator follows the game live and sees no hand."""
    made = httpx.post(server.url + "/api/games", json={"rules": "rubicon", "opponent": "friend",
                                                       "name": "Ada"}).json()
    game_id = made["id"]
    joined = httpx.post(server.url + f"/api/games/{game_id}/join",
                        json={"invite": made["invites"][0]["invite"], "name": "Bob"}).json()
    tokens = {0: made["token"], 1: joined["token"]}
    ada = new_page(browser, DESKTOP)
    ada.goto(server.url + f"/play/{game_id}#token={made['token']}")
    ada.wait_for_selector("#btn-watch")
    ada.click("#btn-watch")
    link = ada.input_value("#watch-link")
    assert f"/watch/{game_id}#key=" in link
    assert not ada.errors, ada.errors

    fan = new_page(browser, viewport)
    fan.goto(link)
    fan.wait_for_selector("#watch")
    start = int(fan.get_attribute("#main", "data-n") or -1)
    n = play_random(server.url, game_id, tokens, 30, seed=5)
    fan.wait_for_selector(f'#main[data-n="{n}"]')  # live, by the WebSocket
    assert n > start
    # every card on the spectator's page is one both players made public
    public = httpx.get(server.url + f"/api/games/{game_id}/watch",
                       headers={"Authorization": f"Bearer {link.split('#key=')[1]}"}).json()
    d = public["view"]["deal"] or public["last_deal"]
    allowed = set(CARD.findall(str([d["shown"], d["played"], d["dialog"], d["tricks"],
                                    d["trick_lead"]])))
    on_page = set(fan.eval_on_selector_all("#watch [data-card]",
                                           "els => els.map(e => e.dataset.card)"))
    assert on_page <= allowed, on_page - allowed
    seen = httpx.get(server.url + f"/api/games/{game_id}",
                     headers={"Authorization": f"Bearer {tokens[0]}"}).json()
    hand = set((seen["view"]["deal"] or {"hand": []})["hand"])
    assert not (on_page & hand - allowed)
    assert fan.locator("#watch .watch-backs").count() >= 1 or public["view"]["deal"] is None
    shot(fan, f"spectator-{size}", full=True)
    no_sideways_scroll(fan, viewport)
    assert not fan.errors, fan.errors
    ada.context.close()
    fan.context.close()


def test_the_spectator_follows_an_undo(server: ThreadServer, browser: Any) -> None:
    """A practice game taken back a move: the spectator's page goes back with it (it once
    kept the later position, the log being shorter, until the next move; the undo is now an
    entry of the log, the version moving on)."""
    made = httpx.post(server.url + "/api/games", json={"rules": "rubicon", "opponent": "random",
                                                       "name": "Tess"}).json()
    game_id, token = made["id"], made["token"]
    auth = {"Authorization": f"Bearer {token}"}
    link = server.url + httpx.post(server.url + f"/api/games/{game_id}/watch-link",
                                   headers=auth).json()["url"]
    rng = random.Random(4)
    for _ in range(200):  # some of Tess's moves, the computer answering
        g = httpx.get(server.url + f"/api/games/{game_id}", params={"wait": 2},
                      headers=auth).json()
        if not g["your_turn"]:
            continue
        if g["n"] >= 12:
            break
        legal = g["legal_actions"]
        if legal[0]["kind"] == "discard":
            action = "discard:" + " ".join(g["view"]["deal"]["hand"][: max(1, legal[0]["min"])])
        else:
            action = rng.choice(legal)["id"]
        r = httpx.post(server.url + f"/api/games/{game_id}/actions", headers=auth,
                       json={"action": action, "n": g["n"]})
        assert r.status_code == 200, r.text
    fan = new_page(browser, DESKTOP)
    fan.goto(link)
    fan.wait_for_selector("#watch")
    before = httpx.get(server.url + f"/api/games/{game_id}", headers=auth).json()["n"]
    fan.wait_for_selector(f'#main[data-n="{before}"]')
    undone = httpx.post(server.url + f"/api/games/{game_id}/undo", headers=auth, json={})
    assert undone.status_code == 200, undone.text
    now = httpx.get(server.url + f"/api/games/{game_id}", headers=auth).json()
    after = now["n"]
    assert after == before + 1 and now["view"] == undone.json()["view"]
    fan.wait_for_selector(f'#main[data-n="{after}"]')
    assert not fan.errors, fan.errors


@pytest.fixture(scope="module")
def finished_game(server: ThreadServer) -> tuple[str, str]:
    """A game against the computer played to its end through the API: (id, token)."""
    made = httpx.post(server.url + "/api/games", json={"rules": "rubicon", "opponent": "random",
                                                       "name": "Ada"}).json()
    play_random(server.url, made["id"], {0: made["token"]}, 4000, seed=9)
    g = httpx.get(server.url + f"/api/games/{made['id']}",
                  headers={"Authorization": f"Bearer {made['token']}"}).json()
    assert g["finished"]
    return made["id"], made["token"]


@pytest.mark.parametrize(("size", "viewport"), SIZES)
def test_analysis_on_the_replay_viewer(
    server: ThreadServer, browser: Any, finished_game: tuple[str, str], size: str,
    viewport: dict[str, int],
) -> None:
    """The replay viewer shows each deal's analysis; "show" takes the viewer there."""
    game_id, token = finished_game
    page = new_page(browser, viewport)
    page.goto(server.url + f"/play/{game_id}#token={token}")
    page.wait_for_selector("#main[data-n]")
    page.goto(server.url + f"/replay/{game_id}")
    page.wait_for_selector("#analysis")
    page.wait_for_selector('#analysis[data-pending="0"]')
    deals = page.locator("#analysis article.analysis-deal")
    assert deals.count() >= 2
    first = deals.first
    # the findings part by part sit under the biggest mistakes, folded: unfold them
    page.evaluate("document.querySelectorAll('#analysis details').forEach((d) => "
                  "{ d.open = true; })")
    text = first.inner_text()
    assert "The exchange" in text and "Sinks and answers" in text and "The play" in text
    assert "discarded" in text
    # the figures say what they are: the play's drops added up, the declarations' choices
    # (each valued alone) not added, a verified discard said in words
    whole = page.inner_text("#analysis")
    assert "adding up to" in whole and "over the deal" in whole
    assert "advisor's best, in points won less points given" in whole or \
        "as good as the advisor's best" in whole
    data = httpx.get(server.url + f"/api/games/{game_id}/analysis",
                     headers={"Authorization": f"Bearer {token}"}).json()
    for d in data["deals"]:
        a = d["analysis"]
        for role in ("elder", "younger"):
            if sum(x["role"] == role and x["loss"] > 0 for x in a["declarations"]) > 1:
                assert "the costliest of" in whole
        if any(not e.get("made") for e in a["exchange"]):
            assert "discarded nothing" in whole
        if any(e.get("verified") for e in a["exchange"]):
            assert "played out, " in whole
    assert "verified:" not in whole
    shot(page, f"analysis-{size}")
    first.scroll_into_view_if_needed()
    shot(page, f"analysis-deal-{size}")
    no_sideways_scroll(page, viewport)
    show = page.locator("#analysis .show-step").first
    show.click()
    page.wait_for_function("!document.querySelector('.step').textContent.startsWith('Step 0 ')",
                           polling=POLL)
    assert "Step 0 of" not in page.inner_text(".step")
    assert not page.errors, page.errors
    page.context.close()


def test_forgetting_a_game_not_over_is_asked_first(server: ThreadServer, browser: Any) -> None:
    """"forget" in "Your games" takes a game off this browser's list; one not over (whose
    seat could not be opened again from here) is asked about first, and "keep it" keeps
    it."""
    page = new_page(browser, PHONE)
    page.goto(server.url + "/")
    page.wait_for_selector("#rules option", state="attached")
    page.click("#start")
    page.wait_for_url("**/play/*")
    game_id = page.url.rsplit("/", 1)[1]
    page.wait_for_selector("#main[data-n]")
    page.goto(server.url + "/")
    row = page.locator(f'#my-games [data-game="{game_id}"]')
    row.wait_for()
    row.get_by_role("button", name="Forget this game").click()
    ask = row.locator(".forget-ask")
    ask.wait_for()
    assert "cannot be resumed" in ask.inner_text()
    shot(page, "forget-ask-phone")
    no_sideways_scroll(page, PHONE)
    ask.get_by_role("button", name="keep it").click()
    assert row.locator(".forget-ask").count() == 0
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == (
        "Forget this game"
    )
    row.get_by_role("button", name="Forget this game").click()
    row.get_by_role("button", name="forget it").click()
    page.wait_for_selector(f'#my-games [data-game="{game_id}"]', state="detached")
    assert page.evaluate(f"(JSON.parse(localStorage.getItem('piquet.games')) || {{}})"
                         f"['{game_id}']") is None
    assert not page.errors, page.errors
    page.context.close()


def test_an_invitation_opened_on_a_phone_is_read_from_its_top(
    server: ThreadServer, browser: Any
) -> None:
    """The invitation says who invites and to what above the name box; on a phone it
    opened scrolled down to that box (focusing it scrolled the page)."""
    made = httpx.post(server.url + "/api/games",
                      json={"opponent": "friend", "name": "Host", "rules": "rubicon"}).json()
    page = new_page(browser, PHONE)
    page.goto(server.url + f"/join/{made['id']}#invite={made['invites'][0]['invite']}")
    page.wait_for_selector("#join-form")
    assert page.evaluate("document.activeElement.id") == "join-name"
    assert page.evaluate("window.scrollY") == 0
    assert page.locator("#join-form h2, #join-form h1").first.is_visible()
    shot(page, "invitation-phone")
    assert not page.errors, page.errors
    page.context.close()


def test_a_new_link_is_offered_in_the_lobby(server: ThreadServer, browser: Any) -> None:
    """Issue 38: "Offer in the lobby" after "Make a new link" always failed (the offer was
    checked against the old invitation).  The new link retires the challenge; the seat is
    offered again with the new one, and the lobby lists it."""
    ada = new_page(browser, DESKTOP)
    ada.goto(server.url + "/")
    ada.fill("#name", "Ada relinks")
    ada.wait_for_selector("#challenge-rules option", state="attached")
    ada.select_option("#challenge-rules", "rubicon")
    ada.click("#post-challenge")
    ada.wait_for_url("**/play/*")
    game_id = ada.url.rsplit("/", 1)[1]
    ada.wait_for_selector("#offer-lobby[disabled]")
    old_link = ada.input_value(".invite-link")
    ada.get_by_role("button", name="Make a new link").click()
    ada.wait_for_function(
        "old => document.querySelector('.invite-link')?.value !== old", arg=old_link, polling=POLL)
    offer = ada.locator("#offer-lobby")
    assert offer.is_enabled() and offer.inner_text() == "Offer in the lobby"
    offer.click()
    # the button is disabled while the offer is sent, then says it was offered
    ada.wait_for_function(
        "() => document.querySelector('#offer-lobby')?.textContent === 'Offered in the lobby'",
        polling=POLL)
    assert ada.locator("#offer-lobby").is_disabled()
    listed = httpx.get(server.url + "/api/lobby").json()["challenges"]
    assert [c["name"] for c in listed if c["name"] == "Ada relinks"] == ["Ada relinks"]
    assert seat_of(ada, game_id)["offered"]
    assert not ada.errors, ada.errors
    ada.context.close()
