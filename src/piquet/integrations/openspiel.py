"""Piquet as an OpenSpiel game: ``import piquet.integrations.openspiel`` registers it.

::

    import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]
    import piquet.integrations.openspiel  # registers "python_piquet"

    game = pyspiel.load_game("python_piquet", {"rules": "rubicon"})

Parameters: ``rules`` (a preset name or alias, or a house-rule ``.toml`` file, whose
game's parameter then carries its knobs, see :func:`rules_param`; default the package's
default preset), ``format`` (``"deal"``: one deal,
returns the point difference; ``"game"``: deals to the target, returns +1 / -1,
0 if ``max_deals`` deals cut it off undecided, :meth:`PiquetState.is_truncated`;
``"partie"``: the Rubicon partie of the rule sets that play one, returns the settlement's
points), ``max_deals`` (default 50), ``version`` (the rule readings played,
:mod:`piquet.integrations.versions`; default the current one), ``resampler`` (how
:meth:`PiquetState.resample_from_infostate` draws the hidden cards: ``"modelled"``, the
default, weighs a world in which the other sank a holding at 0.15 of the others, the
package's opponent model; ``"uniform"``: every world consistent with the seat's knowledge
alike, for results that do not depend on the package's model) and ``board`` (default
true: the deal, game or partie on the compiled board from its first decision, the same
game node for node, :mod:`piquet.integrations.openspiel_board`, about three times as fast;
false: the engine's episode, the default up to 0.2.0; ``kernel`` matters only then, and
:func:`load` with ``kernel=False`` and no ``board`` gives the engine alone, as before).
Every preset, format, version and house rule plays on the board (the board's observation
reads the knobs of what a seat sees).

The game has imperfect information.  A perfect-information algorithm (OpenSpiel's
``MCTSBot``) clones the state it is given, so its search sees the other's hand and the
stock: it plays a different, easier game.  Use ``ISMCTSBot`` (``examples/``), which
searches worlds drawn by :meth:`PiquetState.resample_from_infostate`.

Chance draws the pack one card per chance node (at most 36 outcomes each);
the player nodes use the fixed ids of :mod:`piquet.integrations.actions`.
Information-state and observation strings and tensors come from
:mod:`piquet.integrations.observation`, i.e. from the seat's view alone.
:meth:`PiquetState.resample_from_infostate` deals the cards the seat cannot
see again, consistently with all it has seen, so OpenSpiel's Python
``ISMCTSBot`` can search it.  :class:`LevelBot` lets any level of
:mod:`piquet.players` play through the adapter as a ``pyspiel.Bot``.
"""

from __future__ import annotations

import base64
import json
import random
from collections.abc import Callable, Iterable
from typing import Any, Final

import numpy as np
import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]

from piquet.analysis.sampling import SamplingError, sample_worlds, world_deal
from piquet.core.actions import Action, Discard
from piquet.core.cards import CardSet, mask_cards
from piquet.core.cards import pack as rules_pack
from piquet.core.deal import ROLE_NAMES, Deal, Phase
from piquet.core.errors import IllegalActionError, PiquetError, RulesError
from piquet.core.rules import DEFAULT_PRESET, Rules, get_rules, rules_from_mapping
from piquet.core.view import deal_view
from piquet.integrations.actions import (
    ACTION_NAMES,
    CHANCE,
    NUM_ACTIONS,
    TERMINAL,
    Episode,
    EpisodeFormat,
    encode_action,
    encode_discard,
)
from piquet.integrations.observation import (
    INFO_PIECES,
    OBS_PIECES,
    episode_information_state_tensor,
    episode_observation_tensor,
    information_state_string,
    knowledge,
    observation_string,
)
from piquet.integrations.versions import ENV_VERSION, check_version, versioned_rules

__all__ = [
    "GAME_NAME",
    "LevelBot",
    "PiquetGame",
    "PiquetObserver",
    "PiquetState",
    "RESAMPLERS",
    "ResampleError",
    "load",
    "play",
    "resample_deal",
]

GAME_NAME: Final = "python_piquet"
_DEFAULT_MAX_DEALS: Final = 50

_GAME_TYPE: Final = pyspiel.GameType(
    short_name=GAME_NAME,
    # OpenSpiel's game type has no field for it, so the name says it: a perfect-information
    # search (MCTSBot) clones states and so sees the hidden cards; ISMCTS does not
    long_name="Python Piquet (imperfect information: MCTSBot would see hidden cards; use ISMCTS)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={
        "rules": DEFAULT_PRESET,
        "format": EpisodeFormat.DEAL.value,
        "max_deals": _DEFAULT_MAX_DEALS,
        "kernel": True,
        "version": ENV_VERSION,
        "resampler": "modelled",
        "board": True,
    },
)

#: the ways :meth:`PiquetState.resample_from_infostate` may draw the hidden cards
RESAMPLERS: Final = ("modelled", "uniform")


_INLINE: Final = "knobs:"
"""A house rule's ``rules`` parameter: this, then its knobs as JSON in base64url (a
parameter OpenSpiel's game strings carry whole, and which loads on any machine)."""


def rules_param(rules: Rules) -> str:
    """The ``rules`` parameter that loads ``rules`` again: a preset's name, or a house
    rule's knobs inline (its file need not travel with a pickled game or a saved state)."""
    if rules.is_preset:
        return rules.name
    text = json.dumps(rules.knobs_json(), separators=(",", ":"), sort_keys=True)
    return _INLINE + base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def _rules_of(param: str) -> Rules:
    if not param.startswith(_INLINE):
        return get_rules(param)
    body = param[len(_INLINE):]
    try:
        knobs = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    except ValueError:  # (binascii.Error and json's errors are ValueErrors)
        raise RulesError(
            f"rules {param[:40]!r}...: not the knobs a house rule's parameter carries"
        ) from None
    if not isinstance(knobs, dict):
        raise RulesError("rules: a house rule's parameter carries an object of knobs")
    return rules_from_mapping(knobs)


def _resampler(params: dict[str, Any]) -> str:
    raw = params.get("resampler", "modelled")
    name = str(raw).strip().lower()
    if name not in RESAMPLERS:
        raise PiquetError(f"resampler {raw!r} is not known; use one of: {', '.join(RESAMPLERS)}")
    return name


def _parse_params(params: dict[str, Any]) -> tuple[Rules, EpisodeFormat, int, bool, int]:
    version = check_version(params.get("version", ENV_VERSION))
    rules = versioned_rules(_rules_of(str(params.get("rules", DEFAULT_PRESET))), version)
    raw = str(params.get("format", EpisodeFormat.DEAL.value))
    try:
        fmt = EpisodeFormat(raw.strip().lower())
    except ValueError:
        raise PiquetError(
            f"format {raw!r} is not known; use one of: " + ", ".join(f.value for f in EpisodeFormat)
        ) from None
    max_deals = int(params.get("max_deals", _DEFAULT_MAX_DEALS))
    if max_deals < 1:
        raise PiquetError(f"max_deals must be at least 1, not {max_deals}")
    kernel = params.get("kernel", True)
    if not isinstance(kernel, bool):
        raise PiquetError(f"kernel must be true or false, not {kernel!r}")
    return rules, fmt, max_deals, kernel, version


class PiquetGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game ``python_piquet`` for one rule set and format.

    Raises :class:`~piquet.core.errors.RulesError` for an unknown rule set and
    :class:`~piquet.core.errors.PiquetError` for a bad format, ``max_deals`` or ``version``
    (and warns with :class:`~piquet.integrations.versions.OldReadingWarning` for a version
    whose readings are no longer played).
    """

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        self.rules, self.format, self.max_deals, kernel, self.version = _parse_params(
            dict(params or {}))
        self.resampler = _resampler(dict(params or {}))
        # the board unless asked otherwise, or unless the engine alone is asked (kernel=false)
        board = (params or {}).get("board", kernel)
        if not isinstance(board, bool):
            raise PiquetError(f"board must be true or false, not {board!r}")
        template = Episode.start(self.rules, format=self.format, max_deals=self.max_deals,
                                 kernel=kernel)
        bound = template.max_utility()
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=36,
            num_players=2,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=template.max_length(),
        )
        super().__init__(
            _GAME_TYPE,
            info,
            {"rules": rules_param(self.rules), "format": self.format.value,
             "max_deals": self.max_deals, "kernel": kernel, "version": self.version,
             "resampler": self.resampler, "board": board},
        )
        self._template = template
        self.board = board
        self._board: Any = None  # board=True: the compiled board each state copies
        if board:
            from piquet.integrations.openspiel_board import board_template

            self._board = board_template(self)
            self._pack_cards = list(template.pack_cards)

    def new_initial_state(self) -> Any:
        if self.board:
            from piquet.integrations.openspiel_board import BoardPiquetState

            return BoardPiquetState(self)
        return PiquetState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Any:
        if self.board:
            from piquet.integrations.openspiel_board import BoardObserver

            return BoardObserver(iig_obs_type, params)
        return PiquetObserver(iig_obs_type, params)


_TERMINAL: Final = int(pyspiel.PlayerId.TERMINAL)
_CHANCE: Final = int(pyspiel.PlayerId.CHANCE)


class PiquetState(pyspiel.State):  # type: ignore[misc]
    """One OpenSpiel state: an :class:`~piquet.integrations.actions.Episode` inside."""

    def __init__(self, game: PiquetGame) -> None:
        super().__init__(game)
        self.episode: Episode = game._template
        self._player = self._player_of(self.episode)
        self._moves = 0
        self._deal_start = 0

    # ------------------------------------------------------------------ the pyspiel API
    @staticmethod
    def _player_of(ep: Episode) -> int:
        mover = ep.to_move
        if mover == TERMINAL:
            return _TERMINAL
        if mover == CHANCE:
            return _CHANCE
        return mover

    def current_player(self) -> int:
        # kept a move (OpenSpiel asks several times a step)
        return self._player

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.episode.to_move:
            return []
        return self.episode.legal_ids()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.episode.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        ep = self.episode
        if ep.to_move == CHANCE and ep.dealer is not None and not ep.pack:
            self._deal_start = self._moves
        self.episode = ep = ep.apply(int(action))
        self._player = self._player_of(ep)
        self._moves += 1

    def _action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE:
            if self.episode.dealer is None:
                return f"player {action} deals first"
            return f"pack:{CardSet(1 << action)}"
        return ACTION_NAMES[action]

    def is_terminal(self) -> bool:
        return self.episode.over

    def is_truncated(self) -> bool:
        """Whether the episode was cut off at ``max_deals`` (a game still undecided), not
        decided.  OpenSpiel has no truncation: such a state is terminal, with returns of 0
        each; a learner that bootstraps values should treat it as a time limit, not as an
        end (PettingZoo's environment reports it as ``truncated``)."""
        return self.episode.over and self.episode.cut_off

    def returns(self) -> list[float]:
        return list(self.episode.returns())

    def record(self) -> dict[str, Any]:
        """The game so far as a record through the table's log
        (:meth:`piquet.integrations.actions.Episode.record`); ``Episode.from_record``
        replays it."""
        return self.episode.record()

    def __str__(self) -> str:
        ep = self.episode
        deal = ep.deal
        head = f"{ep.rules.name} {ep.format.value}; scores {ep.scores}; deals {ep.deals}"
        if deal is None:
            return f"{head}; pack drawn: {CardSet(sum(1 << c for c in ep.pack))}"
        return (
            f"{head}; dealer player {ep.dealer}; phase {deal.phase.value}; "
            f"elder {CardSet(deal.hands[0])}; younger {CardSet(deal.hands[1])}; "
            f"stock {' '.join(str(CardSet(1 << c)) for c in deal.stock)}; "
            f"laid out {CardSet(ep.selected)}; history {' '.join(str(a) for _, a in deal.history)}"
        )

    # ------------------------------------------------------------------ search support
    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> PiquetState:
        """A state ``player_id`` cannot tell from this one, drawn at random.

        The cards the player has not seen are dealt again (its opponent's
        hand, discards and the unseen stock), consistently with everything
        it has seen: the opponent's declarations and plays, the counts, what
        was shown.  Past deals of a game are kept as they were.  The game's
        ``resampler`` parameter says how the worlds are weighed (``"modelled"`` or
        ``"uniform"``, see :func:`resample_deal`).
        Raises :class:`ResampleError` if no consistent deal is found.
        """
        rng = random.Random(int(probability_sampler() * 2**53))
        history = list(self.history())
        ep = self.episode
        deal = ep.deal
        if ep.over or ep.dealer is None:
            ids = history
        elif deal is None:
            # the pack is being drawn: the cards drawn so far are the last ids, unseen
            drawn = list(ep.pack)
            rng.shuffle(drawn)
            ids = history[: len(history) - len(drawn)] + drawn
        else:
            ids = history[: self._deal_start]
            uniform = self.get_game().resampler == "uniform"
            sampled = resample_deal(deal, ep.role_of(player_id), rng, uniform=uniform)
            ids += list(sampled.deck)
            for _, action in sampled.history:
                ids += _ids_of(action, ep.rules)
            if ep.selected:
                if ep.to_move == player_id:
                    ids += list(encode_discard(CardSet(ep.selected))[:-1])
                else:
                    seat = sampled.to_act
                    assert seat is not None, "a seat is laying out its discard"
                    own = sampled.hands[seat]
                    ids += [36 + c for c in sorted(mask_cards(own))[: ep.selected.bit_count()]]
        state = self.get_game().new_initial_state()
        for i in ids:
            state.apply_action(i)
        return state  # type: ignore[no-any-return]


def _ids_of(action: Action, rules: Rules) -> Iterable[int]:
    if isinstance(action, Discard):
        return encode_discard(action.cards)
    return (encode_action(action, rules=rules),)


class PiquetObserver:
    """OpenSpiel's observer protocol: ``tensor``, ``dict``, ``set_from``, ``string_from``.

    ``perfect_recall=True`` gives the information state, else the observation.
    Only the acting seat's own private information is supported (``private_info``
    single player). Raises :class:`PiquetError` for other observation types or
    for parameters.
    """

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise PiquetError(f"python_piquet observers take no parameters, not {params}")
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        if iig_obs_type is not None and (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            or not iig_obs_type.public_info
        ):
            raise PiquetError(
                "python_piquet observes for one seat: public information plus that seat's own"
            )
        pieces = INFO_PIECES if self.perfect_recall else OBS_PIECES
        self.tensor = np.zeros(sum(n for _, n in pieces), np.float32)
        self.dict: dict[str, np.ndarray[Any, np.dtype[np.float32]]] = {}
        at = 0
        for name, size in pieces:
            self.dict[name] = self.tensor[at : at + size]
            at += size

    def set_from(self, state: PiquetState, player: int) -> None:
        # the fast tensors: bit for bit those of knowledge(...) (tests/test_observation_fast.py)
        if self.perfect_recall:
            self.tensor[:] = episode_information_state_tensor(state.episode, player)
        else:
            self.tensor[:] = episode_observation_tensor(state.episode, player)

    def string_from(self, state: PiquetState, player: int) -> str:
        k = knowledge(state.episode, player)
        return information_state_string(k) if self.perfect_recall else observation_string(k)


class LevelBot(pyspiel.Bot):  # type: ignore[misc]
    """A level of :mod:`piquet.players` (``random``, ``expert``...) as an OpenSpiel bot.

    It sees the :class:`~piquet.core.match.MatchView` the adapter builds for its
    seat, and plays a discard id by id.
    """

    def __init__(self, level: str, *, player_id: int, seed: int = 0) -> None:
        from piquet.players import make_player  # the levels load only when a bot is made

        pyspiel.Bot.__init__(self)
        self.level = level
        self.player_id = player_id
        self._player = make_player(level, seed=seed)
        self._pending: list[int] = []

    def restart_at(self, state: PiquetState) -> None:
        self._pending = []

    def inform_action(self, state: PiquetState, player_id: int, action: int) -> None:
        pass

    def step(self, state: PiquetState) -> int:
        ep = state.episode
        if self._pending:
            return self._pending.pop(0)
        if ep.to_move != self.player_id:
            raise IllegalActionError(f"it is not player {self.player_id}'s turn")
        action = self._player.choose(ep.match_view(self.player_id))
        ids = list(_ids_of(action, ep.rules))
        if isinstance(action, Discard) and ep.selected:
            ids = [i for i in ids if not (36 <= i < 72 and ep.selected >> (i - 36) & 1)]
        self._pending = ids[1:]
        return ids[0]


def play(game: Any, bots: list[Any], *, seed: int = 0) -> list[float]:
    """Play one episode of ``game`` between two bots (``step(state) -> id``); the returns.

    Chance outcomes are drawn from ``seed``.  Unlike OpenSpiel's
    ``evaluate_bots`` this needs no ``restart_at`` (the Python ISMCTS bot has none).
    """
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            state.apply_action(int(bots[state.current_player()].step(state)))
    return list(state.returns())


def load(rules: str = DEFAULT_PRESET, *, format: str = "deal", max_deals: int = 50,
         kernel: bool = True, version: int = ENV_VERSION, resampler: str = "modelled",
         board: bool | None = None) -> Any:
    """``pyspiel.load_game("python_piquet", ...)`` with these parameters (``kernel``: play
    the cards on the compiled kernel's board; False: every step through the engine;
    ``version``: the rule readings, :mod:`piquet.integrations.versions`; ``resampler``:
    ``"modelled"`` or ``"uniform"`` worlds for ISMCTS, :func:`resample_deal`; ``board``: the
    deal, game or partie on the compiled board from its first decision,
    :mod:`piquet.integrations.openspiel_board`; None, the default: the board unless
    ``kernel`` is False)."""
    return pyspiel.load_game(GAME_NAME, {"rules": rules, "format": format, "max_deals": max_deals,
                                         "kernel": kernel, "version": version,
                                         "resampler": resampler,
                                         "board": kernel if board is None else board})


# ====================================================================== resampling


class ResampleError(PiquetError):
    """No deal consistent with the seat's knowledge was found within the tries."""


def resample_deal(real: Deal, role: int, rng: random.Random, *, tries: int = 2000,
                  uniform: bool = False) -> Deal:
    """A deal that ``role`` cannot tell from ``real``: its unseen cards dealt again.

    The worlds come from the one sampler (:mod:`piquet.analysis.sampling`), which reads the
    facts of the dialog; the new deal replays the history as far as ``role`` can see
    (its own actions, the other's public ones, the other's discards and declarations
    re-chosen to say the same), and ``deal_view(new, role) == deal_view(real, role)``.
    A world is drawn in proportion to its weight: by default the package's opponent model
    (a holding the other sank makes a world 0.15 as likely,
    :data:`piquet.analysis.sampling.SINK_WEIGHT`);
    with ``uniform`` every world consistent with the view alike (the dialog only rules
    worlds out).  Raises :class:`ResampleError` after ``tries`` worlds that do not replay.
    """
    rules = real.rules
    if real.phase is Phase.DEAL:
        pack = rules_pack(rules)
        rng.shuffle(pack)
        return Deal.new(rules, pack, start=real.start, target=real.target)
    view = deal_view(real, role)
    failed = 0
    while failed < tries:
        try:
            worlds = sample_worlds(view, rules, rng, 8, uniform=uniform)
        except SamplingError:
            break
        while worlds:
            world = rng.choices(worlds, weights=[w.weight for w in worlds])[0]
            try:
                return world_deal(view, rules, world, start=real.start, target=real.target)
            except SamplingError:
                failed += 1
                worlds.remove(world)
    raise ResampleError(
        f"no deal consistent with {ROLE_NAMES[role]}'s view found in {tries} tries"
    )


pyspiel.register_game(_GAME_TYPE, PiquetGame)
