"""Piquet: the two-player card game under every period and modern rule set.

The core (cards, rules, declarations, deal, scoring, match, view) depends on
nothing else in the package; notation, players and odds build on it; the
command line and the web table sit on top.
"""

from piquet.core.actions import Action, parse_action
from piquet.core.cards import Card, CardSet, Rank, Suit
from piquet.core.deal import ELDER, YOUNGER, Deal, Phase
from piquet.core.declarations import Claim, DeclClass
from piquet.core.errors import IllegalActionError, ParseError, PiquetError, RecordError, RulesError
from piquet.core.match import Match, new_match
from piquet.core.rules import DEFAULT_PRESET, PRESETS, Format, Rules, get_rules, load_rules_file
from piquet.core.view import DealView, deal_view

__version__ = "0.2.0"

__all__ = [
    "DEFAULT_PRESET",
    "ELDER",
    "PRESETS",
    "YOUNGER",
    "Action",
    "Card",
    "CardSet",
    "Claim",
    "Deal",
    "DealView",
    "DeclClass",
    "Format",
    "IllegalActionError",
    "Match",
    "ParseError",
    "Phase",
    "PiquetError",
    "Rank",
    "RecordError",
    "Rules",
    "RulesError",
    "Suit",
    "deal_view",
    "get_rules",
    "load_rules_file",
    "new_match",
    "parse_action",
]
