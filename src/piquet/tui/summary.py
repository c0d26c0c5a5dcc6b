"""A short summary of a rule set, for a player who does not know the rules.

``piquet rules NAME`` prints every knob with its source; this is the dozen
lines to read before the first deal.
"""

from __future__ import annotations

from typing import Final

from piquet.core.rules import (
    PRESETS,
    Format,
    Leftovers,
    PlayScoring,
    PointMeasure,
    PointScoring,
    Rules,
    pique_words,
)
from piquet.core.sources import SOURCE_FILES, SOURCE_TITLES

__all__ = ["rules_summary"]

_SEQ_NAMES: Final = ("tierce", "quart", "quint", "sixième", "septième", "huitième", "neuvième")


def _list(values: tuple[int, ...]) -> str:
    if len(values) == 1:
        return str(values[0])
    return ", ".join(str(v) for v in values[:-1]) + f" or {values[-1]}"


def rules_summary(rules: Rules) -> list[str]:
    """About a dozen plain lines: how this rule set is played."""
    # Known by its value, never its name: a house rule set may take a preset's name.
    preset = next((n for n, p in PRESETS.items() if p.replace(name=rules.name) == rules), None)
    if preset is None:
        src = "house rules (changed knobs)"
    elif preset == rules.name:
        src = SOURCE_TITLES.get(preset) or SOURCE_FILES.get(preset) or preset
    else:
        src = f"the rules of {preset}, {SOURCE_TITLES.get(preset) or SOURCE_FILES.get(preset)}"
    low = "7" if rules.deck_size == 32 else "6"
    ruff = rules.deck_size == 36 and rules.point_measure is PointMeasure.PIPS
    point = "the Ruff" if ruff else "the point"
    lines = [f"Rule set {rules.name}: {src}."]
    lines.append(
        f"Pack of {rules.deck_size} (A K Q J 10 down to {low}); twelve each, dealt by "
        f"{_list(rules.packet_sizes)}; a stock (talon) of {rules.stock_size}. "
        "The non-dealer is elder."
    )
    lines.append(
        f"Carte blanche (no king, queen or knave among your twelve) counts "
        f"{rules.blanche_value}, before anything else."
    )
    younger = f"younger {rules.younger_min} to all that is left" + (
        f" (at most {rules.younger_max})" if rules.younger_max else ""
    )
    lines.append(
        f"Exchange: elder discards {rules.elder_min} to {rules.elder_max} and takes as many "
        f"from the stock; then {younger}."
    )
    leftovers = {
        Leftovers.HIDDEN: "Cards left in the stock stay unseen.",
        Leftovers.ELDER_NAMES_SUIT: "Younger may see the cards he leaves; elder sees them "
        "too if he first names the suit he will lead.",
        Leftovers.ELDER_NAMES_CARD: "Younger may see the cards he leaves; elder sees them "
        "too if he first names the card he will lead.",
        Leftovers.YOUNGER_TURNS_UP: "Younger may turn up the cards he leaves for both to see.",
        Leftovers.YOUNGER_LOOKS: "Younger may look at the cards he leaves; then elder may, "
        "after leading his first card.",
    }[rules.younger_leftovers]
    lines.append(leftovers)
    if rules.point_measure is PointMeasure.PIPS:
        measure = "the pip total of your best suit (ace 11, courts 10)"
    else:
        measure = "the number of cards in your longest suit (equal: the pips decide, 'making?')"
    worth = (
        "one per ten, 35-39 as 40" if rules.point_scoring is PointScoring.TENS else "one per card"
    )
    lines.append(f"Declare in order: {point}, {measure}, worth {worth};")
    seqs = ", ".join(f"{_SEQ_NAMES[i]} {v}" for i, v in enumerate(rules.sequence_values[:4]))
    where = "in one suit" if rules.sequences_same_suit else "in any suits"
    lines.append(
        f"  sequences of three or more {where} ({seqs}, ...); sets of three or four "
        f"{rules.set_min_rank.name_plural} or better ({rules.trio_value}, or "
        f"{rules.quatorze_value} for a quatorze)."
    )
    after = (
        " Younger declares after elder leads his first card."
        if rules.younger_declares_after_lead
        else ""
    )
    lines.append(
        "  Elder speaks first in each class; younger answers good, not good or equal; only "
        f"the better hand counts its class.{after}"
    )
    play = {
        PlayScoring.TENTH_CARDS: "1 for leading a card of ten or higher, 1 for winning with one",
        PlayScoring.WINNER_TENTHS: "the winner of a trick takes 1 per card of ten or higher in it",
        PlayScoring.LEADS_AND_WINS: "1 for every lead, 1 for winning the other's lead",
    }[rules.play_scoring]
    last = f"+{rules.last_trick_bonus}"
    if rules.last_trick_tenth_bonus != rules.last_trick_bonus:
        last += f" (+{rules.last_trick_tenth_bonus} if won with a ten or higher)"
    lines.append(
        f"Play: follow suit if you can, no trumps; {play}; last trick {last}; most tricks "
        f"{rules.cards_bonus}; all twelve (capot) {rules.capot_bonus}."
    )
    pique = pique_words(rules)
    lines.append(
        f"Repique: {rules.pique_threshold} from declarations before the other counts "
        f"anything adds {rules.repique_bonus}; pique ({pique}): {rules.pique_threshold} "
        f"with the play adds {rules.pique_bonus}."
    )
    if rules.default_format is Format.PARTIE:
        lines.append(
            f"A partie is {rules.partie_deals} deals; under 100 at the end you are rubiconed."
        )
    else:
        lurch = (
            f" Under {rules.lurch_below} at the end, the loser pays double."
            if rules.lurch_below
            else ""
        )
        lines.append(f"The game is {rules.target} up.{lurch}")
    where = preset or "FILE.toml (your house-rule file)"
    lines.append(f"Every rule with its source: piquet rules {where}")
    return lines
