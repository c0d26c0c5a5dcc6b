"""One summary of a rule set, read from its knobs, for the browser and the terminal.

:func:`rules_summary` gives a dozen plain sentences, in the order of a deal; every number
in them is a knob's value (a house rule that changes what a quint or the last trick is
worth is described as it plays).  :func:`format_label` names a game's format; ``cited``
adds the source the rule set follows first and where every rule's passage is read last.
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
    Settlement,
    pique_words,
)
from piquet.core.sources import SOURCE_FILES, SOURCE_TITLES
from piquet.core.words import SEQUENCE_NAMES

__all__ = [
    "TITLES", "format_label", "point_word", "preset_of", "rules_summary", "settlement_words",
]

TITLES: Final = {
    "cotgrave-1662": "After Cotgrave, Wit's Interpreter (1662)",
    "cotton-1674": "After Cotton, The Compleat Gamester (1674)",
    "du-coeur-1995": "The 1995 re-enactors' reconstruction of Cotton",
    "court-gamester-1754": "After Seymour and Johnson, The Compleat Gamester (1754)",
    "encyclopedia-19c": "After a 19th-century encyclopedia article (the default)",
    "rubicon": "Rubicon Piquet as played today (David Parlett's rules)",
}
"""Each preset's title on the browser's pages."""

_FORMAT_LABELS: Final = {
    Format.GAME: "a game of {target}",
    Format.PARTIE: "a Rubicon partie of {deals} deals",
    Format.POOL: "a pool of three",
}


def _or(values: tuple[int, ...] | list[str]) -> str:
    words = [str(v) for v in values]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def format_label(rules: Rules, fmt: Format) -> str:
    """``a game of 100``, ``a Rubicon partie of 6 deals``, ``a pool of three``."""
    return _FORMAT_LABELS[fmt].format(target=rules.target, deals=rules.partie_deals)


def point_word(rules: Rules) -> str:
    """The rule set's word for the point: "the Ruff" to a 36-card pip counter."""
    ruff = rules.deck_size == 36 and rules.point_measure is PointMeasure.PIPS
    return "the Ruff" if ruff else "the point"


def preset_of(rules: Rules) -> str | None:
    """The preset these rules are, known by value, never by name (a house rule set may
    take a preset's name); None for house rules."""
    return next((n for n, p in PRESETS.items() if p.replace(name=rules.name) == rules), None)


def _source(rules: Rules) -> str:
    preset = preset_of(rules)
    if preset is None:
        src = "house rules (changed knobs)"
    elif preset == rules.name:
        src = SOURCE_TITLES.get(preset) or SOURCE_FILES.get(preset) or preset
    else:
        src = f"the rules of {preset}, {SOURCE_TITLES.get(preset) or SOURCE_FILES.get(preset)}"
    return f"Rule set {rules.name}: {src}."


def _exchange(rules: Rules) -> str:
    """What each may exchange, as the knobs say: ``younger_max`` 0 is every card elder
    left; a cap he could never reach (the stock less elder's fewest) is no cap."""
    ymin = "may take none" if rules.younger_min == 0 else f"must take at least {rules.younger_min}"
    most = rules.stock_size - rules.elder_min
    if rules.younger_max and rules.younger_max < most:
        younger = f"younger may take up to {rules.younger_max} of the cards elder leaves"
    else:
        younger = "younger may take all the cards elder leaves"
    return f"Elder exchanges {rules.elder_min} to {rules.elder_max} cards; {younger}, and {ymin}."


_LEFTOVERS: Final = {
    Leftovers.HIDDEN: "The stock cards younger leaves stay unseen.",
    Leftovers.ELDER_NAMES_SUIT: (
        "Younger may look at the cards he leaves; elder sees them only by first naming "
        "the suit he will lead."
    ),
    Leftovers.ELDER_NAMES_CARD: (
        "Younger may look at the cards he leaves; elder sees them only by first naming "
        "the card he will lead."
    ),
    Leftovers.YOUNGER_TURNS_UP: "Younger may turn up the cards he leaves, for both to see.",
    Leftovers.YOUNGER_LOOKS: (
        "If younger looks at the cards he leaves, elder may see them after his first lead."
    ),
}


def _sequences(rules: Rules) -> str:
    """Each sequence's worth from ``sequence_values`` (the last value for longer ones)."""
    values = rules.sequence_values
    named = [f"{SEQUENCE_NAMES[3 + i]} {v}" for i, v in enumerate(values)]
    if len(values) < len(SEQUENCE_NAMES):
        named[-1] += " and longer" if len(values) > 1 else " or longer"
    return ", ".join(named)


def _play(rules: Rules) -> str:
    lead, win = rules.lead_value, rules.win_value
    play = {
        PlayScoring.LEADS_AND_WINS: f"each lead scores {lead}, and winning a trick the other "
        f"led scores {win}",
        PlayScoring.TENTH_CARDS: f"{lead} for leading a ten or higher, {win} for winning a "
        "trick with one",
        PlayScoring.WINNER_TENTHS: f"the winner of a trick scores {win} for each card of ten "
        "or higher in it",
    }[rules.play_scoring]
    last = f"Last trick: {rules.last_trick_bonus} extra"
    if rules.last_trick_tenth_bonus != rules.last_trick_bonus:
        last += f" ({rules.last_trick_tenth_bonus} if won with a ten or higher)"
    return (
        f"Play: follow suit if you can, no trumps; {play}. {last}. Most tricks (the cards): "
        f"{rules.cards_bonus}; all twelve (capot): {rules.capot_bonus} instead."
    )


def _declarations(rules: Rules) -> list[str]:
    if rules.point_measure is PointMeasure.CARDS:
        measure = "the most cards in one suit (equal: the pip total decides, \"making?\")"
    else:
        measure = "the highest pip total in one suit (ace 11, courts 10)"
    worth = (
        "one per card"
        if rules.point_scoring is PointScoring.PER_CARD
        else "one per ten pips, rounded (35 to 39 count 4)"
    )
    seq = "in one suit" if rules.sequences_same_suit else "in any suits"
    after = (
        "Elder declares and leads; younger declares before playing to that lead."
        if rules.younger_declares_after_lead
        else "Everything is declared before the first card is played."
    )
    return [
        f"Declarations, in order: {point_word(rules)}, {measure}, worth {worth};",
        f"sequences of three or more {seq} ({_sequences(rules)}); the best sequence counts "
        "all its holder's sequences;",
        f"sets of three ({rules.trio_value}) or four (quatorze, {rules.quatorze_value}) of "
        f"{rules.set_min_rank.name_plural} or higher; the best set counts all its holder's "
        "sets.",
        "Elder speaks first in each class; younger answers good, not good or equal; only "
        f"the better hand counts its class. {after}",
    ]


def _formats(rules: Rules, fmt: Format | None) -> list[str]:
    lines: list[str] = []
    played = (fmt,) if fmt is not None else rules.formats
    if fmt is not None:
        lines.append(f"This game: {format_label(rules, fmt)}.")
    else:
        labels = [format_label(rules, f) for f in played]
        choice = labels[0] if len(labels) == 1 else (
            ", ".join(labels[:-1]) + " or " + labels[-1] + ", as the players choose")
        lines.append(f"Plays {choice}.")
    if rules.game_ends_mid_deal and (Format.GAME in played or Format.POOL in played):
        where = "" if fmt is not None else "In a game, "
        said = "the game" if where else "The game"
        lines.append(
            f"{where}{said} is won the moment a player reaches {rules.target}, even in the "
            "middle of a deal: nothing more is played or counted."
        )
    if Format.PARTIE in played:
        s = (
            "the winner scores 100 plus the difference (plus both totals if the loser is "
            "under 100: rubiconed)"
            if rules.settlement is Settlement.PARLETT
            else "the winner scores the difference, or both totals if the loser is under 100"
        )
        lines.append(f"{'Partie' if fmt is not None else 'In a partie'}: after "
                     f"{rules.partie_deals} deals, {s}.")
    if Format.POOL in played:
        lines.append(
            f"{'A pool' if fmt is not None else 'In a pool'}: three players each put one "
            "in; two play a game while the third stands out; the loser lays one more into "
            "the pool and makes way for him; whoever wins two games running takes the pool."
        )
    if rules.lurch_below:
        lines.append(f"A loser under {rules.lurch_below} is lurched and pays double.")
    return lines


def rules_summary(rules: Rules, fmt: Format | None = None, *, cited: bool = False) -> list[str]:
    """A dozen plain sentences: what this rule set plays, in the order of a deal, every
    figure read from the knobs; with ``fmt``, of a game in that format only (an invitation
    names the one it is for); ``cited``: the source first and, last, where every rule's
    passage is read (the terminal's summary).

    >>> from piquet.core.rules import preset
    >>> text = " ".join(rules_summary(preset("du-coeur-1995")))
    >>> "Last trick: 1 extra (2 if won with a ten or higher)" in text
    True
    """
    lines = [_source(rules)] if cited else []
    lines.append(
        f"{rules.deck_size} cards (ace high down to {rules.low_rank.name_singular}); 12 each, "
        f"dealt by {_or(rules.packet_sizes)}; {rules.stock_size} in the stock (the talon). "
        "The non-dealer is elder."
    )
    if rules.carte_blanche and rules.blanche_value:
        lines.append(
            f"Carte blanche (no king, queen or knave dealt) scores {rules.blanche_value}, "
            "counted first."
        )
    lines.append(_exchange(rules))
    lines.append(_LEFTOVERS[rules.younger_leftovers])
    lines += _declarations(rules)
    lines.append(_play(rules))
    lines.append(
        f"Repique: {rules.pique_threshold} from declarations alone before the other counts "
        f"anything: +{rules.repique_bonus}. Pique ({pique_words(rules)}): "
        f"{rules.pique_threshold} with the play first: +{rules.pique_bonus}."
    )
    lines += _formats(rules, fmt)
    if cited:
        lines.append(
            f"Every rule with its source: piquet rules "
            f"{preset_of(rules) or 'FILE.toml (your house-rule file)'}"
        )
    return lines


def settlement_words(*, rubiconed: bool, settled: int, lurch: bool) -> str:
    """What the players of a finished game or match settle on, in words, each part after a
    semicolon ("; the loser is rubiconed; settled at 160"), or nothing: the one wording of
    the rubicon, the partie's settlement and the lurch, for the terminal's summary, the
    tally and ``piquet play``'s last lines."""
    text = ""
    if rubiconed:
        text += "; the loser is rubiconed"
    if settled:
        text += f"; settled at {settled}"
    if lurch:
        text += "; a lurch: the loser pays double"
    return text
