"""The table as one player sees it, written as lines of Rich markup.

Everything here is built from a :class:`~piquet.core.match.MatchView` (and the
rule set, which is public): the player's hand sorted by suit and numbered,
the score and the stage of the game, the stock cards the player has seen, his
discards, what the other has shown and said, the tricks so far and who leads.
Nothing else is read, so nothing hidden can show.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rich.markup import escape
from rich.text import Text

from piquet.core.cards import Card, CardSet
from piquet.core.deal import ELDER, ROLE_NAMES, YOUNGER, Phase, Utterance
from piquet.core.match import MatchView
from piquet.core.rules import Format, Rules
from piquet.core.scoring import Event, Kind
from piquet.core.view import DealView, lead_binding, open_trick_leader
from piquet.core.words import Voice, narrated, voice
from piquet.table.dealend import counted_by, deal_end
from piquet.table.menu import class_word

__all__ = [
    "card_markup",
    "cards_markup",
    "deal_end_lines",
    "exclamation",
    "hand_lines",
    "SAID_LINES",
    "stage",
    "table_lines",
    "trick_lines",
]

_EXCLAIM: Final = {
    Kind.PIQUE: "Pique!",
    Kind.REPIQUE: "Repique!",
    Kind.CAPOT: "Capot!",
}


def card_markup(card: Card) -> str:
    """A card as markup: hearts and diamonds in red."""
    text = str(card)
    return f"[red]{text}[/red]" if card.suit in (1, 2) else text


def cards_markup(cards: CardSet | Sequence[Card]) -> str:
    return " ".join(card_markup(c) for c in cards)


def _role_names(view: MatchView, me: str) -> tuple[str, str]:
    """Names of (elder, younger) for the viewer: "you" for himself."""
    deal = view.deal
    assert deal is not None
    out = []
    for role in (ELDER, YOUNGER):
        out.append(me if role == deal.role else _opponent(view))
    return out[0], out[1]


def _opponent(view: MatchView) -> str:
    a, b = view.in_game
    other = b if a == view.player else a
    return view.names[other]


def say_line(u: Utterance, viewer: int | None, names: tuple[str, str]) -> str:
    """One utterance for the table: speech quoted after the speaker's name."""
    text = u.text
    how = voice(u.fact)
    if how is Voice.NARRATION:
        return escape(narrated(u.fact, viewer, names))
    if how is Voice.DEED:
        line = narrated(u.fact, viewer, names)
        if u.shown:
            shown = CardSet(u.shown)
            line = line.replace(str(shown), cards_markup(shown))
            return line
        return escape(line)
    who = "You" if u.role == viewer else names[u.role]
    return f'{escape(who)}: "{escape(text)}"'


def exclamation(e: Event, viewer: int | None, names: tuple[str, str]) -> str | None:
    """What a player cries on a pique, a repique or a capot."""
    word = _EXCLAIM.get(e.kind)
    if word is None:
        return None
    who = "You" if e.role == viewer else names[e.role]
    return f'{escape(who)}: "[bold]{word}[/bold]"'


def stage(view: MatchView, rules: Rules) -> str:
    """The stage of the deal in words."""
    deal = view.deal
    if view.finished or deal is None:
        return "the match is over"
    phase = deal.phase
    if phase is Phase.DEAL:
        return "the deal"
    if phase is Phase.BLANCHE:
        return "carte blanche"
    if phase is Phase.EXCHANGE:
        return "the exchange"
    if phase in (Phase.LEFTOVERS, Phase.APPOINT):
        return "the leftovers"
    if phase is Phase.DECLARE:
        cls = deal.declaring
        return "declarations" + (f": the {class_word(cls, rules)}" if cls is not None else "")
    if phase is Phase.PLAY:
        n = len(deal.tricks) + 1
        return f"the play, trick {min(n, 12)} of 12"
    return "the deal is over"


def _cells(markup: str) -> int:
    """Columns a line of markup takes on the screen."""
    return Text.from_markup(markup).cell_len


def hand_lines(
    hand: CardSet, *, numbered: bool = True, label: str = "Your hand",
    columns: int | None = None,
) -> list[str]:
    """The hand by suit, and under each card its number; in two parts when it is wider
    than ``columns`` (each card keeps its number under it)."""
    cards = list(hand)
    if not cards:
        return [f"[bold]{label}[/bold]  (none)"]
    lines = _hand_rows(cards, 1, label, numbered)
    if columns is not None and len(cards) > 1 and max(map(_cells, lines)) > columns:
        half = (len(cards) + 1) // 2
        lines = (_hand_rows(cards[:half], 1, label, numbered)
                 + _hand_rows(cards[half:], half + 1, " " * len(label), numbered))
    return lines


def _hand_rows(cards: list[Card], first: int, label: str, numbered: bool) -> list[str]:
    top = []
    bottom = []
    prev_suit = None
    for n, c in enumerate(cards, first):
        gap = "   " if prev_suit is not None and c.suit != prev_suit else " "
        if prev_suit is None:
            gap = ""
        top.append(gap + card_markup(c))
        bottom.append(gap + f"{n:>2}")
        prev_suit = c.suit
    pad = " " * (len(label) + 2)
    lines = [(f"[bold]{label}[/bold]  " if label.strip() else pad) + "".join(top)]
    if numbered:
        lines.append(pad + "".join(bottom))
    return lines


def trick_lines(
    deal: DealView, names: tuple[str, str], viewer: int | None, columns: int | None = None
) -> list[str]:
    """The tricks so far in two rows, one per player: > led, * won; in blocks of six
    tricks when twelve are wider than ``columns``."""
    tricks = list(deal.tricks)
    if not tricks and deal.trick_lead is None:
        return []
    rows: dict[int, list[str]] = {ELDER: [], YOUNGER: []}
    for t in tricks:
        for role, idx in ((t.leader, t.lead), (1 - t.leader, t.follow)):
            mark = (" >" if role == t.leader else "  ") + card_markup(Card.from_index(idx))
            mark += "*" if role == t.winner else " "
            rows[role].append(mark)
    if deal.trick_lead is not None:
        # who led the open trick is a fact of the tricks, not of who is to act (nobody is,
        # when the game ends on the card led)
        leader = open_trick_leader(deal)
        rows[leader].append(" >" + card_markup(Card.from_index(deal.trick_lead)) + " ")
        rows[1 - leader].append("  ..")
    width = max(len(n) for n in names) + 1
    order = (viewer, 1 - viewer) if viewer is not None else (ELDER, YOUNGER)
    count = len(rows[ELDER])
    block = count
    if columns is not None and width + 1 + 5 * 12 > columns:
        block = 6  # twelve tricks would not fit: two blocks of six, one under the other
    lines = ["[bold]Tricks[/bold]  (> led, * won)"]
    for start in range(0, max(count, 1), max(block, 1)):
        stop = min(count, start + block)
        lines.append(" " * width + " " + "".join(f"{i:>4} " for i in range(start + 1, stop + 1)))
        for role in order:
            lines.append(f"{escape(names[role]):<{width}} " + "".join(rows[role][start:stop]))
    return lines


def _score_line(view: MatchView, rules: Rules, me: str) -> str:
    a, b = view.in_game

    def who(p: int) -> str:
        return me if p == view.player else view.names[p]

    line = (
        f"[bold]Score[/bold]  {escape(who(a))} {view.scores[0]} · {escape(who(b))} {view.scores[1]}"
    )
    if view.format is Format.PARTIE:
        played = sum(1 for d in view.deals if d.game == view.game_number)
        line += f"   (partie of {rules.partie_deals} deals: {played} played)"
    else:
        line += f"   (game: {rules.target} up)"
    if view.games and view.format is not Format.POOL:
        # a match of several games: the games won so far (a lurch counts two)
        won = dict.fromkeys(view.players, 0)
        for g in view.games:
            if g.winner is not None:
                won[g.winner] += g.stake
        lurched = " (a lurch counts two)" if any(g.stake > 1 for g in view.games) else ""
        line += f"   game {view.game_number}; games won{lurched}: " + ", ".join(
            f"{escape(who(p))} {won[p]}" for p in view.players)
    if view.format is Format.POOL:
        ledger = ", ".join(f"{escape(who(p))} {v:+d}" for p, v in enumerate(view.ledger))
        line += f"   pool {view.pool}; ledger {ledger}"
    return line


SAID_LINES: Final = 7
"""The most lines of the dialog the table shows (the latest)."""


def table_lines(
    view: MatchView,
    rules: Rules,
    *,
    me: str = "You",
    said: int = SAID_LINES,
    compact: bool = False,
    columns: int | None = None,
) -> list[str]:
    """The whole table for the player of ``view``, as lines of markup.

    ``said``: how many of the latest lines of the dialog to show; ``compact``: no blank
    lines between the parts.  A small terminal asks for fewer (the title, the score and
    the hand always come first, so they stay on the screen); ``columns``: the screen's
    width, which folds the hand and the tricks when they would not fit.
    """
    lines = _table_lines(view, rules, me=me, said=said, columns=columns)
    if compact:
        lines = [x for x in lines if x]
    return lines


def said_lines(view: MatchView, *, me: str) -> list[str]:
    """Everything said in the deal in play, from ``view``'s seat, in order (the table
    shows the last few lines only)."""
    deal = view.deal
    if deal is None:
        return []
    names = _role_names(view, me)
    spoken = [say_line(u, deal.role, names) for u in deal.dialog]
    spoken += [x for e in deal.events if (x := exclamation(e, deal.role, names)) is not None]
    return spoken


def _table_lines(
    view: MatchView, rules: Rules, *, me: str, said: int, columns: int | None = None
) -> list[str]:
    deal = view.deal
    title = (
        f"[bold]Piquet[/bold] · {escape(rules.name)} · game {view.game_number}, "
        f"deal {view.deal_number} · {stage(view, rules)}"
    )
    lines = [title, _score_line(view, rules, me)]
    if deal is None:
        return lines
    names = _role_names(view, me)
    opp = _opponent(view)
    role_word = ROLE_NAMES[deal.role]
    dealer = "you" if view.dealer == view.player else escape(view.names[view.dealer])
    seat_line = f"{dealer[:1].upper() + dealer[1:]} dealt; you are {role_word}"
    if view.format is Format.POOL:
        out = [p for p in range(3) if p not in view.in_game]
        if out:
            seat_line += f"; {escape(view.names[out[0]])} sits out"
    seat_line += f".   This deal: you {counted_by(deal.events, deal.role).words()}"
    seat_line += f" · {escape(opp)} {counted_by(deal.events, 1 - deal.role).words()}"
    lines.append(seat_line)
    lines.append("")
    if deal.phase is Phase.DEAL:
        lines.append("[bold]Your hand[/bold]  (not dealt yet)")
    else:
        lines += hand_lines(deal.hand, numbered=deal.phase is not Phase.OVER, columns=columns)
    facts = []
    if deal.stock_count:
        facts.append(f"stock {deal.stock_count}")
    if deal.discards:
        facts.append(f"your discards {cards_markup(deal.discards)}")
    if deal.taken:
        facts.append(f"you took {cards_markup(deal.taken)}")
    # the stock cards seen, told apart: elder's leftovers (the other takes from them first)
    # and younger's, what is left in the stock when he has taken
    unused = CardSet(deal.stock_seen.mask & deal.elder_leftovers_seen.mask)
    left = CardSet(deal.stock_seen.mask & deal.leftovers_seen.mask & ~unused.mask)
    rest = CardSet(deal.stock_seen.mask & ~unused.mask & ~left.mask)
    if unused:
        whose = "your" if deal.role == 0 else "elder's"
        facts.append(f"{whose} leftovers {cards_markup(unused)}")
    if deal.leftovers_seen:
        whose = "your" if deal.role == 1 else "younger's"
        facts.append(f"{whose} leftovers {cards_markup(deal.leftovers_seen)}")
    if rest:
        facts.append(f"seen of the stock {cards_markup(rest)}")
    if facts:
        lines.append("  " + " · ".join(facts))
    other = []
    if deal.opponent_discard_count:
        other.append(f"discarded {deal.opponent_discard_count}")
    if deal.opponent_shown:
        other.append(f"has shown {cards_markup(deal.opponent_shown)}")
    if deal.seen_by_opponent:
        other.append(f"has seen your {cards_markup(deal.seen_by_opponent)}")
    if other:
        lines.append(f"  {escape(opp)}: " + " · ".join(other))
    binding = lead_binding(deal)
    if binding is not None and deal.lead_rule is not None:
        named = deal.lead_rule.words
        how = "appointed" if binding.appointed else "named"
        if binding.held is False:  # elder holds none of it: any lead
            who = "you hold" if deal.role == ELDER else f"{escape(opp)} holds"
            lines.append(f"  The first lead: {named} was {how}, but {who} none of it, so the "
                         "lead is free.")
        elif binding.held is None:  # younger cannot know
            lines.append(f"  The first lead: {named} was {how}: {escape(opp)} must lead it "
                         "if able.")
        else:
            bound = "you are" if deal.role == ELDER else f"{escape(opp)} is"
            lines.append(f"  The first lead: {bound} bound to lead {named}.")
    spoken = said_lines(view, me=me)
    if spoken and said > 0:
        lines.append("")
        shown = spoken[-said:]
        head = "[bold]Said[/bold]" + (
            f" (last {len(shown)})" if len(spoken) > len(shown) else ""
        )
        lines.append(head)
        lines += [f"  {s}" for s in shown]
    tl = trick_lines(deal, names, deal.role, columns)
    if tl:
        lines.append("")
        lines += tl
        won = deal.tricks_won
        lines.append(f"  tricks won: you {won[deal.role]} · {escape(opp)} {won[1 - deal.role]}")
    return lines


def deal_end_lines(
    final: DealView, view: MatchView, rules: Rules, *, me: str = "You",
    columns: int | None = None,
) -> list[str]:
    """The end of a deal for one player: the tricks, what each counted, the game's score.

    ``final`` is the player's view of the finished deal, ``view`` his view of the
    match after it.
    """
    end = deal_end(final, view)
    summary = end.summary
    names_pair = (
        me if final.role == ELDER else _name_of(view, summary, ELDER),
        me if final.role == YOUNGER else _name_of(view, summary, YOUNGER),
    )
    head = "[bold]The deal is over.[/bold]"
    if summary is not None:
        head = f"[bold]Deal {summary.number} of game {summary.game} is over.[/bold]"
    lines = [head, ""]
    lines += trick_lines(final, names_pair, final.role, columns)
    if final.tricks:
        lines.append("")
    for counted in end.mine_first():
        who = "You" if counted.role == final.role else escape(names_pair[counted.role])
        lines.append(f"  {who} counted {counted.words()}")
    for e in end.cries:
        x = exclamation(e, final.role, names_pair)
        if x is not None:
            lines.append(f"  {x}")
    if end.reached is not None:
        who = me if end.reached == view.player else view.names[end.reached]
        lines.append(f"  {escape(who)} reached {rules.target}: game!")
    g = end.game
    if g is not None:
        lines += _game_lines(g.number, g.players, g.scores, g.winner, view, me, g.lurch)
        if view.format is Format.PARTIE:
            lines.append(
                f"  The partie is settled for {g.settled}"
                + (" (rubiconed)." if g.rubiconed else ".")
            )
    else:
        lines.append(_score_line(view, rules, me))
    return lines


def _name_of(view: MatchView, summary: object, role: int) -> str:
    from piquet.core.match import DealSummary

    if isinstance(summary, DealSummary):
        return view.names[summary.players[role]]
    return ROLE_NAMES[role]  # pragma: no cover


def _game_lines(
    number: int,
    players: tuple[int, int],
    scores: tuple[int, int],
    winner: int | None,
    view: MatchView,
    me: str,
    lurch: bool,
) -> list[str]:
    def who(p: int) -> str:
        return me if p == view.player else view.names[p]

    a, b = players
    line = f"[bold]Game {number}[/bold]: {escape(who(a))} {scores[0]}, {escape(who(b))} {scores[1]}"
    if winner is None:
        return [line + ": drawn."]
    text = (
        f"{line}: {escape(who(winner))} win"
        + ("" if winner == view.player and me == "You" else "s")
        + "."
    )
    if lurch:
        text += " Lurched: the loser pays double."
    return [text]
