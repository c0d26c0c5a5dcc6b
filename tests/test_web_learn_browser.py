"""A newcomer learns Piquet in a real browser (Playwright driving Debian's Chromium).

From the home page: the welcome ("Have you played Piquet?"), the newcomer's defaults, the
guided first deal played to its end with the coach at each decision, the last trick kept
on the table, the summary that says why; a lesson with its exercise checked by the
engine; a puzzle judged on the server; then a whole deal alone, from the home page to its
summary; at desktop size and at phone size.  At each page
the words shown are read: every glossary term shown is marked (an ``abbr.term`` with its
definition, or the title of the button it is on).  The screenshots docs/learn.md shows are
taken into ``$PIQUET_SCREENSHOTS`` when ``scripts/screenshots`` asks for them.
"""

from __future__ import annotations

from typing import Any

import pytest

from conftest import POLL
from piquet.learn.glossary import GLOSSARY, terms_in
from test_web_browser import _SHOWN, CARD_EDGE, DESKTOP, PHONE, new_page, ready, shot
from test_web_kit import chromium_available

pytestmark = pytest.mark.skipif(not chromium_available(), reason="no Chromium")

# the text a person reads: visible text nodes, not inside a marked term, nor on a button
# (a button's terms are in its title), a form's control, a card's picture; with the page's
# whole text and the terms marked on it, all in one look (one call to the browser, and one
# moment: the page is not drawn anew between two of the looks)
_UNMARKED = """() => {
  const skip = "abbr.term, button, select, option, input, textarea, kbd, script, style, " +
    "svg, .no-terms, #toast";
  const out = [];
  const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = w.nextNode(); n; n = w.nextNode()) {
    const p = n.parentElement;
    if (!p || p.closest(skip) || !n.data.trim()) continue;
    if (!p.getClientRects().length || getComputedStyle(p).visibility === "hidden") continue;
    out.push(n.data);
  }
  const buttons = [...document.querySelectorAll("button")].filter((b) =>
    b.getClientRects().length && !b.closest(".no-terms"))
    .map((b) => [b.innerText, b.dataset.terms || ""]);
  const marks = [...document.querySelectorAll("abbr.term")].map((a) => a.dataset.term);
  return { texts: out, buttons, marks, body: document.body.innerText };
}"""


def no_unexplained_term(page: Any, where: str) -> int:
    """Every glossary term on the page is marked; returns how many marks there are."""
    page.wait_for_function("() => !document.querySelector('.loading')", polling=POLL)
    seen = page.evaluate(_UNMARKED)
    assert "[object " not in seen["body"], where  # no value shown as code
    for text in seen["texts"]:
        left = [t.key for t in terms_in(text)]
        assert not left, f"{where}: {left} shown unmarked in {text!r}"
    for text, marked in seen["buttons"]:
        want = {t.key for t in terms_in(text)}
        assert want <= set(marked.split()), f"{where}: button {text!r} lacks {want}"
    marks = seen["marks"]
    assert set(marks) <= set(GLOSSARY)
    return len(marks)


def welcome(page: Any, url: str, size: str) -> None:
    page.goto(url + "/")
    page.wait_for_selector("#welcome-new")
    assert "Have you played Piquet?" in page.inner_text("#welcome")
    shot(page, f"learn-welcome-{size}")
    page.click("#welcome-new")
    page.wait_for_selector("#learn-link")
    # a newcomer's defaults: today's game by its title, a kind opponent, hints on
    assert page.eval_on_selector("#rules", "e => e.selectedOptions[0].textContent") \
        .startswith("Rubicon Piquet")
    assert page.input_value("#opponent") == "adaptive"
    assert page.is_checked("#hints")
    assert page.evaluate("localStorage.getItem('piquet.level')") == "learner"
    no_unexplained_term(page, "home")
    # remembered: the welcome is not asked again
    page.reload()
    page.wait_for_selector("#learn-link")
    assert not page.is_visible("#welcome-new")
    assert page.is_visible("#welcome-expert")  # the expert one click away


# What a newcomer's table shows, in one look at the page (one call to the browser, and one
# moment: the table is not drawn anew between two of the looks)
_LOOK = f"""() => {{
  const shown = {_SHOWN};
  const main = document.querySelector("#main");
  return {{
    summaryContinue: shown("#summary-continue"), summaryOk: shown("#summary-ok"),
    finished: shown("#finished"), choosing: shown("#hand.choosing") && shown("#discard"),
    playable: !!document.querySelector("#hand .card.playable"),
    n: Number(main && main.dataset.n || -1), phase: main ? main.dataset.phase ?? null : null,
  }};
}}"""


def look(page: Any) -> dict[str, Any]:
    return dict(page.evaluate(_LOOK))


def decide(page: Any, seen: dict[str, Any] | None = None) -> str:
    """One decision of the guided deal, by clicking; what was done (``seen``: the
    :func:`look` at the page just taken, if any)."""
    seen = seen or look(page)
    if seen["summaryContinue"]:
        return "continue"
    if seen["choosing"]:
        cards = page.locator("#hand .card")
        for i in range(cards.count()):
            if page.is_enabled("#discard") and i >= 2:
                break
            was_ok = page.is_enabled("#discard")
            cards.nth(i).click(position=CARD_EDGE)
            if was_ok and not page.is_enabled("#discard"):
                cards.nth(i).click(position=CARD_EDGE)
                break
        page.click("#discard")
        return "discard"
    if seen["playable"]:
        page.click("#hand .card.playable", position=CARD_EDGE)
        return "play"
    # a locator, not an element handle: the page may draw the actions again (the coach's
    # note arriving) between finding the button and clicking it
    buttons = page.locator("#actions button:not([disabled]):not(#undo)")
    assert buttons.count(), "nothing to click"
    buttons.first.click()
    return "act"


def hint_shows_it_thinks(page: Any) -> None:
    """A click on Hint says "thinking" in the same turn of the page (well within 100 ms),
    the button disabled; clicked again meanwhile, no second request is sent."""
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/hint" in r.url else None)
    said = page.evaluate("""() => {
      const b = document.querySelector('#btn-hint');
      b.click();
      const now = document.querySelector('#btn-hint');
      const out = [now.textContent, now.disabled, !!document.querySelector('#hint-thinking')];
      now.click();
      return out;
    }""")
    assert said == ["Thinking…", True, True]
    page.wait_for_selector("#hint, #declare-hint")
    assert len(asked) == 1, asked


def guided_deal(page: Any, size: str, *, coach_every: int) -> None:
    page.click("#learn-link")
    page.wait_for_selector("#guided-start")
    no_unexplained_term(page, "learn")
    shot(page, f"learn-home-{size}")
    page.click("#guided-start")
    page.wait_for_url("**/play/*")
    decisions = 0
    explained: set[str] = set()
    for _ in range(120):
        ready(page, "#summary-continue, #finished, #hand.choosing, #hand .card.playable, "
                    "#actions button:not([disabled]):not(#undo)")
        seen = look(page)
        if seen["summaryContinue"]:
            break
        if decisions % coach_every == 0:
            # the coach at the decision: what it is, what it would do, new terms explained
            page.wait_for_selector("#coach-before")
            said = page.inner_text("#coach-before")
            assert said.strip()
            terms = page.eval_on_selector_all(".coach-terms dt abbr.term",
                                              "l => l.map((a) => a.dataset.term)")
            assert not explained & set(terms), "a term explained twice"
            explained |= set(terms)
            if decisions == 2:
                # the word on the last choice: what it was, and what it cost if weak
                page.wait_for_selector("#coach-after, #coach .coach-after-ok")
                word = page.inner_text("#coach-after, #coach .coach-after-ok")
                assert word.startswith(("You chose", "What it cost")), word
            if decisions == 0:
                assert "You are " in said
                hint_shows_it_thinks(page)
                shot(page, f"learn-coach-{size}")
                no_unexplained_term(page, "the guided deal")
            seen = look(page)  # the coach's words came meanwhile: the table drawn anew
        # the coach's panel settled (its note and its word on the last choice in): a word
        # arriving during a click moves the actions and the hand below it, and the click
        # lands beside them (seen once in CI: the table waited 300 s for a move never made)
        page.wait_for_function(
            "() => !document.querySelector("
            "'#coach-thinking, #coach-judging, #coach[data-judging=\"1\"]')", polling=POLL)
        seen = look(page)
        n = seen["n"]
        decide(page, seen)
        page.wait_for_function(f"() => Number(document.querySelector('#main').dataset.n) > {n}"
                               " || !!document.querySelector('#summary-continue')", polling=POLL)
        decisions += 1
    assert explained, "the coach explained no term"
    # the deal's end: the last trick stays on the table, then the summary says why
    page.wait_for_selector("#last-trick-pause .card")
    shot(page, f"learn-last-trick-{size}")
    page.click("#summary-continue")
    page.wait_for_selector("#summary-words li")
    words = page.inner_text("#summary-words")
    assert any(w in words for w in ("won the", "stood", "declared no", "Nobody declared",
                                     "counted"))
    shot(page, f"learn-summary-{size}")
    no_unexplained_term(page, "the deal's summary")
    page.click("#summary-ok")


def lesson_and_puzzle(page: Any, url: str, size: str) -> None:
    page.goto(url + "/learn")
    page.wait_for_selector("#lesson-point")
    page.click("#lesson-point")
    page.wait_for_selector("#lesson")
    no_unexplained_term(page, "a lesson")
    # the exercise: a wrong answer, then the right one, both judged by the engine
    page.click('button[data-answer="elder"]')
    page.wait_for_selector(".verdict.bad")
    page.click('button[data-answer="younger"]')
    page.wait_for_selector(".verdict.good")
    assert "younger" in page.inner_text(".verdict.good")
    form = page.locator(".answer-form").first
    form.locator("input").fill("5")
    form.locator("button").click()
    page.wait_for_selector(".question .verdict.good >> nth=1")
    shot(page, f"learn-lesson-{size}")
    done = page.evaluate("JSON.parse(localStorage.getItem('piquet.learn.lessons'))")
    assert len(done["point"]) >= 2  # progress kept in the browser
    # a puzzle: answered, judged on the server, the margin and the why shown after
    page.goto(url + "/learn/puzzles")
    page.wait_for_selector("#puzzle-choices button")
    no_unexplained_term(page, "a puzzle")
    assert not page.is_visible("#puzzle-verdict p")
    page.keyboard.press("1")  # keys 1-9 choose, as at the table
    page.wait_for_selector("#puzzle-next:not([hidden])")
    verdict = page.inner_text("#puzzle-verdict")
    assert "points of the deal" in verdict and "Best:" in verdict
    shot(page, f"learn-puzzle-{size}")
    no_unexplained_term(page, "a puzzle's verdict")
    assert page.evaluate("Object.keys(JSON.parse(localStorage.getItem("
                         "'piquet.learn.puzzles'))).length") == 1
    page.goto(url + "/learn/glossary")
    page.wait_for_selector("#glossary dt")
    assert page.locator("#glossary dt").count() == len(GLOSSARY)
    page.fill("#glossary-filter", "elder")
    assert "did not deal" in page.inner_text("#glossary")
    shot(page, f"learn-glossary-{size}")


def every_lesson(page: Any, url: str) -> None:
    """Through the lessons as a person goes, from the first by "Next lesson" to the
    puzzles: each one's words read, each ending in exercises."""
    from piquet.learn.lessons import LESSONS

    page.goto(url + f"/learn/lessons/{LESSONS[0].key}")
    seen = []
    for _ in range(len(LESSONS)):
        page.wait_for_selector("#lesson .question")
        seen.append(page.url.rsplit("/", 1)[1])
        no_unexplained_term(page, f"the lesson {seen[-1]}")
        # the lesson ends in an exercise: the last step, or the one before
        assert page.locator("#lesson article.step").last.locator(".question").count() \
            or page.locator("#lesson article.step").nth(-2).locator(".question").count()
        page.click("#next-lesson")
        page.wait_for_url(lambda u, last=seen[-1]: not u.endswith("/" + last))
    assert seen == [x.key for x in LESSONS]
    assert page.url.endswith("/learn/puzzles")


def a_deal_alone(page: Any, url: str, *, check_every: int) -> None:
    """After the lessons, a whole deal alone: a new game from the home page with the
    newcomer's defaults (no coach), played by clicking to the deal's summary, the words on
    the table read at every ``check_every``-th decision and on the summary."""
    page.goto(url + "/")
    page.wait_for_selector("#start")
    assert not page.is_visible("#welcome-new")  # the choice remembered
    page.click("#start")
    page.wait_for_url("**/play/*")
    page.wait_for_selector("#main[data-n]")
    assert not page.query_selector("#coach")  # alone: no coach at the side
    decisions = 0
    paused = False
    for _ in range(200):
        ready(page, "#summary-continue, #summary-ok, #finished, #hand.choosing, "
                    "#hand .card.playable, #actions button:not([disabled]):not(#undo)")
        seen = look(page)
        if seen["summaryOk"] or seen["finished"]:
            break
        if seen["summaryContinue"]:
            paused = True
            no_unexplained_term(page, "alone: the last trick")
            page.click("#summary-continue")
            page.wait_for_selector("#summary-ok, #finished")
            continue
        if decisions % check_every == 0:
            no_unexplained_term(page, f"alone: decision {decisions} ({seen['phase']})")
        n = seen["n"]
        decide(page, seen)
        page.wait_for_function(
            f"() => Number(document.querySelector('#main').dataset.n) > {n}"
            " || !!document.querySelector('#summary-continue, #summary-ok, #finished')",
            polling=POLL)
        decisions += 1
    else:  # pragma: no cover
        raise AssertionError("the deal did not end")
    assert decisions >= 12  # the exchange, the declarations, twelve cards at least
    if page.is_visible("#summary-ok"):
        assert paused, "the last trick was not shown before the summary"
        page.wait_for_selector("#summary-words li")
        no_unexplained_term(page, "alone: the deal's summary")
    else:  # a game won within the deal (a repique and capot): its end is read instead
        no_unexplained_term(page, "alone: the game's end")


def test_a_newcomer_learns_at_desktop_size(server: Any, browser: Any) -> None:
    page = new_page(browser, DESKTOP)
    welcome(page, server.url, "desktop")
    guided_deal(page, "desktop", coach_every=1)
    lesson_and_puzzle(page, server.url, "desktop")
    every_lesson(page, server.url)
    a_deal_alone(page, server.url, check_every=1)
    # a term is keyboard accessible: Tab reaches it and its definition shows
    page.goto(server.url + "/learn/lessons/cards")
    page.wait_for_selector("abbr.term")
    page.keyboard.press("Tab")
    for _ in range(40):  # Tab reaches a term, and its definition shows
        if page.evaluate("document.activeElement.matches('abbr.term')"):
            break
        page.keyboard.press("Tab")
    shown = page.evaluate("getComputedStyle(document.activeElement, '::after').content")
    key = page.evaluate("document.activeElement.dataset.term")
    assert GLOSSARY[key].definition[:40] in shown
    assert page.errors == []


def test_a_newcomer_learns_at_phone_size(server: Any, browser: Any) -> None:
    page = new_page(browser, PHONE)
    welcome(page, server.url, "phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    guided_deal(page, "phone", coach_every=4)
    lesson_and_puzzle(page, server.url, "phone")
    every_lesson(page, server.url)
    a_deal_alone(page, server.url, check_every=3)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.errors == []


def test_the_coach_asks_again_when_the_server_is_busy(server: Any, browser: Any) -> None:
    """The coach's note refused as too many requests (a busy server: the page's hint and
    the word on the last choice still being worked out) is asked again a little later,
    "thinking" meanwhile, and then shown; it was left as an error for the whole position."""
    page = new_page(browser, DESKTOP)
    page.goto(server.url + "/")
    page.wait_for_selector("#welcome-new")
    page.click("#welcome-new")
    refused: list[str] = []

    def busy(route: Any) -> None:
        if "part=before" in route.request.url and not refused:
            refused.append(route.request.url)
            route.fulfill(status=429, headers={"Retry-After": "1"}, content_type=
                          "application/json", body='{"error": "too many requests: wait"}')
        else:
            route.continue_()

    page.route("**/coach*", busy)
    page.click("#learn-link")
    page.wait_for_selector("#guided-start")
    page.click("#guided-start")
    page.wait_for_url("**/play/*")
    page.wait_for_selector("#coach-before, #coach .error")
    assert not page.query_selector("#coach .error"), page.inner_text("#coach")
    assert refused, "the note was not refused"
    assert page.inner_text("#coach-before").strip()
    assert page.errors == []


def test_the_experts_settings_are_one_click_away(server: Any, browser: Any) -> None:
    """The welcome's other answer: "Yes: I know the game" sets the expert's defaults (the
    default opponent, hints off), remembered; the newcomer's settings one click back."""
    page = new_page(browser, DESKTOP)
    opts = page.request.get(server.url + "/api/options").json()
    page.goto(server.url + "/")
    page.wait_for_selector("#welcome-expert")
    page.click("#welcome-expert")
    page.wait_for_selector("#welcome-new")  # now the link back to the newcomer's settings
    assert page.evaluate("localStorage.getItem('piquet.level')") == "expert"
    assert page.input_value("#opponent") == opts["default_level"]
    assert page.input_value("#rules") == opts["default_rules"]
    assert not page.is_checked("#hints")
    page.reload()
    page.wait_for_selector("#welcome-new")
    assert "Have you played Piquet?" not in page.inner_text("#welcome")  # remembered
    page.click("#welcome-new")
    page.wait_for_selector("#learn-link")
    assert page.input_value("#opponent") == "adaptive" and page.is_checked("#hints")
    page.click("#welcome-expert")  # and the expert's again, in one click
    page.wait_for_function("localStorage.getItem('piquet.level') === 'expert'", polling=POLL)
    assert not page.is_checked("#hints")
    assert page.errors == []
    page.context.close()


def test_a_hint_for_a_position_gone_by_is_dropped(server: Any, browser: Any) -> None:
    """A hint asked, then a move made before it came: the answer (held back here until the
    move is made) is not shown for the new position, the button is free again, and a hint
    asked there is a new request of its own."""
    page = new_page(browser, DESKTOP)
    page.goto(server.url + "/")
    page.wait_for_selector("#welcome-new")
    page.click("#welcome-new")  # hints on
    page.select_option("#opponent", "random")
    page.click("#start")
    page.wait_for_url("**/play/*")
    held: list[Any] = []
    page.route("**/hint*", lambda route: held.append(route))
    page.wait_for_selector("#btn-hint:not([disabled])")
    n = int(page.get_attribute("#main", "data-n") or -1)
    with page.expect_request("**/hint*"):
        page.click("#btn-hint")
    page.wait_for_selector("#hint-thinking")
    page.wait_for_function("() => document.querySelector('#btn-hint').disabled", polling=POLL)
    # the move, while the hint is still on its way
    decide(page)
    page.wait_for_function(f"() => Number(document.querySelector('#main').dataset.n) > {n}",
                           polling=POLL)
    page.wait_for_selector('#main[data-busy="0"]')
    assert not page.query_selector("#hint-thinking")
    assert len(held) == 1
    with page.expect_response("**/hint*"):
        held.pop().continue_()
    page.wait_for_selector('#main[data-busy="0"]')
    assert not page.query_selector("#hint, #declare-hint")  # dropped: a position gone by
    page.unroute("**/hint*")
    # at this seat's next decision a hint is asked again, and answered
    page.wait_for_selector("#btn-hint:not([disabled])")
    assert page.inner_text("#btn-hint") == "Hint"
    page.click("#btn-hint")
    page.wait_for_selector("#hint, #declare-hint")
    assert page.errors == []
    page.context.close()
