"""The lessons: every position deals, every marked term is in the glossary, every answer
the author wrote is the engine's, a wrong answer is refused, and a lesson shows only what
its seat may see."""

from __future__ import annotations

import pytest

from piquet.core.errors import ParseError
from piquet.core.rules import PRESETS
from piquet.core.view import deal_view, visible_mask
from piquet.learn.lesson import Ask, LessonError, Position, Question, marked_terms, plain
from piquet.learn.lessons import LESSONS, lesson

TOPICS = ("cards", "exchange", "point", "sequences", "sets", "showing", "pique", "play",
          "blanche", "game")


def test_the_lessons_cover_the_topics_and_each_historical_rule_set() -> None:
    keys = [x.key for x in LESSONS]
    assert keys[: len(TOPICS)] == list(TOPICS)
    historical = {x.rules for x in LESSONS[len(TOPICS):]}
    assert historical == {"cotgrave-1662", "du-coeur-1995", "court-gamester-1754",
                          "encyclopedia-19c"}
    assert all(x.rules in PRESETS for x in LESSONS)
    assert lesson("point").title == "The point"
    with pytest.raises(KeyError, match="the lessons are: cards, exchange"):
        lesson("nothing")


@pytest.mark.parametrize("key", [x.key for x in LESSONS])
def test_every_step_deals_and_every_answer_is_the_engines(key: str) -> None:
    found = lesson(key)
    assert found.questions, f"{key}: a lesson ends in exercises"
    assert found.steps[-1].question is not None or found.steps[-2].question is not None
    for step in found.steps:
        marked_terms(step.text)  # every mark names a glossary term
        assert "[[" not in plain(step.text)
        if step.position is not None:
            assert step.position.rules == found.rules or found.key == "showing"
            step.position.deal()
        q = step.question
        if q is None:
            continue
        checked = q.check(step.position, step.role, q.expected)
        assert checked.correct, (key, q.prompt, q.expected, checked.answer)
        assert checked.answer


def test_a_wrong_answer_is_refused_and_a_bad_one_says_how_to_answer() -> None:
    point = lesson("point")
    step = point.steps[1]
    q = step.question
    assert q is not None and q.ask is Ask.POINT
    wrong = q.check(step.position, step.role, "4")
    assert not wrong.correct and wrong.answer.startswith("point of five, making 47")
    with pytest.raises(ParseError, match="answer with one number"):
        q.check(step.position, step.role, "five or six")
    winner = point.steps[2].question
    assert winner is not None
    with pytest.raises(ParseError, match="answer elder, younger or neither"):
        winner.check(point.steps[2].position, point.steps[2].role, "me")
    assert not winner.check(point.steps[2].position, point.steps[2].role, "elder").correct


def test_the_making_of_a_point_is_judged_by_the_engine() -> None:
    """Both hold five cards: the pips decide (the 19th-century "making")."""
    step = lesson("point").steps[2]
    q = step.question
    assert q is not None
    value, words = q.answer(step.position, step.role)
    assert value == "younger" and "making 48 beats point of five, making 47" in words


def test_a_position_that_cannot_be_dealt_says_so() -> None:
    bad = Position("rubicon", elder="AS KS", younger="QS JS")
    with pytest.raises(LessonError, match="cannot be dealt"):
        bad.deal()
    with pytest.raises(LessonError, match="is not in the glossary"):
        marked_terms("a [[frobnicate]]")
    q = Question(Ask.PLAYABLE, "which?", "AS")
    with pytest.raises(LessonError, match="needs the seat to play"):
        q.answer(lesson("point").steps[1].position, lesson("point").steps[1].role)


def test_a_lesson_shows_only_what_its_seat_may_see() -> None:
    """The view a step shows is the engine's view of its seat: no card of the other's hand,
    discards or the unseen stock is in it."""
    for x in LESSONS:
        for step in x.steps:
            if step.position is None:
                continue
            d = step.position.deal()
            view = step.position.view(step.role)
            assert view == deal_view(d, step.role)
            shown = (view.hand.mask | view.discards.mask | view.stock_seen.mask
                     | view.opponent_shown.mask | view.opponent_played.mask)
            # (the oracle of the views: elder may have seen cards younger then took)
            assert shown & ~visible_mask(d, step.role) == 0
            hidden = d.hands[1 - step.role] & ~visible_mask(d, step.role)
            assert not shown & hidden
