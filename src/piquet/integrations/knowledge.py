"""What one player knows of an episode (:class:`SeatKnowledge`: the seat's
:class:`~piquet.core.view.DealView` plus the public facts the adapters add) and its two
strings: the perfect-recall information state and the observation of the table as it
stands.  The tensors made from the same knowledge are in
:mod:`piquet.integrations.observation`."""

from __future__ import annotations

from dataclasses import dataclass

from piquet.core.cards import Card, CardSet
from piquet.core.deal import ROLE_NAMES
from piquet.core.view import DealView
from piquet.integrations.actions import Episode, EpisodeFormat

__all__ = ["SeatKnowledge", "information_state_string", "knowledge", "observation_string"]


@dataclass(frozen=True, slots=True)
class SeatKnowledge:
    """One player's view of an episode, and the public facts the adapters add to it."""

    player: int
    rules_name: str
    view: DealView | None
    """The current deal's view (None while its pack is being drawn)."""
    selected: CardSet
    """Cards this player has laid out for the discard it is making."""
    packet: int | None
    """The packet size the dealer dealt by (public)."""
    game: bool
    partie: bool
    target: int
    scores: tuple[int, int]
    """Game scores (this player, the other) before this deal."""
    deals: tuple[tuple[int, int], ...]
    """Points (this player, the other) of each finished deal."""
    max_deals: int
    dealer_known: bool


def knowledge(episode: Episode, player: int) -> SeatKnowledge:
    """What ``player`` knows of ``episode``: its view plus the public facts."""
    other = 1 - player
    return SeatKnowledge(
        player=player,
        rules_name=episode.rules.name,
        view=episode.seat_view(player),
        selected=episode.selected_by(player),
        packet=episode.packet,
        game=episode.format is not EpisodeFormat.DEAL,
        partie=episode.format is EpisodeFormat.PARTIE,
        target=episode.rules.target,
        scores=(episode.scores[player], episode.scores[other]),
        deals=tuple((d[player], d[other]) for d in episode.deals),
        max_deals=episode.max_deals,
        dealer_known=episode.dealer is not None,
    )


# ====================================================================== strings


def _cs(x: CardSet) -> str:
    return str(x) if x else "-"


def _header(k: SeatKnowledge) -> list[str]:
    lines = [f"piquet {k.rules_name}; player {k.player}"]
    if k.game:
        past = " ".join(f"{a}-{b}" for a, b in k.deals) or "-"
        what = "partie" if k.partie else f"game to {k.target}"
        lines.append(
            f"{what}: deal {len(k.deals) + 1} of at most {k.max_deals}; "
            f"score {k.scores[0]}-{k.scores[1]} (yours first); past deals {past}"
        )
    v = k.view
    if v is None:
        lines.append("the pack is being shuffled" if k.dealer_known else "cutting for the deal")
        return lines
    lines.append(
        f"you are {ROLE_NAMES[v.role]}; dealt by {k.packet or '?'}; phase {v.phase.value}; "
        f"to act: {_who(v, v.to_act)}"
    )
    return lines


def _who(v: DealView, seat: int | None) -> str:
    if seat is None:
        return "nobody"
    return "you" if seat == v.role else "the other"


def _lead_rule(v: DealView) -> str:
    if v.lead_rule is None:
        return "-"
    return v.lead_rule.words


def _cards_lines(k: SeatKnowledge, v: DealView) -> list[str]:
    lines = [
        f"hand: {_cs(v.hand)}",
        f"dealt: {_cs(v.dealt)}; discarded: {_cs(v.discards)}; taken: {_cs(v.taken)}",
    ]
    if k.selected:
        lines.append(f"laid out: {_cs(k.selected)}")
    lines += [
        f"stock seen: {_cs(v.stock_seen)}; other shown: {_cs(v.opponent_shown)}; "
        f"other played: {_cs(v.opponent_played)}; other has seen: {_cs(v.seen_by_opponent)}",
        f"other discarded {v.opponent_discard_count}; stock {v.stock_count}; "
        f"left {v.leftover_count}; lead bound to {_lead_rule(v)}",
    ]
    return lines


def _tail(v: DealView) -> list[str]:
    lines = [
        f"trick lead: {Card.from_index(v.trick_lead) if v.trick_lead is not None else '-'}",
        f"points {v.scores[v.role]}-{v.scores[1 - v.role]}; "
        f"tricks {v.tricks_won[v.role]}-{v.tricks_won[1 - v.role]}",
    ]
    if v.discard_range is not None:
        lines.append(f"discard {v.discard_range[0]} to {v.discard_range[1]}")
    return lines


def information_state_string(k: SeatKnowledge) -> str:
    """Everything the player has seen, in order: the perfect-recall string."""
    lines = _header(k)
    v = k.view
    if v is not None:
        lines += _cards_lines(k, v)
        dialog = " | ".join(
            f"{ROLE_NAMES[u.role]}: {u.text}" + (f" [{CardSet(u.shown)}]" if u.shown else "")
            for u in v.dialog
        )
        lines.append(f"dialog: {dialog or '-'}")
        tricks = " ".join(
            f"{ROLE_NAMES[t.leader][0]}:{Card.from_index(t.lead)}{Card.from_index(t.follow)}"
            for t in v.tricks
        )
        lines.append(f"tricks: {tricks or '-'}")
        counted = "; ".join(f"{ROLE_NAMES[e.role]} {e.kind.value} {e.points}" for e in v.events)
        lines.append(f"counted: {counted or '-'}")
        lines += _tail(v)
    return "\n".join(lines)


def observation_string(k: SeatKnowledge) -> str:
    """The table as it stands for the player (no order of past tricks or dialog)."""
    lines = _header(k)
    v = k.view
    if v is not None:
        lines += _cards_lines(k, v)
        if v.dialog:
            last = v.dialog[-1]
            lines.append(f"last said: {ROLE_NAMES[last.role]}: {last.text}")
        lines += _tail(v)
    return "\n".join(lines)
