"""What the table gives an episode beyond its apply path: the labels of the legal ids from
the table's menu, and the game's record through the table's log, replayed byte for byte.

>>> import random
>>> from piquet.core.rules import get_rules
>>> from piquet.integrations.actions import Episode, EpisodeFormat
>>> ep = Episode.start(get_rules("rubicon"), format=EpisodeFormat.GAME)
>>> ep = ep.apply(0)  # player 0 deals first
>>> ep = ep.draw_rest(random.Random(1))  # the pack, drawn by the chance nodes
>>> sorted(set(labels(ep).values()))
['Deal by 2', 'Deal by 3']
>>> ep = ep.apply(ep.legal_ids()[0])
>>> rec = record(ep)
>>> rec["actions"], rec["episode"]["first_dealer"]
([[0, 'deal:2']], 0)
>>> import json
>>> json.dumps(record(replay(rec))) == json.dumps(rec)
True
"""

from __future__ import annotations

from typing import Any

from piquet.core.actions import parse_action
from piquet.core.cards import Card, CardSet
from piquet.core.errors import IllegalActionError, PiquetError, RecordError
from piquet.core.rules import get_rules, rules_from_mapping
from piquet.integrations.actions.episode import Episode, EpisodeFormat
from piquet.integrations.actions.ids import DISCARD_DONE, SELECT_BASE, decode_action
from piquet.table.menu import MenuKind, menu
from piquet.table.views import seen

__all__ = ["labels", "record", "replay"]


def labels(ep: Episode) -> dict[int, str]:
    """The legal ids of the player to move, each with its label in the period's words,
    from the table's menu (:func:`piquet.table.menu.menu`): a claim as its holder states
    it, a card to play by its name; a card laid out for the discard and ``discard-done``
    say the menu's exchange item.  Empty at a chance node or the end."""
    mover = ep.to_move
    table = ep.table
    if mover < 0 or table is None:
        return {}
    items = menu(seen(table, mover))
    by_id = {item.id: item for item in items}
    deal = ep.deal
    assert deal is not None and deal.to_act is not None
    hand = CardSet(deal.hands[deal.to_act])
    out: dict[int, str] = {}
    for i in ep.legal_ids():
        if i == DISCARD_DONE or SELECT_BASE <= i < SELECT_BASE + 36:
            item = next(o for o in items if o.kind is MenuKind.DISCARD)
            if i == DISCARD_DONE:
                out[i] = f"{item.label}: discard the {ep.selected.bit_count()} laid out"
            else:
                c = Card.from_index(i - SELECT_BASE)
                out[i] = f"{item.label}: lay out the {c.rank.name_singular} of {c.suit.plural}"
            continue
        out[i] = by_id[str(decode_action(i, rules=ep.rules, hand=hand))].label
    return out


def record(ep: Episode) -> dict[str, Any]:
    """The episode's game as a record, through its table's log
    (:meth:`TableState.record <piquet.table.state.TableState.record>`: the rule set, the
    players, every action of the rules; the packs the chance nodes drew), and the episode
    around it (format, ``max_deals``, ``kernel``, the first dealer).  :func:`replay` gives
    it back, byte for byte.  Raises :class:`IllegalActionError` before anything is dealt."""
    table = ep.table
    if table is None:
        raise IllegalActionError("nothing is dealt yet: an episode's record starts with "
                                 "its first dealer")
    rec = table.record()
    rec["episode"] = {"format": ep.format.value, "max_deals": ep.max_deals,
                      "kernel": ep.kernel, "first_dealer": table.start.dealer
                      if ep.format is not EpisodeFormat.DEAL else 1}
    return rec


def replay(rec: Any) -> Episode:
    """The episode a record of :func:`record` was written from: its first dealer and packs
    drawn as chance outcomes, each action applied by its ids (through the table, as
    played).  Raises :class:`RecordError` for a record that does not replay."""
    try:
        raw = rec["rules"]
        rules = get_rules(raw) if isinstance(raw, str) else rules_from_mapping(raw)
        about = rec["episode"]
        fmt = EpisodeFormat(about["format"])
        ep = Episode.start(rules, format=fmt, max_deals=int(about["max_deals"]),
                           kernel=bool(about["kernel"]))
        if fmt is not EpisodeFormat.DEAL:
            ep = ep.apply(int(about["first_dealer"]))
        actions = rec["actions"]
        done = 0
        for given in rec.get("packs", ()):
            for player, text in actions[done:given["at"]]:
                ep = _replayed(ep, player, text)
            done = max(done, given["at"])
            for card in given["cards"].split():
                ep = ep.apply(Card.parse(card).index)
        for player, text in actions[done:]:
            ep = _replayed(ep, player, text)
    except (KeyError, TypeError, ValueError, PiquetError) as exc:
        raise RecordError(f"not an episode's record, or it does not replay: {exc}") from None
    return ep


def _replayed(ep: Episode, player: int, text: str) -> Episode:
    if ep.to_move != player:
        raise RecordError(f"{text!r} by player {player}: player {ep.to_move} is to move")
    return ep.apply_action(parse_action(text))
