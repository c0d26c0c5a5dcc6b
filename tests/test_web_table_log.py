"""The browser's games on the table's log: resignations and rematches kept before (in
``piquet_game_ends``) become entries of their game's log, and replay."""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa

from piquet.table.state import RESIGN
from piquet.web.games import Games
from piquet.web.store import Store, database_url, make_engine


def test_the_ends_of_an_older_database_become_entries_of_the_log(tmp_path: Path) -> None:
    url = database_url(None, tmp_path)
    store = Store.open(url)  # today's schema: make two games, play a little
    games = Games(store)
    made = [games.create(rules="rubicon", format="game", opponents=["random"], hints=False,
                         name="A", levels=["random"]) for _ in range(2)]
    ids = [m.id for m in made]
    store.close()
    # as an older server left them: the ends in their own table, the logs without them
    engine = make_engine(url)
    with engine.begin() as conn:
        conn.execute(sa.text("DELETE FROM alembic_version"))
        conn.execute(sa.text("INSERT INTO alembic_version VALUES ('0005')"))
        conn.execute(sa.text("DROP TABLE piquet_guided"))  # made by a later revision (0007)
        for later in ("piquet_accounts", "piquet_sessions", "piquet_login_failures",
                      "piquet_ratings", "piquet_rated_games",  # 0008
                      "piquet_chat", "piquet_chat_mutes",  # 0009
                      "piquet_presence", "piquet_seeks",  # 0010
                      "piquet_clocks",  # 0011
                      "piquet_progress"):  # 0012
            conn.execute(sa.text(f"DROP TABLE {later}"))
        conn.execute(sa.text(
            "CREATE TABLE piquet_game_ends (game_id VARCHAR(32) PRIMARY KEY, resigned "
            "INTEGER, rematch VARCHAR(32), rematch_by INTEGER, created_at FLOAT NOT NULL)"))
        conn.execute(sa.text(
            "INSERT INTO piquet_game_ends VALUES (:g, 0, :r, 1, 0.0)"), {"g": ids[0], "r": ids[1]})
    engine.dispose()
    again = Store.open(url)  # migrates to the newest schema
    try:
        entry = Games(again).load(ids[0])
        state = entry.live.state
        assert state.resigned == 0 and state.rematch == ids[1] and state.rematch_by == 1
        assert [e.text for e in state.log] == [RESIGN, f"rematch:{ids[1]}"]
        row = again.game(ids[0])
        assert row is not None and row.finished and row.n_actions == 2
        other = Games(again).load(ids[1]).live.state
        assert other.resigned is None and other.log == ()
        with again.engine.connect() as conn:
            assert not sa.inspect(conn).has_table("piquet_game_ends")
    finally:
        again.close()
