"""A learner's progress kept with the account (issue 38: "an account keeps a player's
games, ratings and progress (the lessons' too) across devices"), through the HTTP API of
a real server: kept and merged across devices, checked before it is kept, asked of a
login only, protected from other sites (CSRF) and deleted with the account."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from piquet.web.progress import MAX_ENTRIES, ProgressError, merge, valid_progress
from test_web_accounts import PASSWORD, csrf, device, login, register
from test_web_kit import client

# passwords hashed at Argon2id's least cost (conftest): these tests register and log in,
# the hasher's own parameters are test_web_accounts's
pytestmark = pytest.mark.usefixtures("cheap_passwords")

PATH = "/api/account/progress"


@pytest.fixture
def c(tmp_path: Path) -> Iterator[TestClient]:
    with client(tmp_path) as first:
        yield first


def sent(c: TestClient, progress: Any) -> Any:
    return c.post(PATH, json={"progress": progress}, headers=csrf(c))


def test_progress_follows_the_account_to_another_device(c: TestClient) -> None:
    register(c, "Ada")
    assert c.get(PATH).json() == {"progress": {"lessons": {}, "puzzles": {}}}
    r = sent(c, {"lessons": {"elder-and-younger": {"0": True, "2": True}},
                 "puzzles": {"rubicon-1": {"best": False, "cost": 3.5}}, "level": "learner"})
    assert r.status_code == 200, r.text
    phone = device(c)
    assert login(phone, "Ada").status_code == 200
    # the phone holds a step of its own: after the sync both devices hold the union
    r = sent(phone, {"lessons": {"elder-and-younger": {"1": True}, "the-point": {"0": True}},
                     "puzzles": {"rubicon-1": {"best": True, "cost": 0}}})
    assert r.status_code == 200, r.text
    both = {"lessons": {"elder-and-younger": {"0": True, "1": True, "2": True},
                        "the-point": {"0": True}},
            "puzzles": {"rubicon-1": {"best": True, "cost": 0.0}}, "level": "learner"}
    assert r.json() == {"progress": both}
    assert c.get(PATH).json() == {"progress": both}
    # a later, worse try of a puzzle solved best never undoes it
    r = sent(c, {"puzzles": {"rubicon-1": {"best": False, "cost": 9}}})
    assert r.json()["progress"]["puzzles"]["rubicon-1"] == {"best": True, "cost": 0.0}


def test_progress_needs_a_login_and_the_csrf_token(c: TestClient) -> None:
    r = c.get(PATH)
    assert r.status_code == 401 and "kept in this browser only" in r.json()["error"]
    r = c.post(PATH, json={"progress": {}})
    assert r.status_code == 401
    register(c, "Ada")
    # with the login cookie and without the token (another site's form): refused, unkept
    r = c.post(PATH, json={"progress": {"lessons": {"x": {"0": True}}}})
    assert r.status_code == 403
    assert c.get(PATH).json()["progress"]["lessons"] == {}


@pytest.mark.parametrize(("progress", "words"), [
    ([], "progress is an object"),
    ({"score": 3}, "not 'score'"),
    ({"lessons": []}, "lessons and puzzles are objects"),
    ({"lessons": {"a b": {"0": True}}}, "a lesson's key is"),
    ({"lessons": {"x": {"zero": True}}}, "its answered steps are"),
    ({"lessons": {"x": {"0": "yes"}}}, "its answered steps are"),
    ({"puzzles": {"p": {"best": 1, "cost": 0}}}, "tried as"),
    ({"puzzles": {"p": {"best": True, "cost": "nan"}}}, "tried as"),
    ({"level": "grandmaster"}, "level is learner or expert"),
    ({"lessons": {f"l{i}": {"0": True} for i in range(MAX_ENTRIES + 1)}}, "at most"),
])
def test_bad_progress_is_refused_in_words_and_keeps_nothing(
    c: TestClient, progress: Any, words: str
) -> None:
    register(c, "Ada")
    sent(c, {"lessons": {"kept": {"0": True}}})
    r = sent(c, progress)
    assert r.status_code in (400, 422), r.text
    if r.status_code == 400:
        assert words in r.json()["error"]
    assert c.get(PATH).json()["progress"] == {"lessons": {"kept": {"0": True}},
                                             "puzzles": {}}


def test_the_account_s_deletion_deletes_its_progress(c: TestClient) -> None:
    register(c, "Ada")
    sent(c, {"lessons": {"x": {"0": True}}, "level": "expert"})
    r = c.post("/api/account/delete", json={"password": PASSWORD}, headers=csrf(c))
    assert r.status_code == 200
    engine = c.app.state.piquet.store.engine  # type: ignore[attr-defined]
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM piquet_progress")).scalar() == 0


def test_merge_is_a_union_that_never_loses_a_step() -> None:
    a = valid_progress({"lessons": {"x": {"0": True}}, "puzzles": {}})
    b = valid_progress({"lessons": {"x": {"1": True}, "y": {"0": True}}})
    assert merge(a, b)["lessons"] == merge(b, a)["lessons"] == {
        "x": {"0": True, "1": True}, "y": {"0": True}}
    with pytest.raises(ProgressError):
        valid_progress({"lessons": {"x": {"0": False}}})
