"""A tally as the page is sent it: the score, what comes next, the entries, the deal's cards.

A tally is open-handed (the players enter every card), so its deal is shown whole, both
hands; the dialog and the score events have the shape of a seat's view
(:func:`piquet.core.view.dialog_json`, :func:`~piquet.core.view.events_json`) with the
players' names added.
"""

from __future__ import annotations

from typing import Any, Final

from piquet.core.actions import Appoint, Declare, NameLead
from piquet.core.cards import Card, CardSet
from piquet.core.deal import ELDER, ROLE_NAMES, YOUNGER, Deal, Phase
from piquet.core.view import dialog_json, events_json, played_by
from piquet.tally import TallySession, help_text, in_words, result_text

__all__ = ["action_text", "speak", "step_text", "tally_json"]

ROLES: Final = ROLE_NAMES


_FRIENDLY: Final = {"not-good": "not good", "no-question": "no question", "ask-missing": "ask"}


def action_text(text: str) -> str:
    """An engine action id as the tally's words: ``play:QH`` -> ``QH``, ``not-good`` -> ..."""
    if text in _FRIENDLY:
        return _FRIENDLY[text]
    kind, _, rest = text.partition(":")
    if kind == "play":
        return rest
    if kind == "declare":
        cls, _, cards = rest.partition(":")
        return f"{cls} {cards}"
    if kind in ("blanche", "name", "appoint") and rest:
        return f"{kind} {rest}"
    return text


speak = in_words  # the engine's action ids in the tally's words (piquet.tally)


def step_text(step: list[Any], names: tuple[str, str]) -> str:
    """One stored entry (``_Step.to_json``) written as a line the tally reads again."""
    kind = step[0]
    if kind == "dealer":
        return f"dealer {names[int(step[1])]}"
    if kind == "packet":
        return f"packet {step[1]}"
    if kind == "hand":
        return f"{step[1]} {step[2]}"
    if kind == "exchange":
        out = f"{step[1]}: discard {step[2] or '-'}"
        return out + (f" take {step[3]}" if len(step) > 3 else "")
    if kind == "take":
        return f"{step[1]}: take {step[2]}"
    if kind == "penalty":
        words = str(step[2]).replace("-", " ")
        return f"{words} {step[1]}" + (f" {step[3]}" if len(step) > 3 else "")
    if kind == "correct":
        return f"correct {step[1]} {step[2]}"
    return action_text(str(step[1]))


def _cards(mask: int) -> list[str]:
    return [str(c) for c in CardSet(mask)]


def _draft(session: TallySession) -> tuple[int | None, dict[int, int]]:
    """Before a deal's cards are all entered: the dealer named and the hands entered so far.

    These are the trailing dealer/packet/hand entries (anything else belongs to a deal).
    """
    dealer: int | None = None
    hands: dict[int, int] = {}
    for step in reversed(session.steps):
        js = step.to_json()
        if js[0] == "hand":
            role = ROLES.index(js[1])
            if role not in hands:
                hands[role] = CardSet.parse(js[2]).mask
        elif js[0] == "dealer":
            if dealer is None:
                dealer = int(js[1])
        elif js[0] != "packet":
            break
    return dealer, hands


def _words(deal: Deal) -> list[str]:
    if deal.phase in (Phase.EXCHANGE, Phase.PLAY, Phase.OVER):
        return []
    out: list[str] = []
    for a in deal.legal_actions():
        # a declaration, or a card to name or appoint, is made with its key word and the
        # card picker, not with a button each (32 of them filled a phone's screen)
        if isinstance(a, Declare) or (isinstance(a, NameLead | Appoint) and a.card is not None):
            continue
        w = action_text(str(a))
        if w not in out:
            out.append(w)
    return out


def _deal_json(session: TallySession) -> dict[str, Any] | None:
    m = session.match
    names = session.names
    if m.finished:
        return None
    deal = session.deal
    empty: dict[str, Any] = {
        "dialog": [],
        "events": [],
        "tricks": [],
        "trick_lead": None,
        "points": {"elder": 0, "younger": 0},
        "words": [],
        "discard_range": None,
        "pending_take": None,
    }
    if deal is None:
        named, hands = _draft(session)
        dealer = named if named is not None else m.dealer
        other = m.in_game[0] if m.in_game[1] == dealer else m.in_game[1]
        who = {ELDER: other, YOUNGER: dealer}
        cards = {
            ROLES[r]: {
                "name": names[who[r]],
                "dealt": _cards(hands.get(r, 0)),
                "hand": _cards(hands.get(r, 0)),
                "discards": [],
                "taken": [],
                "taken_unknown": 0,
                "played": [],
            }
            for r in (ELDER, YOUNGER)
        }
        return {
            **empty,
            "phase": "cards",
            "dealer": names[dealer],
            "to_act": None,
            "to_act_name": None,
            "cards": cards,
        }
    pending = session.pending_take()
    player = (m.player_of(ELDER), m.player_of(YOUNGER))
    cards = {}
    for r in (ELDER, YOUNGER):
        unknown = deal.taken[r] if pending == r else 0
        cards[ROLES[r]] = {
            "name": names[player[r]],
            "dealt": _cards(deal.dealt[r]),
            "hand": _cards(deal.hands[r] & ~unknown),
            "discards": _cards(deal.discards[r]),
            "taken": _cards(deal.taken[r] & ~unknown),
            "taken_unknown": unknown.bit_count(),
            "played": _cards(played_by(deal, r)),
        }
    to_act = deal.to_act if pending is None else pending
    return {
        "phase": deal.phase.value,
        "dealer": names[player[YOUNGER]],
        "to_act": None if to_act is None else ROLES[to_act],
        "to_act_name": None if to_act is None else names[player[to_act]],
        "pending_take": None if pending is None else ROLES[pending],
        "discard_range": list(deal.discard_range())
        if deal.phase is Phase.EXCHANGE and pending is None
        else None,
        "cards": cards,
        **_said_and_counted(deal, names, player),
        "tricks": [t.to_json() for t in deal.tricks],
        "trick_lead": None if deal.trick_lead is None else str(Card.from_index(deal.trick_lead)),
        "points": {"elder": deal.scores[ELDER], "younger": deal.scores[YOUNGER]},
        "words": [] if pending is not None else _words(deal),
    }


def _said_and_counted(
    deal: Deal, names: tuple[str, ...], player: tuple[int, int]
) -> dict[str, list[dict[str, Any]]]:
    """The deal's dialog and score events as the page shows them, each with the name of
    the player (``player``: elder's, younger's) who said or counted it."""
    return {
        "dialog": [
            {**line, "name": names[player[u.role]]}
            for u, line in zip(deal.dialog, dialog_json(deal.dialog), strict=True)
        ],
        "events": [
            {**line, "name": names[player[e.role]]}
            for e, line in zip(deal.events, events_json(deal.events), strict=True)
        ],
    }


def _last_deal_json(session: TallySession) -> dict[str, Any] | None:
    """The dialog and counts of the deal that finished last, while no deal is being
    entered (between deals, and when the match is over), so that what was said stays on
    the page until the next deal's cards are entered; else ``None``."""
    m = session.match
    end = m.last_deal
    if end is None or not m.deals or session.deal is not None:
        return None
    summary = m.deals[-1]
    names = session.names
    player = summary.players
    return {
        "game": summary.game,
        "number": summary.number,
        **_said_and_counted(end, names, player),
        "points": {"elder": summary.points[ELDER], "younger": summary.points[YOUNGER]},
    }


def _entries(session: TallySession) -> list[dict[str, Any]]:
    """Every step so far as a line, with the player who acted where it is an action, and
    the entry it belongs to (``entry``: cards played in one line are one entry, which
    ``undo`` takes back whole; the page shows them as one).

    The engine's history holds one (player, action) for each exchange and action entry,
    in order; the hands, dealer and cards-taken entries are nobody's move.
    """
    names = session.names
    history = session.match.history
    steps = [s.to_json() for s in session.steps]
    acting = [s for s in steps if s[0] in ("exchange", "action")]
    by_history = len(acting) == len(history)
    out = []
    h = 0
    entry_of = session.step_entries
    notes = session.notes()
    for n, js in enumerate(steps, 1):
        by = None
        if js[0] in ("exchange", "action"):
            if by_history:
                by = names[history[h][0]]
            h += 1
        out.append({"n": n, "text": step_text(js, names), "by": by, "entry": entry_of[n - 1],
                    "note": notes.get(n - 1)})
    return out


def _result_text(session: TallySession) -> str | None:
    if not session.match.finished:
        return None
    text = result_text(session)
    return text[0].upper() + text[1:] + "."


def tally_json(tally_id: str, version: int, session: TallySession) -> dict[str, Any]:
    """What the page is sent: the score, what comes next, the entries, the deal's cards."""
    m = session.match
    names = session.names
    scores = session.scores
    return {
        "id": tally_id,
        "rules": session.rules.name,
        "format": session.format.value,
        "games": session.games,
        "names": list(names),
        "deck_size": session.rules.deck_size,
        "n": len(session.steps),
        "version": version,
        "scores": [scores.get(n, 0) for n in names],
        "game_number": m.game_number,
        "deal_number": m.deal_number,
        "expecting": speak(session.expecting()),
        "finished": m.finished,
        "result": m.result() if m.finished else None,
        "result_text": _result_text(session),
        "entries": _entries(session),
        "deal": _deal_json(session),
        "last_deal": _last_deal_json(session),
        "deals": [
            {
                "game": d.game,
                "number": d.number,
                "dealer": names[d.dealer],
                "elder": names[d.players[0]],
                "younger": names[d.players[1]],
                "points": list(d.points),
                "by_kind": [dict(d.by_kind[0]), dict(d.by_kind[1])],
            }
            for d in m.deals
        ],
        "games_done": [
            {
                "number": g.number,
                "players": [names[p] for p in g.players],
                "scores": list(g.scores),
                "winner": None if g.winner is None else names[g.winner],
                "lurch": g.lurch,
                "settled": g.settled,
                "rubiconed": g.rubiconed,
            }
            for g in m.games
        ],
        "help": help_text(session.rules),
    }


