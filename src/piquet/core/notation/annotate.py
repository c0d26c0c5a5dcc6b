"""The annotated game: each deal of a match walked through again, every move with what was
said aloud and what it counted (the notes a record's text writes beside its moves)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from piquet.core.actions import Action, Declare
from piquet.core.cards import Card, CardSet, Suit
from piquet.core.deal import ELDER, ROLE_NAMES, YOUNGER, Deal, Utterance
from piquet.core.declarations import DeclClass
from piquet.core.errors import PiquetError, RecordError
from piquet.core.facts import Declared, FurtherHeld, LeftoversChoice, LeftoverWay
from piquet.core.match import Match, new_match
from piquet.core.rules import Format
from piquet.core.scoring import Kind
from piquet.core.words import Voice, claim_name, voice

__all__ = ["DealNotes", "MoveNotes", "annotate", "utterance_line"]


# ====================================================================== the annotated game
@dataclass(slots=True)
class MoveNotes:
    """One action of a deal and what the replay says it did."""

    role: int
    player: int
    action: Action
    notes: list[str] = field(default_factory=list)
    earlier: dict[int, str] = field(default_factory=dict)
    """Notes in the words of earlier records (see ``_earlier_said``), by their index in
    ``notes`` (only those that differ): a record may state either wording."""


@dataclass(slots=True)
class DealNotes:
    """One deal as the record writes it: opening lines, the moves, closing lines."""

    game: int
    number: int
    dealer: int
    players: tuple[int, int]
    """(elder player, younger player)."""
    opening: list[str] = field(default_factory=list)
    moves: list[MoveNotes] = field(default_factory=list)
    closing: list[str] = field(default_factory=list)
    dealt: tuple[int, int] | None = None
    stock: tuple[int, ...] | None = None
    tricks: list[tuple[int, int, int, int]] = field(default_factory=list)
    score: tuple[int, int] | None = None

    def to_json(self) -> dict[str, Any]:
        """The deal as the JSON record writes it."""
        return {
            "game": self.game,
            "deal": self.number,
            "dealer": self.dealer,
            "elder": self.players[0],
            "younger": self.players[1],
            "dealt": None
            if self.dealt is None
            else {"elder": _cards(self.dealt[0]), "younger": _cards(self.dealt[1])},
            "stock": None if self.stock is None else " ".join(_card(i) for i in self.stock),
            "opening": list(self.opening),
            "moves": [
                {
                    "seat": ROLE_NAMES[mv.role],
                    "action": str(mv.action),
                    "notes": list(mv.notes),
                }
                for mv in self.moves
            ],
            "tricks": [
                [ROLE_NAMES[t[0]], _card(t[1]), _card(t[2]), ROLE_NAMES[t[3]]] for t in self.tricks
            ],
            "closing": list(self.closing),
            "score": None if self.score is None else list(self.score),
        }

    def in_todays_words(self, stated: Any) -> Any:
        """``stated`` (this deal as a JSON record states it) with each note written in an
        earlier record's words (:attr:`MoveNotes.earlier`) put in today's, line by line: a
        record may hold wordings of different times.  Anything else is left as stated."""
        if not isinstance(stated, dict) or not isinstance(stated.get("moves"), list):
            return stated
        moves: list[Any] = []
        for i, got in enumerate(stated["moves"]):
            mv = self.moves[i] if i < len(self.moves) else None
            notes = got.get("notes") if isinstance(got, dict) else None
            if mv is None or not mv.earlier or not isinstance(notes, list):
                moves.append(got)
                continue
            moves.append({**got, "notes": [
                mv.notes[k] if k in mv.earlier and k < len(mv.notes) and x == mv.earlier[k]
                else x for k, x in enumerate(notes)]})
        return {**stated, "moves": moves}


def _card(index: int) -> str:
    return str(Card.from_index(index))


def _cards(mask: int) -> str:
    return str(CardSet(mask))


def utterance_line(u: Utterance) -> str:
    """One line of the dialog as the record (and the table) writes it.

    Spoken words are quoted (``elder says "Point of five."``); what a player
    does is told plainly (``elder shows AH KH QH``).
    """
    role = ROLE_NAMES[u.role]
    how = voice(u.fact)
    if how is Voice.NARRATION:
        return u.text
    if how is Voice.DEED:
        return f"{role} {u.text}"
    return f'{role} says "{u.text}"'


def _earlier_said(u: Utterance, action: Action, deal: Deal) -> str | None:
    """The line of ``u`` as earlier records wrote it, where it differs: before issue 36 a
    sequence in one suit was said with its suit ("Quart to the queen in hearts."); before
    the leftovers had one name (issue 34), elder declining to see younger's leftovers
    "leaves the rest of the stock unseen"."""
    fact = u.fact
    rules = deal.rules
    if isinstance(fact, LeftoversChoice) and fact.way is LeftoverWay.ELDER_DECLINES:
        return f"{ROLE_NAMES[u.role]} leaves the rest of the stock unseen"
    if not rules.sequences_same_suit:
        return None
    role = ROLE_NAMES[u.role]
    if isinstance(fact, Declared) and fact.said.cls is DeclClass.SEQUENCE:
        if not isinstance(action, Declare) or not action.cards:
            return None  # pragma: no cover - a sequence is declared by a Declare
        suit = Suit((action.cards.mask.bit_length() - 1) // 9)
        return f'{role} says "{u.text[:-1]} in {suit.plural}."'
    if isinstance(fact, FurtherHeld) and fact.cls is DeclClass.SEQUENCE:
        result = deal.results[DeclClass.SEQUENCE]
        if result is None:
            return None  # pragma: no cover - further holdings are told as the class is won
        extras = [claim_name(h, rules) for h in result.holdings[1:]]
        return f'{role} says "And {", ".join(extras)}."'
    return None


def _earlier_counted(deal: Deal) -> str | None:
    """The note of the sequences counted, as records written before issue 36 wrote it (each
    with its suit), or None."""
    result = deal.results[DeclClass.SEQUENCE]
    if result is None or not deal.rules.sequences_same_suit:
        return None
    return "; ".join(claim_name(h, deal.rules) for h in result.holdings)


class _Walker:
    """Replays moves on a match and writes down what each one did."""

    def __init__(self, match: Match) -> None:
        self.match = match
        self.deals: list[DealNotes] = []
        self._cuts = 0
        self._names = match.names
        for n in self._names:
            if not n or not n.isprintable() or n != n.strip():
                raise RecordError(
                    f"player name {n!r}: a name must be one line of printable text, "
                    "without leading or trailing spaces"
                )
        self._open(match)

    # the current deal's notes
    @property
    def current(self) -> DealNotes:
        return self.deals[-1]

    def _name(self, player: int) -> str:
        return self._names[player]

    def _open(self, m: Match) -> None:
        deal = m.deal
        if deal is None:
            return
        elder, younger = m.player_of(ELDER), m.player_of(YOUNGER)
        dn = DealNotes(m.game_number, m.deal_number, m.dealer, (elder, younger))
        head = (
            f"deal {m.deal_number} of game {m.game_number}: {self._name(m.dealer)} deals, "
            f"{self._name(elder)} is elder"
        )
        if m.n_players == 3:
            out = next(p for p in range(3) if p not in m.in_game)
            head += f" ({self._name(out)} sits out)"
        dn.opening.append(head)
        while self._cuts < len(m.cuts):
            pairs = ", ".join(f"{self._name(p)} {c}" for p, c in m.cuts[self._cuts])
            dn.opening.append(f"cut: {pairs}")
            self._cuts += 1
        self.deals.append(dn)
        if deal.dealt != (0, 0):
            self._dealt(deal, dn.opening)

    def _dealt(self, deal: Deal, out: list[str]) -> None:
        dn = self.current
        dn.dealt = (deal.dealt[ELDER], deal.dealt[YOUNGER])
        dn.stock = deal.deck[24:]
        out.append(f"dealt to elder: {_cards(deal.dealt[ELDER])}")
        out.append(f"dealt to younger: {_cards(deal.dealt[YOUNGER])}")
        out.append("stock: " + " ".join(_card(i) for i in deal.deck[24:]))

    def step(self, player: int, role: int, action: Action, where: str) -> None:
        """Apply one move; raises :class:`RecordError` (prefixed by ``where``) if illegal."""
        m = self.match
        before = m.deal
        if m.finished or before is None:
            raise RecordError(f"{where}: the game is over; no more moves")
        if before.to_act != role:
            now = "nobody" if before.to_act is None else ROLE_NAMES[before.to_act]
            raise RecordError(f"{where}: it is {now}'s turn, not {ROLE_NAMES[role]}'s")
        try:
            after_match = m.apply(action, player)
        except PiquetError as exc:
            raise RecordError(f"{where}: {exc}") from None
        nxt = after_match.deal
        if nxt is not None and len(nxt.history) == len(before.history) + 1:
            after = nxt  # the same deal goes on
        else:
            assert after_match.last_deal is not None  # the deal ended: see its last state
            after = after_match.last_deal
        mv = MoveNotes(role, player, action)
        self.current.moves.append(mv)
        notes = mv.notes
        for u in after.dialog[len(before.dialog) :]:
            old = _earlier_said(u, action, after)
            if old is not None:
                mv.earlier[len(notes)] = old
            notes.append(utterance_line(u))
        for r in (ELDER, YOUNGER):
            got = after.taken[r] & ~before.taken[r]
            if got:
                notes.append(f"{ROLE_NAMES[r]} takes {_cards(got)}")
        if before.dealt == (0, 0) and after.dealt != (0, 0):
            self._dealt(after, notes)
        for t in after.tricks[len(before.tricks) :]:
            self.current.tricks.append((t.leader, t.lead, t.follow, t.winner))
            notes.append(
                f"trick {len(self.current.tricks)}: {ROLE_NAMES[t.leader]} {_card(t.lead)}, "
                f"{ROLE_NAMES[1 - t.leader]} {_card(t.follow)}; {ROLE_NAMES[t.winner]} wins"
            )
        for e in after.events[len(before.events) :]:
            line = f"{ROLE_NAMES[e.role]} counts {e.points} for {e.kind.value}"
            if e.kind is Kind.SEQUENCES and e.note:
                old = _earlier_counted(after)
                if old is not None and old != e.note:
                    mv.earlier[len(notes)] = f"{line}: {old}"
            notes.append(f"{line}: {e.note}" if e.note else line)
        self.match = after_match
        if after.is_over:
            self._close(m, after_match, after, notes)
            self._open(after_match)

    def _close(self, before: Match, m: Match, deal: Deal, notes: list[str]) -> None:
        dn = self.current
        elder, younger = dn.players
        pts = deal.scores
        dn.score = (pts[ELDER], pts[YOUNGER])
        line = (
            f"deal {dn.number} scores: {self._name(elder)} (elder) {pts[ELDER]}, "
            f"{self._name(younger)} (younger) {pts[YOUNGER]}"
        )
        reached = deal.game_reached_by
        if reached is not None:
            line += f"; {self._name(dn.players[reached])} reaches {before.rules.target}"
        dn.closing.append(line)
        totals: dict[int, int] = {}
        for s in m.deals:
            if s.game == dn.game:
                for p, v in zip(s.players, s.points, strict=True):
                    totals[p] = totals.get(p, 0) + v
        a, b = before.in_game
        dn.closing.append(
            f"game {dn.game} stands: {self._name(a)} {totals.get(a, 0)}, "
            f"{self._name(b)} {totals.get(b, 0)}"
        )
        if len(m.games) > len(before.games):
            g = m.games[-1]
            if g.winner is None:
                dn.closing.append(f"game {g.number} is drawn")
            else:
                loser = g.players[1] if g.players[0] == g.winner else g.players[0]
                ws = g.scores[g.players.index(g.winner)]
                ls = g.scores[g.players.index(loser)]
                text = f"game {g.number} won by {self._name(g.winner)}, {ws} to {ls}"
                if g.lurch:
                    text += f"; {self._name(loser)} is lurched and pays {g.stake}"
                if m.format is Format.PARTIE:
                    text += f"; settled for {g.settled}"
                    if g.rubiconed:
                        text += f", {self._name(loser)} rubiconed"
                dn.closing.append(text)
            if m.format is Format.POOL:
                ledger = ", ".join(f"{self._name(p)} {v:+d}" for p, v in enumerate(m.ledger))
                dn.closing.append(f"pool {m.pool}; ledger: {ledger}")
        if m.finished:
            dn.closing.append("the match is over")
        notes.extend(dn.closing)


def annotate(match: Match) -> list[DealNotes]:
    """Every deal of ``match`` as the record writes it (replayed from its seed)."""
    walker = _Walker(_fresh(match))
    for n, (player, action) in enumerate(match.history, 1):
        role = walker.match.role_of(player)
        walker.step(player, ELDER if role is None else role, action, f"action {n}")
    return walker.deals


def _fresh(match: Match) -> Match:
    return new_match(
        match.rules,
        seed=match.seed,
        format=match.format,
        names=match.names,
        games=match.games_to_play,
    )
