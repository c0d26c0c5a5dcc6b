"""Playing people in the browser (issue 38): two accounts in two browser contexts play a
rated partie with clocks, the chat and a takeback, a third context watches it from the public list
of games in play; the ratings move as Glicko-2 says.  Playwright driving Debian's
Chromium; skipped when it is not installed."""

from __future__ import annotations

import time
from typing import Any

import pytest

from browserkit import felt_lightest, text_contrast
from conftest import PATIENCE, POLL
from piquet.analysis.ratings import NEW_PLAYER, rate_game
from test_web_browser import new_page, one_move, seat_of, settle
from test_web_kit import ThreadServer, chromium_available

pytestmark = [
    pytest.mark.skipif(not chromium_available(), reason="no Chromium"),
    # passwords hashed at Argon2id's least cost: these tests register and log in, they do
    # not test the hasher (conftest's cheap_passwords)
    pytest.mark.usefixtures("cheap_passwords"),
]

PASSWORD = "a long enough password"


def make_account(page: Any, url: str, name: str) -> None:
    page.goto(url + "/")
    page.wait_for_selector("#account-form")
    page.fill("#account-login-name", name)
    page.fill("#account-password", PASSWORD)
    page.click("#account-register")
    page.wait_for_selector("#account-name")
    assert page.inner_text("#account-name") == name


def mover_of(pages: list[Any]) -> Any | None:
    for p in pages:
        seat = seat_of(p)
        if seat["turn"] == "1" and not seat["summary"]:
            return p
    return None


def test_two_accounts_play_a_rated_partie_with_clocks_chat_a_takeback_a_third_watches(
    server: ThreadServer, browser: Any
) -> None:
    ada, bob, cyd = new_page(browser), new_page(browser), new_page(browser)
    make_account(ada, server.url, "Ada")
    make_account(bob, server.url, "Bob")
    # Ada offers a rated game to a friend
    ada.select_option("#rules", "rubicon")
    ada.check('input[name="format"][value="partie"]')
    ada.select_option("#opponent", "friend")
    ada.wait_for_selector("#rated-label:not([hidden])")
    ada.check("#rated")
    ada.select_option("#clock", "m10+5")
    ada.click("#start")
    ada.wait_for_url("**/play/*")
    ada.wait_for_selector("#invite .invite-link")
    link = ada.get_attribute("#invite .invite-link", "value")
    assert link
    bob.goto(link)
    bob.wait_for_selector("#rated-note")
    assert "you play as Bob" in bob.inner_text("#rated-note")
    bob.click("#join")
    bob.wait_for_url("**/play/*")
    for p in (ada, bob):
        p.wait_for_selector("#rated-line")
        assert "Rated partie" in p.inner_text("#rated-line")
        p.wait_for_selector("#clocks")
        assert "10 minutes each + 5 s a move" in p.inner_text("#clocks")
        assert "Ada: 10:00" in p.inner_text("#clocks")
    # a spectator finds the game in the public list and follows it
    cyd.goto(server.url + "/")
    cyd.wait_for_selector("#games-in-play .in-play a")
    assert "Ada" in cyd.inner_text("#games-in-play") and "Bob" in cyd.inner_text(
        "#games-in-play")
    cyd.click("#games-in-play .in-play a")
    cyd.wait_for_url("**/watch/*")
    cyd.wait_for_selector("#main[data-n]")
    # the chat: written as text, never as markup
    ada.fill("#chat-input", "Good luck! <img src=x onerror=alert(1)>")
    ada.click("#chat-send")
    bob.wait_for_selector("#chat-lines li.them")
    assert "<img src=x onerror=alert(1)>" in bob.inner_text("#chat-lines")
    assert bob.query_selector("#chat-lines img") is None
    assert "Good luck" not in cyd.content()  # spectators do not read the players' chat
    # a move, then a takeback asked and granted
    taken = {"exchange", "play", "declare", "summary"}
    mover = None
    deadline = time.monotonic() + PATIENCE / 1000  # fifty looks, 5 s, were too few at load
    while mover is None and time.monotonic() < deadline:
        mover = mover_of([ada, bob])
        if mover is None:
            ada.wait_for_timeout(100)
    assert mover is not None
    other = bob if mover is ada else ada
    settle(mover)
    before = mover.get_attribute("#main", "data-n")
    one_move(mover, taken)
    mover.wait_for_selector("#takeback-ask")
    # the offer reads on the felt: 4.5:1 or more against its lightest green
    assert text_contrast(mover, "#takeback-ask", against=felt_lightest(mover)) >= 4.5
    mover.click("#takeback-ask")
    mover.wait_for_selector("#takeback-waiting")
    other.wait_for_selector("#takeback-asked")
    other.click("#takeback-yes")
    mover.wait_for_selector('#main[data-turn="1"]')
    assert int(mover.get_attribute("#main", "data-n") or 0) > int(before or 0)
    # Bob resigns: the game ends and both ratings move
    bob.click("#btn-resign")
    bob.click("#resign-yes")
    for p in (ada, bob):
        p.wait_for_selector("#finished")
        p.wait_for_function("document.querySelector('#rated-line') && "
                            "document.querySelector('#rated-line').textContent.includes('→')",
                            polling=POLL)
    won, lost = rate_game(NEW_PLAYER, NEW_PLAYER, first_score=1)
    line = ada.inner_text("#rated-line")
    assert f"Ada 1500 → {round(won.rating)}" in line and f"Bob 1500 → {round(lost.rating)}" in line
    ada.goto(server.url + "/")
    ada.wait_for_selector("#account-ratings")
    assert f"a partie: {round(won.rating)}" in ada.inner_text("#account-ratings")
    for p in (ada, bob, cyd):
        assert not p.errors, p.errors


def test_a_login_asks_before_keeping_this_browsers_games_in_the_account(
    server: ThreadServer, browser: Any
) -> None:
    """A shared computer: the games played in this browser before a login are put in the
    account only if the person says so; "Leave it out" keeps them out (they stay in the
    browser's own list), and a later login asks again; the account's games leave the
    browser at logout."""
    page = new_page(browser)
    page.goto(server.url + "/")
    page.wait_for_selector("#start")
    # (where opponents are chosen, each computer's rating on the players' scale)
    from piquet.levels.scale import level_rating

    game, partie = level_rating("toby", "game"), level_rating("toby", "partie")
    assert game is not None and partie is not None
    page.select_option("#opponent", "toby")
    note = page.inner_text("#opponent-note")
    assert f"Its rating: {round(game.rating)} at a game, {round(partie.rating)} at a partie" in (
        note) and "a new account starts at 1500" in note
    label = page.inner_text('#opponent option[value="toby"]')
    assert label.endswith(f"rated {round(game.rating)}")
    page.select_option("#opponent", "random")
    page.click("#start")
    page.wait_for_url("**/play/*")
    played = page.url.rsplit("/", 1)[1]
    page.goto(server.url + "/")
    page.wait_for_selector(f'.games-list tr[data-game="{played}"]')
    # registering: asked, in plain words; "leave it out" keeps it out of the account
    page.fill("#account-login-name", "Ann")
    page.fill("#account-password", PASSWORD)
    page.click("#account-register")
    page.wait_for_selector("#adopt-words")
    assert "Keep the game played in this browser in your account?" in page.inner_text(
        "#modal-title")
    assert "One game was played in this browser before you logged in as Ann" in (
        page.inner_text("#adopt-words"))
    page.click("#adopt-no")
    page.wait_for_selector("#account-name")
    page.wait_for_selector("#my-games p.muted")
    assert page.locator(f'.games-list tr[data-game="{played}"]').count() == 0
    assert page.evaluate("async () => (await (await fetch('/api/me/games')).json())"
                         ".games.length") == 0
    # logged out, it is this browser's again; the next login asks again, and a yes keeps it
    page.click("#logout")
    page.wait_for_selector(f'.games-list tr[data-game="{played}"]')
    page.fill("#account-login-name", "Ann")
    page.fill("#account-password", PASSWORD)
    page.click("#account-login")
    page.wait_for_selector("#adopt-yes")
    page.click("#adopt-yes")
    page.wait_for_selector(f'.games-list tr[data-game="{played}"]')
    # the row was in this browser's list already: the account has the game once the
    # page's request to keep it is answered, which the row does not wait for
    deadline = time.monotonic() + PATIENCE / 1000
    while True:
        ids = page.evaluate("async () => (await (await fetch('/api/me/games')).json())"
                            ".games.map((g) => g.id)")
        if ids or time.monotonic() > deadline:
            break
        page.wait_for_timeout(100)
    assert ids == [played]
    # logged out, the account's game leaves this browser (the next person at a shared
    # computer does not find it); logged in again, it is there and nothing is asked
    page.click("#logout")
    page.wait_for_selector("#account-login")
    page.wait_for_selector("#my-games p.muted")
    assert page.locator(f'.games-list tr[data-game="{played}"]').count() == 0
    assert page.evaluate("() => Object.keys(JSON.parse(localStorage.getItem('piquet.games') "
                         "|| '{}'))") == []
    page.fill("#account-login-name", "Ann")
    page.fill("#account-password", PASSWORD)
    page.click("#account-login")
    page.wait_for_selector("#account-name")
    page.wait_for_selector(f'.games-list tr[data-game="{played}"]')
    assert page.is_hidden("#adopt-words") or page.locator("#adopt-words").count() == 0
    assert page.errors == []


def test_a_seek_with_a_clock_is_accepted_from_the_lobbys_open_challenges(
    server: ThreadServer, browser: Any
) -> None:
    """Ada seeks a rated partie with a day a move; Bob finds it among the open challenges,
    marked rated with its clock, and accepts it: both are at the table of the rated game,
    its clock a day a move."""
    ada, bob = new_page(browser), new_page(browser)
    make_account(ada, server.url, "Ada2")
    ada.wait_for_selector("#seek-form")
    ada.select_option("#seek-rules", "rubicon")
    ada.select_option("#seek-format", "partie")
    ada.select_option("#seek-range", "")
    ada.select_option("#seek-clock", "d1")
    ada.click("#seek-go")
    ada.wait_for_selector("#seek-waiting")
    make_account(bob, server.url, "Bob2")
    row = bob.locator('#challenges [data-challenge]:has-text("Ada2")')
    row.wait_for()
    words = row.inner_text()
    assert "rated" in words and "clock: 1 day a move" in words and "casual" not in words
    row.locator("button.accept").click()
    bob.wait_for_url("**/play/*")
    ada.wait_for_url("**/play/*")
    assert ada.url.rsplit("/", 1)[1] == bob.url.rsplit("/", 1)[1]
    for p in (ada, bob):
        p.wait_for_selector("#rated-line")
        assert "Rated partie" in p.inner_text("#rated-line")
        p.wait_for_selector("#clocks")
        assert "1 day a move" in p.inner_text("#clocks")
    for p in (ada, bob):
        assert not p.errors, p.errors
