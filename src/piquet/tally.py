"""Keep the score of a game played with real cards.

At a real table the players deal and play with their own pack; the program
is told what happened, one entry at a time, and keeps the score under their
rule set with the engine itself.  A :class:`TallySession` is immutable: each
:meth:`TallySession.enter` returns the session after one more entry, or
raises an error (of the :class:`~piquet.core.errors.PiquetError` tree) saying what
the rule set forbids, and the session is unchanged.

The entries, in the order of a deal (``help`` lists them)::

    dealer Anne                  who deals (at the start of each game; then the deal alternates)
    elder AS KS QS ...           the twelve cards dealt to each player
    younger 7H 8H ...
    blanche 3                    carte blanche, and how many he will lay out
    discard 7C 8C take QH JD     lay out and take in (the cards taken, top of the stock first)
    take QH JD                   the cards taken, when the engine asks for them later
    point AH KH QH JH            declarations: point, sequence, set, pass
    good / not good / equal / making / ask / no question
    look / decline / name QH / appoint QS   the stock's leftovers
    QH KH                        cards played, in order (one or several per line)
    false claim elder            a mistake of the table and its text's penalty (see below)
    undo                         take back the last entry

Any entry may start with ``elder:``, ``younger:`` or a player's name; it is
then refused unless that player is to act (so a second discard is caught).
The engine needs a pack in order: it is built from the hands and the cards
taken in (the stock's unknown cards in any order), and rebuilt and replayed
whenever an entry tells more.  :meth:`TallySession.to_record` is the game as
JSON (the entries and the settled result); :meth:`TallySession.from_record`
replays it.

A real table makes mistakes the engine refuses, and the texts say what they cost
(:mod:`piquet.core.penalties`; the rule set's knobs ``false_claim``, ``unshown_claim``,
``call_correction``, ``renounce_taken_back`` hold each text's passage):

    false claim elder            he counted what he does not hold, found out (in the deal,
                                 or after it before the next deal's cards are entered)
    not shown elder point        he played a card without showing the point (or sequence,
                                 set) he counted
    renounce elder               he played out of suit holding the suit led, and took the
                                 card back (recorded; the score is unchanged)
    correct younger point        he takes back what he said in that class, before his first
                                 card, and the class is entered again (where the text lets
                                 a word be recalled)

The deal enters as it was truly held and said (a false claim as the claim he really
had, or a pass); the penalty's count replaces the engine's when the deal is settled.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from piquet.core.actions import (
    Action,
    AnnounceBlanche,
    Answer,
    Declare,
    Discard,
    Leftover,
    LeftoverChoice,
    Pass,
    Play,
    Question,
    Reply,
    parse_action,
)
from piquet.core.cards import CardSet, mask_cards, pack_mask
from piquet.core.deal import ELDER, YOUNGER, Deal, Phase
from piquet.core.dealtypes import ExchangeKind
from piquet.core.declarations import DeclClass
from piquet.core.errors import IllegalActionError, ParseError, PiquetError, RecordError
from piquet.core.match import Match, new_match
from piquet.core.penalties import Mistake, Penalty, described, knob_of, offered
from piquet.core.penalties import counted as penalized
from piquet.core.penalties import verify as verify_penalty
from piquet.core.roles import ROLE_NAMES, Role
from piquet.core.rules import (
    Correction,
    Format,
    Leftovers,
    Rules,
    get_rules,
    knob_json,
    preset,
    rules_from_mapping,
)
from piquet.core.transitions import pack_dealing

__all__ = ["HELP", "TallySession", "help_text", "in_words", "new_tally", "result_text"]

_ROLE_NAMES: Final = ROLE_NAMES

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


_SOME_CLASS: Final = {Mistake.FALSE_CLAIM: None, Mistake.RENOUNCE: None,
                      Mistake.NOT_SHOWN: None}


# ====================================================================== steps
@dataclass(frozen=True, slots=True)
class _Step:
    """One accepted entry, normalized: what the record holds and the replay folds."""

    kind: str
    """``dealer``, ``packet``, ``hand``, ``exchange``, ``take``, ``action``, ``penalty`` (a
    mistake of the table: ``text`` the mistake, ``value`` the class not shown or -1) or
    ``correct`` (``value`` the class whose words are taken back)."""
    role: int = -1
    value: int = 0
    cards: tuple[int, ...] = ()
    text: str = ""

    def to_json(self) -> list[Any]:
        if self.kind == "dealer" or self.kind == "packet":
            return [self.kind, self.value]
        if self.kind == "hand":
            return ["hand", _ROLE_NAMES[self.role], str(CardSet(self.value))]
        if self.kind == "exchange":
            out: list[Any] = ["exchange", _ROLE_NAMES[self.role], str(CardSet(self.value))]
            if self.cards:
                out.append(_order_text(self.cards))
            return out
        if self.kind == "take":
            return ["take", _ROLE_NAMES[self.role], _order_text(self.cards)]
        if self.kind == "penalty":
            out = ["penalty", _ROLE_NAMES[self.role], self.text]
            if self.value >= 0:
                out.append(DeclClass(self.value).label)
            return out
        if self.kind == "correct":
            return ["correct", _ROLE_NAMES[self.role], DeclClass(self.value).label]
        return ["action", self.text]


def _order_text(cards: Sequence[int]) -> str:
    return " ".join(str(CardSet(1 << c)) for c in cards)


def _ordered(text: str) -> tuple[int, ...]:
    """Cards in the order written (``CardSet.parse`` checks each and refuses repeats)."""
    text = text.strip()  # a refusal quotes the cards as entered, not the spaces around them
    CardSet.parse(text)
    from piquet.core.cards import Card

    tokens = [t for t in re.split(r"[\s,;]+", text.strip()) if t]
    out: list[int] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if len(tok) == 1 and i + 1 < len(tokens) and len(tokens[i + 1]) == 1:
            tok += tokens[i + 1]
            i += 1
        out.append(Card.parse(tok).index)
        i += 1
    return tuple(out)


# ====================================================================== the fold
@dataclass(frozen=True, slots=True)
class _Draft:
    """The current deal as entered: who deals, the hands, the cards taken, the actions."""

    dealer: int | None = None
    packet: int | None = None
    hands: tuple[int, int] = (0, 0)
    taken: tuple[tuple[int, ...] | None, tuple[int, ...] | None] = (None, None)
    actions: tuple[Action, ...] = ()
    started: bool = False
    penalties: tuple[Penalty, ...] = ()
    """The mistakes of the table recorded in this deal: its count follows them."""


def _deck(rules: Rules, draft: _Draft, packet: int) -> list[int]:
    """A pack order that deals the entered hands and puts the cards taken on top of the stock."""
    known = [c for t in draft.taken if t for c in t]
    rest = mask_cards(
        pack_mask(rules) & ~draft.hands[0] & ~draft.hands[1] & ~sum(1 << c for c in known)
    )
    # elder takes from the top, younger the next cards (elder's unused ones first);
    # cards not yet known to have been taken keep their places in any order
    stock = [*(draft.taken[0] or ()), *(draft.taken[1] or ()), *rest]
    return pack_dealing(draft.hands[0], draft.hands[1], stock, packet)


@dataclass(frozen=True, slots=True)
class _State:
    match: Match
    base: Match
    """The match as it stood when the current deal began."""
    draft: _Draft
    ended: _State | None = None
    """The deal that ended last, as it was entered (its base and draft): a penalty found
    after its end, before the next deal's cards are entered, is counted in it."""


def _dealt(state: _State, rules: Rules) -> Match:
    """The match with the current deal freshly dealt from the draft's cards."""
    base = state.base
    draft = state.draft
    dealer = draft.dealer if draft.dealer is not None else base.dealer
    if dealer not in base.in_game:
        raise IllegalActionError(f"player {dealer + 1} is not in this game")
    packet = draft.packet if draft.packet is not None else rules.packet_sizes[0]
    return base.with_pack(_deck(rules, draft, packet), dealer=dealer, packet=packet)


def _install(state: _State, rules: Rules) -> _State:
    """Rebuild the current deal from the draft: a fresh pack, the actions replayed."""
    base = state.base
    draft = state.draft
    m = _dealt(state, rules)
    if not draft.penalties or m.deal is None:
        for action in draft.actions:
            m = m.apply(action)
        return _State(m, base, draft, state.ended)
    # the deal's count follows the penalties: played on the deal, counted again at its end
    deal = m.deal
    for action in draft.actions:
        deal = deal.apply(action)
    if deal.is_over:
        deal = deal.rescored(penalized(deal, draft.penalties))
    return _State(m.with_deal(deal), base, draft, state.ended)


def _fold(rules: Rules, start: Match, steps: Sequence[_Step]) -> _State:
    state = _State(start, start, _Draft())
    for step in steps:
        state = _apply_step(state, step, rules)
    return state


def _apply_step(state: _State, step: _Step, rules: Rules) -> _State:
    draft = state.draft
    if step.kind == "penalty":
        return _penalty_step(state, step, rules)
    if state.match.finished:
        raise IllegalActionError("the match is over: nothing more can be entered (undo, or save)")
    if step.kind in ("dealer", "packet", "hand"):
        if draft.started:
            raise IllegalActionError(
                f"the cards of this deal are already entered; a {step.kind} entry comes "
                "before them (undo to change them)"
            )
        if step.kind == "dealer":
            return replace(state, draft=replace(draft, dealer=step.value))
        if step.kind == "packet":
            if step.value not in rules.packet_sizes:
                raise IllegalActionError(
                    f"{rules.name} deals by {', '.join(map(str, rules.packet_sizes))}, "
                    f"not {step.value}"
                )
            return replace(state, draft=replace(draft, packet=step.value))
        hands = list(draft.hands)
        other = hands[1 - step.role]
        if step.value & other:
            raise IllegalActionError(
                f"{CardSet(step.value & other)} cannot be dealt to both players"
            )
        hands[step.role] = step.value
        draft = replace(draft, hands=(hands[0], hands[1]))
        if hands[0] and hands[1]:
            draft = replace(draft, started=True)
            # (a carte blanche shown as it is dealt may end the deal, and the game, here)
            return _after(_install(replace(state, draft=draft), rules))
        return replace(state, draft=draft)
    if not draft.started:
        raise IllegalActionError("enter the twelve cards dealt to elder and to younger first")
    deal = state.match.deal
    assert deal is not None
    if step.kind == "take":
        taken = list(draft.taken)
        taken[step.role] = step.cards
        draft = replace(draft, taken=(taken[0], taken[1]))
        return _after(_install(replace(state, draft=draft), rules))
    if step.kind == "exchange":
        taken = list(draft.taken)
        if step.cards:
            taken[step.role] = step.cards
        draft = replace(
            draft,
            taken=(taken[0], taken[1]),
            actions=(*draft.actions, Discard(CardSet(step.value))),
        )
        return _after(_install(replace(state, draft=draft), rules))
    if step.kind == "correct":
        return _correct_step(state, step, rules)
    action = parse_action(step.text)
    draft = replace(draft, actions=(*draft.actions, action))
    if draft.penalties:  # the deal's end is counted with them: entered again whole
        return _after(_install(replace(state, draft=draft), rules))
    new_match_state = state.match.apply(action)
    return _after(_State(new_match_state, state.base, draft, state.ended))


def _after(state: _State) -> _State:
    """Start a new draft when the deal just ended."""
    m = state.match
    if m.finished:
        return state
    if len(m.deals) > len(state.base.deals):
        # the deal is over and settled: the next deal begins from here (the deal kept, for
        # a mistake found after it)
        return _State(m, m, _Draft(), replace(state, ended=None))
    return state


def _penalty_step(state: _State, step: _Step, rules: Rules) -> _State:
    """Record a mistake of the table in the deal in play, or in the deal that ended last
    while nothing of the next is entered (or the match is over): its count follows."""
    draft = state.draft
    if draft.started and not state.match.finished:
        target = state  # the deal in play
    elif state.match.finished and draft.started:
        target = state  # the match ended in this deal
    elif draft == _Draft() and state.ended is not None:
        target = state.ended  # found out after the deal, before the next deal's cards
    else:
        raise IllegalActionError(
            "a mistake is recorded in its deal, or after it before the next deal's cards "
            "are entered: " + ("no deal has been entered yet" if state.ended is None
                              else "the next deal's entries have begun (undo them first)")
        )
    penalty = Penalty(Mistake(step.text), Role(step.role),
                      DeclClass(step.value) if step.value >= 0 else None)
    deal = target.match.deal if target is state and not state.match.finished else None
    if deal is None:
        deal = target.match.last_deal
    assert deal is not None, "a deal was entered"
    verify_penalty(deal, penalty, target.draft.penalties)
    draft = replace(target.draft, penalties=(*target.draft.penalties, penalty))
    return _after(_install(replace(target, draft=draft), rules))


def _correct_step(state: _State, step: _Step, rules: Rules) -> _State:
    """Take back the words of a class of the declarations (and all after them), to be said
    again: where the text lets a word be recalled, by a player who has played no card."""
    deal = state.match.deal
    assert deal is not None
    cls = DeclClass(step.value)
    who = _ROLE_NAMES[step.role]
    if rules.call_correction is Correction.NONE:
        raise IllegalActionError(
            f"under {rules.name} the first word stands: a call is not corrected "
            "(call_correction)"
        )
    played_any = bool(deal.tricks) or deal.trick_lead is not None
    played_his = bool(deal.tricks) or (deal.trick_lead is not None and deal.leader == step.role)
    if played_his or (played_any and rules.call_correction is Correction.BEFORE_ANY_CARD):
        raise IllegalActionError(
            f"{'' if played_his else 'a card is played: '}{who}'s words stand"
            + (" (he has played a card)" if played_his else "")
        )
    # the first action of the class's declarations, replayed from the deal's start
    d = _dealt(state, rules).deal
    assert d is not None
    start = None
    spoke = False
    for i, action in enumerate(state.draft.actions):
        if d.phase is Phase.DECLARE and d.cls == cls:
            if start is None:
                start = i
            spoke = spoke or d.to_act == step.role
        d = d.apply(action)
    if start is None or not spoke:
        raise IllegalActionError(f"{who} has said nothing in the {cls.label} to take back")
    draft = replace(state.draft, actions=state.draft.actions[:start])
    return _install(replace(state, draft=draft), rules)


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
            return f"younger ({name}): look (at the stock cards left untaken) or decline"
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


_SHAPES: Final = {
    "penalty": '["penalty", "elder" or "younger", "false-claim", "not-shown" or "renounce", '
    'and for not-shown "point", "sequence" or "set"]',
    "correct": '["correct", "elder" or "younger", "point", "sequence" or "set"]',
    "hand": '["hand", "elder" or "younger", "CARDS"]',
    "exchange": '["exchange", "elder" or "younger", "CARDS LAID OUT", "CARDS TAKEN"]',
    "take": '["take", "elder" or "younger", "CARDS"]',
    "action": '["action", "ACTION"] (such as "play:QH")',
}


def _step_from_json(entry: Any) -> _Step:
    if not isinstance(entry, list) or not entry or not isinstance(entry[0], str):
        raise RecordError(f'an entry is a list such as ["action", "play:QH"], not {entry!r:.80}')
    kind = entry[0]
    if kind in ("dealer", "packet"):
        if len(entry) != 2 or type(entry[1]) is not int:
            raise RecordError(f'a {kind} entry is ["{kind}", NUMBER], not {entry!r:.80}')
        if kind == "dealer" and entry[1] not in (0, 1):
            shown = f"{entry[1]!r:.12}"
            raise RecordError(f"the dealer is player 0 or 1 (of the tally's two), not {shown}")
        return _Step(kind, value=entry[1])
    shape = _SHAPES.get(kind)
    if shape is None:
        raise RecordError(f"unknown entry kind {kind!r:.40}; the kinds are dealer, packet, "
                          f"{', '.join(_SHAPES)}")
    lengths = {"exchange": (3, 4), "action": (2,), "penalty": (3, 4)}.get(kind, (3,))
    if (
        len(entry) not in lengths
        or not all(isinstance(x, str) for x in entry[1:])
        or (kind != "action" and entry[1] not in _ROLE_NAMES)
    ):
        article = "an" if kind[0] in "aeiou" else "a"
        raise RecordError(f"{article} {kind} entry is {shape}, not {entry!r:.80}")
    if kind == "hand":
        return _Step("hand", role=_ROLE_NAMES.index(entry[1]), value=CardSet.parse(entry[2]).mask)
    if kind == "exchange":
        cards = _ordered(entry[3]) if len(entry) > 3 else ()
        return _Step(
            "exchange",
            role=_ROLE_NAMES.index(entry[1]),
            value=CardSet.parse(entry[2]).mask if entry[2].strip() not in ("", "-") else 0,
            cards=cards,
        )
    if kind == "take":
        return _Step("take", role=_ROLE_NAMES.index(entry[1]), cards=_ordered(entry[2]))
    if kind in ("penalty", "correct"):
        mistakes = [m.value for m in Mistake]
        label = entry[-1] if kind == "correct" or len(entry) == 4 else None
        bad = (kind == "penalty" and (entry[2] not in mistakes or (
            (entry[2] == Mistake.NOT_SHOWN.value) != (len(entry) == 4))))
        if bad or (label is not None and label not in _CLASSES):
            raise RecordError(f"a {kind} entry is {shape}, not {entry!r:.80}")
        cls = int(_CLASSES[label]) if label is not None else -1
        role = _ROLE_NAMES.index(entry[1])
        if kind == "correct":
            return _Step("correct", role=role, value=cls)
        return _Step("penalty", role=role, value=cls, text=entry[2])
    if kind == "action":
        parse_action(entry[1])
        return _Step("action", text=entry[1])
    raise RecordError(f"unknown entry kind {kind!r}")


def _takes_now(deal: Deal) -> bool:
    """The seat to act takes its cards as it lays out (not after elder's carte blanche)."""
    steps = deal.exchange_steps
    return bool(steps) and steps[0].kind is ExchangeKind.DISCARD


def _cards_in_order(text: str) -> list[Any]:
    from piquet.core.cards import Card

    body = text.strip()
    if body.lower().startswith("play"):
        body = body[4:].lstrip(" :")
    return [Card.from_index(c) for c in _ordered(body)]


_WORDS: Final[dict[str, Action]] = {
    "good": Answer(Reply.GOOD),
    "not good": Answer(Reply.NOT_GOOD),
    "not-good": Answer(Reply.NOT_GOOD),
    "equal": Answer(Reply.EQUAL),
    "making": Answer(Reply.MAKING),
    "making?": Answer(Reply.MAKING),
    "pass": Pass(),
    "ask": Question(True),
    "ask-missing": Question(True),
    "which one is missing?": Question(True),
    "which one did you lay out?": Question(True),
    "no question": Question(False),
    "no-question": Question(False),
    "look": Leftover(LeftoverChoice.LOOK),
    "decline": Leftover(LeftoverChoice.DECLINE),
}
_CLASSES: Final = {"point": DeclClass.POINT, "sequence": DeclClass.SEQUENCE, "set": DeclClass.SET}
_MISTAKE_WORDS: Final = (
    (("false", "claim"), Mistake.FALSE_CLAIM.value),
    (("not", "shown"), Mistake.NOT_SHOWN.value),
    (("renounce",), Mistake.RENOUNCE.value),
    (("correct",), "correct"),
)
"""The words of a mistake's entry, and its kind."""


#: what comes before the play, for a card entered too early
_PHASE_WORDS: Final = {
    Phase.BLANCHE: "carte blanche",
    Phase.EXCHANGE: "the exchange",
    Phase.LEFTOVERS: "the leftovers",
    Phase.APPOINT: "the leftovers",
    Phase.DECLARE: "the declarations",
}


def _friendly_action(text: str, deal: Deal, expecting: Callable[[], str]) -> Action:
    raw = text.strip()
    key = " ".join(raw.lower().split())
    if key in _WORDS:
        return _WORDS[key]
    word, _, rest = raw.partition(" ")
    w = word.lower()
    if w in _CLASSES and rest.strip():
        return Declare(_CLASSES[w], CardSet.parse(rest))
    if w == "blanche" and rest.strip().isascii() and rest.strip().isdigit():
        if len(rest.strip()) > 2:
            raise ParseError(f"blanche needs the number of cards to exchange; got "
                             f"{rest.strip()[:40]!r}")
        return AnnounceBlanche(int(rest))
    if w in ("name", "appoint") and rest.strip():
        return parse_action(f"{w}:{rest.strip()}")
    try:
        return parse_action(raw)
    except ParseError:
        pass
    try:
        CardSet.parse(raw)
    except ParseError:
        what = f"{raw!r} is not an entry"
    else:  # cards, entered before the play
        now = _PHASE_WORDS.get(deal.phase)
        what = f"{raw!r}: the cards played are entered once the play begins" + (
            f", not in {now}" if now else ""
        )
    raise ParseError(f"{what}; next: {expecting()} (type help for the entries)") from None


def mistake_note(step: _Step, rules: Rules, names: tuple[str, str] = ROLE_NAMES) -> str:
    """What a mistake entry (a ``penalty`` or ``correct`` step) does under ``rules``, and
    the passage of the rule set's text it follows (a house rule: the knob's value)."""
    if step.kind == "correct":
        what = (f"{names[step.role]} takes back what he said in the "
                f"{DeclClass(step.value).label}, to say it again with no penalty")
        knob = "call_correction"
    else:
        penalty = Penalty(Mistake(step.text), Role(step.role),
                          DeclClass(step.value) if step.value >= 0 else None)
        what = described(penalty, rules, names)
        knob = knob_of(penalty.mistake)
    if rules.is_preset:
        from piquet.core.sources import citation

        return f"{what} ({rules.name}, {citation(rules.name, knob)})"
    return f"{what} ({knob} = {knob_json(getattr(rules, knob))})"


def result_text(session: TallySession) -> str:
    """The match's settled result in words: who won, the scores, and what the players
    settle on (the rubicon, the partie's settlement, a lurch)."""
    res = session.match.result()
    winner = res.get("winner")
    scores = res.get("scores", [])
    who = "drawn" if winner is None else f"{session.names[winner]} wins"
    text = f"{who} ({', '.join(f'{n} {s}' for n, s in zip(session.names, scores, strict=False))})"
    if res.get("rubiconed"):
        text += "; the loser is rubiconed"
    if res.get("settled"):
        text += f"; settled at {res['settled']}"
    if res.get("lurch"):
        text += "; a lurch: the loser pays double"
    return text


_IDS: Final = re.compile(r"\b(?:declare:(point|sequence|set)|(blanche|name|appoint)):(?=\S)")


_ANSWER_IDS: Final = {"not-good": "not good", "no-question": "no question", "ask-missing": "ask"}
_ANSWERS: Final = re.compile(r"(?<![\w-])(not-good|no-question|ask-missing)(?![\w-])")


_YOU: Final = ((re.compile(r"\byou must\b"), "{} must"),
                (re.compile(r"\byou hold\b"), "{} holds"),
                (re.compile(r"\byou may\b"), "{} may"))


def _to_scorer(text: str, name: str) -> str:
    """An engine's message to the player to act ("you must follow spades: you hold QS") as
    the tally's scorer reads it ("Anne must follow spades: Anne holds QS")."""
    for pattern, words in _YOU:
        text = pattern.sub(words.format(name).replace("\\", r"\\"), text)
    return text


def in_words(text: str) -> str:
    """A message of the engine with its action ids written as the tally's entries.

    ``declare:point:AH KH QH`` -> ``point AH KH QH``; ``name:S`` -> ``name S``;
    ``not-good`` -> ``not good`` (as ``help`` lists the answers).
    """
    text = _IDS.sub(lambda m: f"{m.group(1) or m.group(2)} ", text)
    return _ANSWERS.sub(lambda m: _ANSWER_IDS[m.group(1)], text)


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
