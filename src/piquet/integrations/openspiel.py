"""Piquet as an OpenSpiel game: ``import piquet.integrations.openspiel`` registers it.

::

    import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]
    import piquet.integrations.openspiel  # registers "python_piquet"

    game = pyspiel.load_game("python_piquet", {"rules": "rubicon"})

Parameters: ``rules`` (a preset name or alias, or a house-rule ``.toml`` file;
default the package's default preset), ``format`` (``"deal"``: one deal,
returns the point difference; ``"game"``: deals to the target, returns +1 / -1,
0 if ``max_deals`` deals end it undecided) and ``max_deals`` (default 50).

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

import random
from collections.abc import Callable, Iterable
from itertools import combinations
from typing import Any, Final

import numpy as np
import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]

from piquet.actions import Action, Declare, Discard
from piquet.cards import SUIT_MASKS, CardSet, card_points, mask_cards
from piquet.deal import ELDER, YOUNGER, Deal, Phase
from piquet.declarations import COURTS, DeclClass
from piquet.errors import IllegalActionError, PiquetError
from piquet.facts import BlancheShown, Exchanged, LeftoversChoice
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
    Said,
    Saying,
    information_state_string,
    information_state_tensor,
    knowledge,
    observation_string,
    observation_tensor,
    said_of,
)
from piquet.rules import DEFAULT_PRESET, Rules, get_rules
from piquet.view import DealView, deal_view

__all__ = [
    "GAME_NAME",
    "LevelBot",
    "PiquetGame",
    "PiquetObserver",
    "PiquetState",
    "ResampleError",
    "load",
    "play",
    "resample_deal",
]

GAME_NAME: Final = "python_piquet"
_DEFAULT_MAX_DEALS: Final = 50

_GAME_TYPE: Final = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Piquet",
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
    },
)


def _parse_params(params: dict[str, Any]) -> tuple[Rules, EpisodeFormat, int]:
    rules = get_rules(str(params.get("rules", DEFAULT_PRESET)))
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
    return rules, fmt, max_deals


class PiquetGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game ``python_piquet`` for one rule set and format.

    Raises :class:`~piquet.errors.RulesError` for an unknown rule set and
    :class:`~piquet.errors.PiquetError` for a bad format or ``max_deals``.
    """

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        self.rules, self.format, self.max_deals = _parse_params(dict(params or {}))
        template = Episode.start(self.rules, format=self.format, max_deals=self.max_deals)
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
            {"rules": self.rules.name, "format": self.format.value, "max_deals": self.max_deals},
        )
        self._template = template

    def new_initial_state(self) -> PiquetState:
        return PiquetState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> PiquetObserver:
        return PiquetObserver(iig_obs_type, params)


class PiquetState(pyspiel.State):  # type: ignore[misc]
    """One OpenSpiel state: an :class:`~piquet.integrations.actions.Episode` inside."""

    def __init__(self, game: PiquetGame) -> None:
        super().__init__(game)
        self.episode: Episode = game._template
        self._moves = 0
        self._deal_start = 0

    # ------------------------------------------------------------------ the pyspiel API
    def current_player(self) -> int:
        mover = self.episode.to_move
        if mover == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        if mover == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return mover

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
        self.episode = ep.apply(int(action))
        self._moves += 1

    def _action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE:
            if self.episode.dealer is None:
                return f"player {action} deals first"
            return f"pack:{CardSet(1 << action)}"
        return ACTION_NAMES[action]

    def is_terminal(self) -> bool:
        return self.episode.over

    def returns(self) -> list[float]:
        return list(self.episode.returns())

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
        was shown.  Past deals of a game are kept as they were.
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
            sampled = resample_deal(deal, ep.role_of(player_id), rng)
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
        k = knowledge(state.episode, player)
        fill = information_state_tensor if self.perfect_recall else observation_tensor
        self.tensor[:] = fill(k)

    def string_from(self, state: PiquetState, player: int) -> str:
        k = knowledge(state.episode, player)
        return information_state_string(k) if self.perfect_recall else observation_string(k)


class LevelBot(pyspiel.Bot):  # type: ignore[misc]
    """A level of :mod:`piquet.players` (``random``, ``expert``...) as an OpenSpiel bot.

    It sees the :class:`~piquet.match.MatchView` the adapter builds for its
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


def load(rules: str = DEFAULT_PRESET, *, format: str = "deal", max_deals: int = 50) -> Any:
    """``pyspiel.load_game("python_piquet", ...)`` with these parameters."""
    return pyspiel.load_game(GAME_NAME, {"rules": rules, "format": format, "max_deals": max_deals})


# ====================================================================== resampling


class ResampleError(PiquetError):
    """No deal consistent with the seat's knowledge was found within the tries."""


def _deal_positions(packet: int, deck_size: int) -> tuple[list[int], list[int]]:
    elder: list[int] = []
    younger: list[int] = []
    pos = 0
    while pos < 24:
        for seat in (elder, younger):
            seat.extend(range(pos, pos + packet))
            pos += packet
    return elder, younger


def _voids(v: DealView) -> int:
    """Suits (as a card mask) the other seat has shown it lacks, by not following."""
    out = 0
    for t in v.tricks:
        if t.leader == v.role and t.follow // 9 != t.lead // 9:
            out |= SUIT_MASKS[t.lead // 9]
    return out


def _pips(cards: Iterable[int]) -> int:
    return sum(card_points(c) for c in cards)


class _Facts:
    """What one seat knows about a deal, read from its view and the public record."""

    def __init__(self, real: Deal, role: int) -> None:
        self.real = real
        self.role = role
        self.rules = real.rules
        self.view = deal_view(real, role)
        v = self.view
        opp = 1 - role
        self.pack = [i for i in range(36) if self.rules.deck_size == 36 or i % 9]
        taken_total = self.rules.stock_size - v.stock_count
        mine = len(v.taken)
        self.n_taken = [0, 0]
        self.n_taken[role] = mine
        self.n_taken[opp] = taken_total - mine
        self.saids = [(u, said_of(u)) for u in v.dialog]
        self.elder_exchanged = any(
            isinstance(u.fact, Exchanged) and u.fact.role == ELDER for u in v.dialog
        )
        self.opp_blanche_shown: int | None = None
        self.opp_blanche_said = False
        self.opp_shown_decl = 0
        self.my_shown = 0
        self.turned_up = 0
        for u, said in self.saids:
            if u.seat == opp and said.kind is Saying.BLANCHE:
                self.opp_blanche_said = True
            if isinstance(u.fact, LeftoversChoice) and u.shown:
                self.turned_up = u.shown  # the stock cards younger left, face up
            elif isinstance(u.fact, BlancheShown) and u.seat == opp:
                self.opp_blanche_shown = u.shown
            elif u.shown and u.cls is not None:
                # cards shown for a declaration (not the stock turned up)
                if u.seat == opp:
                    self.opp_shown_decl |= u.shown
                else:
                    self.my_shown |= u.shown
        # the public record: the other's discards and declarations masked
        self.skeleton: list[tuple[int | None, Action | tuple[str, int]]] = []
        for seat, action in real.history:
            if seat == opp and isinstance(action, Discard):
                self.skeleton.append((seat, ("discard", len(action.cards))))
            elif seat == opp and isinstance(action, Declare):
                self.skeleton.append((seat, ("declare", int(action.cls))))
            else:
                self.skeleton.append((seat, action))


def resample_deal(real: Deal, role: int, rng: random.Random, *, tries: int = 20000) -> Deal:
    """A deal that ``role`` cannot tell from ``real``: its unseen cards dealt again.

    The new deal has the same history as far as ``role`` can see (its own
    actions; the other's public ones; the other's discards and declarations
    re-chosen to say the same) and ``deal_view(new, role) == deal_view(real, role)``.
    Raises :class:`ResampleError` after ``tries`` failed attempts.
    """
    facts = _Facts(real, role)
    if real.phase is Phase.DEAL:
        pack = list(facts.pack)
        rng.shuffle(pack)
        return Deal.new(real.rules, pack, start=real.start, target=real.target)
    for _ in range(tries):
        drawn = _draw(facts, rng)
        if drawn is None:
            continue
        deal = _replay(facts, drawn[0], drawn[1], rng)
        if deal is not None:
            return deal
    raise ResampleError(
        f"no deal consistent with {('elder', 'younger')[role]}'s view found in {tries} tries"
    )


def _forced(facts: _Facts, free: int, known: int, rng: random.Random) -> int | None:
    """``known`` and the cards the other's spoken claims force into its hand.

    ``free`` are the cards that may be in its hand; None if the claims do not fit.
    """
    opp = 1 - facts.role
    out = known
    free |= known
    point: Said | None = None
    claims_said: list[Said] = []
    for u, said in facts.saids:
        if u.seat != opp or said.cls is None:
            continue
        if said.kind is Saying.CLAIM:
            if said.cls is DeclClass.POINT:
                point = said
            else:
                claims_said.append(said)
        elif said.kind is Saying.PIPS and point is not None:
            point = point._replace(pips=said.pips)
        elif said.kind is Saying.EXTRAS:
            claims_said.extend(s for s in said.extras if s.cls is not DeclClass.POINT)
    for said in claims_said:
        if said.cls is DeclClass.SEQUENCE:
            for rank in range(said.rank - said.size + 1, said.rank + 1):
                suits = [said.suit] if said.suit >= 0 else [0, 1, 2, 3]
                cards = [9 * s + rank - 6 for s in suits]
                if any(out >> c & 1 for c in cards):
                    continue
                ok = [c for c in cards if free >> c & 1]
                if not ok:
                    return None
                out |= 1 << rng.choice(ok)
        elif said.cls is DeclClass.SET:
            cards = [9 * s + said.rank - 6 for s in range(4)]
            have = sum(out >> c & 1 for c in cards)
            ok = [c for c in cards if free >> c & 1 and not out >> c & 1]
            need = said.size - have
            if need > len(ok):
                return None
            for c in rng.sample(ok, max(need, 0)):
                out |= 1 << c
    if point is not None:
        choice = _point_cards(point, free | out, rng)
        if choice is None:
            return None
        out |= choice
    return out


def _point_cards(said: Said, free: int, rng: random.Random) -> int | None:
    options: list[tuple[int, ...]] = []
    for s in range(4):
        cards = mask_cards(free & SUIT_MASKS[s])
        sizes = [said.size] if said.size else range(1, len(cards) + 1)
        for k in sizes:
            if k > len(cards):
                continue
            combos = combinations(cards, k)
            if said.pips:
                options.extend(c for c in combos if _pips(c) == said.pips)
            else:
                options.extend(combos)
    if not options:
        return None
    return sum(1 << c for c in rng.choice(options))


def _draw(facts: _Facts, rng: random.Random) -> tuple[list[int], int] | None:
    """A pack order consistent with the seat's cards and counts, and the other's discard.

    Not yet checked against the dialog: :func:`_replay` does that.
    """
    real, v, rules, role = facts.real, facts.view, facts.rules, facts.role
    n = len(facts.pack)
    assert real.packet is not None
    elder_pos, younger_pos = _deal_positions(real.packet, rules.deck_size)
    my_pos, opp_pos = (elder_pos, younger_pos) if role == ELDER else (younger_pos, elder_pos)
    n_e, n_y = facts.n_taken
    elder_take = list(range(24, 24 + n_e))
    younger_take = list(range(24 + n_e, 24 + n_e + n_y))
    my_take, opp_take = (elder_take, younger_take) if role == ELDER else (younger_take, elder_take)
    rest = list(range(24 + n_e + n_y, n))
    slot: list[int] = [-1] * n
    # the seat's own cards
    for p, c in zip(my_pos, rng.sample(mask_cards(v.dealt.mask), 12), strict=True):
        slot[p] = c
    mine_taken = list(mask_cards(v.taken.mask))
    rng.shuffle(mine_taken)
    if role == YOUNGER and rules.elder_sees_unused and facts.elder_exchanged:
        seen = v.seen_by_opponent.mask
        mine_taken.sort(
            key=lambda c: (
                0 if seen >> c & 1 and not facts.my_shown >> c & 1 else 1 if seen >> c & 1 else 2
            )
        )
    for p, c in zip(my_take, mine_taken, strict=True):
        slot[p] = c
    # stock cards the seat has seen
    unused = (
        set(range(24 + n_e, 24 + rules.elder_max))
        if role == ELDER and rules.elder_sees_unused and facts.elder_exchanged
        else set()
    )
    q = list(mask_cards(v.stock_seen.mask))
    # elder knows which seen cards were his unused allotment and which younger left
    q_unused = [c for c in q if v.unused_seen.mask >> c & 1]
    q_left = [c for c in q if not v.unused_seen.mask >> c & 1]
    unused_pos = sorted(unused)
    left_only = [p for p in rest if p not in unused]
    if len(q_unused) != len(unused_pos) or (q_left and len(q_left) != len(left_only)):
        return None
    seen_pos = unused_pos + (left_only if q_left else [])
    known_opp = v.opponent_played.mask | facts.opp_shown_decl
    known_mine = v.dealt.mask | v.taken.mask
    free = sum(1 << c for c in facts.pack) & ~known_mine & ~v.stock_seen.mask
    if facts.opp_blanche_shown is not None:
        free &= ~facts.opp_blanche_shown
    takeable = v.stock_seen.mask if set(opp_take) & set(seen_pos) else 0
    forced = _forced(facts, free | takeable, known_opp, rng)
    if forced is None:
        return None
    known_opp = forced
    opp_take_set = set(opp_take)
    if facts.turned_up and any(known_opp >> c & 1 for c in mask_cards(facts.turned_up)):
        return None
    # leftovers beyond elder's allotment: only in the positions younger left
    beyond = [c for c in q_left] + [
        c for c in mask_cards(facts.turned_up) if not v.unused_seen.mask >> c & 1 and c not in q
    ]
    if beyond:
        if any(known_opp >> c & 1 for c in beyond) or len(beyond) != len(left_only):
            return None
        for p, c in zip(left_only, rng.sample(beyond, len(beyond)), strict=True):
            slot[p] = c
    # elder's unused allotment: those seen among the leftovers stay there, those known in
    # the other's hand are where younger took, the others anywhere in the allotment
    left_vis = v.leftovers_seen.mask | facts.turned_up
    u_left = [p for p in unused_pos if p not in opp_take_set]
    u_taken = [p for p in unused_pos if p in opp_take_set]
    must_left = [c for c in q_unused if left_vis >> c & 1]
    must_taken = [c for c in q_unused if known_opp >> c & 1]
    if len(must_left) > len(u_left) or len(must_taken) > len(u_taken):
        return None
    if set(must_left) & set(must_taken):
        return None
    rng.shuffle(u_left)
    rng.shuffle(u_taken)
    for p, c in zip(u_left, must_left, strict=False):
        slot[p] = c
    for p, c in zip(u_taken, must_taken, strict=False):
        slot[p] = c
    free_u = [p for p in unused_pos if slot[p] < 0]
    others_u = [c for c in q_unused if c not in must_left and c not in must_taken]
    rng.shuffle(others_u)
    for p, c in zip(free_u, others_u, strict=True):
        slot[p] = c
    # the other's dealt hand, the cards known in its hand, its discard
    must_blanche = facts.opp_blanche_said and facts.opp_blanche_shown is None
    if facts.opp_blanche_shown is not None:
        for p, c in zip(opp_pos, rng.sample(mask_cards(facts.opp_blanche_shown), 12), strict=True):
            slot[p] = c
    pending = [c for c in mask_cards(known_opp) if c not in slot]
    hand_slots = [p for p in opp_pos + opp_take if slot[p] < 0]
    rng.shuffle(pending)
    for c in pending:
        ok = [p for p in hand_slots if not (must_blanche and COURTS >> c & 1 and p in opp_pos)]
        if not ok:
            return None
        p = rng.choice(ok)
        hand_slots.remove(p)
        slot[p] = c
    discard_n = v.opponent_discard_count
    discard_slots: list[int] = []
    if facts.opp_blanche_shown is not None:
        dealt_free = [p for p in opp_pos if not known_opp >> slot[p] & 1]
        if len(dealt_free) < discard_n:
            return None
        discard_slots = rng.sample(dealt_free, discard_n)
    else:
        open_dealt = [p for p in hand_slots if p in set(opp_pos)]
        if len(open_dealt) < discard_n:
            return None
        discard_slots = rng.sample(open_dealt, discard_n)
        hand_slots = [p for p in hand_slots if p not in discard_slots]
    # fill the rest from the unknown cards; the other's hand avoids suits it lacks
    pool = [c for c in facts.pack if c not in slot]
    void = _voids(v)
    rng.shuffle(pool)
    pool.sort(key=lambda c: bool(void >> c & 1))
    if must_blanche:
        pool.sort(key=lambda c: bool(COURTS >> c & 1))
    others = [p for p in range(n) if slot[p] < 0 and p not in hand_slots]
    for p in hand_slots:
        if not pool:
            return None
        c = pool.pop(0)
        if void >> c & 1:
            return None
        slot[p] = c
    rng.shuffle(pool)
    for p, c in zip(others, pool, strict=True):
        slot[p] = c
    return slot, sum(1 << slot[p] for p in discard_slots)


def _replay(facts: _Facts, pack: list[int], discard: int, rng: random.Random) -> Deal | None:
    """Play the seat's record again on ``pack``; None if what it saw comes out different."""
    real = facts.real
    try:
        deal = Deal.new(real.rules, pack, start=real.start, target=real.target)
    except IllegalActionError:
        return None
    dialog, events = real.dialog, real.events
    for seat, step in facts.skeleton:
        if deal.to_act != seat:
            return None
        if isinstance(step, tuple):
            if step[0] == "discard":
                action: Action = Discard(CardSet(discard))
                if not deal.can(action):
                    return None
                nxt = deal.apply(action)
            else:
                options = [a for a in deal.legal_actions() if isinstance(a, Declare)]
                rng.shuffle(options)
                found = None
                for a in options:
                    cand = deal.apply(a)
                    if (
                        cand.dialog == dialog[: len(cand.dialog)]
                        and cand.events == events[: len(cand.events)]
                    ):
                        found = cand
                        break
                if found is None:
                    return None
                nxt = found
        else:
            if not deal.can(step):
                return None
            nxt = deal.apply(step)
        if nxt.dialog != dialog[: len(nxt.dialog)] or nxt.events != events[: len(nxt.events)]:
            return None
        deal = nxt
    if deal_view(deal, facts.role) != facts.view:
        return None
    return deal


pyspiel.register_game(_GAME_TYPE, PiquetGame)
