"""Learning Piquet in the browser: the glossary, the lessons, the puzzles, the guided deal.

Transport only: every word and every judgement comes from :mod:`piquet.learn` (the
glossary, the lessons and their engine-checked questions, the puzzles and their judge,
the coach) and :mod:`piquet.learn.feedback`; nothing is judged in the page.

- ``GET /api/learn/glossary``: every term, and the forms the page marks as terms;
- ``GET /api/learn/lessons``, ``GET /api/learn/lessons/{key}``: the lessons, a lesson's
  steps (text in pieces, a term marked as such) with each position shown from its seat's
  view only; ``POST /api/learn/lessons/{key}/steps/{i}/check``: an answer checked by the
  engine;
- ``GET /api/learn/puzzles``: one puzzle by rule set, theme, difficulty and a number (the
  seat's view and the choices, never the answer); ``POST /api/learn/puzzles/{id}/answer``:
  the judge's verdict, with the margin and the explanation;
- ``POST /api/learn/guided``: a guided practice game (a kind opponent, hints on, the
  coach at your side: a flag kept in ``piquet_guided``); ``GET /api/games/{id}/coach``:
  the coach's words for the seat's own view; ``GET /api/games/{id}/feedback``: the words
  of the deal just finished (why each class was won, a declaration's count as a sum).

:data:`router` is the routes; the app includes it with one line.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Annotated, Any, Final

import sqlalchemy as sa
from anyio import to_thread
from fastapi import APIRouter, Query, Request
from fastapi import Path as PathParam
from pydantic import BaseModel, ConfigDict, Field

from piquet.core.actions import Action
from piquet.core.errors import ParseError, PiquetError
from piquet.core.match import Match, MatchView
from piquet.core.roles import Role
from piquet.core.rules import PRESETS, Format, get_rules
from piquet.jobs import Kind
from piquet.jobs.work import COACH_ADVICE, COACH_JUDGED
from piquet.learn import glossary as gl
from piquet.learn.coach import Coach, Note
from piquet.learn.feedback import deal_summary
from piquet.learn.lesson import Lesson, Step, pieces
from piquet.learn.lessons import LESSONS
from piquet.learn.puzzles import Difficulty, Puzzle, Theme, choose, load
from piquet.levels import LEVEL_NAMES
from piquet.table.errors import Refusal, TableError
from piquet.table.summary import TITLES
from piquet.web.games import Entry, Games
from piquet.web.ids import Creds, GameId, client_of, token_of
from piquet.web.practice import refusals
from piquet.web.server import Server, ServerOf

__all__ = ["GUIDED_OPPONENT", "Guidance", "guided_t", "router", "segments"]

GUIDED_OPPONENT: Final = "book"
"""The kind opponent of a guided deal: plays by the book's rules, thinks in no time."""
COACHES_HELD: Final = 512
"""Guided games whose coach (the terms it has explained) this process keeps in memory."""

_meta: Final = sa.MetaData()
guided_t: Final = sa.Table(
    "piquet_guided",
    _meta,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("level", sa.String(16), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
)


# ---------------------------------------------------------------------- words to JSON
def segments(text: str) -> list[dict[str, str]]:
    """A lesson's text in pieces: plain ``{"text"}``, or a marked term ``{"text", "term"}``
    (the term's key; the page explains it)."""
    return [{"text": words, "term": term.key} if term else {"text": words}
            for words, term in pieces(text)]


def term_json(t: gl.Term) -> dict[str, Any]:
    return {
        "key": t.key, "name": t.name, "definition": t.definition, "example": t.example,
        "see": list(t.see),
        "uses": [{"source": u.source_name, "how": u.how, "quote": u.quote} for u in t.uses],
    }


def glossary_json() -> dict[str, Any]:
    """The glossary, and the forms a page marks (folded: lower case, no accents; longest
    first, as :func:`piquet.learn.glossary.terms_in` reads them)."""
    return {"terms": [term_json(t) for t in gl.GLOSSARY.values()],
            "forms": [[f, k] for f, k in gl.scanned_forms()]}


def rules_title(name: str) -> str:
    return TITLES.get(name, name)


def view_json(view: Any) -> dict[str, Any]:
    """A seat's view of a deal (``DealView.to_json``), and whose view it is."""
    out: dict[str, Any] = view.to_json()
    return out


def step_json(lesson: Lesson, i: int, step: Step) -> dict[str, Any]:
    out: dict[str, Any] = {"index": i, "text": segments(step.text), "position": None,
                           "question": None}
    if step.position is not None:
        out["position"] = view_json(step.position.view(step.role))
        out["seat"] = "elder" if step.role == Role.ELDER else "younger"
    if step.question is not None:
        out["question"] = {"ask": step.question.ask.value, "prompt": step.question.prompt}
    return out


def lesson_head(lesson: Lesson) -> dict[str, Any]:
    return {"key": lesson.key, "title": lesson.title, "rules": lesson.rules,
            "rules_title": rules_title(lesson.rules), "summary": lesson.summary,
            "steps": len(lesson.steps), "questions": len(lesson.questions)}


def find_lesson(key: str) -> Lesson:
    for found in LESSONS:
        if found.key == key:
            return found
    raise TableError(Refusal.NOT_FOUND, f"no lesson {key!r}; the lessons are: "
                    + ", ".join(x.key for x in LESSONS))


def puzzle_json(p: Puzzle) -> dict[str, Any]:
    """What a puzzle shows before it is answered: the seat's view, the choices (in the
    order of their words), never which is best."""
    view = p.view()
    assert view.deal is not None
    return {
        "id": p.id, "rules": p.rules, "rules_title": rules_title(p.rules),
        "theme": p.theme.value, "theme_title": p.theme.title,
        "difficulty": p.difficulty.value,
        "view": view_json(view.deal),
        "choices": [{"n": i + 1, "id": str(a), "label": label}
                    for i, (a, label) in enumerate(p.shown())],
    }


def find_puzzle(pid: str) -> Puzzle:
    for p in load():
        if p.id == pid:
            return p
    raise TableError(Refusal.NOT_FOUND, f"no puzzle {pid!r}")


def note_json(note: Note, view: MatchView | None = None) -> dict[str, Any]:
    action = None
    if note.action is not None and view is not None and view.deal is not None:
        from piquet.learn.words import action_label

        action = {"id": str(note.action),
                  "label": action_label(note.action, view.deal.hand.mask, view.rule_set)}
    return {"title": note.title, "sentences": list(note.sentences),
            "terms": [{"key": t.key, "name": t.name, "definition": t.definition}
                      for t in note.terms],
            "action": action, "cost": note.cost}


# ---------------------------------------------------------------------- bodies
LessonKey = Annotated[str, PathParam(pattern=r"^[a-z0-9-]{1,40}$", description="A lesson's key.")]
PuzzleId = Annotated[
    str, PathParam(pattern=r"^[A-Za-z0-9_.:-]{1,64}$", description="A puzzle's id.")]


class AnswerIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    answer: str = Field(max_length=200, description="The learner's answer, as typed or chosen.")


class GuidedIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    rules: str = Field("rubicon", max_length=64, description="The rule set of the guided deal.",
                       json_schema_extra={"enum": list(PRESETS)})
    name: str | None = Field(None, max_length=100, description="Your name at the table.")


@dataclass
class _Guided:
    """A guided game's coach in this process: the terms it has explained, and at each
    position (the match's history length) where the seat was to act, its view and
    the coach's suggestion."""

    coach: Coach
    asked: dict[int, tuple[MatchView, Action | None, dict[str, Any]]]
    after: dict[tuple[int, str], dict[str, Any]]
    lock: threading.Lock
    judging: threading.Lock


class Guidance:
    """The guided games of one server: the coaches this process holds (the most recent
    :data:`COACHES_HELD`), and which games are guided (a cache of the database's
    ``piquet_guided``)."""

    def __init__(self) -> None:
        self.coaches: OrderedDict[str, _Guided] = OrderedDict()
        self.guided_ids: dict[str, str | None] = {}
        self.held = threading.Lock()

    def level(self, games: Games, game_id: str) -> str | None:
        """The level of a guided game (None: the game is not a guided one)."""
        if game_id in self.guided_ids:
            return self.guided_ids[game_id]
        with games.store.engine.connect() as conn:
            row = conn.execute(sa.select(guided_t.c.level)
                               .where(guided_t.c.game_id == game_id)).first()
        level = row.level if row is not None else None
        if len(self.guided_ids) > 4 * COACHES_HELD:
            self.guided_ids.clear()  # a cache of the answers, not the truth
        self.guided_ids[game_id] = level
        return level

    def guided(self, game_id: str) -> _Guided:
        """The coach of a guided game (made at its first word)."""
        with self.held:
            g = self.coaches.get(game_id)
            if g is None:
                g = self.coaches[game_id] = _Guided(
                    Coach(level="learner", seed=secrets.randbelow(10**6)), {}, {},
                    threading.Lock(), threading.Lock())
                while len(self.coaches) > COACHES_HELD:
                    self.coaches.popitem(last=False)
            self.coaches.move_to_end(game_id)
            return g


def guidance_of(state: Server) -> Guidance:
    """The server's guided games (made at the first request that needs them, in the
    event loop's thread)."""
    if state.guidance is None:
        state.guidance = Guidance()
    return state.guidance


async def run(fn: Any, *args: Any) -> Any:
    return await to_thread.run_sync(fn, *args)


router = APIRouter(tags=["learn"])
"""The routes of the module's text."""


# ------------------------------------------------------------------ glossary
@router.get("/api/learn/glossary", responses=refusals(),
            summary="Every period term, in plain words")
async def glossary() -> dict[str, Any]:
    """Each term: its name, a plain definition, an example, how each text uses it;
    ``forms``: the words a page marks as the term (folded, longest first)."""
    return glossary_json()


# ------------------------------------------------------------------ lessons
@router.get("/api/learn/lessons", responses=refusals(), summary="The lessons, in order")
async def lessons() -> dict[str, Any]:
    return {"lessons": [lesson_head(x) for x in LESSONS]}


@router.get("/api/learn/lessons/{key}", responses=refusals(404),
            summary="A lesson's steps and questions")
async def one_lesson(key: LessonKey) -> dict[str, Any]:
    """The steps: text in pieces (terms marked), a position from its seat's view only,
    a question's prompt (never its answer)."""
    found = find_lesson(key)

    def build() -> dict[str, Any]:
        out = lesson_head(found)
        out["step_list"] = [step_json(found, i, s) for i, s in enumerate(found.steps)]
        keys = [x.key for x in LESSONS]
        i = keys.index(found.key)
        out["next"] = keys[i + 1] if i + 1 < len(keys) else None
        return out

    return await run(build)  # type: ignore[no-any-return]


@router.post("/api/learn/lessons/{key}/steps/{index}/check", responses=refusals(404),
             summary="Check an answer to a lesson's question (the engine answers)")
async def check(key: LessonKey, index: Annotated[int, PathParam(ge=0, le=99)],
                body: AnswerIn) -> dict[str, Any]:
    """``correct`` and the engine's answer in words; 400 when the answer cannot be
    read (the error says how to answer)."""
    found = find_lesson(key)
    if not 0 <= index < len(found.steps) or found.steps[index].question is None:
        raise TableError(Refusal.NOT_FOUND,
                        f"step {index} of {key!r} asks nothing; the questions are at "
                        + ", ".join(str(i) for i, s in enumerate(found.steps)
                                    if s.question is not None))
    step = found.steps[index]
    q = step.question
    assert q is not None
    try:
        checked = await run(q.check, step.position, step.role, body.answer)
    except ParseError as exc:
        raise TableError(Refusal.UNREADABLE, str(exc)) from None
    return {"correct": checked.correct, "answer": checked.answer}


# ------------------------------------------------------------------ puzzles
@router.get("/api/learn/puzzles", responses=refusals(404),
            summary="One exercise: a position and its choices")
async def puzzle(
    rules: Annotated[str | None, Query(max_length=64)] = None,
    theme: Annotated[str | None, Query(max_length=16)] = None,
    difficulty: Annotated[str | None, Query(max_length=16)] = None,
    seed: Annotated[int | None, Query(ge=0, le=10**9)] = None,
) -> dict[str, Any]:
    """A puzzle fitting the filters, picked by ``seed`` (the stream's number); the
    themes and difficulties are listed with it."""
    try:
        p = choose(rules=rules or None, theme=theme or None,
                   difficulty=difficulty or None, seed=seed)
    except PiquetError as exc:
        raise TableError(Refusal.NOT_FOUND, str(exc)) from None
    out: dict[str, Any] = await run(puzzle_json, p)
    out["themes"] = [{"value": t.value, "title": t.title} for t in Theme]
    out["difficulties"] = [d.value for d in Difficulty]
    out["rule_sets"] = [{"name": n, "title": rules_title(n)} for n in PRESETS]
    return out


@router.post("/api/learn/puzzles/{pid}/answer", responses=refusals(404),
             summary="Answer an exercise: the judge's verdict")
async def answer(pid: PuzzleId, body: AnswerIn) -> dict[str, Any]:
    """Right or not, what the choice gives up against the best (points of the deal),
    the margin, and why."""
    p = find_puzzle(pid)

    def judge() -> dict[str, Any]:
        try:
            action = p.read(body.answer)
        except ParseError as exc:
            raise TableError(Refusal.UNREADABLE, str(exc)) from None
        v = p.verdict(action)
        return {"best": v.best, "cost": v.cost, "text": v.text,
                "best_choice": {"id": str(p.best), "label": p.labels()[0]},
                "margin": round(p.margin, 2), "worlds": p.worlds}

    return await run(judge)  # type: ignore[no-any-return]


# ------------------------------------------------------------------ the guided deal
@router.post("/api/learn/guided", status_code=201, responses=refusals(),
             summary="Start a guided deal: a kind opponent, hints on, the coach")
async def start_guided(body: GuidedIn, state: ServerOf) -> dict[str, Any]:
    """A practice game against the book (a kind opponent), hints on, one game of the
    rule set, with the coach at your side: its id and your seat's token."""
    try:
        r = get_rules(body.rules)
    except (KeyError, ValueError, PiquetError):
        raise TableError(Refusal.UNREADABLE, f"unknown rule set {body.rules!r}; choose "
                        + ", ".join(PRESETS)) from None
    fmt = Format.GAME.value if Format.GAME in r.formats else None
    created = await run(lambda: state.games.create(
        rules=body.rules, format=fmt, opponents=[GUIDED_OPPONENT], hints=True,
        name=body.name, levels=list(LEVEL_NAMES)))

    def mark() -> None:
        with state.games.store.engine.begin() as conn:
            conn.execute(guided_t.insert().values(
                game_id=created.id, level="learner", created_at=time.time()))

    await run(mark)
    guidance_of(state).guided_ids[created.id] = "learner"
    state.ai.kick(created.id)
    return {"id": created.id, "token": created.token, "seat": created.seat,
            "rules": body.rules, "rules_title": rules_title(body.rules), "invites": []}


async def coach_words(state: Server, entry: Entry, seat: int, part: str = "both",
                      client: str | None = None) -> dict[str, Any]:
    """The coach's note for the seat now (its own view only), and the word on its last
    choice if the coach had advised it (``part``: ``before``, ``after`` or both: the
    word on a choice plays deals out, so a page asks for it after the note).  What
    computes (the advisor's hint, the judging of a choice) runs as a hint's job."""
    m: Match = entry.live.match
    g = guidance_of(state).guided(entry.row.id)
    jobs = state.jobs
    out: dict[str, Any] = {"guided": True, "n": entry.n, "before": None, "after": None}
    at = len(m.history)  # the position (the log holds undos and the like too)
    if part != "after" and m.to_act == seat and not m.finished:
        if at not in g.asked:
            view = m.view(seat)
            advice = (await jobs.run(Kind.HINT, COACH_ADVICE, view, g.coach.level,
                                     state.hint_nodes, client=client)
                      if g.coach.needs_advice(view) else ("", None))
            with g.lock:
                if at not in g.asked:  # (another request may have asked meanwhile)
                    note = g.coach.before(view, advice)
                    g.asked[at] = (view, note.action, note_json(note, view))
        out["before"] = g.asked[at][2]
    # the seat's last action, if the coach advised on it: what it cost (deals played
    # out: a job of its own, so the next note does not wait for it)
    last = next((i for i in range(len(m.history) - 1, -1, -1)
                 if m.history[i][0] == seat), None)
    if part != "before" and last is not None and last in g.asked:
        chosen = m.history[last][1]
        key = (last, str(chosen))  # after an undo, another choice at the same place
        if key not in g.after:
            view, suggested, _before = g.asked[last]
            args = g.coach.judging(view, chosen, suggested)
            verdict = (await jobs.run(Kind.HINT, COACH_JUDGED, args, client=client)
                       if args is not None else None)
            with g.judging:
                if key not in g.after:
                    g.after[key] = note_json(g.coach.after(view, chosen, suggested,
                                                           verdict))
        out["after"] = g.after[key]
    return out


@router.get("/api/games/{game_id}/coach", responses=refusals(401, 404, 409),
            summary="The coach's words for your seat (a guided game)")
async def coach(
    request: Request,
    game_id: GameId,
    creds: Creds,
    state: ServerOf,
    part: Annotated[str, Query(pattern="^(before|after|both)$",
                               description="The note now, the word on your last "
                               "choice, or both.")] = "both",
) -> dict[str, Any]:
    """At your decision: what it is, what the coach would do and why, the terms met
    for the first time; after your choice: what it cost if it was weak.  From your
    seat's view only.  409 for a game that is not guided."""
    entry, seat = await run(state.games.authenticate, game_id, token_of(creds))
    if await run(guidance_of(state).level, state.games, game_id) is None:
        raise TableError(Refusal.NOT_NOW, "this game is not a guided one: the coach "
                        "sits by a guided deal (start one at /learn)")
    return await coach_words(state, entry, seat.seat, part, client_of(request))


@router.get("/api/games/{game_id}/feedback", responses=refusals(401, 404, 409),
            summary="The deal just finished, in words")
async def feedback(game_id: GameId, creds: Creds, state: ServerOf) -> dict[str, Any]:
    """Why each class was won, each declaration's count as the sum it is, the play:
    of the last deal finished, told to your seat (public facts only)."""
    entry, seat = await run(state.games.authenticate, game_id, token_of(creds))
    d = entry.live.last_deal
    if d is None:
        raise TableError(Refusal.NOT_NOW, "no deal has finished yet")

    def words() -> dict[str, Any]:
        m = entry.live.match
        summary = m.deals[-1] if m.deals else None
        players = summary.players if summary is not None else (0, 1)
        names = tuple("you" if p == seat.seat else entry.row.seats[p].name
                      for p in players)
        reader = Role(players.index(seat.seat)) if seat.seat in players else None
        lines = deal_summary(d.dialog, d.events, d.rules, reader=reader,
                             names=(names[0], names[1]))
        return {"deal": len(m.deals), "lines": lines}

    return await run(words)  # type: ignore[no-any-return]
