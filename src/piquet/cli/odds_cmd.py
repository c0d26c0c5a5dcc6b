"""``piquet odds``: exact chances of the draw, as fractions and in the books' idiom."""

from __future__ import annotations

import argparse
import json
from typing import Any

from piquet.analysis.odds import Odds, draw_chance, improvements
from piquet.cli.text import echo
from piquet.core.cards import CardSet
from piquet.core.errors import PiquetError
from piquet.core.rules import get_rules

_ROLES = {"elder": 0, "younger": 1}


def register(sub: Any) -> None:
    p = sub.add_parser(
        "odds",
        help="exact chances of taking in wanted cards, or of each improvement of a hand",
        description=(
            "Either the chance of taking in at least K of W wanted cards when drawing D "
            "from N unseen (--unseen, --draw, --wanted, --at-least), or, for a hand and a "
            "discard under a rule set (--rules, --hand, --role, --discard), the exact chance "
            "of each improvement over every possible draw. Chances are given as reduced "
            "fractions, probabilities and in the books' idiom ('29 to 28 on')."
        ),
    )
    p.add_argument("--unseen", type=int, help="cards the player has not seen (N)")
    p.add_argument("--draw", type=int, help="cards he takes in (D)")
    p.add_argument("--wanted", type=int, help="cards among the unseen that he wants (W)")
    p.add_argument("--at-least", type=int, default=1, help="how many of them (K, default 1)")
    p.add_argument("--rules", help="rule set (preset, alias or house-rule .toml)")
    p.add_argument("--hand", help='the twelve cards dealt, e.g. "AS KS QS ..."')
    p.add_argument("--role", choices=sorted(_ROLES), help="elder or younger (with --hand)")
    p.add_argument("--discard", help="the cards laid out (as many are taken in)")
    p.add_argument("--seen", default="", help="other cards known not to be in the stock")
    p.add_argument("--stock", type=int, metavar="N",
                   help="younger: how many cards elder left him in the stock (default: all)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=run)


#: the most cards of any pack (the 36-card rule sets); no draw has more unseen cards
MOST_CARDS = 36


def _refuse_beyond_a_pack(unseen: int, draw: int, wanted: int) -> None:
    """No pack has more than :data:`MOST_CARDS` cards: a bigger number describes no draw."""
    for option, value in (("--unseen", unseen), ("--draw", draw), ("--wanted", wanted)):
        if value > MOST_CARDS:
            raise PiquetError(
                f"{option} {value} is more cards than any pack holds: --unseen, --draw and "
                f"--wanted go up to {MOST_CARDS} (the largest pack)"
            )


def _refuse_impossible(unseen: int, draw: int, wanted: int, at_least: int) -> None:
    """A question whose answer could only be "impossible" is refused, saying why: more
    cards asked for than are wanted, or than are drawn."""
    if min(unseen, draw, wanted) < 0 or draw > unseen or wanted > unseen:
        return  # draw_chance names what is wrong with these numbers
    most = min(draw, wanted)
    if at_least > most:
        n, what = (wanted, "wanted") if wanted <= draw else (draw, "drawn")
        why = (
            f"no card is {what}"
            if n == 0
            else f"only {n} card{'s are' if n != 1 else ' is'} {what}"
        )
        raise PiquetError(
            f"impossible question: at least {at_least} cannot be taken in when {why}; "
            f"--at-least goes from 0 to {most} here (the smaller of --draw and --wanted)"
        )


def run(args: argparse.Namespace) -> int:
    simple = [args.unseen, args.draw, args.wanted]
    hand_mode = args.hand is not None or args.discard is not None
    if hand_mode and any(v is not None for v in simple):
        raise PiquetError("give either --unseen/--draw/--wanted or --hand/--discard, not both")
    if hand_mode:
        if args.hand is None or args.discard is None:
            raise PiquetError("a hand's odds need both --hand and --discard (and --role)")
        if args.role is None:
            # the two draw from different stocks (elder five of twenty, younger what is left)
            raise PiquetError("a hand's odds need --role elder or --role younger")
        if args.stock is not None and args.role != "younger":
            raise PiquetError("--stock is what elder left younger: give it with --role younger")
        rules = get_rules(args.rules)
        imp = improvements(
            CardSet.parse(args.hand),
            CardSet.parse(args.discard),
            rules,
            role=_ROLES[args.role],
            seen=CardSet.parse(args.seen) if args.seen.strip() else CardSet(),
            stock=args.stock,
        )
        if args.json:
            print(json.dumps(imp.to_json(), indent=2, ensure_ascii=False))
        else:
            echo("\n".join(imp.lines()))
        return 0
    if any(v is None for v in simple):
        raise PiquetError(
            "give --unseen N --draw D --wanted W [--at-least K], or --rules --hand --role "
            "--discard for a hand"
        )
    if args.rules is not None:
        get_rules(args.rules)  # a bad name is still an error
    _refuse_beyond_a_pack(args.unseen, args.draw, args.wanted)
    _refuse_impossible(args.unseen, args.draw, args.wanted, args.at_least)
    odds = Odds(draw_chance(args.unseen, args.draw, args.wanted, at_least=args.at_least))
    if args.json:
        out = {
            "unseen": args.unseen,
            "draw": args.draw,
            "wanted": args.wanted,
            "at_least": args.at_least,
            **odds.to_json(),
        }
        print(json.dumps(out))
        return 0
    f = odds.fraction
    k = args.at_least
    echo(
        f"Drawing {args.draw} from {args.unseen} unseen, the chance of taking in at least "
        f"{k} of {args.wanted} wanted card{'s' if args.wanted != 1 else ''}: "
        f"{f.numerator}/{f.denominator} = {odds.probability:.4f} ({odds.phrase})."
    )
    return 0
