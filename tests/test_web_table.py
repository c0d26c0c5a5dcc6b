"""The browser table's second pass (issue 17, points 1-10), in Debian's Chromium.

Each test runs at a desktop size and at a phone's 390x844.  A game is brought to the
moment a test needs through the HTTP API (a game against *a friend*: this test holds both
seats' tokens and acts for the one the page does not show), then the page is looked at
and used as a person would.  Screenshots are taken into ``$PIQUET_SCREENSHOTS`` when
``scripts/screenshots`` asks for them.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from browserkit import box_of, felt_lightest, text_contrast
from conftest import PATIENCE, POLL
from test_web_kit import ThreadServer, as_cards, chromium_available, screenshot

pytestmark = pytest.mark.skipif(not chromium_available(), reason="no Chromium")

SIZES = {"desktop": {"width": 1280, "height": 860}, "phone": {"width": 390, "height": 844}}
RAW_ID = re.compile(r"\b(play|declare|discard|name|appoint|answer):\S")


@pytest.fixture(params=list(SIZES))
def size(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def new_page(browser: Any, size: str = "desktop", *, offline: bool = False) -> Any:
    ctx = browser.new_context(viewport=SIZES[size], bypass_csp=True)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    if offline:  # nothing but the test server answers
        page.route(
            "**/*",
            lambda route: (
                route.continue_()
                if route.request.url.startswith("http://127.0.0.1")
                else route.abort()
            ),
        )
    return page


def shot(page: Any, name: str, size: str, part: str | None = None) -> None:
    """The page (or the element ``part``) as NAME-SIZE.png (see :func:`screenshot`)."""
    screenshot(page.locator(part) if part else page, f"{name}-{size}")


def scroll_into_view(locator: Any) -> None:
    """Scroll ``locator`` into view, again if the table was drawn anew meanwhile (a view
    pushed over the WebSocket replaces the element the locator had found)."""
    for attempt in range(3):
        try:
            locator.scroll_into_view_if_needed()
            return
        except Exception as exc:
            if "not attached" not in str(exc) or attempt == 2:
                raise


def no_sideways_scroll(page: Any) -> None:
    width = page.viewport_size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width


# ---------------------------------------------------------------------- the API side
class GameOver(AssertionError):
    """:meth:`Api.drive`: the game ended before the moment it was driven to."""


class Api:
    """Both seats of a friend game, through HTTP."""

    def __init__(self, url: str, rules: str, fmt: str | None = None, **more: Any) -> None:
        self.http = httpx.Client(base_url=url, timeout=30)
        body = {"rules": rules, "format": fmt, "opponent": "friend", "name": "Ada", **more}
        r = self.http.post("/api/games", json=body)
        assert r.status_code == 201, r.text
        made = r.json()
        self.id = made["id"]
        self.invite = made["invites"][0]["invite"]
        self.tokens = {0: made["token"]}

    def join(self, name: str = "Bob") -> None:
        r = self.http.post(f"/api/games/{self.id}/join", json={"invite": self.invite, "name": name})
        assert r.status_code == 201, r.text
        self.tokens[1] = r.json()["token"]

    def view(self, seat: int) -> dict[str, Any]:
        r = self.http.get(
            f"/api/games/{self.id}", headers={"Authorization": f"Bearer {self.tokens[seat]}"}
        )
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        return data

    def act(self, seat: int, action: str, n: int | None = None) -> dict[str, Any]:
        """``action`` by ``seat``, chosen on the game's version ``n`` (by default the
        version the seat sees now); the seat's game after it."""
        if n is None:
            n = self.view(seat)["n"]
        r = self.http.post(
            f"/api/games/{self.id}/actions",
            json={"action": action, "n": n},
            headers={"Authorization": f"Bearer {self.tokens[seat]}"},
        )
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        return data

    def drive(
        self,
        until: Callable[[dict[str, Any]], bool],
        policy: Callable[[dict[str, Any], random.Random], str] | None = None,
        *,
        watch: int = 0,
        seed: int = 1,
        limit: int = 3000,
    ) -> dict[str, Any]:
        """Act for whoever is to act until ``until(seat watch's game)``; that game.

        Each seat's game is asked for only when it is not already known: the answer to an
        action is the actor's game after it."""
        rng = random.Random(seed)
        game = self.view(watch)
        for _ in range(limit):
            if until(game):
                return game
            if game["finished"]:
                raise GameOver("the game ended before the moment was reached")
            p = game["to_act"]
            mine = game if p == watch else self.view(p)
            after = self.act(p, (policy or plain)(mine, rng), mine["n"])
            game = after if p == watch else self.view(watch)
        raise AssertionError("the moment was not reached")

    def url(self, seat: int) -> str:
        return f"/play/{self.id}#token={self.tokens[seat]}"


def plain(game: dict[str, Any], rng: random.Random) -> str:
    """A legal action: the fewest discards allowed (at least one), else any at random."""
    legal = game["legal_actions"]
    if legal[0]["kind"] == "discard":
        k = max(1, legal[0]["min"])
        return "discard:" + " ".join(game["view"]["deal"]["hand"][:k])
    return str(rng.choice(legal)["id"])


def open_seat(page: Any, server: ThreadServer, api: Api, seat: int) -> None:
    page.goto(server.url + api.url(seat))
    page.wait_for_selector("#main[data-n]")
    page.wait_for_selector('#main[data-busy="0"]')


def relay_sockets(page: Any, passes: Callable[[], bool] = lambda: True) -> list[Any]:
    """Route the page's game sockets through the test: the server's messages reach the page
    while ``passes()``; the routes opened are returned (the test may send or close)."""
    routes: list[Any] = []

    def relay(ws: Any) -> None:
        server_side = ws.connect_to_server()
        server_side.on_message(lambda m: ws.send(m) if passes() else None)
        routes.append(ws)

    page.route_web_socket(re.compile(r".*/ws$"), relay)
    return routes


def wait_until(page: Any, ready: Callable[[], bool], what: str) -> None:
    """Let the page run until ``ready()`` (events reach the test meanwhile); fails after
    conftest's PATIENCE."""
    deadline = time.monotonic() + PATIENCE / 1000
    while not ready():
        assert time.monotonic() < deadline, what
        page.wait_for_timeout(50)


def wait_for_socket(page: Any, routes: list[Any]) -> None:
    wait_until(page, lambda: bool(routes), "the page opened no socket")


def elder_seat(game: dict[str, Any]) -> int:
    v = game["view"]
    return int(v["in_game"][0] if v["dealer"] == v["in_game"][1] else v["in_game"][1])


def wait_n_changes(page: Any, before: str) -> None:
    page.wait_for_function(
        f"document.querySelector('#main').dataset.n != '{before}'", polling=POLL
    )


# ---------------------------------------------------------------------- 1. the trick
def test_the_finished_trick_stays_in_view_beside_the_next_lead(
    server: ThreadServer, browser: Any, size: str
) -> None:
    """Point 1: the opponent wins a trick and leads again; the trick it won stays in view
    beside its new lead, and the tricks panel lists each trick (leader, winner, points)."""
    api = Api(server.url, "rubicon", "partie")
    api.join()

    def their_lead_after_their_win(g: dict[str, Any]) -> bool:
        d = g["view"]["deal"]
        if not d or d["phase"] != "play" or not g["your_turn"] or not d["trick_lead"]:
            return False
        return bool(d["tricks"]) and d["tricks"][-1]["winner"] != d["role"]

    game = api.drive(their_lead_after_their_win, watch=0)
    last = game["view"]["deal"]["tricks"][-1]
    page = new_page(browser, size)
    open_seat(page, server, api, 0)
    lead = game["view"]["deal"]["trick_lead"]
    assert page.is_visible(f'#trick > .trick-slot [data-card="{lead}"]')
    for c in (last["lead"], last["follow"]):
        assert page.is_visible(f'#last-trick [data-card="{c}"]')
    lines = page.locator("#tricks li")
    assert lines.count() == len(game["view"]["deal"]["tricks"])
    text = page.inner_text("#tricks")
    assert "Bob led" in text or "Ada led" in text
    assert "won" in text and "+" in text
    no_sideways_scroll(page)
    shot(page, "trick", size)
    # answer the lead: the trick just finished stays in view while the next one starts
    mine = page.get_attribute("#hand .card.playable", "data-card")
    before = page.get_attribute("#main", "data-n")
    page.click("#hand .card.playable")
    wait_n_changes(page, before)
    after = api.view(1)
    if after["your_turn"] and after["view"]["deal"] and after["view"]["deal"]["phase"] == "play":
        api.act(1, after["legal_actions"][0]["id"])
        page.wait_for_selector("#last-trick")
        assert page.is_visible(f'#last-trick [data-card="{mine}"]')
    assert not page.errors


# ---------------------------------------------------------------------- 2. the format
def test_the_format_follows_the_rule_set_and_the_table_counts_the_deals(
    server: ThreadServer, browser: Any, size: str
) -> None:
    """Point 2: choosing rubicon chooses its partie; the table says "Deal 1 of 6"."""
    page = new_page(browser, size)
    page.goto(server.url + "/")
    page.wait_for_selector("#start")
    page.select_option("#rules", "encyclopedia-19c")
    assert page.get_attribute('input[name="format"]:checked', "value") == "game"
    # the summary beside the form is of a game in the format chosen, not of every format
    about = page.inner_text(".rules-about")
    assert "This game: a game of 100." in about and "partie" not in about.lower(), about
    assert "won the moment a player reaches 100" in about, about
    page.check('input[name="format"][value="partie"]')
    about = page.inner_text(".rules-about")
    assert "Partie: after 6 deals" in about and "won the moment" not in about, about
    page.select_option("#rules", "rubicon")
    assert page.get_attribute('input[name="format"]:checked', "value") == "partie"
    page.select_option("#rules", "court-gamester-1754")
    assert page.get_attribute('input[name="format"]:checked', "value") == "game"
    page.check('input[name="format"][value="pool"]')
    about = page.inner_text(".rules-about")
    assert "This game: a pool of three." in about and "takes the pool" in about, about
    page.select_option("#rules", "rubicon")
    no_sideways_scroll(page)
    page.select_option("#opponent", "random")
    page.click("#start")
    page.wait_for_url("**/play/*")
    page.wait_for_selector("#deal-number")
    assert page.inner_text("#deal-number") == "Deal 1 of 6"
    assert "partie" in page.inner_text(".scores .title")
    assert not page.errors


# ---------------------------------------------------------------------- 3. naming the lead
def leftovers_for_elder(url: str, rules: str) -> tuple[Api, int]:
    """A friend game at elder's choice to name a lead and see younger's leftovers."""
    api = Api(url, rules)
    api.join()
    first = api.view(0)
    elder = elder_seat(first)

    def elder_to_name(g: dict[str, Any]) -> bool:
        return g["your_turn"] and any(a["kind"] == "name" for a in g["legal_actions"])

    def exchange_small(g: dict[str, Any], rng: random.Random) -> str:
        legal = g["legal_actions"]
        if legal[0]["kind"] == "discard":  # both take few: cards are left in the stock
            return "discard:" + " ".join(g["view"]["deal"]["hand"][: max(1, legal[0]["min"])])
        for a in legal:
            if a["kind"] == "leftover" and a["id"] == "decline":
                return "decline"
        return str(rng.choice(legal)["id"])

    api.drive(elder_to_name, exchange_small, watch=elder)
    return api, elder


def test_naming_the_lead_card_offers_the_cards_you_hold(
    server: ThreadServer, browser: Any, size: str
) -> None:
    """Point 3 (court-gamester-1754): the cards held first, what naming another means,
    the other cards behind one choice; the names are spoken at the table."""
    api, elder = leftovers_for_elder(server.url, "court-gamester-1754")
    page = new_page(browser, size)
    open_seat(page, server, api, elder)
    page.wait_for_selector("#naming")
    hand = api.view(elder)["view"]["deal"]["hand"]
    held = page.locator("#hand .card.nameable")  # the hand itself offers its cards
    assert held.count() == len(hand) == 12
    assert {held.nth(i).get_attribute("data-card") for i in range(12)} == set(hand)
    rule = page.inner_text("#naming-rule")
    assert "do not hold" in rule and "chooses your lead" in rule
    assert not page.is_visible("#name-other")  # the other cards wait behind one choice
    assert page.locator("#naming button").count() <= 16
    shot(page, "name-lead", size)
    box = box_of(page.locator("#hand"))
    assert box["y"] <= SIZES[size]["height"] + 300  # the hand is not pushed far down
    page.click("#name-other-toggle")
    page.wait_for_selector("#name-other")
    assert page.locator("#name-other .name-card").count() == 32 - 12
    no_sideways_scroll(page)
    # name a card held: younger's leftovers are shown, apart from your own
    pick = hand[0]
    before = page.get_attribute("#main", "data-n")
    page.click(f'#hand [data-card="{pick}"]', position={"x": 8, "y": 40})
    wait_n_changes(page, before)
    page.wait_for_selector("#leftovers-label")
    assert "younger's leftovers" in page.inner_text("#leftovers-label")
    assert "I shall lead the" in page.inner_text(".dialog")
    assert not page.errors


def test_naming_a_suit_keeps_your_leftovers_apart(
    server: ThreadServer, browser: Any, size: str
) -> None:
    """Point 3 (cotgrave-1662): four suits with what you hold of each; your own unused
    cards and the cards seen in the stock are labelled apart."""
    api, elder = leftovers_for_elder(server.url, "cotgrave-1662")
    page = new_page(browser, size)
    open_seat(page, server, api, elder)
    page.wait_for_selector("#naming")
    suits = page.locator("#naming .name-suit-btn")
    assert suits.count() == 4
    assert "you hold" in suits.nth(0).inner_text()
    assert "suit" in page.inner_text("#naming-rule")
    if page.is_visible("#unused-label"):
        assert "Your leftovers" in page.inner_text("#unused-label")
    shot(page, "name-suit", size)
    before = page.get_attribute("#main", "data-n")
    page.keyboard.press("1")  # the keys reach the suits
    wait_n_changes(page, before)
    page.wait_for_selector("#leftovers-label")
    assert "leftovers" in page.inner_text("#leftovers-label")
    no_sideways_scroll(page)
    assert not page.errors


@pytest.fixture(scope="module")
def finished_19c(server: ThreadServer) -> Api:
    """An encyclopedia-19c game (a game to 100, the rule set's first format) between two
    friends, played to its end: the tests that only look at a finished game (the won
    game's summary, the replay at both sizes) share it rather than each playing one."""
    api = Api(server.url, "encyclopedia-19c", "game")
    api.join()
    api.drive(lambda g: bool(g["finished"]), watch=0, limit=5000)
    return api


def test_a_game_won_in_the_middle_of_a_deal_says_so(
    server: ThreadServer, browser: Any, finished_19c: Api
) -> None:
    """encyclopedia-19c: the game is won the moment a player reaches 100.  The last deal's
    summary said only "wins, 100 to 38" after a trick or two, and nothing why the play
    stopped; it now says the game was won at that moment."""
    api = finished_19c
    game = api.view(0)
    assert game["finished"]
    deals = game["view"]["deals"]
    last = deals[-1]
    assert last["reached"] is not None
    # this browser saw every deal but the last: the table sums that one up as it opens
    page = new_page(browser)
    page.goto(server.url + "/")
    page.evaluate("([id, n]) => localStorage.setItem('piquet.games', "
                  "JSON.stringify({[id]: {ack: n}}))", [api.id, len(deals) - 1])
    open_seat(page, server, api, 0)
    page.wait_for_selector("#summary-stopped")
    said = page.inner_text("#summary-stopped")
    assert "reached 100 in this deal: the game was won at that moment" in said, said
    assert game["view"]["names"][last["reached"]] in said
    # "what was left ... neither played nor counted" only when the deal was cut short
    played_out = any("last trick" in kinds for kinds in last["by_kind"])
    assert ("neither played nor counted" in said) is not played_out, (said, last)
    assert not page.errors
    page.context.close()


def test_leftovers_turned_up_lie_face_up_on_the_stock(
    server: ThreadServer, browser: Any, size: str
) -> None:
    """du-coeur-1995: younger turns up the cards he left "for both to see"; both tables show
    them face up where the stock lies (they were only in the side panel, below the fold on
    a phone, while the table still showed a face-down stock)."""
    api = Api(server.url, "du-coeur-1995")
    api.join()

    def turned_up(g: dict[str, Any]) -> bool:
        d = g["view"]["deal"]
        return d is not None and bool(d["leftovers_seen"]) and d["phase"] == "declare"

    def leave_and_turn_up(g: dict[str, Any], rng: random.Random) -> str:
        legal = g["legal_actions"]
        if legal[0]["kind"] == "discard":  # both take few: cards are left in the stock
            return "discard:" + " ".join(g["view"]["deal"]["hand"][: max(1, legal[0]["min"])])
        for a in legal:
            if a["kind"] == "leftover":
                return "look"
        return plain(g, rng)

    game = api.drive(turned_up, leave_and_turn_up, watch=0)
    left = game["view"]["deal"]["leftovers_seen"]
    assert len(left) == game["view"]["deal"]["stock_count"]
    for seat in (0, 1):
        page = new_page(browser, size)
        open_seat(page, server, api, seat)
        stock = page.locator("#stock")
        assert stock.locator(".stock-seen .card").count() == len(left)
        assert ", seen" in page.inner_text("#stock .pile-label")
        said = stock.get_attribute("aria-label")
        assert all(as_cards(c) in said for c in left), said
        if seat == 0:
            shot(page, "stock-turned-up", size)
        assert not page.errors
        page.context.close()


# ---------------------------------------------------------------------- 4. declarations
def test_his_answer_to_the_point_is_not_shown_as_if_about_the_sequences(
    server: ThreadServer, browser: Any
) -> None:
    """Issue 35: elder at his sequences saw younger's "Not good." to the point in the
    sequences' panel, as if it were about them.  The panel shows only the other's words
    about the class being declared; the dialog keeps the rest."""
    def after_his_answer(g: dict[str, Any]) -> bool:
        d = g["view"]["deal"]
        if not (g["your_turn"] and d and d["phase"] == "declare" and d["dialog"]):
            return False
        last = d["dialog"][-1]
        return (last["seat"] != d["role"] and last["class"] is not None
                and last["class"] != d["declaring"])

    # the server deals at random: a partie whose deals never bring the moment is put
    # aside for another (most bring it in the first deal or two)
    for attempt in range(20):
        api = Api(server.url, "rubicon", "partie")
        api.join()
        elder = elder_seat(api.view(0))
        try:
            game = api.drive(after_his_answer, watch=elder, seed=5 + attempt)
        except GameOver:
            continue
        break
    else:
        raise AssertionError("twenty parties without an answer before the next class")
    last = game["view"]["deal"]["dialog"][-1]
    page = new_page(browser)
    open_seat(page, server, api, elder)
    page.wait_for_selector("#declare")
    assert f"the {game['view']['deal']['declaring']}" in page.inner_text("#declare-title")
    assert not page.query_selector("#declare #their-words")
    assert as_cards(last["said"]) in page.inner_text("section.dialog")  # kept there
    assert not page.errors
    page.context.close()


def test_the_declarations_dialog_puts_their_words_beside_your_answer(
    server: ThreadServer, browser: Any, size: str
) -> None:
    """Point 4: the opponent's claim next to the answers, in view together on a phone;
    then your own claim: the best first, sinking behind one choice, all by keyboard."""
    api = Api(server.url, "rubicon", "partie")
    api.join()
    elder = elder_seat(api.view(0))
    younger = 1 - elder

    def younger_answers(g: dict[str, Any]) -> bool:
        return g["your_turn"] and any(a["kind"] == "answer" for a in g["legal_actions"])

    def elder_declares_best(g: dict[str, Any], rng: random.Random) -> str:
        legal = g["legal_actions"]
        if legal[0]["kind"] == "discard":
            return "discard:" + " ".join(g["view"]["deal"]["hand"][: max(1, legal[0]["min"])])
        if legal[0]["kind"] == "declare":
            return str(legal[0]["id"])
        return str(legal[0]["id"])

    game = api.drive(younger_answers, elder_declares_best, watch=younger)
    page = new_page(browser, size)
    open_seat(page, server, api, younger)
    page.wait_for_selector("#declare #their-words")
    said = game["view"]["deal"]["dialog"][-1]["text"]
    assert as_cards(said) in page.inner_text("#their-words")
    # both in view once the dialog is scrolled to (scrolled and measured in one step in
    # the page, so a view drawn anew in between cannot leave a stale measure)
    words, answer = page.evaluate(
        """() => {
            document.getElementById('declare').scrollIntoView({block: 'nearest'});
            const box = s => { const r = document.querySelector(s).getBoundingClientRect();
                               return {y: r.y, height: r.height}; };
            return [box('#their-words'), box('#answers button')];
        }""")
    height = SIZES[size]["height"]
    assert 0 <= words["y"] and answer["y"] + answer["height"] <= height, (words, answer)
    assert "Answer" in page.inner_text("#status")
    shot(page, "declarations-answer", size)
    no_sideways_scroll(page)
    # now a seat with claims of its own: the best first, the rest behind "Sink"
    api2 = Api(server.url, "rubicon", "partie")
    api2.join()
    elder2 = elder_seat(api2.view(0))

    def elder_to_declare(g: dict[str, Any]) -> bool:
        kinds = [a["kind"] for a in g["legal_actions"]] if g["your_turn"] else []
        return kinds.count("declare") >= 2

    api2.drive(elder_to_declare, watch=elder2, seed=3)
    page2 = new_page(browser, size)
    open_seat(page2, server, api2, elder2)
    page2.wait_for_selector("#declare .best")
    assert page2.inner_text("#declare .best").split("Declare: ")[1].strip()
    assert not page2.is_visible("#sink-list")
    # the keyboard reaches every option: Tab to "Sink", Enter, then the lesser claims
    page2.focus("#declare .best")
    page2.keyboard.press("Tab")
    assert page2.evaluate("document.activeElement.id") == "sink-toggle"
    page2.keyboard.press("Enter")
    page2.wait_for_selector("#sink-list")
    assert page2.evaluate("document.activeElement.closest('#sink-list') !== null")
    claims = [a for a in api2.view(elder2)["legal_actions"] if a["kind"] in ("declare", "pass")]
    assert page2.locator("#sink-list button").count() == len(claims) - 1
    assert page2.locator("#declare button:disabled").count() == 0
    shot(page2, "declarations", size)
    no_sideways_scroll(page2)
    assert not page.errors and not page2.errors


# ---------------------------------------------------------------------- 5. undo, resign, rematch
def test_undo_resign_and_rematch(server: ThreadServer, browser: Any, size: str) -> None:
    """Point 5: undo in a practice game, resign, and a rematch with the seats swapped."""
    page = new_page(browser, size)
    page.goto(server.url + "/")
    page.wait_for_selector("#start")
    page.select_option("#rules", "rubicon")
    page.select_option("#opponent", "random")
    page.fill("#name", "Ada")
    page.click("#start")
    page.wait_for_url("**/play/*")
    first = page.url
    # act until an undo is offered
    for _ in range(40):
        page.wait_for_selector('#main[data-busy="0"]')
        if page.is_visible("#undo"):
            break
        if page.is_visible("#modal:not([hidden])"):
            page.click("#modal .modal-close")
            continue
        page.wait_for_selector(
            "#actions button:not([disabled]), #hand .card.playable, #hand.choosing"
        )
        before = page.get_attribute("#main", "data-n")
        if page.is_visible("#hand.choosing"):
            page.locator("#hand .card").first.click()
            page.click("#discard")
        elif page.query_selector("#hand .card.playable"):
            page.click("#hand .card.playable")
        else:
            page.locator("#actions button:not([disabled])").first.click()
        wait_n_changes(page, before)
    assert page.is_visible("#undo")
    n = int(page.get_attribute("#main", "data-n") or 0)
    page.wait_for_selector("#undo:not([disabled])")
    page.click("#undo")
    # the undo is an entry of the game's log: the version moves on, the move is taken back
    page.wait_for_function(f"Number(document.querySelector('#main').dataset.n) > {n}", polling=POLL)
    page.wait_for_function("document.getElementById('toast').textContent === 'Taken back.'",
                           polling=POLL)
    page.wait_for_selector('#main[data-turn="1"]')
    shot(page, "undo", size)
    # resign
    page.click("#btn-resign")
    page.click("#resign-yes")
    page.wait_for_selector("#finished")
    assert "You resigned" in page.inner_text("#finished")
    assert page.title() == "Game over · Piquet"
    shot(page, "resigned", size)
    # its record and replay, as a finished game's (the resignation a tag of the record)
    with page.expect_download() as got:
        page.click("#download-json")
    saved = got.value.path()
    assert json.loads(Path(saved).read_text())["tags"]["Resigned"] == 0
    assert page.is_visible("#open-replay")
    # rematch: a new game, same rules, the seats swapped
    page.click("#rematch")
    page.wait_for_function(f"location.href !== {first!r}", polling=POLL)
    page.wait_for_selector("#main[data-n]")
    assert page.get_attribute(".scores .title", "title") == "rubicon"  # named by its title
    seat = page.evaluate(
        "JSON.parse(localStorage.getItem('piquet.games'))[location.pathname.split('/')[2]].seat"
    )
    assert seat == 1
    no_sideways_scroll(page)
    # back at the old game, the button leads to the rematch this browser made (it had
    # offered to make it again, and was refused: "you made this rematch")
    second = page.url
    page.goto(first)
    page.wait_for_selector("#finished")
    assert page.inner_text("#rematch") == "Go to the rematch"
    assert not page.is_visible("#rematch-offer")
    page.click("#rematch")
    page.wait_for_url(second)
    page.wait_for_selector("#main[data-n]")
    assert not page.errors


# ---------------------------------------------------------------------- the pool of three
def test_a_pool_says_who_won_each_game_and_who_stands_out(
    server: ThreadServer, browser: Any
) -> None:
    """A deal that ends a game of the pool says who won it, who plays the next and who
    stands out, and what the pool holds (it used to show the next game's 0 to 0 only)."""
    http = httpx.Client(base_url=server.url, timeout=60)
    r = http.post("/api/games", json={"rules": "court-gamester-1754", "format": "pool",
                                       "opponents": ["friend", "friend"], "name": "Ada"})
    assert r.status_code == 201, r.text
    made = r.json()
    gid, tokens = made["id"], {0: made["token"]}
    for inv, name in zip(made["invites"], ["Bob", "Cleo"], strict=True):
        r = http.post(f"/api/games/{gid}/join", json={"invite": inv["invite"], "name": name})
        assert r.status_code == 201, r.text
        tokens[r.json()["seat"]] = r.json()["token"]
    pages, where = {}, {}
    for seat in range(3):  # each seat's page has seen the start: it will sum up its deals
        pages[seat] = new_page(browser)
        pages[seat].goto(server.url + f"/play/{gid}#token={tokens[seat]}")
        pages[seat].wait_for_selector("#main[data-n]")
        # and is left while the game is played over HTTP (each page is opened again after
        # it, as a reload would: a table left open would draw every view of the game)
        where[seat] = pages[seat].url
        pages[seat].goto("about:blank")

    def game_of(seat: int) -> dict[str, Any]:
        got: dict[str, Any] = http.get(
            f"/api/games/{gid}", headers={"Authorization": f"Bearer {tokens[seat]}"}).json()
        return got

    rng = random.Random(5)
    for _ in range(5000):  # everyone acts (nobody else moves) until the first game is over
        game = game_of(0)
        if game["view"]["games"]:
            break
        p = game["to_act"]
        mine = game_of(p)
        r = http.post(f"/api/games/{gid}/actions", json={"action": plain(mine, rng),
                      "n": mine["n"]}, headers={"Authorization": f"Bearer {tokens[p]}"})
        assert r.status_code == 200, r.text
    else:
        raise AssertionError("the first game did not end")
    view = game["view"]
    first = view["games"][0]
    winner = view["names"][first["winner"]]
    out = next(p for p in range(3) if p not in view["in_game"])
    # back at the table, the winner's page sums up its last deal: the one that ended the
    # game (the seat that stood out of game 1 played none of its deals)
    page = pages[first["winner"]]
    page.goto(where[first["winner"]])
    page.wait_for_selector("#summary-after")
    after = page.inner_text("#summary-after")
    assert after.startswith(f"Game 1: {winner}") and " wins (" in after, after
    assert "Game 2: " in after, after
    stands = f"{view['names'][out]} stands out of it."  # the loser; the page is the winner's
    assert stands in after and f"The pool holds {view['pool']}." in after, after
    assert "Game score" not in after
    shot(page, "pool-summary", "desktop")
    # the score sheet numbers the deals within each game, under a heading per game
    page.click("#summary-ok")
    page.click("#btn-sheet")
    page.wait_for_selector("#modal .sheet")
    first_rows = page.locator("#modal .sheet tbody tr")
    assert first_rows.nth(0).inner_text().strip() == "Game 1"
    assert first_rows.nth(1).locator("td").first.inner_text() == "1"
    page.click("#modal .modal-close")
    # the loser stands out: his side panels show the deal he lost, naming its players
    # (not the next game's, whose roles the view holds)
    loser = pages[out]
    loser.goto(where[out])
    loser.wait_for_selector("section.dialog")
    said = loser.inner_text("section.dialog")
    last = view["deals"][-1]

    def label(p: int) -> str:
        return view["names"][p] + (" (you)" if p == out else "")

    absent = next(p for p in range(3) if p not in (last["elder"], last["younger"]))
    assert f"{label(absent)}, " not in said, said
    assert f"{label(last['elder'])}, elder: " in said, said
    assert f"{label(last['younger'])}, younger: " in said, said
    assert not loser.errors
    # the seat that stood out of game 1 played none of its deals: no summary of the
    # others' deals stands over its table (one once did, over its own next game)
    stood = next(p for p in range(3) if p not in first["players"])
    pages[stood].goto(where[stood])
    pages[stood].wait_for_selector('#main[data-busy="0"]')
    pages[stood].wait_for_timeout(500)
    assert not pages[stood].is_visible("#summary-after")
    # and its table says the game before was played without it, and who stands out now
    pool = pages[stood].inner_text("#pool-games")
    assert "Game 1: " in pool and "(you stood out)" in pool, pool
    assert f"The pool holds {view['pool']}." in pool
    assert ("You stand out of this game." if stood == out else
            f"{view['names'][out]} stands out.") in pool, pool
    assert not page.errors


# ---------------------------------------------------------------------- 6. the phone
def test_phone_cards_are_whole_tap_targets(server: ThreadServer, browser: Any) -> None:
    """Point 6: at 390x844 each hand card is a target of at least 44 px that its own
    centre hits, with no sideways scroll; tapping a centre chooses that card."""
    api = Api(server.url, "rubicon", "partie")
    api.join()
    elder = elder_seat(api.view(0))
    api.drive(
        lambda g: bool(g["your_turn"] and g["legal_actions"][0]["kind"] == "discard"), watch=elder
    )
    page = new_page(browser, "phone")
    open_seat(page, server, api, elder)
    page.wait_for_selector("#hand.choosing")
    cards = page.locator("#hand .card")
    assert cards.count() == 12
    for i in range(12):
        c = cards.nth(i)
        scroll_into_view(c)  # the hand may be drawn anew (a pushed view) meanwhile
        box = box_of(c)
        assert box["width"] >= 44 and box["height"] >= 44
        hit = page.evaluate(
            "([x, y]) => document.elementFromPoint(x, y).closest('.card')?.dataset.card",
            [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
        )
        assert hit == c.get_attribute("data-card")
    target = cards.nth(5).get_attribute("data-card")
    box = box_of(cards.nth(5))
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_selector(f'#hand .card.selected[data-card="{target}"]')
    assert page.locator("#hand .card.selected").count() == 1
    # every visible button a finger's height, measured in one step in the page (the bars
    # are drawn anew as views arrive: handles found one by one may be gone when measured)
    short = page.evaluate(
        """() => [...document.querySelectorAll('#actions button, #nav button')]
            .filter(b => b.offsetParent !== null && b.getBoundingClientRect().height > 0)
            .filter(b => b.getBoundingClientRect().height < 44)
            .map(b => b.innerText)""")
    assert not short, f"buttons shorter than 44 px: {short}"
    no_sideways_scroll(page)
    shot(page, "phone", "phone")
    assert not page.errors


# ---------------------------------------------------------------------- 7. the keyboard
def test_keyboard_focus_stays_in_the_hand(server: ThreadServer, browser: Any, size: str) -> None:
    """Point 7: after a card is played by key, focus is in the hand (not the page); the
    opponent's card count is text a screen reader reads."""
    api = Api(server.url, "rubicon", "partie")
    api.join()

    def my_lead(g: dict[str, Any]) -> bool:
        d = g["view"]["deal"]
        return bool(g["your_turn"] and d and d["phase"] == "play" and not d["trick_lead"])

    api.drive(my_lead, watch=0)
    page = new_page(browser, size)
    open_seat(page, server, api, 0)
    count = page.inner_text("#opp-count")
    assert re.fullmatch(r"Bob holds \d+ cards?\.", count), count
    hidden = page.evaluate(
        "document.querySelector('#opp-count').closest('[aria-hidden=\"true\"]') !== null"
    )
    assert not hidden
    page.focus("#hand .card.playable")
    before = page.get_attribute("#main", "data-n")
    page.keyboard.press("Enter")
    wait_n_changes(page, before)
    page.wait_for_selector('#main[data-busy="0"]')
    assert page.evaluate("document.activeElement.closest('#hand') !== null")
    # the other side answers: the redraw keeps the focus in the hand too
    after = api.view(1)
    if after["your_turn"]:
        before = page.get_attribute("#main", "data-n")
        api.act(1, after["legal_actions"][0]["id"])
        wait_n_changes(page, before)
        assert page.evaluate("document.activeElement.closest('#hand') !== null")
        page.keyboard.press("ArrowRight")
        assert page.evaluate("document.activeElement.closest('#hand') !== null")
    assert not page.errors


# ---------------------------------------------------------------------- 8. games, invitations
def test_your_games_are_kept_by_the_server(server: ThreadServer, browser: Any, size: str) -> None:
    """Point 8: the list comes from the server (the identity cookie), with status, score,
    format and resume links; it survives the browser's local memory being cleared."""
    page = new_page(browser, size)
    page.goto(server.url + "/")
    page.wait_for_selector("#start")
    page.select_option("#rules", "rubicon")
    page.select_option("#opponent", "random")
    page.click("#start")
    page.wait_for_url("**/play/*")
    game_id = page.url.rsplit("/", 1)[1]
    page.evaluate("localStorage.clear()")
    page.goto(server.url + "/")
    row = page.wait_for_selector(f'#my-games tr[data-game="{game_id}"]')
    text = row.inner_text()
    assert "Rubicon Piquet" in text and "partie of 6 deals" in text  # named by its title
    assert "deal 1 of 6" in text
    assert "Your turn" in text or "to play" in text
    shot(page, "your-games", size, "#my-games")
    no_sideways_scroll(page)
    page.click(f'#my-games tr[data-game="{game_id}"] a.resume')
    page.wait_for_selector("#main[data-n] .felt")  # the seat, from the server's list
    stored = page.evaluate("JSON.parse(localStorage.getItem('piquet.games') || '{}')")
    assert stored[game_id]["token"]
    # another browser (no cookie) sees none of it
    other = new_page(browser, size)
    other.goto(server.url + "/")
    other.wait_for_selector("#my-games p")
    assert other.query_selector(f'#my-games tr[data-game="{game_id}"]') is None
    assert not page.errors and not other.errors


def test_the_invitation_says_who_invites_and_a_used_one_says_so(
    server: ThreadServer, browser: Any, size: str
) -> None:
    """Point 8: the join page names the host, the rules and the format before asking a
    name; a used invitation says so at once, without asking a name."""
    api = Api(server.url, "rubicon", "partie")
    link = f"{server.url}/join/{api.id}#invite={api.invite}"
    guest = new_page(browser, size)
    guest.goto(link)
    guest.wait_for_selector("#join-form")
    text = guest.inner_text("#join-form")
    assert "Ada invites you" in text
    assert "Rubicon" in text and "partie of 6 deals" in text
    shot(guest, "invitation", size)
    no_sideways_scroll(guest)
    guest.fill("#join-name", "Bob")
    guest.click("#join")
    guest.wait_for_url("**/play/*")
    late = new_page(browser, size)
    late.goto(link)
    late.wait_for_selector("#join-refused")
    assert "has been used" in late.inner_text("#join-refused")
    assert late.query_selector("#join-name") is None
    shot(late, "invitation-used", size)
    assert not guest.errors and not late.errors


# ---------------------------------------------------------------------- 9. the replay
def test_replay_speaks_names_and_words_with_one_listener(
    server: ThreadServer, browser: Any, size: str, finished_19c: Api
) -> None:
    """Point 9: names instead of elder/younger, actions in words, and one arrow key is
    one request however often the replay was opened."""
    api = finished_19c
    page = new_page(browser, size)
    open_seat(page, server, api, 0)
    page.wait_for_selector("#finished")
    for _ in range(3):  # open the replay, go back, open it again
        page.click("#open-replay")
        page.wait_for_selector("#replay .replay-bar")
        page.click("#nav button")
        page.wait_for_selector("#finished")
    page.click("#open-replay")
    page.wait_for_selector("#replay-step")
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/replay?step=" in r.url else None)
    for _ in range(40):
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(30)
    page.wait_for_function("document.querySelector('#replay-step').textContent.includes('40')",
                           polling=POLL)
    assert len(asked) <= 40
    page.wait_for_timeout(200)
    caption = page.inner_text("#replay-caption")
    dialog = page.inner_text("#replay-dialog") if page.query_selector("#replay-dialog") else ""
    assert not RAW_ID.search(caption), caption
    assert "elder:" not in dialog and "younger:" not in dialog
    assert ("Ada" in caption) or ("Bob" in caption)
    shot(page, "replay", size)
    # and one more key: exactly one request
    asked.clear()
    page.keyboard.press("ArrowRight")
    page.wait_for_function("document.querySelector('#replay-step').textContent.includes('41')",
                           polling=POLL)
    page.wait_for_timeout(300)
    assert len(asked) == 1
    no_sideways_scroll(page)
    assert not page.errors


# ---------------------------------------------------------------------- 10. smaller things
def test_docs_work_without_a_network(server: ThreadServer, browser: Any, size: str) -> None:
    """Point 10: /docs draws the API from files served by the server itself."""
    page = new_page(browser, size, offline=True)
    outside: list[str] = []
    page.on("requestfailed", lambda r: outside.append(r.url))
    page.goto(server.url + "/docs")
    page.wait_for_selector(".swagger-ui .info .title")
    assert "Piquet" in page.inner_text(".swagger-ui .info .title")
    page.wait_for_selector(".opblock")
    assert not [u for u in outside if not u.startswith("http://127.0.0.1")]
    shot(page, "docs", size)


def test_the_smaller_things(server: ThreadServer, browser: Any, size: str) -> None:
    """Point 10: no cards before the deal, the Discard button's words, "I take two" in
    the dialog, the count panel unclipped, whose turn in the tab's title, the rules in
    full in the Rules panel."""
    api = Api(server.url, "cotgrave-1662")  # the dealer chooses to deal by two or three
    api.join()
    first = api.view(0)
    page = new_page(browser, size)
    open_seat(page, server, api, 0)
    if first["view"]["deal"]["phase"] == "deal":
        assert page.get_attribute(".opp-hand", "data-count") == "0"
        assert "holds no cards yet" in page.inner_text("#opp-count")
    title = page.title()
    assert title == ("▶ Your turn · Piquet" if first["your_turn"] else "Bob to play · Piquet")
    elder = elder_seat(first)
    api.drive(
        lambda g: bool(g["your_turn"] and g["legal_actions"][0]["kind"] == "discard"), watch=elder
    )
    page.goto(server.url + api.url(elder))
    page.wait_for_selector("#hand.choosing")
    assert "(Discard" not in page.inner_text("#discard")
    # "Discard 2 cards" when a carte blanche bound the number (a deal of the server's
    # random seed, one in some hundreds)
    assert re.match(r"1\s+Discard (1 to \d|\d) cards", page.inner_text("#discard"))
    assert page.title() == "▶ Your turn · Piquet"
    api.drive(
        lambda g: bool(g["view"]["deal"] and g["view"]["deal"]["phase"] == "play"), watch=elder
    )
    page.wait_for_function("document.querySelector('#main').dataset.phase === 'play'", polling=POLL)
    dialog = page.inner_text(".dialog")
    assert "I take" in dialog and "exchanges" not in dialog
    # the felt's quieter words read at 4.5:1 or more where the felt is lightest (WCAG AA),
    # and the coach's panel (paper on the felt) keeps its own dark ones
    felt = felt_lightest(page)
    for holder, kind in [("", "muted"), ("", "thinking"), ("", "opp-discards muted"),
                         ("", "trick-note"), ("", "role"), ("", "away"), ("", "pile-label"),
                         ("coach", "muted"), ("coach", "thinking")]:
        page.evaluate("([holder, kind]) => { const s = document.createElement('span'); "
                      "s.className = kind; s.id = 'probe'; s.textContent = 'x'; "
                      "const into = document.createElement('div'); into.id = 'probe-box'; "
                      "into.className = holder; into.append(s); "
                      "document.querySelector('.felt').append(into); }", [holder, kind])
        against = felt if not holder else page.evaluate(
            "getComputedStyle(document.getElementById('probe-box')).backgroundColor")
        assert text_contrast(page, "#probe", against=against) >= 4.5, (holder, kind)
        page.evaluate("document.getElementById('probe-box').remove()")
    clipped = page.evaluate(
        "[...document.querySelectorAll('.events .lines')]"
        ".some((e) => e.scrollHeight > e.clientHeight + 1)"
    )
    assert not clipped
    page.click("#btn-rules")
    page.wait_for_selector("#rules-all dl.knobs dt")
    assert page.locator("#rules-all dl.knobs dt").count() > 10
    body = page.inner_text("#modal")
    assert "piquet rules" not in body and "Cotgrave" in body
    shot(page, "rules", size)
    no_sideways_scroll(page)
    assert not page.errors


def test_an_address_without_a_game_says_so(server: ThreadServer, browser: Any) -> None:
    """A mistyped game link says there is no such game (it said "Not your seat", as if the
    game were someone else's); an invitation link asks nothing the browser logs as failed."""
    page = new_page(browser, "desktop")
    page.goto(server.url + "/play/doesnotexist123")
    page.wait_for_selector("#no-such-game")
    assert "No such game" in page.inner_text("#no-such-game")
    assert "mistyped" in page.inner_text("#no-such-game")
    page.goto(server.url + "/play/" + "x" * 40)  # longer than any game's id (a 422)
    page.wait_for_selector("#no-such-game")
    api = Api(server.url, "rubicon", None)
    failed: list[str] = []
    page2 = new_page(browser, "desktop")
    page2.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
    page2.goto(f"{server.url}/join/{api.id}#invite={api.invite}")
    page2.wait_for_selector("#join-form")
    assert not failed, failed
    assert not page.errors and not page2.errors


def test_a_card_that_may_not_be_played_says_why(server: ThreadServer, browser: Any) -> None:
    """Clicking a dimmed card when a suit must be followed says so (it did nothing)."""
    api = Api(server.url, "rubicon", None)
    api.join()

    def must_follow(g: dict[str, Any]) -> bool:
        deal = g["view"]["deal"]
        if not (g["your_turn"] and deal and deal["phase"] == "play" and deal["trick_lead"]):
            return False
        plays = [a for a in g["legal_actions"] if a["kind"] == "play"]
        return 0 < len(plays) < len(deal["hand"])

    for seat in (0, 1):
        try:
            game = api.drive(must_follow, watch=seat, limit=400)
        except AssertionError:
            continue
        page = new_page(browser, "desktop")
        open_seat(page, server, api, seat)
        page.locator("#hand button.card.dim").first.click(force=True)  # aria-disabled only
        page.wait_for_selector(".toast.show")
        suit = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}[
            game["view"]["deal"]["trick_lead"][-1]]
        assert f"you must follow {suit}" in page.inner_text("#toast")
        assert page.get_attribute("#main", "data-n") == str(api.view(seat)["n"])  # nothing sent
        assert not page.errors
        return
    pytest.skip("no trick to follow with a card of another suit in this seeded game")


def _declaring(kinds: Callable[[list[str]], bool]) -> Callable[[dict[str, Any]], bool]:
    """The moment the watched seat declares with legal action kinds that ``kinds`` accepts."""

    def at(g: dict[str, Any]) -> bool:
        deal = g["view"]["deal"]
        return bool(g["your_turn"] and deal and deal["phase"] == "declare"
                    and kinds([a["kind"] for a in g["legal_actions"]]))

    return at


@pytest.mark.parametrize(("rules", "moment", "says"), [
    ("rubicon", lambda k: k == ["pass"], "nothing to declare"),
    ("rubicon", lambda k: k.count("declare") >= 2, "declare it, or sink it"),
    ("rubicon", lambda k: k == ["declare"], "declare it."),
    ("court-gamester-1754", lambda k: "question" in k, "which card of the"),
])
def test_the_status_line_says_what_the_declaration_buttons_allow(
    server: ThreadServer, browser: Any, rules: str,
    moment: Callable[[list[str]], bool], says: str,
) -> None:
    """The line above the table names only what the buttons shown allow: no "sink" when
    there is nothing to sink, "pass" when there is nothing to declare, the question when
    the other has declared a trio (a new user was told "declare it, or sink it" there)."""
    for seed in range(1, 9):
        api = Api(server.url, rules, None)
        api.join()
        for seat in (0, 1):
            try:
                api.drive(_declaring(moment), watch=seat, seed=seed, limit=400)
            except AssertionError:
                continue
            page = new_page(browser, "desktop")
            open_seat(page, server, api, seat)
            status = page.inner_text("#status")
            assert says in status, status
            if says == "declare it.":
                assert "sink" not in status and not page.is_visible("#sink-toggle")
            assert not page.errors
            return
    pytest.skip(f"no such moment in the seeded {rules} games")


def test_the_hint_shows_in_the_declarations(server: ThreadServer, browser: Any) -> None:
    """Point 10: whatever the advisor answers during the declarations is shown there."""
    api = Api(server.url, "rubicon", "partie", hints=True)
    api.join()
    elder = elder_seat(api.view(0))
    api.drive(
        lambda g: bool(
            g["your_turn"] and g["view"]["deal"] and g["view"]["deal"]["phase"] == "declare"
        ),
        watch=elder,
    )
    page = new_page(browser, "desktop")
    open_seat(page, server, api, elder)
    if page.is_disabled("#btn-hint"):
        pytest.skip("the advisor is not installed")
    # the advisor's answer to the page's own request is what the page must show (read
    # from that response: the advisor thinks a while, and asking it a second time for the
    # test doubled the test's CPU); the wait is the browser's, PATIENCE, not a time
    with page.expect_response(lambda res: f"/api/games/{api.id}/hint" in res.url) as asked:
        page.click("#btn-hint")
    r = asked.value
    if r.status == 200:
        page.wait_for_selector("#declare-hint")
        # its card codes written as the table writes cards (QS as Q♠, TH as 10♥)
        words = re.sub(r"\b([AKQJT9876])([SHDC])\b",
                       lambda m: {"T": "10"}.get(m[1], m[1]) + "♠♥♦♣"["SHDC".index(m[2])],
                       r.json()["hint"])
        assert words in page.inner_text("#declare-hint")
        assert not page.query_selector("#status #hint")  # said once, beside the buttons
    else:
        page.wait_for_selector(".toast.show")
    assert not page.errors


def test_waiting_says_what_the_other_is_doing(server: ThreadServer, browser: Any) -> None:
    """While a friend deals, exchanges or declares, the waiting seat reads that, not "is to
    play"."""
    api = Api(server.url, "rubicon", None, name="Ada")
    api.join("Bob")
    words = {"deal": "is dealing", "exchange": "is exchanging", "declare": "is declaring",
             "play": "is to play"}
    seen: set[str] = set()
    rng = random.Random(2)
    page = new_page(browser, "desktop")
    for _ in range(60):
        g = api.view(0)
        phase = g["view"]["deal"]["phase"] if g["view"]["deal"] else None
        waiting = 1 - g["to_act"]
        if phase in words and phase not in seen:
            open_seat(page, server, api, waiting)
            status = page.inner_text("#status")
            assert words[phase] in status and ("Ada" in status or "Bob" in status), status
            seen.add(phase)
        if seen == set(words):
            break
        p = g["to_act"]
        api.act(p, plain(api.view(p), rng))
    assert seen == set(words), seen
    assert not page.errors


def test_the_counts_name_the_players_and_a_partie_counts_its_deals(
    server: ThreadServer, browser: Any
) -> None:
    """The side panel's count of the deal is by name, not by role; the summary of a
    partie's deal is "Deal 1 of 6", as the panel says (it said "Deal 1 of game 1")."""
    api = Api(server.url, "rubicon", "partie", name="Ada")
    api.join("Bob")

    def late(g: dict[str, Any]) -> bool:
        deal = g["view"]["deal"]
        return bool(deal and deal["phase"] == "play" and len(deal["tricks"]) >= 10)

    api.drive(late)
    page = new_page(browser, "desktop")
    open_seat(page, server, api, 0)
    count = page.inner_text("#deal-count")
    assert "Ada" in count and "Bob" in count and "elder" not in count, count
    api.drive(lambda g: len(g["view"]["deals"]) >= 1)
    page.wait_for_selector("#summary")
    assert page.inner_text("#modal-title") == "Deal 1 of 6"
    assert not page.errors


def test_a_settled_partie_says_how_it_was_settled(server: ThreadServer, browser: Any) -> None:
    """"Settled at 142" alone left a player to guess the 100 and the 42."""
    api = Api(server.url, "rubicon", "partie", name="Ada")
    api.join("Bob")
    game = api.drive(lambda g: bool(g["finished"]), limit=4000)
    result = game["result"]
    if not result.get("settled"):
        pytest.skip("a drawn partie")
    page = new_page(browser, "desktop")
    open_seat(page, server, api, 0)
    text = page.inner_text("#main")
    won, lost = sorted(result["scores"], reverse=True)
    assert f"Settled at {result['settled']}: 100 for the partie and " in text, text
    assert (f"the difference, {won - lost}" in text) != (f"both totals, {won + lost}" in text)
    assert not page.errors


def test_a_new_game_offers_the_strongest_level_first(server: ThreadServer,
                                                     browser: Any) -> None:
    """A first visitor is offered the expert (it offered "random"), each level in words."""
    page = new_page(browser, "desktop")
    page.goto(server.url + "/")
    page.wait_for_selector("#start")
    assert page.input_value("#opponent") == "expert"
    assert page.inner_text("#opponent-note").startswith("the strongest")
    page.select_option("#opponent", "random")
    assert "at random" in page.inner_text("#opponent-note")
    titles = page.eval_on_selector_all("#opponent option", "els => els.map(e => e.title)")
    assert all(titles[:-1]) and not titles[-1], titles  # each level explained; not "friend"


def test_a_phone_shows_new_game(server: ThreadServer, browser: Any) -> None:
    """On a phone the bar keeps "New game" (it was hidden behind the logo) and still does
    not scroll sideways."""
    api = Api(server.url, "rubicon", None)
    api.join()
    page = new_page(browser, "phone")
    open_seat(page, server, api, 0)
    # waited for, not read once: the bar is drawn again as the seat's view arrives, and an
    # element read between its removal and its return has no box (a whole-suite run failed so)
    page.wait_for_function(
        """w => { const e = document.querySelector('#nav-new'); if (!e) return false;
                  const r = e.getBoundingClientRect();
                  return r.width > 0 && r.x >= 0 && r.x + r.width <= w; }""",
        arg=SIZES["phone"]["width"], polling=POLL)
    no_sideways_scroll(page)
    page.click("#nav-new")
    page.wait_for_url(server.url + "/")


def test_the_connection_dot_tells_a_screen_reader_what_it_shows(
    server: ThreadServer, browser: Any
) -> None:
    """When the socket drops, the dot says "Reconnecting…" to the eye and the ear alike (its
    label stayed "Connected")."""
    api = Api(server.url, "rubicon", None)
    api.join()
    page = new_page(browser, "desktop")
    routes = relay_sockets(page)
    open_seat(page, server, api, 0)
    wait_for_socket(page, routes)
    assert page.get_attribute("#conn", "aria-label") == "Connected"
    page.route_web_socket(re.compile(r".*/ws$"), lambda ws: ws.close())  # it stays away
    routes[0].close()
    page.wait_for_selector("#conn.off")
    assert page.get_attribute("#conn", "title") == "Reconnecting…"
    assert page.get_attribute("#conn", "aria-label") == "Reconnecting…"


# ---------------------------------------------------------------------- live updates degraded
def test_the_table_polls_while_live_updates_are_down(server: ThreadServer, browser: Any) -> None:
    """The contract with the server: ``{"type": "live", "ok": false}`` on the socket makes
    the page show a notice and ask for the game every ~2 s until ``ok: true``."""
    api = Api(server.url, "rubicon", "partie")
    api.join()
    page = new_page(browser, "phone")
    live = {"on": True}
    # while "down", the server's views do not reach the page: only polling brings news
    routes = relay_sockets(page, lambda: live["on"])
    polls: list[float] = []
    page.on(
        "request",
        lambda r: (
            polls.append(r.timing["startTime"])
            if r.method == "GET" and r.url.split("?")[0].endswith(f"/api/games/{api.id}")
            else None
        ),
    )
    open_seat(page, server, api, 0)
    wait_for_socket(page, routes)
    polls.clear()
    live["on"] = False
    began = page.evaluate("performance.now()")
    routes[0].send(json.dumps({"type": "live", "ok": False, "error": "redis is down"}))
    page.wait_for_selector("#live-notice")
    wait_until(page, lambda: len(polls) >= 3, "the page does not poll")
    # every ~2 s, never faster: three polls take at least three intervals of the page's
    # own clock (a loaded machine only makes them longer)
    assert page.evaluate("performance.now()") - began >= 3 * 1500, polls
    # news reaches the page by polling meanwhile
    before = page.get_attribute("#main", "data-n")
    g = api.view(0)
    p = g["to_act"]
    api.act(p, plain(api.view(p), random.Random(1)))
    wait_n_changes(page, before)
    live["on"] = True
    routes[0].send(json.dumps({"type": "live", "ok": True}))
    page.wait_for_selector("#live-notice", state="detached")
    polls.clear()
    page.wait_for_timeout(2500)
    assert polls == []
    assert not page.errors
