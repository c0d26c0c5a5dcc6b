"""The short summary of a rule set that the table shows a click away."""

from __future__ import annotations

from piquet.core.rules import (
    Format,
    Leftovers,
    PlayScoring,
    PointMeasure,
    PointScoring,
    Rules,
    Settlement,
    pique_words,
)

__all__ = ["TITLES", "format_label", "rules_summary"]

_FORMAT_LABELS = {
    Format.GAME: "a game of {target}",
    Format.PARTIE: "a Rubicon partie of {deals} deals",
    Format.POOL: "a pool of three",
}


TITLES = {
    "cotgrave-1662": "After Cotgrave, Wit's Interpreter (1662)",
    "cotton-1674": "After Cotton, The Compleat Gamester (1674)",
    "du-coeur-1995": "The 1995 re-enactors' reconstruction of Cotton",
    "court-gamester-1754": "After Seymour and Johnson, The Compleat Gamester (1754)",
    "encyclopedia-19c": "After a 19th-century encyclopedia article (the default)",
    "rubicon": "Rubicon Piquet as played today (David Parlett's rules)",
}


def _or(values: tuple[int, ...]) -> str:
    words = [str(v) for v in values]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def format_label(rules: Rules, fmt: Format) -> str:
    """``a game of 100``, ``a Rubicon partie of 6 deals``, ``a pool of three``."""
    return _FORMAT_LABELS[fmt].format(target=rules.target, deals=rules.partie_deals)


def _leftovers(rules: Rules) -> str:
    return {
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
    }[rules.younger_leftovers]


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


def rules_summary(rules: Rules, fmt: Format | None = None) -> list[str]:
    """A dozen plain sentences: what this rule set plays, in the order of a deal; with
    ``fmt``, of a game in that format only (an invitation names the one it is for)."""
    lines: list[str] = []
    lines.append(
        f"{rules.deck_size} cards (ace high down to {rules.low_rank.name_singular}); 12 each, "
        f"dealt by {_or(rules.packet_sizes)}; {rules.stock_size} in the stock."
    )
    if rules.blanche_value:
        lines.append(
            f"Carte blanche (no king, queen or knave dealt) scores {rules.blanche_value}, "
            "counted first."
        )
    lines.append(_exchange(rules))
    lines.append(_leftovers(rules))
    if rules.point_measure is PointMeasure.CARDS:
        point = "the point is the most cards in one suit (equal: the pip total decides)"
    else:
        point = "the point is the highest pip total in one suit (ace 11, courts 10)"
    worth = (
        "one per card"
        if rules.point_scoring is PointScoring.PER_CARD
        else "one per ten, 35 to 39 as 4"
    )
    lines.append(f"Declarations, in order: {point}, worth {worth};")
    seq = "in one suit" if rules.sequences_same_suit else "in any suits"
    lines.append(
        f"sequences of three or more {seq} (tierce 3, quart 4, quint 15, and one more per "
        "card after); the best sequence counts all its holder's sequences;"
    )
    lines.append(
        f"sets of three (3) or four (quatorze, 14) of {rules.set_min_rank.name_plural} or "
        "higher; the best set counts all its holder's sets."
    )
    if rules.younger_declares_after_lead:
        lines.append("Elder declares and leads; younger declares before playing to that lead.")
    else:
        lines.append("Everything is declared before the first card is played.")
    lines.append(
        {
            PlayScoring.LEADS_AND_WINS: (
                "Play: each lead scores 1, and winning a trick the other led scores 1."
            ),
            PlayScoring.TENTH_CARDS: (
                "Play: 1 for leading a ten or higher, 1 for winning a trick with one."
            ),
            PlayScoring.WINNER_TENTHS: (
                "Play: the winner of a trick scores 1 for each card of ten or higher in it."
            ),
        }[rules.play_scoring]
    )
    lines.append(
        f"Last trick: {rules.last_trick_bonus} extra. Most tricks (the cards): "
        f"{rules.cards_bonus}; all twelve (capot): {rules.capot_bonus} instead."
    )
    who = pique_words(rules)
    lines.append(
        f"Repique: {rules.pique_threshold} from declarations alone before the other counts "
        f"anything: +{rules.repique_bonus}. Pique ({who}): {rules.pique_threshold} with the "
        f"play first: +{rules.pique_bonus}."
    )
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
