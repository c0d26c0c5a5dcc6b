"""A new front end needs only the table (issue 34's "done means"): a text bot that plays a
whole game against the computer through :mod:`piquet.table` alone, saving every move in a
store and replaying the game from it, in another process's stead, move for move."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from piquet.core.rules import get_rules
from piquet.table import GameSpec, GameStore, Tables, computer, person, seat_view
from piquet.table.menu import MenuKind
from piquet.table.store import FileStore
from piquet.table.summary import rules_summary
from piquet.table.views import SeatView


class TextBot:
    """Reads its seat's view as text and answers with the menu's first offered choice (in
    the exchange, its lowest cards)."""

    def __init__(self, tables: Tables, game_id: str, player: int) -> None:
        self.tables, self.game_id, self.player = tables, game_id, player
        self.transcript: list[str] = []

    def choose(self, seen: SeatView) -> str:
        items = seen.menu
        self.transcript.append(" / ".join(i.label for i in items))
        first = items[0]
        if first.kind is MenuKind.DISCARD:
            deal = seen.view.deal
            assert deal is not None
            low = sorted(deal.hand, key=lambda c: (c.rank, c.suit))[: first.fewest]
            return "discard:" + (" ".join(str(c) for c in low) or "-")
        return next(i for i in items if i.offer).id

    def play(self, *, moves: int | None = None) -> SeatView:
        """Play on (the computer's turns included) to the end, or ``moves`` of its own."""
        made = 0
        while True:
            state = self.tables.play_computers(self.game_id)
            seen = seat_view(state, self.player)
            if seen.over or (moves is not None and made == moves):
                return seen
            assert seen.your_turn
            self.tables.act(self.game_id, self.player, self.choose(seen), expect=seen.version)
            made += 1


def _stores(kind: str, tmp_path: Path) -> Callable[[], GameStore]:
    """A way to open the store again, as another process would: a folder of files, or
    the browser's SQLite database through the same protocol."""
    if kind == "file":
        return lambda: FileStore(tmp_path)
    from piquet.web.gamestore import SqlGameStore
    from piquet.web.store import Store, database_url

    url = database_url(None, tmp_path)
    opened: list[Store] = []

    def sql() -> GameStore:
        opened.append(Store.open(url))
        return SqlGameStore(opened[-1])

    return sql


@pytest.mark.parametrize("kind", ["file", "sql"])
def test_a_text_bot_plays_a_whole_game_against_the_computer_saving_and_replaying(
    kind: str, tmp_path: Path,
) -> None:
    rules = get_rules("rubicon")
    spec = GameSpec("bot-game", rules, rules.default_format, 20261206,
                    (person(0, "Bot"), computer(1, "book")))
    store = _stores(kind, tmp_path)
    tables = Tables(store())
    tables.create(spec)
    assert rules_summary(rules)  # what the bot would read first
    half = TextBot(tables, "bot-game", 0).play(moves=15)
    assert not half.over
    # another process (a fresh table over the same folder) takes the game up
    later = Tables(store())
    bot = TextBot(later, "bot-game", 0)
    end = bot.play()
    assert end.over and end.result is not None and end.view.finished
    assert len(bot.transcript) > 20 and all(bot.transcript)
    # saved: the folder holds the game, and replaying it gives the same table and record
    replayed = Tables(store()).open("bot-game")
    final = later.open("bot-game")
    assert replayed.log == final.log and replayed.record() == final.record()
    assert json.dumps(replayed.record()) == json.dumps(final.match.to_record() | {
        "players": ["Bot", "Book"]})
    # every move the computer made is the one its seed gives, from the log alone
    from piquet.table.ai import play_computers
    from piquet.table.state import TableState

    again = TableState.new("bot-game", spec.seats, spec.start())
    for e in final.log:
        if e.player == 0:
            again = again.apply(0, e.text)
        else:
            again = play_computers(again)
    assert again.log == final.log


def test_the_file_store_ignores_a_line_cut_short_and_refuses_a_stale_append(
    tmp_path: Path,
) -> None:
    from piquet.table.state import Entry

    rules = get_rules("rubicon")
    store = FileStore(tmp_path)
    store.create(GameSpec("g", rules, rules.default_format, 1, (person(0, "A"),
                                                                computer(1, "random"))))
    assert store.append("g", Entry(0, "deal:2"), expect=0, over=False)
    assert not store.append("g", Entry(0, "deal:2"), expect=0, over=False)
    with open(tmp_path / "g.jsonl", "ab") as f:
        f.write(b'[1, "disc')  # a crash in the middle of a write
    stored = store.load("g")
    assert stored is not None and stored.log == (Entry(0, "deal:2"),)
    assert store.append("g", Entry(1, "discard:-"), expect=1, over=False)
    assert store.load("g").log[-1] == Entry(1, "discard:-")  # type: ignore[union-attr]
    assert store.games() == ["g"]
