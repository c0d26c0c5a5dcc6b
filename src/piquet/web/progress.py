"""A learner's progress kept with the account (issue 38): the lessons' answered steps, the
puzzles tried and the level chosen at the welcome, on every device the account logs in on.

Without an account the page keeps them in the browser alone (``localStorage``), as before.
Logged in, the page sends what it holds and gets back the union of it and what the
account kept (:func:`merge`): a step answered on one device stays answered on every
other, and nothing is ever lost by syncing.  The account's deletion deletes it.

- ``GET /api/account/progress``: ``{"progress": {...}}`` (401 when not logged in);
- ``POST /api/account/progress`` ``{"progress": {...}}``: merged, then the whole answered.

What is kept is checked, not trusted: ``lessons`` maps a lesson's key to the indices of
its answered steps, ``puzzles`` a puzzle's id to ``{"best": bool, "cost": number}``,
``level`` is ``"learner"`` or ``"expert"``; anything else is refused (400, saying what is
allowed; nothing kept).
"""

from __future__ import annotations

import functools
import json
import math
import re
import time
from collections.abc import Callable
from typing import Any, Final

import sqlalchemy as sa
from anyio import to_thread
from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from piquet.table.errors import Refusal, TableError
from piquet.web.accounts import ACCOUNT_COOKIE, Account, account_of
from piquet.web.practice import refusals
from piquet.web.server import Server, ServerOf

__all__ = ["ProgressError", "merge", "router", "progress_t", "valid_progress"]

MAX_ENTRIES: Final = 500
"""The most lessons, or puzzles, one account keeps."""

_KEY: Final = re.compile(r"[A-Za-z0-9_.:-]{1,64}")
_LEVELS: Final = ("learner", "expert")

_meta: Final = sa.MetaData()
progress_t: Final = sa.Table(
    "piquet_progress",
    _meta,
    sa.Column("account_id", sa.String(32), primary_key=True),
    sa.Column("data", sa.Text, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
)


class ProgressError(ValueError):
    """Progress that is not of the kept form; the message says what is allowed."""


def valid_progress(data: Any) -> dict[str, Any]:
    """``data`` as kept (the known parts, each checked), or :class:`ProgressError`."""
    if not isinstance(data, dict):
        raise ProgressError("progress is an object with lessons, puzzles and level")
    unknown = sorted(set(data) - {"lessons", "puzzles", "level"})
    if unknown:
        raise ProgressError(f"progress has lessons, puzzles and level, not {unknown[0]!r}")
    out: dict[str, Any] = {"lessons": {}, "puzzles": {}}
    lessons = data.get("lessons", {})
    puzzles = data.get("puzzles", {})
    if not isinstance(lessons, dict) or not isinstance(puzzles, dict):
        raise ProgressError("lessons and puzzles are objects keyed by a lesson's key or a "
                            "puzzle's id")
    if len(lessons) > MAX_ENTRIES or len(puzzles) > MAX_ENTRIES:
        raise ProgressError(f"at most {MAX_ENTRIES} lessons and {MAX_ENTRIES} puzzles")
    for key, steps in lessons.items():
        if not _KEY.fullmatch(key):
            raise ProgressError(f"a lesson's key is 1 to 64 letters, digits or -_.:, "
                                f"not {key[:70]!r}")
        if not isinstance(steps, dict) or len(steps) > 100 or not all(
                s.isdigit() and len(s) <= 3 and v is True for s, v in steps.items()):
            raise ProgressError(f"lesson {key!r}: its answered steps are "
                                f'{{"0": true, "3": true, ...}}')
        out["lessons"][key] = {s: True for s in steps}
    for key, tried in puzzles.items():
        if not _KEY.fullmatch(key):
            raise ProgressError(f"a puzzle's id is 1 to 64 letters, digits or -_.:, "
                                f"not {key[:70]!r}")
        if (not isinstance(tried, dict) or set(tried) - {"best", "cost"}
                or not isinstance(tried.get("best"), bool)
                or not _number(tried.get("cost"))):
            raise ProgressError(f'puzzle {key!r}: tried as {{"best": true or false, '
                                f'"cost": a number}}')
        out["puzzles"][key] = {"best": tried["best"], "cost": float(tried["cost"])}
    level = data.get("level")
    if level is not None:
        if level not in _LEVELS:
            raise ProgressError(f"level is learner or expert, not {str(level)[:20]!r}")
        out["level"] = level
    return out


def _number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) \
        and abs(v) < 1e6


def merge(kept: dict[str, Any], sent: dict[str, Any]) -> dict[str, Any]:
    """The union of two valid progresses: every step answered in either stays answered;
    a puzzle solved best in either stays so (else the one sent); the level sent, else
    the one kept."""
    lessons = {k: dict(v) for k, v in kept.get("lessons", {}).items()}
    for key, steps in sent.get("lessons", {}).items():
        lessons.setdefault(key, {}).update(steps)
    puzzles = dict(kept.get("puzzles", {}))
    for key, tried in sent.get("puzzles", {}).items():
        if not puzzles.get(key, {}).get("best", False):
            puzzles[key] = tried
    out: dict[str, Any] = {"lessons": lessons, "puzzles": puzzles}
    level = sent.get("level", kept.get("level"))
    if level is not None:
        out["level"] = level
    if len(lessons) > MAX_ENTRIES or len(puzzles) > MAX_ENTRIES:
        raise ProgressError(f"at most {MAX_ENTRIES} lessons and {MAX_ENTRIES} puzzles")
    return out


def stored(engine: sa.Engine, account_id: str) -> dict[str, Any]:
    """What the account keeps (empty progress if nothing yet)."""
    with engine.connect() as conn:
        text = conn.execute(sa.select(progress_t.c.data)
                            .where(progress_t.c.account_id == account_id)).scalar()
    return json.loads(text) if text else {"lessons": {}, "puzzles": {}}


def store_merged(engine: sa.Engine, account_id: str, sent: dict[str, Any]) -> dict[str, Any]:
    """Merge ``sent`` into what the account keeps, in one transaction (the row locked
    where the database can: two devices syncing at once both count)."""
    with engine.begin() as conn:
        row = conn.execute(sa.select(progress_t.c.data)
                           .where(progress_t.c.account_id == account_id)
                           .with_for_update()).scalar()
        kept = json.loads(row) if row else {"lessons": {}, "puzzles": {}}
        merged = merge(kept, sent)
        text = json.dumps(merged, separators=(",", ":"), sort_keys=True)
        if row is None:
            conn.execute(progress_t.insert().values(account_id=account_id, data=text,
                                                    updated_at=time.time()))
        else:
            conn.execute(progress_t.update().where(progress_t.c.account_id == account_id)
                         .values(data=text, updated_at=time.time()))
    return merged


def delete_progress(conn: sa.Connection, account_id: str) -> None:
    """Part of an account's deletion (in its transaction)."""
    conn.execute(progress_t.delete().where(progress_t.c.account_id == account_id))


class ProgressIn(BaseModel):
    progress: dict[str, Any] = Field(
        description='{"lessons": {KEY: {"0": true, ...}}, "puzzles": {ID: {"best": bool, '
                    '"cost": number}}, "level": "learner" or "expert"}: what this device '
                    "holds; merged with what the account keeps.")


router = APIRouter()
"""``/api/account/progress``."""


async def run(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    return await to_thread.run_sync(functools.partial(fn, *args, **kwargs))


async def logged_in(state: Server, request: Request) -> Account:
    account: Account | None = await run(
        account_of, state.store.engine, request.cookies.get(ACCOUNT_COOKIE))
    if account is None:
        raise TableError(Refusal.NO_TOKEN, "you are not logged in: your progress is "
                         "kept in this browser only (log in to keep it with your account)")
    return account


@router.get("/api/account/progress", tags=["accounts"],
            summary="Your lessons' and puzzles' progress", responses=refusals(401))
async def get_progress(request: Request, state: ServerOf) -> dict[str, Any]:
    """What the account keeps of the lessons answered, the puzzles tried and the
    level chosen (401 when not logged in)."""
    account = await logged_in(state, request)
    return {"progress": await run(stored, state.store.engine, account.id)}


@router.post("/api/account/progress", tags=["accounts"],
             summary="Keep this device's progress with your account",
             responses=refusals(401, 403))
async def post_progress(
    body: ProgressIn, request: Request, state: ServerOf
) -> dict[str, Any]:
    """Merge this device's progress into the account's and answer the whole: a step
    answered anywhere stays answered (400 when the progress is not of the kept form,
    saying what is; nothing kept then)."""
    account = await logged_in(state, request)
    try:
        sent = valid_progress(body.progress)
    except ProgressError as exc:
        raise TableError(Refusal.UNREADABLE, str(exc)) from None
    return {"progress": await run(store_merged, state.store.engine, account.id, sent)}
