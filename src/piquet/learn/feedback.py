"""Feedback after a deal and a game, in words, from facts only.

- :func:`class_results`: each class (point, sequences, sets) said with why it was won
  ("Your quint beats his quart."), from the dialog's facts;
- :func:`declaration_sums`: what each declaration counted, as the sum it is ("sixième
  16 + quint major 15 = 31"), so du Coeur's "Neuvième major. And sixième, quint major."
  no longer reads as 50 when 31 are counted;
- :func:`deal_summary`: both, then the play, for the end-of-deal summary;
- :func:`review_lines`: a finished game's review (:func:`piquet.review.deal.review_deal`'s
  results) with the biggest mistakes first, in words.

Every function reads public facts (the dialog, the score events, a review made once the deal
is over): what a role's view or the public view holds.  The table and the browser show the
lines; nothing here decides what may be seen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from piquet.core.actions import Reply
from piquet.core.dealtypes import Utterance
from piquet.core.declarations import DeclClass, score_of
from piquet.core.facts import Declared, FurtherHeld, Passed, PipsTold, Replied, Statement
from piquet.core.roles import Role
from piquet.core.rules import PointMeasure, Rules
from piquet.core.scoring import Event, Kind
from piquet.core.words import statement_words

__all__ = ["ClassResult", "class_results", "deal_summary", "declaration_sums", "review_lines"]

_KIND_OF: Final = {DeclClass.POINT: Kind.POINT, DeclClass.SEQUENCE: Kind.SEQUENCES,
                   DeclClass.SET: Kind.SETS}
_CLASS_NAME: Final = {DeclClass.POINT: "the point", DeclClass.SEQUENCE: "the sequences",
                      DeclClass.SET: "the sets"}


@dataclass(frozen=True, slots=True)
class ClassResult:
    """One class of a deal: who won it (None: nobody), and why, in words."""

    cls: DeclClass
    winner: Role | None
    text: str


def _who(role: Role, reader: Role | None, names: tuple[str, str]) -> str:
    return "you" if role == reader else names[role]


def _whose(role: Role, reader: Role | None, names: tuple[str, str]) -> str:
    return "your" if role == reader else f"{names[role]}'s"


def _said(s: Statement, rules: Rules) -> str:
    return statement_words(s, rules)


def class_results(
    dialog: Sequence[Utterance],
    rules: Rules,
    *,
    reader: Role | None = None,
    names: tuple[str, str] = ("elder", "younger"),
) -> list[ClassResult]:
    """Each class declared so far, who won it and why, told to ``reader`` (his own role is
    "you"), from the dialog's facts."""
    out = []
    for cls in DeclClass:
        facts = [u.fact for u in dialog if u.cls is cls]
        if not facts:
            continue
        said: dict[Role, Statement] = {}
        pips: dict[Role, int] = {}
        reply: Reply | None = None
        passed: set[Role] = set()
        for f in facts:
            if isinstance(f, Declared):
                said.setdefault(f.role, f.said)
            elif isinstance(f, Replied) and f.reply is not Reply.MAKING:
                reply = f.reply
            elif isinstance(f, PipsTold):
                pips[f.role] = f.pips
            elif isinstance(f, Passed):
                passed.add(f.role)
        out.append(_one_class(cls, said, pips, reply, passed, rules, reader, names))
    return out


def _one_class(
    cls: DeclClass,
    said: dict[Role, Statement],
    pips: dict[Role, int],
    reply: Reply | None,
    passed: set[Role],
    rules: Rules,
    reader: Role | None,
    names: tuple[str, str],
) -> ClassResult:
    e, y = Role.ELDER, Role.YOUNGER
    what = _CLASS_NAME[cls]

    def holding(role: Role) -> str:
        s = said[role]
        words = _said(s, rules)
        if role in pips and cls is DeclClass.POINT and rules.point_measure is PointMeasure.CARDS \
                and not s.pips:
            words += f", making {pips[role]}"
        return words

    if reply is Reply.EQUAL:
        return ClassResult(cls, None, f"{what.capitalize()}: equal ({holding(e)} each way), so "
                           "neither counts it.")
    if e in said and y in said:
        win, lose = (y, e) if reply is Reply.NOT_GOOD or reply is None else (e, y)
        why = _beats(cls, said[win], said[lose], pips, win, lose, rules)
        text = (f"{_whose(win, reader, names).capitalize()} {holding(win)} beats "
                f"{_whose(lose, reader, names)} {holding(lose)}{why}: "
                f"{_who(win, reader, names)} won {what}.")
        return ClassResult(cls, win, text)
    if e in said:
        if reply is Reply.GOOD:
            text = (f"{_whose(e, reader, names).capitalize()} {holding(e)} stood (“good”): "
                    f"{_who(y, reader, names)} had nothing better to show, or sank it.")
            return ClassResult(cls, e, text)
        return ClassResult(cls, None, f"{_whose(e, reader, names).capitalize()} "
                           f"{holding(e)} was declared; {what} is not decided yet.")
    if y in said:
        text = (f"{_who(e, reader, names).capitalize()} declared no {cls.label}, so "
                f"{_whose(y, reader, names)} {holding(y)} won {what} alone.")
        return ClassResult(cls, y, text)
    if passed:
        return ClassResult(cls, None, f"Nobody declared {what}.")
    return ClassResult(cls, None, f"{what.capitalize()} is being declared.")


def _beats(cls: DeclClass, win: Statement, lose: Statement, pips: dict[Role, int], w: Role,
           lo: Role, rules: Rules) -> str:
    """Why the winning holding beats the other: " (more cards)", " (the higher)", ..."""
    if cls is DeclClass.POINT:
        if rules.point_measure is PointMeasure.CARDS:
            if win.size != lose.size:
                return " (more cards)"
            if w in pips and lo in pips:
                return f" (as many cards, and {pips[w]} pips to {pips[lo]})"
            return " (as many cards, more pips)"
        return " (more pips)"
    if cls is DeclClass.SEQUENCE:
        return " (longer)" if win.size != lose.size else " (as long, and higher)"
    if win.size != lose.size and rules.quatorze_beats_trio:
        return " (four of a rank beat any three)"
    return " (higher)"


# ---------------------------------------------------------------------- the sums
def declaration_sums(
    dialog: Sequence[Utterance],
    events: Sequence[Event],
    rules: Rules,
    *,
    reader: Role | None = None,
    names: tuple[str, str] = ("elder", "younger"),
) -> list[str]:
    """What each class's winner counted, as the sum it is, from the holdings he announced
    and the points the count gave him.  Where the announced holdings add up to more than
    was counted (du Coeur's sequences in any suits, split into the runs that count most),
    the line says which runs counted and that the others only decided the class."""
    out = []
    for cls, kind in _KIND_OF.items():
        ev = [e for e in events if e.kind is kind]
        if not ev:
            continue
        role = Role(ev[0].role)
        points = sum(e.points for e in ev)
        claimed = [u.fact.said for u in dialog
                   if u.cls is cls and u.role == role and isinstance(u.fact, Declared)][:1]
        extras = [s for u in dialog if u.cls is cls and u.role == role
                  and isinstance(u.fact, FurtherHeld) for s in u.fact.said]
        who = _who(role, reader, names).capitalize()
        if not claimed:
            out.append(f"{who} counted {points} for {_CLASS_NAME[cls]}.")
            continue
        parts = [*claimed, *extras]
        total = sum(score_of(s, rules) for s in parts)
        if total == points and len(parts) == 1:
            out.append(f"{who} counted {points} for {_CLASS_NAME[cls]} "
                       f"({_said(parts[0], rules)}).")
        elif total == points:
            out.append(f"{who} counted {points} for {_CLASS_NAME[cls]}: {_sum(parts, rules)}.")
        elif extras and sum(score_of(s, rules) for s in extras) == points:
            decided = _said(claimed[0], rules)
            out.append(
                f"{who} counted {points} for {_CLASS_NAME[cls]}: {_sum(extras, rules)}. The "
                f"{decided} won the class; its cards are counted in these runs (each card "
                "counts in one sequence only), so it does not count again."
            )
        else:
            out.append(f"{who} counted {points} for {_CLASS_NAME[cls]} "
                       f"({', '.join(_said(s, rules) for s in parts)}).")
    for e in events:
        if e.kind in (Kind.REPIQUE, Kind.PIQUE, Kind.BLANCHE):
            word = {Kind.REPIQUE: "a repique", Kind.PIQUE: "a pique",
                    Kind.BLANCHE: "carte blanche"}[e.kind]
            who = _who(Role(e.role), reader, names).capitalize()
            out.append(f"{who} counted {e.points} for {word}" + (f" ({e.note})." if e.note
                                                                  else "."))
    return out


def _sum(parts: Sequence[Statement], rules: Rules) -> str:
    """"quatorze of aces 14 + three knaves 3 = 17" (one holding: "point of five, 5")."""
    if len(parts) == 1:
        return f"{_said(parts[0], rules)}, {score_of(parts[0], rules)}"
    total = sum(score_of(s, rules) for s in parts)
    return " + ".join(f"{_said(s, rules)} {score_of(s, rules)}" for s in parts) + f" = {total}"


def deal_summary(
    dialog: Sequence[Utterance],
    events: Sequence[Event],
    rules: Rules,
    *,
    reader: Role | None = None,
    names: tuple[str, str] = ("elder", "younger"),
) -> list[str]:
    """The end-of-deal summary in words: each class and why, the sums, then the play."""
    lines = [r.text for r in class_results(dialog, rules, reader=reader, names=names)]
    lines += declaration_sums(dialog, events, rules, reader=reader, names=names)
    for role in (Role.ELDER, Role.YOUNGER):
        play = sum(e.points for e in events
                   if e.role == role and e.kind in (Kind.LEAD, Kind.TRICK, Kind.LAST_TRICK))
        cards = [e for e in events if e.role == role and e.kind in (Kind.CARDS, Kind.CAPOT)]
        who = _who(role, reader, names).capitalize()
        if play:
            lines.append(f"{who} counted {play} in the play (leads, tricks and the last trick).")
        for e in cards:
            what = "capot, all twelve tricks" if e.kind is Kind.CAPOT else "the cards"
            lines.append(f"{who} counted {e.points} for {what}.")
    return lines


# ---------------------------------------------------------------------- the review
def review_lines(
    reviews: Sequence[dict[str, Any]],
    *,
    player: int | None = None,
    names: Sequence[str] | None = None,
    top: int = 5,
) -> list[str]:
    """A game's review (one :func:`piquet.review.deal.review_deal` result a deal), the biggest
    mistakes first (``player``'s only, when given): what was played, what was better, what
    it cost, in words."""
    found: list[tuple[float, str]] = []

    def who(p: int) -> str:
        if player is not None and p == player:
            return "you"
        return names[p] if names is not None and p < len(names) else f"player {p + 1}"

    for r in reviews:
        deal = r.get("number", "?")
        for x in r.get("exchange", []):
            loss = x.get("loss")
            if loss is None or loss <= 0.5 or (player is not None and x["player"] != player):
                continue
            found.append((loss, (
                f"Deal {deal}, the exchange: {who(x['player'])} laid out "
                f"{' '.join(x['made'])}; laying out {' '.join(x['best'])} was better by about "
                f"{loss:.1f} points of the deal.")))
        for x in r.get("declarations", []):
            loss = x.get("loss", 0)
            if loss <= 0 or (player is not None and x["player"] != player):
                continue
            what = f" ({x['class']})" if x.get("class") else ""
            found.append((loss, (
                f"Deal {deal}, the declarations{what}: {who(x['player'])} chose “{x['made']}”; "
                f"“{x['expert']}” was better, by {loss} points of this deal.")))
        for x in r.get("play", []):
            drop = x.get("drop", 0)
            if drop <= 0 or (player is not None and x["player"] != player):
                continue
            found.append((drop, (
                f"Deal {deal}, trick {x['trick']}: {who(x['player'])} played {x['card']}; "
                f"{' or '.join(x['best'])} would have kept {drop} more points of the deal.")))
    found.sort(key=lambda t: -t[0])
    if not found:
        return ["No choice in this game cost more than half a point of a deal: well played."]
    return [text for _, text in found[:top]]
