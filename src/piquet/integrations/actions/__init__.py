"""One fixed numbering of every Piquet action, and an episode driven by those numbers.

Research frameworks (OpenSpiel, PettingZoo) want actions as integers from one
fixed range.  :data:`NUM_ACTIONS` ids cover every phase of every rule set:

========  =====  ==========================================================
ids       count  action
========  =====  ==========================================================
0-35      36     ``play:CARD``: play card ``i`` (``Card.index``)
36-71     36     ``discard-card:CARD``: lay out card ``i`` for the discard
72        1      ``discard-done``: discard the cards laid out, take as many
73-78     6      ``deal:N``: the dealer deals by 1, 2, 3, 4, 6 or 12
79-91     13     ``blanche:N``: carte blanche, binding the discard to 0..12
92-95     4      ``name:SUIT``: elder names the suit he will lead
96-131    36     ``name:CARD``: elder names the card he will lead
132-135   4      ``appoint:SUIT``: younger appoints the suit elder leads
136-171   36     ``appoint:CARD``: younger appoints the card elder leads
172-173   2      ``look`` / ``decline`` (the cards younger left)
174-209   36     ``declare:point:SUIT:N``: the point, the best N cards of SUIT
210-454   245    ``declare:sequence:SLOT:TOP:LEN``: SLOT a suit, or ``any``
                 where sequences may run through several suits
455-472   18     ``declare:set:RANK:N``: three or four of RANK
473       1      ``pass``: declare nothing in this class (sink it)
474-477   4      ``good`` / ``not-good`` / ``equal`` / ``making``
478-479   2      ``ask-missing`` / ``no-question``
========  =====  ==========================================================

A discard is several ids: the cards one at a time, in increasing card index,
then ``discard-done``; the episode applies one engine
:class:`~piquet.core.actions.Discard` at the end.  Declaring a lesser claim than the
best (sinking) is simply another declare id; so is passing.

:class:`Episode` is one deal (or one game of deals) as the frameworks see it:
chance draws the pack card by card, the players move by ids, and the legal ids
are those of the seat's :class:`~piquet.core.view.DealView` (read from the deal for the
mover, without building the view; :mod:`piquet.integrations.check` compares them).
"""

from piquet.integrations.actions.episode import Episode, EpisodeFormat
from piquet.integrations.actions.ids import (
    ACTION_NAMES,
    APPOINT_CARD_BASE,
    APPOINT_SUIT_BASE,
    ASK,
    BLANCHE_BASE,
    CHANCE,
    DEAL_BASE,
    DEAL_SIZES,
    DECLINE,
    DISCARD_DONE,
    LOOK,
    NAME_CARD_BASE,
    NAME_SUIT_BASE,
    NO_QUESTION,
    NUM_ACTIONS,
    PASS,
    PLAY_BASE,
    POINT_BASE,
    REPLIES,
    REPLY_BASE,
    SELECT_BASE,
    SEQUENCE_BASE,
    SET_BASE,
    TERMINAL,
    DiscardDone,
    SelectDiscard,
    Step,
    action_id,
    action_name,
    decode_action,
    encode_action,
    encode_discard,
    legal_action_ids,
    max_deal_decisions,
    max_deal_points,
)
from piquet.integrations.actions.ids import _selectable as _selectable

__all__ = [
    "ACTION_NAMES",
    "APPOINT_CARD_BASE",
    "APPOINT_SUIT_BASE",
    "ASK",
    "BLANCHE_BASE",
    "CHANCE",
    "DEAL_BASE",
    "DEAL_SIZES",
    "DECLINE",
    "DISCARD_DONE",
    "DiscardDone",
    "Episode",
    "EpisodeFormat",
    "LOOK",
    "NAME_CARD_BASE",
    "NAME_SUIT_BASE",
    "NO_QUESTION",
    "NUM_ACTIONS",
    "PASS",
    "PLAY_BASE",
    "POINT_BASE",
    "REPLIES",
    "REPLY_BASE",
    "SELECT_BASE",
    "SEQUENCE_BASE",
    "SET_BASE",
    "SelectDiscard",
    "Step",
    "TERMINAL",
    "action_id",
    "action_name",
    "decode_action",
    "encode_action",
    "encode_discard",
    "legal_action_ids",
    "max_deal_decisions",
    "max_deal_points",
]
