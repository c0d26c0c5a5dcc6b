"""The tally session: a game at a real table, entry by entry (the entries, the mistakes and
what they cost: :mod:`piquet.tally`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from piquet.core.actions import (
    Discard,
    Play,
)
from piquet.core.cards import CardSet, pack_mask
from piquet.core.deal import ELDER, YOUNGER, Deal, Phase
from piquet.core.errors import IllegalActionError, ParseError, PiquetError, RecordError
from piquet.core.match import Match, new_match
from piquet.core.penalties import Mistake, Penalty, described, offered
from piquet.core.roles import ROLE_NAMES, Role
from piquet.core.rules import (
    Correction,
    Format,
    Leftovers,
    Rules,
    get_rules,
    preset,
    rules_from_mapping,
)
from piquet.table.summary import settlement_words
from piquet.tally.steps import (
    _CLASSES,
    _ROLE_NAMES,
    _SOME_CLASS,
    _apply_step,
    _Draft,
    _fold,
    _ordered,
    _State,
    _Step,
    _step_from_json,
)
from piquet.tally.words import (
    _MISTAKE_WORDS,
    _cards_in_order,
    _friendly_action,
    _takes_now,
    _to_scorer,
    in_words,
    mistake_note,
)

__all__ = ["HELP", "TallySession", "help_text", "new_tally", "result_text"]


HELP: Final = """Entries (one a line; any may start with 'elder:', 'younger:' or a player's name):
  dealer NAME|1|2             who deals (each game's first deal; then the deal alternates)
  elder CARDS / younger CARDS the twelve cards dealt to each
  packet N                    the packet size dealt by, if the rules offer several
  blanche N                   carte blanche, laying out N cards
  discard CARDS take CARDS    lay out and take in (the cards taken, in order)
  take CARDS                  the cards taken in, when asked for later
  point|sequence|set CARDS    a declaration; 'pass' declares nothing
  good | not good | equal | making | ask | no question
  look | decline | name CARD | appoint CARD     younger's leftovers
  CARDS                       cards played, in order
  undo                        take back the last entry"""

_MISTAKE_HELP: Final = {
    Mistake.FALSE_CLAIM: "  false claim ROLE|NAME       he counted what he does not hold (found "
    "out in the deal, or after it, before the next deal's cards)",
    Mistake.NOT_SHOWN: "  not shown ROLE|NAME point|sequence|set   he played a card without "
    "showing the holding he counted",
    Mistake.RENOUNCE: "  renounce ROLE|NAME          he played out of suit holding the suit led "
    "and took the card back",
}


def help_text(rules: Rules) -> str:
    """The entries (:data:`HELP`), with the mistakes of the table the rule set's text gives a
    penalty or a remedy for, and what each costs under it."""
    lines = [HELP]
    mistakes = offered(rules)
    if mistakes or rules.call_correction is not Correction.NONE:
        lines.append(f"Mistakes at the table (what {rules.name}'s text says they cost):")
        lines.extend(
            _MISTAKE_HELP[m] + "\n      "
            + described(Penalty(m, Role.ELDER, _SOME_CLASS[m]), rules, ("he", "the other"))
            for m in mistakes
        )
        if rules.call_correction is not Correction.NONE:
            lines.append("  correct ROLE|NAME point|sequence|set   he takes back what he said "
                         "in that class before his first card; enter the class again")
    return "\n".join(lines)



# ====================================================================== the session
@dataclass(frozen=True, slots=True)
class TallySession:
    """A game at a real table, entry by entry.  Build with :func:`new_tally`."""

    rules: Rules
    names: tuple[str, str]
    format: Format
    games: int
    steps: tuple[_Step, ...]
    _state: _State
    entry_sizes: tuple[int, ...] = ()
    """How many of the ``steps`` each entry made, in order (cards played in one line are
    one step a card, one entry): ``undo`` takes back a whole entry.  A session read from a
    record counts each of the record's entries as one."""

    # ------------------------------------------------------------------ queries
    @property
    def match(self) -> Match:
        """The engine's match, with the deals as entered."""
        return self._state.match

    @property
    def finished(self) -> bool:
        return self.match.finished

    @property
    def deal(self) -> Deal | None:
        """The deal being entered (None before its cards are entered)."""
        return self.match.deal if self._state.draft.started else None

    @property
    def scores(self) -> dict[str, int]:
        """Each player's score in the current game (with this deal's points so far)."""
        m = self.match
        out = {self.names[p]: s for p, s in zip(m.in_game, m.scores, strict=True)}
        deal = self.deal
        if deal is not None and not m.finished:
            for role in (ELDER, YOUNGER):
                out[self.names[m.player_of(role)]] += deal.scores[role]
        return out

    def pending_take(self) -> int | None:
        """The role whose cards taken in must be entered before anything else, if any."""
        deal = self.deal
        if deal is None:
            return None
        draft = self._state.draft
        for role in (ELDER, YOUNGER):
            if deal.taken[role] and draft.taken[role] is None:
                return role
        return None

    def expecting(self) -> str:
        """What the next entry should be, in words."""
        m = self.match
        if m.finished:
            return "the match is over: " + result_text(self)
        draft = self._state.draft
        if not draft.started:
            dealer = draft.dealer if draft.dealer is not None else m.dealer
            need = [f"{r} CARDS" for r, h in zip(_ROLE_NAMES, draft.hands, strict=True) if not h]
            who = self.names[dealer]
            first = m.deal_number == 1 and draft.dealer is None
            lead = (f"dealer NAME (who deals: {who} unless you say otherwise), then " if first
                    else f"{who} deals; enter ")
            return lead + " and ".join(need)
        role = self.pending_take()
        deal = self.deal
        assert deal is not None
        if role is not None:
            n = deal.taken[role].bit_count()
            return f"{_ROLE_NAMES[role]} takes in {n}: take CARDS"
        seat = deal.to_act
        assert seat is not None, "a deal not over has a role to act"
        who = ROLE_NAMES[seat]
        name = self.names[m.player_of(seat)]
        phase = deal.phase
        if phase is Phase.BLANCHE:
            return f"{who} ({name}) holds carte blanche: blanche N (cards he will lay out)"
        if phase is Phase.EXCHANGE:
            lo, hi = deal.discard_range()
            many = str(lo) if lo == hi else f"{lo} to {hi}"
            return f"{who} ({name}) lays out {many}: discard CARDS take CARDS"
        if phase is Phase.PLAY:
            return f"{who} ({name}) plays a card"
        what = "SUIT" if self.rules.younger_leftovers is Leftovers.ELDER_NAMES_SUIT else "CARD"
        if phase is Phase.LEFTOVERS:
            if who == "elder":
                return (
                    f"elder ({name}): name {what} (the lead to come) to see the cards "
                    "younger left, or decline"
                )
            return f"younger ({name}): look (at his leftovers) or decline"
        if phase is Phase.APPOINT:
            return f"younger ({name}): appoint {what} (what elder must lead)"
        legal = [in_words(str(a)) for a in deal.legal_actions()]
        shown = ", ".join(legal[:8]) + (", ..." if len(legal) > 8 else "")
        return f"{who} ({name}): one of {shown}"

    # ------------------------------------------------------------------ entries
    def enter(self, text: str) -> TallySession:
        """The session after one entry (see the module doc).

        Raises :class:`ParseError` for text that is no entry, and
        :class:`IllegalActionError` for what the rule set forbids; the
        session is unchanged.
        """
        raw = text.strip()
        if not raw or raw.startswith("#"):
            return self
        if raw.lower() == "undo":
            return self.undo()
        out = self
        try:
            mistake = self._mistake_step(raw)
            if mistake is not None:
                steps = [mistake]
            else:
                role, body = self._split_role(raw)
                steps = self._steps_for(role, body)
            for step in steps:
                out = out._with(step)
        except PiquetError as exc:
            # the engine names actions by their ids and speaks to the player ("you must
            # follow"); the tally's scorer reads its entries' words and the player's name
            message = in_words(str(exc))
            actor = out.match.to_act
            if actor is not None:
                message = _to_scorer(message, out.names[actor])
            if out is not self:  # a line of several cards failed part way: none of it stands
                message += " (nothing of this line was entered: enter it again, corrected)"
            raise type(exc)(message) from None
        if not steps:
            return self
        return replace(out, entry_sizes=(*self._sizes(), len(steps)))

    def _sizes(self) -> tuple[int, ...]:
        """Steps per entry; steps no entry accounts for (a record's) are one entry each."""
        counted = sum(self.entry_sizes)
        return (1,) * (len(self.steps) - counted) + self.entry_sizes

    def undo(self) -> TallySession:
        """The session without its last entry (every card of a line of cards played).

        Raises :class:`PiquetError` if there is none.
        """
        if not self.steps:
            raise PiquetError("nothing to undo")
        sizes = self._sizes()
        steps = self.steps[: -sizes[-1]]
        return replace(
            self,
            steps=steps,
            _state=_fold(self.rules, self._start(), steps),
            entry_sizes=sizes[:-1],
        )

    def notes(self) -> dict[int, str]:
        """For each step that records a mistake of the table (by its index in ``steps``),
        what it costs under the rule set, and the passage it rests on."""
        return {i: mistake_note(step, self.rules)
                for i, step in enumerate(self.steps) if step.kind in ("penalty", "correct")}

    @property
    def step_entries(self) -> tuple[int, ...]:
        """For each step, the number (from 1) of the entry that made it: a line of cards
        played is one entry of several steps, which ``undo`` takes back whole."""
        return tuple(n for n, size in enumerate(self._sizes(), 1) for _ in range(size))

    def with_entries(self, sizes: Sequence[int]) -> TallySession:
        """This session with its steps grouped into entries of ``sizes`` steps (as they
        were entered, for a session read back from its steps).

        Raises :class:`PiquetError` unless the sizes are positive and add up to the steps.
        """
        if any(n < 1 for n in sizes) or sum(sizes) != len(self.steps):
            raise PiquetError(f"entries of {list(sizes)} steps do not make the "
                              f"{len(self.steps)} steps of this tally")
        return replace(self, entry_sizes=tuple(sizes))

    def _start(self) -> Match:
        return new_match(self.rules, seed=0, format=self.format, names=self.names, games=self.games)

    def _with(self, step: _Step) -> TallySession:
        state = _apply_step(self._state, step, self.rules)
        return replace(self, steps=(*self.steps, step), _state=state)

    def _split_role(self, raw: str) -> tuple[int | None, str]:
        head, sep, rest = raw.partition(":")
        if not sep or (" " in head.strip() and head.strip().lower() not in self._name_keys()):
            return None, raw
        key = head.strip().lower()
        if key in ("elder", "younger"):
            role = _ROLE_NAMES.index(key)
        elif key in self._name_keys():
            player = self._name_keys()[key]
            m = self.match
            if player not in m.in_game:
                raise IllegalActionError(f"{self.names[player]} is not in this game")
            found = m.role_of(player)
            if found is None:  # pragma: no cover - in_game implies a role
                return None, rest.strip()
            role = found
        elif key in ("play", "declare", "discard", "name", "appoint", "blanche", "deal"):
            return None, raw  # an action id such as play:QH
        else:
            raise ParseError(
                f"{head.strip()!r} is not elder, younger or a player ({', '.join(self.names)})"
            )
        return role, rest.strip()

    def _name_keys(self) -> dict[str, int]:
        return {n.lower(): i for i, n in enumerate(self.names)}

    def _player(self, text: str) -> int:
        key = text.strip().lower()
        names = self._name_keys()
        if key in names:
            return names[key]
        if key in [str(i) for i in range(1, len(self.names) + 1)]:
            return int(key) - 1
        raise ParseError(
            f"{text.strip()[:40]!r} is not a player: write {' or '.join(self.names)} (or 1, 2)"
        )

    def _steps_for(self, role: int | None, body: str) -> list[_Step]:
        if body.lower().startswith("discard:"):
            body = "discard " + body[len("discard:") :]
        word, _, rest = body.partition(" ")
        w = word.lower()
        rest = rest.strip()
        if w == "dealer":
            return [_Step("dealer", value=self._player(rest))]
        if w == "packet":
            if not (rest.isascii() and rest.isdigit() and len(rest) <= 9):
                raise ParseError(f"packet needs a number, e.g. packet 2; got {rest[:40]!r}")
            return [_Step("packet", value=int(rest))]
        if w in ("elder", "younger") and rest:
            return [self._hand_step(_ROLE_NAMES.index(w), rest)]
        if w == "hand" and role is not None:
            return [self._hand_step(role, rest)]
        deal = self.deal
        if deal is None:
            if role is not None and rest and w not in ("discard", "take"):
                return [self._hand_step(role, body)]
            raise IllegalActionError("this deal's cards are not entered yet: " + self.expecting())
        pending = self.pending_take()
        if w == "take":
            return [self._take_step(role, rest)]
        if pending is not None:
            raise IllegalActionError(
                f"first say which cards {_ROLE_NAMES[pending]} took in: take CARDS"
            )
        actor = deal.to_act if deal.to_act is not None else ELDER
        if role is not None and role != actor:
            raise IllegalActionError(self._not_your_turn(role, deal))
        if w == "discard":
            return [self._exchange_step(actor, rest, deal, named=role is not None)]
        if deal.phase is Phase.PLAY:
            return [_Step("action", text=str(Play(c))) for c in _cards_in_order(body)]
        return [_Step("action", text=str(_friendly_action(body, deal, self.expecting)))]

    def _mistake_step(self, raw: str) -> _Step | None:
        """A mistake of the table (``false claim elder``, ``not shown Anne point``,
        ``Bob: renounce``, ``correct elder sequence``), or None for another entry.  A name
        is the player's role in the deal the mistake is found in: the deal in play, or
        between deals the deal that ended last."""
        head, sep, rest_text = raw.partition(":")
        prefix = head.strip() if sep and head.strip().lower() in self._who_keys() else ""
        body = rest_text if prefix else raw
        words = body.lower().split()
        for phrase, kind in _MISTAKE_WORDS:
            n = len(phrase)
            if words[:n] != list(phrase):
                continue
            rest = body.split()[n:]
            cls = -1
            what = " ".join(phrase)
            if kind in (Mistake.NOT_SHOWN.value, "correct"):
                if not rest or rest[-1].lower() not in _CLASSES:
                    raise ParseError(
                        f"{what}: say which holding, point, sequence or set "
                        f"(e.g. {what} elder point)"
                    )
                cls = int(_CLASSES[rest.pop().lower()])
            named = [x for x in (prefix, " ".join(rest)) if x]
            if not named:
                raise ParseError(f"{what}: say who, elder or younger (or a name): {what} elder")
            roles = {self._role_of_name(x) for x in named}
            if len(roles) > 1:
                raise ParseError(f"{what}: two players named ({' and '.join(named)})")
            who = roles.pop()
            if kind == "correct":
                return _Step("correct", role=who, value=cls)
            return _Step("penalty", role=who, value=cls, text=kind)
        return None

    def _who_keys(self) -> set[str]:
        return {"elder", "younger", *self._name_keys()}

    def _role_of_name(self, text: str) -> int:
        """The role of ``text`` (elder, younger, a player's name or number) in the deal a
        mistake is found in: the deal in play, else the one that ended last."""
        key = text.strip().lower()
        if key in ("elder", "younger"):
            return _ROLE_NAMES.index(key)
        player = self._player(text)
        m = self.match
        players: tuple[int, int]
        if self.deal is not None:
            players = (m.player_of(0), m.player_of(1))
        elif m.deals:
            players = m.deals[-1].players
        else:
            raise IllegalActionError("no deal has been entered yet")
        if player not in players:
            raise IllegalActionError(f"{self.names[player]} was not in that deal")
        return players.index(player)

    def _not_your_turn(self, role: int, deal: Deal) -> str:
        who = _ROLE_NAMES[role]
        if deal.phase is Phase.EXCHANGE or (
            deal.discards[role] and deal.phase in (Phase.LEFTOVERS, Phase.DECLARE)
        ):
            if deal.discards[role]:
                return (
                    f"{who} has already laid out {CardSet(deal.discards[role])}: "
                    f"{self.rules.name} does not allow discarding twice"
                )
        now = ROLE_NAMES[deal.to_act] if deal.to_act is not None else "nobody"
        return f"it is not {who}'s turn: {now} is to act ({self.expecting()})"

    def _hand_step(self, role: int, text: str) -> _Step:
        cards = CardSet.parse(text)
        pack = pack_mask(self.rules)
        if cards.mask & ~pack:
            raise IllegalActionError(
                f"{CardSet(cards.mask & ~pack)} is not in the {self.rules.deck_size}-card pack"
            )
        if len(cards) != 12:
            raise IllegalActionError(
                f"{_ROLE_NAMES[role]} is dealt 12 cards, not {len(cards)}: {cards}"
            )
        return _Step("hand", role=role, value=cards.mask)

    def _take_step(self, role: int | None, text: str) -> _Step:
        pending = self.pending_take()
        if pending is None:
            raise IllegalActionError(
                "no cards taken in are awaited now; a discard is entered as "
                "discard CARDS take CARDS"
            )
        if role is not None and role != pending:
            raise IllegalActionError(f"{_ROLE_NAMES[pending]}'s cards taken in are awaited")
        deal = self.deal
        assert deal is not None
        cards = _ordered(text)
        self._check_taken(pending, cards, deal.taken[pending].bit_count())
        return _Step("take", role=pending, cards=cards)

    def _exchange_step(self, actor: int, text: str, deal: Deal, *, named: bool) -> _Step:
        if deal.phase is not Phase.EXCHANGE:
            if named and deal.discards[actor]:
                raise IllegalActionError(
                    f"{_ROLE_NAMES[actor]} has already laid out {CardSet(deal.discards[actor])}: "
                    f"{self.rules.name} does not allow discarding twice"
                )
            if deal.discards[0] or deal.discards[1]:
                laid = ", ".join(
                    f"{_ROLE_NAMES[r]} laid out {CardSet(deal.discards[r]) or 'nothing'}"
                    for r in (ELDER, YOUNGER)
                )
                raise IllegalActionError(
                    f"the exchange is over ({laid}): {self.rules.name} does not allow "
                    f"discarding twice; now {self.expecting()}"
                )
            raise IllegalActionError(f"no discarding now: {self.expecting()}")
        low = text.lower()
        if " take " in f" {low} ":
            i = f" {low} ".index(" take ")
            out_text, take_text = text[: max(i - 1, 0)], text[i + 4 :]
        else:
            out_text, take_text = text, ""
        out = CardSet.parse(out_text) if out_text.strip() not in ("", "-") else CardSet()
        deal.verify(Discard(out))
        takes_now = _takes_now(deal)
        taken: tuple[int, ...] = ()
        if takes_now and (len(out) or take_text.strip()):  # laying out nothing takes nothing
            if not take_text.strip():
                raise IllegalActionError(
                    f"say which {len(out)} card{'s' if len(out) != 1 else ''} "
                    f"{_ROLE_NAMES[actor]} takes in: discard {out} take CARDS"
                )
            taken = _ordered(take_text)
            self._check_taken(actor, taken, len(out))
        elif take_text.strip():
            raise IllegalActionError(
                f"{_ROLE_NAMES[actor]} lays out now and takes in later (after elder's carte "
                "blanche): enter discard CARDS, and take CARDS when asked"
            )
        return _Step("exchange", role=actor, value=out.mask, cards=taken)

    def _check_taken(self, role: int, cards: tuple[int, ...], n: int) -> None:
        if len(cards) != n:
            raise IllegalActionError(
                f"{_ROLE_NAMES[role]} takes in as many as he lays out: {n}, not {len(cards)}"
            )
        draft = self._state.draft
        dealt = draft.hands[0] | draft.hands[1]
        mask = sum(1 << c for c in cards)
        if mask & dealt:
            raise IllegalActionError(
                f"{CardSet(mask & dealt)} was dealt to a player; cards taken in come from the stock"
            )
        other = draft.taken[1 - role] or ()
        if mask & sum(1 << c for c in other):
            raise IllegalActionError(
                f"{CardSet(mask & sum(1 << c for c in other))} was taken in by "
                f"{_ROLE_NAMES[1 - role]}"
            )
        if mask & ~pack_mask(self.rules):
            raise IllegalActionError(
                f"{CardSet(mask & ~pack_mask(self.rules))} is not in the "
                f"{self.rules.deck_size}-card pack"
            )

    # ------------------------------------------------------------------ records
    def to_record(self) -> dict[str, Any]:
        """The game as JSON-ready data: rules, players, every entry, the result."""
        rules: Any = self.rules.name if self.rules.is_preset else self.rules.knobs_json()
        m = self.match
        return {
            "piquet": 1,
            "tally": 1,
            "rules": rules,
            "format": self.format.value,
            "games": self.games,
            "players": list(self.names),
            "entries": [s.to_json() for s in self.steps],
            "deals": [d.to_json() for d in m.deals],
            "result": m.result() if m.finished else None,
        }

    @classmethod
    def from_record(cls, record: Any) -> TallySession:
        """Replay a record written by :meth:`to_record`.

        Raises :class:`RecordError` naming the entry that does not replay.
        """
        if not isinstance(record, dict) or record.get("piquet") != 1 or record.get("tally") != 1:
            raise RecordError('not a tally record: expected an object with "piquet": 1, "tally": 1')
        try:
            raw = record["rules"]
            # a preset's name, or a house rule's knobs (never a file's name)
            if isinstance(raw, str):
                rules = preset(raw)
            elif isinstance(raw, dict):
                rules = rules_from_mapping(raw)
            else:
                raise RecordError("the rules must be a preset's name or an object of knobs")
            players = record["players"]
            entries = record["entries"]
            fmt = record.get("format", rules.default_format.value)
            games = record.get("games", 1)
        except KeyError as exc:
            raise RecordError(f"tally record is missing a field: {exc}") from None
        except PiquetError as exc:
            raise RecordError(f"tally record: {exc}") from None
        if not (
            isinstance(players, list)
            and len(players) == 2
            and all(isinstance(n, str) for n in players)
            and isinstance(entries, list)
        ):
            raise RecordError("tally record: players must be two names and entries a list")
        if fmt not in ("game", "partie"):
            raise RecordError(f'tally record: the format is "game" or "partie", not {fmt!r:.40}')
        if type(games) is not int or games < 1:
            raise RecordError(f"tally record: games is a whole number, 1 or more, not {games!r:.9}")
        try:
            session = new_tally(rules, names=players, format=fmt, games=games)
        except PiquetError as exc:
            raise RecordError(f"tally record: {exc}") from None
        for n, entry in enumerate(entries, 1):
            try:
                session = session._with(_step_from_json(entry))
            except (PiquetError, TypeError, ValueError, IndexError) as exc:
                raise RecordError(f"entry {n} ({entry!r:.80}): {exc}") from None
        expected = record.get("result")
        if expected is not None and session.finished and expected != session.match.result():
            raise RecordError(
                f"record states the result {expected} but the replay gives {session.match.result()}"
            )
        return session



def result_text(session: TallySession) -> str:
    """The match's settled result in words: who won, the scores, and what the players
    settle on (the rubicon, the partie's settlement, a lurch)."""
    res = session.match.result()
    winner = res.get("winner")
    scores = res.get("scores", [])
    who = "drawn" if winner is None else f"{session.names[winner]} wins"
    text = f"{who} ({', '.join(f'{n} {s}' for n, s in zip(session.names, scores, strict=False))})"
    return text + settlement_words(rubiconed=bool(res.get("rubiconed")),
                                   settled=res.get("settled") or 0, lurch=bool(res.get("lurch")))


def new_tally(
    rules: Rules | str | None = None,
    *,
    names: Sequence[str] = ("player 1", "player 2"),
    format: Format | str | None = None,
    games: int = 1,
) -> TallySession:
    """A new tally for two players under ``rules`` (a preset name or :class:`Rules`).

    Raises :class:`PiquetError` for an unknown rule set, a format it does not
    play, or a pool (three players: not kept by the tally).
    """
    r = rules if isinstance(rules, Rules) else get_rules(rules)
    if len(names) != 2 or len({n.strip().lower() for n in names}) != 2:
        raise PiquetError("a tally needs two players with different names")
    clean = tuple(n.strip() for n in names)
    if any(n.lower() in ("elder", "younger") or not n or ":" in n for n in clean):
        raise PiquetError("player names must not be empty, 'elder' or 'younger', nor hold ':'")
    fmt = Format(format) if isinstance(format, str) else (format or r.default_format)
    if fmt is Format.POOL:
        raise PiquetError("the tally keeps two-player games and parties, not the pool")
    start = new_match(r, seed=0, format=fmt, names=clean, games=games)
    return TallySession(
        rules=r,
        names=(clean[0], clean[1]),
        format=fmt,
        games=games,
        steps=(),
        _state=_State(start, start, _Draft()),
    )
