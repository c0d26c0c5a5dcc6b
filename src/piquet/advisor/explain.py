"""Why a discard is good, in the terms of the period books.

The books argue a discard by what it keeps (the point, the sequence, the
quatorze, the guards of the kings and queens), by the odds of taking in the
cards it wants ("it is Five to Two but that you take in One"), and by what
the adversary is likely to hold.  An :class:`Explanation` says those things
for one discard, with exact odds (:func:`~piquet.analysis.odds.improvements`) in the
books' idiom, and, against the runner-up or a discard the user names, by how
much it is better and where the difference comes from (the declarations or
the play).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import TYPE_CHECKING, Any, Final

from piquet.advisor.deals import Setup
from piquet.analysis.drawtables import OpponentModel, hand_stats, suit_tables
from piquet.analysis.odds import Improvements, Odds, improvements
from piquet.core.cards import CardSet
from piquet.core.declarations import DeclClass, best_claim, statement

if TYPE_CHECKING:
    from piquet.advisor.ranking import Ranked
    from piquet.advisor.verify import Verified

__all__ = ["Explanation", "compare_lines", "explain", "guards", "idiom"]

_NUM: Final = ("no", "one", "two", "three", "four")
_SUITS: Final = ("spades", "hearts", "diamonds", "clubs")


def idiom(odds: Odds) -> str:
    """The odds as the books give them: "17 to 3 against", "about 5 to 2 on"."""
    phrase = odds.phrase
    if ", about " not in phrase:
        return phrase
    exact, about = phrase.split(", about ")
    return f"about {about} {exact.rsplit(' ', 1)[1]}"


def _odds(count: int, n: int) -> str:
    """``count`` in ``n`` as a share and in the books' idiom."""
    if n <= 0:
        return "unknown"
    f = Fraction(count, n)
    return f"{float(f):.0%} ({idiom(Odds(f))})"


def guards(kept: int) -> tuple[int, list[str]]:
    """(suits stopped, what is unguarded): an ace, a guarded king, a twice-guarded queen."""
    n = 0
    bare = []
    for s in range(4):
        m = kept >> (9 * s) & 0x1FF
        c = m.bit_count()
        if m >> 8 & 1 or (m >> 7 & 1 and c >= 2) or (m >> 6 & 1 and c >= 3):
            n += 1
        elif m >> 7 & 1:
            bare.append(f"the king of {_SUITS[s]} bare")
        elif m >> 6 & 1 and c == 1:
            bare.append(f"the queen of {_SUITS[s]} bare")
    return n, bare


METHOD_WORDS: Final = {
    "exact": "play solved exactly",
    "simulated": "play simulated",
    "estimated": "estimated",
}
"""How each :attr:`Ranked.method` is written for a reader."""
Z95: Final = 1.959964
"""A value's 95% interval is itself ± ``Z95`` standard errors (the normal's 97.5th
percentile; :mod:`piquet.advisor.verify` reads it from here)."""
LEGEND: Final = (
    "Each value: ± the half-width of its 95% interval over the sampled worlds; "
    "\"play solved exactly\": "
    "the play solved double-dummy in each world, \"play simulated\": by the fast "
    "play-out, \"estimated\": from the declarations' pass alone. The discards are "
    "valued in the same worlds, so the differences between them are known more closely "
    "than each value."
)


@dataclass(frozen=True, slots=True)
class Explanation:
    """Why one discard is good, in words."""

    discard: CardSet
    keeps: str
    chances: str
    opponent: str
    """What the other likely holds after his exchange."""
    play: str
    """What the play brings (from the deals played out)."""
    value: str
    why: str = ""
    """Against the runner-up: by how much, and where the difference comes from."""
    improvements: Improvements | None = None
    named: tuple[str, ...] = ()
    """The names of the ``improvements`` events that ``chances`` gives, in its order."""
    deals: int = 0
    """The simulated deals behind ``play`` and ``value`` (0: not played out)."""

    def lines(self) -> list[str]:
        out = [f"keeps {self.keeps}", self.chances, self.opponent, self.play, self.value]
        if self.why:
            out.append(self.why)
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "discard": [str(c) for c in self.discard],
            "keeps": self.keeps,
            "chances": self.chances,
            "opponent": self.opponent,
            "play": self.play,
            "value": self.value,
            "why": self.why,
            "deals": self.deals,
        }


def _play_line(play_net: float | None) -> str:
    """The cards, in the books' sense: who is likely to win them, from the play's net."""
    if play_net is None:
        return "the play not played out (estimated from the declarations and a trick count)"
    if play_net >= 1.5:
        who = "likely yours"
    elif play_net <= -1.5:
        who = "likely his"
    else:
        who = "in the balance"
    return f"the cards are {who}: the play nets you {play_net:+.1f} points a deal"


def _his_holdings(kept: int, setup: Setup, opponent: OpponentModel) -> str:
    """What the other likely holds after his exchange, against what is kept."""
    stats = opponent.stats
    n = len(stats)
    if not n:
        return "the other's hand is not sampled"
    mine = hand_stats(kept, suit_tables(setup.rules))
    better_point = sum((s.point_code >> 4) > (mine.point_code >> 4) for s in stats)
    seq4 = sum(s.seq_sum >= 4 for s in stats)
    quatorze = sum(s.set_sum >= 14 for s in stats)
    parts = [
        f"he holds a better point than the one you keep {_odds(better_point, n)}",
        f"a quart or better {_odds(seq4, n)}",
        f"a quatorze {_odds(quatorze, n)}",
    ]
    if opponent.blanche >= 0.01:
        parts.append(f"carte blanche {opponent.blanche:.0%}")
    return "after his exchange " + "; ".join(parts)


def explain(
    setup: Setup,
    discard: int,
    *,
    ranked: Ranked,
    opponent: OpponentModel,
    score: tuple[int, int] | None = None,
    stock: int | None = None,
    versus: Ranked | None = None,
    decl: float | None = None,
    decl_versus: float | None = None,
    deals: int = 0,
    odds: bool = True,
) -> Explanation:
    """Explain ``discard`` of the setup's hand; ``versus`` is the runner-up to compare with.

    ``odds=False`` leaves out the exact chances of the draw (the advisor's budget of draws
    is spent): the explanation says so and how many draws they would take."""
    rules = setup.rules
    kept = setup.hand & ~discard
    imp = improvements(setup.hand, discard, rules, role=setup.role, stock=stock) if odds else None
    holds = []
    for cls in DeclClass:
        claim = best_claim(kept, cls, rules)
        if claim is not None:
            holds.append(statement(claim, rules))
    g, bare = guards(kept)
    holds.append(f"guards in {_NUM[g]} suit{'s' if g != 1 else ''}")
    holds.extend(bare)
    notable = sorted(
        (e for e in (imp.events if imp is not None else ()) if 0.02 <= e.odds.probability <= 0.98),
        key=lambda e: -e.odds.probability * max(e.value, 1),
    )[:3]
    k = discard.bit_count()
    if imp is None:
        n = len(setup.unseen)
        chances = (
            f"takes in {k} of {n}: the odds not worked out here ({comb(n, k):,} draws, over "
            "the advisor's budget; `piquet odds` gives them)"
        )
    elif notable:
        chances = f"takes in {imp.draw} of {imp.unseen}: " + "; ".join(
            f"{e.name} {e.odds.probability:.0%} ({idiom(e.odds)})" for e in notable
        )
    elif imp.draw:
        chances = f"takes in {imp.draw} of {imp.unseen}: no likely improvement"
    else:
        chances = "takes in nothing"
    if score is not None:
        value = f"wins the game {ranked.value:.0%}"
    else:
        value = f"{ranked.value:+.1f} points a deal on average"
    words = METHOD_WORDS.get(ranked.method, ranked.method)
    if ranked.stderr is not None:
        half = Z95 * ranked.stderr
        err = f"{half:.1%}" if score is not None else f"{half:.1f}"
        value += f" (95% interval ±{err}; {words})"
    else:
        value += f" ({words})"
    why = ""
    if versus is not None:
        gap = ranked.value - versus.value
        unit = f"{gap:+.1%} of the game" if score is not None else f"{gap:+.1f} points a deal"
        why = f"against {versus.discard}: {unit}"
        if decl is not None and decl_versus is not None and score is None:
            d = decl - decl_versus
            why += f" ({d:+.1f} in the declarations, {gap - d:+.1f} in the play: {_where(d, gap)})"
    if score is not None:
        play = "the cards: counted with the declarations in the chance of the game"
    else:
        play = _play_line(ranked.value - decl if decl is not None and deals else None)
    return Explanation(
        CardSet(discard),
        ", ".join(holds),
        chances,
        _his_holdings(kept, setup, opponent),
        play,
        value,
        why,
        imp,
        tuple(e.name for e in notable),
        deals,
    )


def _where(decl: float, total: float) -> str:
    """Where a difference comes from, in words: the declarations, the play, or both."""
    play = total - decl
    if abs(total) < 0.05:
        return "no difference to speak of"
    if decl * total > 0 and abs(play) <= 0.25 * abs(total):
        return "almost all of it in the declarations"
    if play * total > 0 and abs(decl) <= 0.25 * abs(total):
        return "almost all of it in the play (the cards)"
    if decl * total > 0 and play * total > 0:
        return "in the declarations and in the play alike"
    if decl * total > 0:
        return "the declarations, though the play gives some of it back"
    return "the play (the cards), though the declarations give some of it back"


def compare_lines(
    best: Verified,
    other: Verified,
    setup: Setup,
    *,
    score: bool,
    opponent: OpponentModel | None = None,
) -> list[str]:
    """Why ``best`` beats ``other`` (verified by play): by how much and where, in words,
    and what each keeps, may take in and (with ``opponent``) is likely to meet."""
    rules = setup.rules
    out = []
    if score and best.chance is not None and other.chance is not None:
        out.append(
            f"{best.discard} wins the game {best.chance:.1%}, {other.discard} "
            f"{other.chance:.1%}: {best.chance - other.chance:+.1%} "
            f"[{-(other.chance_high or 0.0):+.1%}, {-(other.chance_low or 0.0):+.1%}]"
        )
    gap = best.mean - other.mean
    out.append(
        f"{best.discard} makes {gap:+.2f} points a deal more than {other.discard} "
        f"[{-other.high:+.2f}, {-other.low:+.2f}]"
        + ("" if other.high >= 0 else ", more than the noise")
        + f": {best.hand_points - other.hand_points:+.2f} in the declarations, "
        f"{gap - (best.hand_points - other.hand_points):+.2f} in the play; "
        + _where(best.hand_points - other.hand_points, gap)
    )
    for v in (best, other):
        kept = setup.hand & ~v.discard.mask
        claims = [
            statement(c, rules)
            for c in (best_claim(kept, cls, rules) for cls in DeclClass)
            if c is not None
        ]
        g, bare = guards(kept)
        imp = improvements(setup.hand, v.discard.mask, rules, role=setup.role)
        top = sorted(imp.events, key=lambda e: -e.odds.probability * max(e.value, 1))[:2]
        chances = "; ".join(f"{e.name} {e.odds.probability:.0%} ({idiom(e.odds)})" for e in top)
        out.append(
            f"  {v.discard} keeps {', '.join(claims) or 'no declaration'}, guards in "
            f"{_NUM[g]} suit{'s' if g != 1 else ''}"
            + (f" ({', '.join(bare)})" if bare else "")
            + (f"; {chances}" if chances else "")
        )
        if opponent is not None:
            out.append(f"    {_his_holdings(kept, setup, opponent)}")
    return out
