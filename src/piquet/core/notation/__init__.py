"""Game records: a plain-text notation (PQN) and JSON, both replayed and checked.

A record is the seed and every action of a :class:`~piquet.core.match.Match`, with
what the replay says about them written out for a reader: the cut, the hands
as dealt, the stock, each player's words, the cards taken, every trick and
every point counted, and the score after each deal.  The text notation reads
like this (see ``docs/notation.md``)::

    [Piquet 1]
    [Rules "encyclopedia-19c"]
    [Format "game"]
    [Games 1]
    [Seed 7]
    [Players ["You", "random"]]
    [Result {"scores": [100, 76], "winner": 0}]

    deal 1 of game 1: random deals, You is elder
      cut: You 9H, random 8S
      dealt to elder: AS KS 9S ...
      dealt to younger: ...
      stock: 8S 7S TD 9C AD KH QH JD
    elder: discard:7S 8S 9D
      elder exchanges 3
      elder takes 8S 7S TD
    ...

Tag lines hold one JSON value each.  Lines ``elder: ACTION`` and
``younger: ACTION`` are the moves (action ids, :mod:`piquet.core.actions`); every
other line is a statement the replay re-derives: a record whose statements
disagree with its moves is refused, naming the line.  Statements may be left
out (a record of moves alone replays), but those present must be true.  Lines
starting with ``#`` are comments.

Records written before the words stopped naming a sequence's suit (issue 36: "Quart to the
queen in hearts." is now "Quart to the queen.") still read: a stated line may be in either
wording, each checked against the replay (the suit it names must be the suit of the cards).

:func:`dump_text` / :func:`dump_json` write a record, :func:`loads` reads
either form, :func:`load` / :func:`save` work on files.  Writing the same
match with the same tags gives the same bytes, and ``dump_text(loads(t)) ==
t`` for every record this module writes.
"""

from piquet.core.notation.annotate import DealNotes, MoveNotes, annotate, utterance_line
from piquet.core.notation.records import (
    MAX_JSON_DEPTH,
    RECORD_VERSION,
    STANDARD_TAGS,
    GameRecord,
    dump_json,
    dump_text,
    load,
    loads,
    parse_json,
    read_text,
    record_json,
    save,
    write_whole,
)

__all__ = [
    "MAX_JSON_DEPTH",
    "RECORD_VERSION",
    "STANDARD_TAGS",
    "DealNotes",
    "GameRecord",
    "MoveNotes",
    "annotate",
    "dump_json",
    "dump_text",
    "load",
    "loads",
    "parse_json",
    "read_text",
    "record_json",
    "save",
    "utterance_line",
    "write_whole",
]
