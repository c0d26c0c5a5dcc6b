"""What an entry chosen on a version of a game is, once the game may have moved on: the one
decision every transport over the table makes before it applies anything.

An entry names the version (the log's length) its sender saw.  :func:`judge` reads the log
as it stands and says, as a typed :class:`Verdict`, whether the entry applies now, is a
copy of an entry already in the log at that place (a retry, or a copy sent twice: answered
with the game as it stands, applied once), is a retry of a move taken back since by an
undo or a takeback (stale), or was chosen on an older version where something else
happened (the sender's own other tab acted, or another player acted first).  It is a pure
function of the log, the expected version, the player and the text: :class:`Tables.act
<piquet.table.service.Tables>` and the browser's ``Games.act_once`` both ask it, so the
answer never depends on the transport.

>>> from piquet.table.state import Entry, UNDO
>>> log = (Entry(0, "discard:7S"), Entry(1, "discard:8H"))
>>> judge(log, 2, 0, "play:AS").verdict
<Verdict.APPLY: 'apply'>
>>> judge(log, 0, 0, "discard:7s").verdict  # any accepted spelling of the same action
<Verdict.RETRY: 'retry'>
>>> judge((*log, Entry(0, UNDO)), 0, 0, "discard:7S").verdict
<Verdict.TAKEN_BACK: 'taken-back'>
>>> judge(log, 1, 0, "play:AS").message(("Ann", "Bob"))
'Bob acted first: here is the game as it stands'
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from piquet.core.actions import parse_action
from piquet.core.errors import ParseError
from piquet.table.errors import Refusal, TableError
from piquet.table.state import Entry, takes_back

__all__ = ["Judged", "Verdict", "judge", "same_entry"]


class Verdict(enum.Enum):
    """What an entry chosen at some version of a game is, against the log as it stands."""

    APPLY = "apply"
    """Chosen on the game as it stands (or no version named): apply it now."""
    RETRY = "retry"
    """A copy of the entry already in the log at that version, not taken back since:
    nothing is applied, the answer is the game as it stands."""
    TAKEN_BACK = "taken-back"
    """The sender's entry at that version was taken back since (an undo, a takeback):
    stale, refused."""
    ALREADY_ACTED = "already-acted"
    """The sender already acted otherwise at that version (another tab): refused."""
    ACTED_FIRST = "acted-first"
    """Another player acted first at that version: refused."""
    CHANGED = "changed"
    """A version the log never had: refused."""


_REFUSED_WITH = {
    Verdict.TAKEN_BACK: "that move was taken back since (an undo or a takeback): here is "
                        "the game as it stands",
    Verdict.ALREADY_ACTED: "your other tab (or a retry) already acted: here is the game as "
                           "it stands",
    Verdict.RETRY: "your other tab (or a retry) already acted: here is the game as it stands",
    Verdict.CHANGED: "the game changed meanwhile: here it is as it stands",
}


@dataclass(frozen=True, slots=True)
class Judged:
    """A :class:`Verdict` and the player whose entry stands at the version named (None
    when there is none)."""

    verdict: Verdict
    by: int | None = None

    @property
    def refused(self) -> bool:
        """Whether the entry is refused (neither applied nor answered as a retry)."""
        return self.verdict not in (Verdict.APPLY, Verdict.RETRY)

    def message(self, names: Sequence[str]) -> str:
        """The refusal in a player's words (``names``: the seats' names, by player)."""
        if self.verdict is Verdict.ACTED_FIRST:
            assert self.by is not None
            return f"{names[self.by]} acted first: here is the game as it stands"
        return _REFUSED_WITH.get(self.verdict, "the game changed meanwhile: here it is as "
                                 "it stands")

    def error(self, names: Sequence[str]) -> TableError:
        """The refusal as the :class:`TableError` every transport says (``NOT_NOW``)."""
        return TableError(Refusal.NOT_NOW, self.message(names))


def same_entry(entry: Entry, player: int, text: str) -> bool:
    """Whether ``entry`` is ``text`` by ``player`` (an action id in any accepted spelling)."""
    if entry.player != player:
        return False
    if entry.text == text:
        return True
    try:
        return str(parse_action(text)) == entry.text
    except ParseError:
        return False


def judge(log: Sequence[Entry], expect: int | None, player: int, text: str) -> Judged:
    """What ``text`` by ``player``, chosen when the log was ``expect`` entries long, is
    against ``log`` as it stands (``expect`` None: the game as it stands, always
    :attr:`Verdict.APPLY`)."""
    if expect is None or expect == len(log):
        return Judged(Verdict.APPLY)
    if not 0 <= expect < len(log):
        return Judged(Verdict.CHANGED)
    there = log[expect]
    taken_back = any(takes_back(e.text) for e in log[expect + 1:])
    if there.player != player:
        return Judged(Verdict.ACTED_FIRST, there.player)
    if taken_back:
        return Judged(Verdict.TAKEN_BACK, player)
    if same_entry(there, player, text):
        return Judged(Verdict.RETRY, player)
    return Judged(Verdict.ALREADY_ACTED, player)
