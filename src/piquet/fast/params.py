"""A rule set as numbers: the one place a :class:`~piquet.core.rules.Rules` becomes the
parameter vector the compiled kernel reads.

The kernel (:mod:`piquet.fast.kernel`) never sees a knob's name or an enum; it reads
the slots below.  :func:`compile_rules` is the only function that fills them, so a
new knob is added here and in the kernel, and nowhere else.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from piquet.core.rules import (
    Leftovers,
    PlayScoring,
    PointMeasure,
    PointScoring,
    Rules,
    Settlement,
)

__all__ = ["N_PARAMS", "compile_rules"]

# The slots of the parameter vector (int64).
DECK_SIZE: Final = 0
N_PACKETS: Final = 1
PACKETS: Final = 2  # up to 6 sizes: slots 2..7
BLANCHE_VALUE: Final = 8
BOTH_BLANCHE_SCORE: Final = 9
BLANCHE_NUMBER: Final = 10
ELDER_MAX: Final = 11
ELDER_MIN: Final = 12
YOUNGER_MIN: Final = 13
YOUNGER_MAX: Final = 14
LEFTOVERS: Final = 15
POINT_BY_CARDS: Final = 16
POINT_TENS: Final = 17
SEQ_SAME_SUIT: Final = 18
N_SEQ_VALUES: Final = 19
SEQ_VALUES: Final = 20  # up to 7 values: slots 20..26
SET_MIN_RANK: Final = 27
TRIO_VALUE: Final = 28
QUATORZE_VALUE: Final = 29
QUATORZE_BEATS_TRIO: Final = 30
YOUNGER_AFTER_LEAD: Final = 31
ASK_MISSING: Final = 32
PLAY_SCORING: Final = 33
LAST_BONUS: Final = 34
LAST_TENTH_BONUS: Final = 35
CARDS_BONUS: Final = 36
CAPOT_BONUS: Final = 37
PIQUE_THRESHOLD: Final = 38
REPIQUE_BONUS: Final = 39
PIQUE_BONUS: Final = 40
PIQUE_ELDER_ONLY: Final = 41
PIQUE_FIRST_CARD: Final = 42
TARGET: Final = 43
ENDS_MID_DEAL: Final = 44
STOCK_SIZE: Final = 45
PARTIE_DEALS: Final = 46
PARTIE_TIE_EXTRA: Final = 47
SETTLEMENT_PARLETT: Final = 48
CARTE_BLANCHE: Final = 49
YOUNGER_BARS: Final = 50
PIQUE_BY_CARDS: Final = 51
APPOINT_LACKED: Final = 52
N_PARAMS: Final = 53

# Codes of enumerated knobs.
LEFT_HIDDEN, LEFT_NAMES_SUIT, LEFT_NAMES_CARD, LEFT_TURNS_UP, LEFT_LOOKS = range(5)
PS_TENTH_CARDS, PS_WINNER_TENTHS, PS_LEADS_AND_WINS = range(3)

_LEFTOVER_CODES: Final = {
    Leftovers.HIDDEN: LEFT_HIDDEN,
    Leftovers.ELDER_NAMES_SUIT: LEFT_NAMES_SUIT,
    Leftovers.ELDER_NAMES_CARD: LEFT_NAMES_CARD,
    Leftovers.YOUNGER_TURNS_UP: LEFT_TURNS_UP,
    Leftovers.YOUNGER_LOOKS: LEFT_LOOKS,
}
_PLAY_CODES: Final = {
    PlayScoring.TENTH_CARDS: PS_TENTH_CARDS,
    PlayScoring.WINNER_TENTHS: PS_WINNER_TENTHS,
    PlayScoring.LEADS_AND_WINS: PS_LEADS_AND_WINS,
}

_CACHE: dict[Rules, npt.NDArray[np.int64]] = {}


def compile_rules(rules: Rules) -> npt.NDArray[np.int64]:
    """The parameter vector of ``rules`` (read-only; cached by the rule set's value)."""
    found = _CACHE.get(rules)
    if found is not None:
        return found
    p = np.zeros(N_PARAMS, dtype=np.int64)
    p[DECK_SIZE] = rules.deck_size
    p[N_PACKETS] = len(rules.packet_sizes)
    for i, size in enumerate(rules.packet_sizes[:6]):
        p[PACKETS + i] = size
    p[BLANCHE_VALUE] = rules.blanche_value
    p[BOTH_BLANCHE_SCORE] = rules.both_blanche_score
    p[BLANCHE_NUMBER] = rules.blanche_number
    p[ELDER_MAX] = rules.elder_max
    p[ELDER_MIN] = rules.elder_min
    p[YOUNGER_MIN] = rules.younger_min
    p[YOUNGER_MAX] = rules.younger_max
    p[LEFTOVERS] = _LEFTOVER_CODES[rules.younger_leftovers]
    p[POINT_BY_CARDS] = rules.point_measure is PointMeasure.CARDS
    p[POINT_TENS] = rules.point_scoring is PointScoring.TENS
    p[SEQ_SAME_SUIT] = rules.sequences_same_suit
    p[N_SEQ_VALUES] = len(rules.sequence_values)
    for i, value in enumerate(rules.sequence_values):
        p[SEQ_VALUES + i] = value
    p[SET_MIN_RANK] = int(rules.set_min_rank)
    p[TRIO_VALUE] = rules.trio_value
    p[QUATORZE_VALUE] = rules.quatorze_value
    p[QUATORZE_BEATS_TRIO] = rules.quatorze_beats_trio
    p[YOUNGER_AFTER_LEAD] = rules.younger_declares_after_lead
    p[ASK_MISSING] = rules.ask_missing
    p[PLAY_SCORING] = _PLAY_CODES[rules.play_scoring]
    p[LAST_BONUS] = rules.last_trick_bonus
    p[LAST_TENTH_BONUS] = rules.last_trick_tenth_bonus
    p[CARDS_BONUS] = rules.cards_bonus
    p[CAPOT_BONUS] = rules.capot_bonus
    p[PIQUE_THRESHOLD] = rules.pique_threshold
    p[REPIQUE_BONUS] = rules.repique_bonus
    p[PIQUE_BONUS] = rules.pique_bonus
    p[PIQUE_ELDER_ONLY] = rules.pique_elder_only
    p[PIQUE_FIRST_CARD] = rules.pique_by_first_card
    p[TARGET] = rules.target
    p[ENDS_MID_DEAL] = rules.game_ends_mid_deal
    p[STOCK_SIZE] = rules.stock_size
    p[PARTIE_DEALS] = rules.partie_deals
    p[PARTIE_TIE_EXTRA] = rules.partie_tie_extra_deals
    p[SETTLEMENT_PARLETT] = rules.settlement is Settlement.PARLETT
    p[CARTE_BLANCHE] = rules.carte_blanche
    p[YOUNGER_BARS] = rules.younger_blanche_bars
    p[PIQUE_BY_CARDS] = rules.pique_by_cards
    p[APPOINT_LACKED] = rules.appoint_if_card_lacked
    p.setflags(write=False)
    if len(_CACHE) > 256:
        _CACHE.clear()
    _CACHE[rules] = p
    return p
