"""The lessons' progress follows the account from one browser to another (issue 38):
a lesson's step answered in one browser, logged in, is shown answered in a second browser
once the same account logs in there; without an account it stays in the first alone."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import POLL
from test_web_browser import DESKTOP, new_page
from test_web_kit import ThreadServer, chromium_available

pytestmark = [
    pytest.mark.skipif(not chromium_available(), reason="no Chromium"),
    # passwords hashed at Argon2id's least cost: these tests register and log in, they do
    # not test the hasher (conftest's cheap_passwords)
    pytest.mark.usefixtures("cheap_passwords"),
]

PASSWORD = "correct horse battery"


def _account(page: Any, url: str, path: str, name: str) -> None:
    """Register or log in through the page's own context (its cookies kept there)."""
    r = page.request.post(url + path, data={"name": name, "password": PASSWORD},
                          headers={"Content-Type": "application/json"})
    assert r.ok, r.text()


def test_a_lessons_progress_follows_the_account(server: ThreadServer, browser: Any) -> None:
    home = new_page(browser, DESKTOP)
    home.goto(server.url + "/")
    _account(home, server.url, "/api/account/register", "Lessonia")
    home.goto(server.url + "/learn/lessons/point")
    home.wait_for_selector("#lesson")
    home.click('button[data-answer="younger"]')
    home.wait_for_selector(".verdict.good")
    # kept with the account (the page sends it as it is answered)
    home.wait_for_function(
        "async () => { const r = await fetch('/api/account/progress');"
        " const p = (await r.json()).progress;"
        " return Object.keys(p.lessons.point || {}).length > 0; }", polling=POLL)
    # a second browser, logged out: nothing answered there
    other = new_page(browser, DESKTOP)
    other.goto(server.url + "/learn/lessons/point")
    other.wait_for_selector("#lesson")
    assert other.evaluate("localStorage.getItem('piquet.learn.lessons')") in (None, "{}")
    # logged in to the same account: the step is answered there too
    _account(other, server.url, "/api/account/login", "Lessonia")
    other.goto(server.url + "/learn")
    other.wait_for_selector("#lesson-point")
    done = other.evaluate("JSON.parse(localStorage.getItem('piquet.learn.lessons') || '{}')")
    assert list(done.get("point", {}).values()) == [True], done
    assert not home.errors and not other.errors, (home.errors, other.errors)
    home.context.close()
    other.context.close()
