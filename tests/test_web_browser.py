"""The card table as a person uses it: Playwright driving Debian's Chromium, headless.

Opens the page, starts a game against ``random`` and plays it to the end by clicking,
invites a second browser and plays a hand between the two, reloads mid-game and goes on,
and takes the screenshots that docs/web.md shows into ``$PIQUET_SCREENSHOTS`` when
``scripts/screenshots`` runs these tests to regenerate docs/screenshots/ (none otherwise;
the tests never write into the tracked tree themselves).  Skipped when
/usr/bin/chromium is not installed (scripts/install-browser installs it).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from browserkit import box_of
from conftest import PATIENCE, POLL
from test_web_kit import ThreadServer, chromium_available, screenshot

pytestmark = pytest.mark.skipif(not chromium_available(), reason="no Chromium")

DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}
# the hand's cards overlap: click where a person would, on the card's uncovered left edge
CARD_EDGE = {"x": 8, "y": 40}
# what the table waits on: something for this seat to do, or the end
READY = (
    "#finished, #modal:not([hidden]), #actions button:not([disabled]), "
    "#hand .card.playable, #hand.choosing"
)


def shot(page: Any, name: str) -> None:
    screenshot(page, name)


def new_page(browser: Any, viewport: dict[str, int] = DESKTOP) -> Any:
    ctx = browser.new_context(viewport=viewport, bypass_csp=True)  # lets the test evaluate JS
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page


def start_game(
    page: Any,
    url: str,
    *,
    opponent: str = "random",
    rules: str | None = None,
    fmt: str | None = None,
    name: str = "Ada",
) -> None:
    page.goto(url + "/")
    page.wait_for_selector("#start")
    if rules:
        page.select_option("#rules", rules)
    if fmt:
        page.check(f'input[name="format"][value="{fmt}"]')
    page.select_option("#opponent", opponent)
    page.fill("#name", name)
    page.click("#start")
    page.wait_for_url("**/play/*")
    page.wait_for_selector("#main[data-n]")


# An element is shown as Playwright's is_visible and wait_for_selector say: the first the
# selector finds, with a box and not hidden by its style.
_SHOWN = """(s) => {
  const e = document.querySelector(s);
  if (!e) return false;
  const r = e.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== "hidden";
}"""

# What one_move looks at, seen in one look at the page (one call to the browser, not eight;
# and one moment: the table cannot be drawn anew between two of the looks)
_TABLE = f"""() => {{
  const shown = {_SHOWN};
  const main = document.querySelector("#main");
  return {{
    modal: shown("#modal:not([hidden])"), summary: shown("#summary"),
    summaryOk: shown("#summary-ok"), finished: shown("#finished"),
    n: main ? main.dataset.n ?? null : null, phase: main ? main.dataset.phase ?? null : null,
    choosing: shown("#hand.choosing") && shown("#discard"),
    playable: !!document.querySelector("#hand .card.playable"),
    trick: !!document.querySelector(".trick .card"),
  }};
}}"""


# What a seat's table says of whose turn it is, in one look (after it is idle: seat_of)
_SEAT = f"""() => {{
  const main = document.querySelector("#main");
  return {{
    phase: main ? main.dataset.phase ?? null : null,
    turn: main ? main.dataset.turn ?? null : null,
    summary: ({_SHOWN})("#summary"),
  }};
}}"""


def seat_of(page: Any) -> dict[str, Any]:
    """The seat's table once it is idle: its phase, whether it is to act, its summary."""
    page.wait_for_function("() => !!document.querySelector('#main[data-busy=\"0\"]')",
                           polling=POLL)
    return dict(page.evaluate(_SEAT))


def ready(page: Any, selector: str) -> None:
    """Wait until the table is idle and ``selector`` shows, up to the page's
    :data:`PATIENCE`: both conditions in one wait, looked at together."""
    page.wait_for_function(
        f"""() => {{
          const shown = {_SHOWN};
          return !!document.querySelector('#main[data-busy="0"]') && shown({selector!r});
        }}""",
        polling=POLL,
    )


def settle(page: Any) -> None:
    """Wait until the table is idle and shows something this seat can do (or the end),
    up to the page's :data:`PATIENCE` (15 s, as it was, a loaded machine could exceed)."""
    ready(page, READY)


def n_of(page: Any) -> int:
    return int(page.get_attribute("#main", "data-n") or -1)


def one_move(page: Any, taken: set[str], *, keyboard: bool = False) -> str:
    """Do one thing on the table by clicking (or by key); what was done."""
    look = page.evaluate(_TABLE)
    if look["modal"]:
        if look["summary"] and "summary" not in taken:
            taken.add("summary")
            shot(page, "deal-summary")
        page.click("#modal .modal-close" if not look["summaryOk"] else "#summary-ok")
        return "summary"
    if look["finished"]:
        return "finished"
    before = int(look["n"] or -1)
    phase = look["phase"]
    if look["choosing"]:
        # choose cards (two, when the rules allow) until Discard may be pressed
        cards = page.locator("#hand .card")  # the table redraws: find each card afresh
        for i in range(cards.count()):
            if page.is_enabled("#discard") and i >= 2:
                break
            if page.is_visible("#modal:not([hidden])"):
                return "again"  # a summary came up meanwhile: the caller's loop closes it
            was_ok = page.is_enabled("#discard")
            cards.nth(i).click(position=CARD_EDGE)
            if was_ok and not page.is_enabled("#discard"):
                cards.nth(i).click(position=CARD_EDGE)  # one too many
                break
        if "exchange" not in taken:
            taken.add("exchange")
            shot(page, "exchange")
        page.click("#discard")
    elif look["playable"]:
        if "play" not in taken and look["trick"]:
            taken.add("play")
            shot(page, "play")
        if keyboard:
            page.focus("#hand .card.playable")
            page.keyboard.press("Enter")
        else:
            page.click("#hand .card.playable", position=CARD_EDGE)
    else:
        if phase == "declare" and "declare" not in taken:
            taken.add("declare")
            shot(page, "declarations")
        buttons = page.query_selector_all("#actions button:not([disabled])")
        if not buttons:
            # the table was drawn anew between the looks above (a view pushed over the
            # socket): look again (the caller's loop is bounded)
            page.wait_for_timeout(50)
            return "again"
        if keyboard:
            page.keyboard.press("1")
        else:
            # a locator finds the button again when it is clicked: the table may have
            # been drawn anew (a view pushed over the WebSocket) since it was listed
            from playwright.sync_api import TimeoutError as PlaywrightTimeout

            try:
                page.locator("#actions button:not([disabled])").first.click(timeout=20_000)
            except PlaywrightTimeout:
                # the table moved on since the look (the computer's move pushed over the
                # socket) and offers no button now: look again (the caller's loop is bounded)
                return "again"
    page.wait_for_function(
        f"document.querySelector('#main').dataset.n != '{before}'"
        " || document.querySelector('#finished') !== null",
        polling=POLL,
    )
    return phase or "?"


def test_the_browser_opens_no_page_of_its_own(browser: Any) -> None:
    """Beside the tests' pages, Chromium's own are off (CHROMIUM_OFF): a browser_ui page
    (the address bar's drop-down) would cost a renderer for every context."""
    new_page(browser).goto("about:blank")
    cdp = browser.new_browser_cdp_session()
    try:
        targets = cdp.send("Target.getTargets")["targetInfos"]
    finally:
        cdp.detach()
    assert [t["type"] for t in targets] == ["page"], [(t["type"], t["url"]) for t in targets]


def test_whole_game_against_random_by_clicking(server: ThreadServer, browser: Any) -> None:
    page = new_page(browser)
    page.goto(server.url + "/")
    page.wait_for_selector("#start")
    # one who knows the game: the welcome folds to a line, the form in view as pictured
    page.click("#welcome-expert")
    page.wait_for_selector("#welcome #learn-link")
    shot(page, "new-game")
    taken: set[str] = set()
    moves = 0
    # the server draws each game's seed, and now and then a game is won within one deal
    # (a repique and capot): then a second game is played, so that the clicks cover enough
    for _game in range(4):
        start_game(page, server.url)
        for _ in range(2000):
            settle(page)
            if one_move(page, taken, keyboard=moves % 7 == 3) == "finished":
                break
            moves += 1
        else:  # pragma: no cover
            raise AssertionError("the game did not end")
        assert page.is_visible("#finished")
        assert "win" in page.inner_text("#finished .result")
        if moves > 20:
            break
    shot(page, "finished")
    assert moves > 20 and {"exchange", "play"} <= taken
    # the score sheet and the replay viewer
    page.click("#btn-sheet")
    page.wait_for_selector("#modal .sheet")
    # one game: its deals numbered 1, 2, ... (not "1.1"), no heading row
    assert page.locator("#modal .sheet tbody tr td").first.inner_text() == "1"
    assert not page.query_selector("#modal .sheet tr.game-row")
    page.click("#modal .modal-close")
    page.click("#open-replay")
    page.wait_for_selector("#replay .replay-bar")
    for _ in range(30):
        page.click("#replay-next")
    page.wait_for_selector("#replay .replay-seat .card")
    shot(page, "replay")
    assert not page.errors


def test_reload_mid_game_and_continue(server: ThreadServer, browser: Any) -> None:
    page = new_page(browser)
    start_game(page, server.url, rules="rubicon", fmt="partie")
    taken = {"exchange", "play", "declare", "summary"}  # no screenshots here
    for _ in range(6):
        settle(page)
        one_move(page, taken)
    settle(page)
    n = n_of(page)
    hand = page.inner_text("#hand") if page.query_selector("#hand") else ""
    page.reload()
    page.wait_for_selector("#main[data-n]")
    settle(page)
    assert n_of(page) >= n
    if n_of(page) == n and hand:
        assert [c.get_attribute("data-card") for c in page.query_selector_all("#hand .card")]
    one_move(page, taken)
    assert n_of(page) > n
    assert not page.errors


def test_two_people_play_a_hand_through_an_invitation(server: ThreadServer, browser: Any) -> None:
    host = new_page(browser)
    # a rubicon partie: six deals, so the game goes on after the first and the seat that
    # leaves is "away" (under the default rules, a game to 100, a repique and capot now and
    # then won the game within the deal: the table of a finished game says nobody is away,
    # and the wait for #opp-away below ran to its ceiling)
    start_game(host, server.url, opponent="friend", name="Host", rules="rubicon", fmt="partie")
    host.wait_for_selector("#invite .invite-link")
    link = host.get_attribute("#invite .invite-link", "value")
    assert link and "#invite=" in link
    guest = new_page(browser)
    guest.goto(link)
    guest.fill("#join-name", "Guest <b>")
    guest.click("#join")
    guest.wait_for_url("**/play/*")
    guest.wait_for_selector("#main[data-n]")
    host.wait_for_function("!document.querySelector('#invite')", polling=POLL)  # the seat is taken
    assert "Guest <b>" in host.inner_text(".scores")  # shown as text, not markup
    taken = {"exchange", "play", "declare", "summary"}
    # play until the first deal is over: both tables then show its summary (a ceiling in
    # time on a wait with no move, not a count of looks: four hundred, a tenth of a second
    # apart while neither seat was to act, could run out on a loaded machine)
    deadline = time.monotonic() + PATIENCE / 1000
    while time.monotonic() < deadline:
        seats = {p: seat_of(p) for p in (host, guest)}
        assert all(seat["phase"] is not None for seat in seats.values())
        if all(seat["summary"] for seat in seats.values()):
            break
        mover = None
        for p, seat in seats.items():
            if seat["turn"] == "1" and not seat["summary"]:
                mover = p
        if mover is None:
            host.wait_for_timeout(100)
            continue
        settle(mover)
        one_move(mover, taken)
        deadline = time.monotonic() + PATIENCE / 1000
    else:  # pragma: no cover
        raise AssertionError("the hand did not end")
    for p in (host, guest):
        assert "Deal 1" in p.inner_text("#modal-title")
        assert not p.errors
    # the guest closes the page: the host's table says the guest is away; the guest
    # opens the game again (the same browser remembers it) and is back
    assert not host.is_visible("#opp-away")
    assert not host.is_visible("#finished")  # (else nobody is away: see above)
    where = guest.url
    ctx = guest.context
    guest.close()
    host.keyboard.press("Escape")  # the summary closed: the table shows
    host.wait_for_selector("#opp-away")
    assert "away from the table" in host.inner_text(".opponent")
    back = ctx.new_page()
    back.goto(where)
    back.wait_for_selector("#main[data-n]")
    host.wait_for_selector("#opp-away", state="detached")
    assert not host.errors


def test_phone_sized_table(server: ThreadServer, browser: Any) -> None:
    page = new_page(browser, PHONE)
    start_game(page, server.url)
    settle(page)
    taken = {"exchange", "play", "declare", "summary"}
    for _ in range(3):
        one_move(page, taken)
        settle(page)
    # twelve cards fit across the screen (measured once the hand has a box: a view pushed
    # over the WebSocket may draw the table anew between finding the hand and measuring it)
    box = box_of(page.locator("#hand"))
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    shot(page, "phone")
    page.goto(server.url + "/")
    page.wait_for_selector("#start")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert not page.errors


def test_take_back_at_a_new_deal_says_why_nothing_happens(
    server: ThreadServer, browser: Any
) -> None:
    """A practice game: at the first question of the second deal there is nothing of this
    deal to take back; the keys z and u say so (the moves of the deal before stay)."""
    import random
    import time

    import httpx

    from test_web_kit import pick

    page = new_page(browser)
    start_game(page, server.url, rules="rubicon")
    gid = page.url.rsplit("/", 1)[-1].split("#")[0]
    token = page.evaluate(f"JSON.parse(localStorage.getItem('piquet.games'))['{gid}'].token")
    auth = {"Authorization": f"Bearer {token}"}
    rng = random.Random(5)
    with httpx.Client(base_url=server.url, headers=auth, timeout=60) as http:
        for _ in range(400):
            g = http.get(f"/api/games/{gid}", params={"wait": 10}).json()
            if g["finished"]:
                pytest.skip("the game ended within the first deal")  # pragma: no cover
            if g["view"]["deal_number"] >= 2 and g["your_turn"]:
                break
            if g["your_turn"]:
                assert http.post(f"/api/games/{gid}/actions",
                                 json={"action": pick(g, rng), "n": g["n"]}).status_code == 200
        else:  # pragma: no cover
            raise AssertionError("the second deal never came")
        assert not g["can_undo"]
    page.wait_for_function(f"document.querySelector('#main').dataset.n === '{g['n']}'",
                           polling=POLL)
    if page.is_visible("#summary"):
        page.keyboard.press("Escape")
    time.sleep(0.2)
    page.keyboard.press("z")
    page.wait_for_selector("#toast.show")
    assert "the moves of the deals before stay" in page.inner_text("#toast")
    assert not page.query_selector("#undo")
    assert not page.errors


def test_a_socket_gone_silent_is_given_up_and_the_table_reconnects(
    server: ThreadServer, browser: Any
) -> None:
    """A network that goes silent closes nothing by itself: the table's heartbeat (a ping
    every 10 s) gives up a socket silent for 25 s, shows it is reconnecting, and connects
    again; the moves made meanwhile arrive."""
    import threading

    page = new_page(browser)
    silent = threading.Event()
    sockets: list[Any] = []

    def handler(ws: Any) -> None:
        # counted before it is connected: the page may see the socket open (and the test
        # go on) while this handler is still waiting for the connection
        sockets.append(ws)
        mine = len(sockets)
        server_side = ws.connect_to_server()

        def from_page(message: Any) -> None:
            if not (silent.is_set() and mine == 1):
                server_side.send(message)

        def from_server(message: Any) -> None:
            if not (silent.is_set() and mine == 1):
                ws.send(message)

        ws.on_message(from_page)
        server_side.on_message(from_server)

    page.route_web_socket("**/api/games/*/ws", handler)
    # the page's clock is the test's: the silence is not waited out in real time
    page.clock.install()
    start_game(page, server.url, rules="rubicon")
    page.wait_for_selector("#conn.on")
    silent.set()  # the first socket goes silent both ways
    # 40 s later (the clock then stands still): the heartbeat finds it silent, gives it up
    page.clock.pause_at(page.evaluate("Date.now()") + 40_000)
    page.wait_for_selector("#conn.off")
    page.clock.resume()  # and a second later, in the page's time, connects again
    page.wait_for_function("document.querySelector('#conn').classList.contains('on')", polling=POLL)
    assert len(sockets) >= 2  # connected again, through a second socket
    assert not page.errors


def test_the_page_acts_over_its_socket_and_is_sent_each_view_once(
    server: ThreadServer, browser: Any
) -> None:
    """With its WebSocket open the page acts over it (``{"action": ID, "n": N}``), not over
    HTTP: the actor's new view comes once, pushed over the socket, never also as an HTTP
    answer."""
    import json

    page = new_page(browser)
    posted: list[str] = []
    page.on("request", lambda r: posted.append(r.url)
            if r.method == "POST" and r.url.endswith("/actions") else None)
    sent: list[Any] = []
    received: list[Any] = []

    def frames(ws: Any) -> None:
        ws.on("framesent", lambda payload: sent.append(json.loads(payload)))
        ws.on("framereceived", lambda payload: received.append(json.loads(payload)))

    page.on("websocket", frames)
    start_game(page, server.url, rules="rubicon")
    page.wait_for_selector("#conn.on")
    taken = {"exchange", "play", "declare", "summary"}  # no screenshots here

    def acted() -> list[Any]:
        return [m for m in sent if isinstance(m, dict) and "action" in m]

    # eight actions of this page's, counted as the page sent them: a look that clicked as
    # the computer's move redrew the table may have done nothing, or found the table moved
    # on by the computer's move alone
    for _ in range(60):
        if len(acted()) >= 8:
            break
        settle(page)
        one_move(page, taken)
    settle(page)
    actions = acted()
    assert len(actions) >= 8, (sent, posted)
    assert all(isinstance(m.get("n"), int) for m in actions)
    assert not posted, posted
    views = [m["view"]["n"] for m in received if isinstance(m, dict) and m.get("type") == "view"]
    after = [m["n"] + 1 for m in actions]
    assert all(views.count(n) <= 1 for n in after), (after, views)
    assert views == sorted(views), views  # never an older view after a newer one
    assert not page.errors


def test_the_page_acts_over_http_while_its_socket_is_not_open(
    server: ThreadServer, browser: Any
) -> None:
    """A socket that cannot stay open (closed as soon as it opens): the page acts over
    HTTP, and the answer is the new view."""
    page = new_page(browser)
    posted: list[str] = []
    page.on("request", lambda r: posted.append(r.url)
            if r.method == "POST" and r.url.endswith("/actions") else None)
    page.route_web_socket("**/api/games/*/ws", lambda ws: ws.close())
    start_game(page, server.url, rules="rubicon")
    taken = {"exchange", "play", "declare", "summary"}
    settle(page)
    n = n_of(page)
    one_move(page, taken)
    assert n_of(page) > n
    assert posted
    assert not page.errors


def _actions_posted(page: Any) -> list[Any]:
    posted: list[Any] = []
    page.on("request", lambda r: posted.append(r.post_data_json)
            if r.method == "POST" and r.url.endswith("/actions") else None)
    return posted


def _move_without_waiting(page: Any) -> None:
    """One move by clicking (cards chosen and Discard pressed at the exchange, a card
    played, or the first action button), not waiting for its answer."""
    settle(page)
    if page.is_visible("#hand.choosing") and page.is_visible("#discard"):
        cards = page.locator("#hand .card")
        i = 0
        while not page.is_enabled("#discard"):
            cards.nth(i).click(position=CARD_EDGE)
            i += 1
        page.click("#discard")
    elif page.query_selector("#hand .card.playable"):
        page.click("#hand .card.playable", position=CARD_EDGE)
    else:
        page.locator("#actions button:not([disabled]):not(#undo)").first.click()


def _until(page: Any, caught: list[Any]) -> None:
    """Wait until the test's socket route has caught the page's action."""
    for _ in range(6000):  # the route's callbacks run while the test waits on the page
        if caught:
            return
        page.wait_for_timeout(50)
    raise AssertionError("the page sent no action")


def _first_action_held(
    server: ThreadServer, browser: Any, on_held: Callable[[Any], None] | None = None
) -> tuple[Any, list[Any], dict[str, Any], int, Any]:
    """A game whose socket route holds back the page's first action (the server never hears
    it; ``on_held``, if given, is called with the page's side of the socket when it is
    caught), the page's first move made: the page, the actions it posted over HTTP, the
    action held back, the table's ``n`` when it was sent, and the socket that caught it."""
    import json

    page = new_page(browser)
    posted = _actions_posted(page)
    caught: list[Any] = []
    held_by: list[Any] = []

    def handler(ws: Any) -> None:
        server_side = ws.connect_to_server()

        def from_page(message: Any) -> None:
            data = json.loads(message)
            if "action" in data and not caught:
                caught.append(data)
                held_by.append(ws)
                if on_held is not None:
                    on_held(ws)
                return
            server_side.send(message)

        ws.on_message(from_page)
        server_side.on_message(ws.send)

    page.route_web_socket("**/api/games/*/ws", handler)
    start_game(page, server.url, rules="rubicon")
    page.wait_for_selector("#conn.on")
    settle(page)
    n = n_of(page)
    _move_without_waiting(page)
    _until(page, caught)
    return page, posted, caught[0], n, held_by[0]


def test_an_action_the_socket_leaves_unanswered_is_sent_over_http_once(
    server: ThreadServer, browser: Any
) -> None:
    """The page's action is lost on the way (the socket stays open, the server never hears
    it): the table stays busy, then sends the same action with the same ``n`` over HTTP,
    once, and the new view comes; nothing is applied twice."""
    page, posted, held, n, _ws = _first_action_held(server, browser)
    assert held["n"] == n
    # answered by the view past n, through HTTP (the socket never answers it)
    page.wait_for_function(f"Number(document.querySelector('#main').dataset.n) > {n}", polling=POLL)
    settle(page)
    # (naming the page's open socket: the view then comes once, in the answer)
    assert [{k: v for k, v in p.items() if k != "socket"} for p in posted] == [
        {"action": held["action"], "n": n}]
    assert isinstance(posted[0]["socket"], str)
    # applied once, at n
    log = server.app.state.piquet.store.actions(page.url.rsplit("/", 1)[1])
    assert [a.idx for a in log if a.action == held["action"]] == [n]
    assert not page.errors


def test_a_refusal_over_the_socket_is_said_and_frees_the_table(
    server: ThreadServer, browser: Any
) -> None:
    """An error that says it answers the page's action ends the wait: the words shown, the
    table free again, nothing sent over HTTP; an error that answers something else (it
    names no action) does not end it."""
    import json

    def answer_something_else(ws: Any) -> None:  # the test answers the action itself
        ws.send(json.dumps({"type": "error", "error": "Something else failed."}))

    page, posted, held, n, ws = _first_action_held(server, browser, answer_something_else)
    said = "document.querySelector('#toast').textContent.includes"
    page.wait_for_function(f"{said}('Something else failed')", polling=POLL)
    assert held["n"] == n
    assert page.get_attribute("#main", "data-busy") == "1"  # still waiting for its answer
    ws.send(json.dumps({"type": "error", "status": 422, "error": "Not that one.",
                                 "answers": {"action": held["action"], "n": n}}))
    page.wait_for_selector('#main[data-busy="0"]')
    page.wait_for_function(f"{said}('Not that one')", polling=POLL)
    assert n_of(page) == n and not posted
    # the table is free: the next move goes over the socket and is answered
    settle(page)
    one_move(page, {"exchange", "play", "declare", "summary"})
    assert n_of(page) > n and not posted
    assert not page.errors


def test_a_pointer_on_a_cards_lower_edge_leaves_it_still(
        server: ThreadServer, browser: Any) -> None:
    """A hovered card rises; the strip it rose from stays its own, so a pointer resting on
    its lower edge leaves it risen (it used to rise off the pointer, drop back under it and
    rise again, shaking for as long as the pointer stayed, and a click there never landed)."""
    page = new_page(browser)
    start_game(page, server.url)
    page.wait_for_selector("#hand.choosing button.card")
    card = page.locator("#hand.choosing button.card").last  # the last: not overlapped
    box = card.bounding_box()
    assert box is not None
    at = (box["x"] + box["width"] / 2, box["y"] + box["height"] - 2)
    # the card's top at each of 20 frames, and whether it was the same card throughout: a
    # view pushed over the socket may draw the table anew under the pointer (the card then
    # measures 0 once gone), and the new card is looked at the same way
    frames = """(n) => new Promise(done => {
         const el = [...document.querySelectorAll('#hand.choosing button.card')].pop();
         const tops = [];
         const look = () => { tops.push(el.getBoundingClientRect().top);
                              tops.length < n ? requestAnimationFrame(look)
                                              : done({ tops, kept: el.isConnected }); };
         requestAnimationFrame(look);
       })"""
    for _ in range(5):
        page.mouse.move(*at)
        page.wait_for_function(  # the rise (6 px, a transition of 0.15 s) done
            """(y) => [...document.querySelectorAll('#hand.choosing button.card')].pop()
                         .getBoundingClientRect().top <= y - 5.5""", arg=box["y"], polling=POLL)
        seen = page.evaluate(frames, 20)
        if seen["kept"]:
            break
    else:  # pragma: no cover
        raise AssertionError("the table was drawn anew at each of five looks")
    tops = seen["tops"]
    assert len(set(tops)) == 1, tops
    assert tops[0] < box["y"]  # risen, and staying so
    page.close()
