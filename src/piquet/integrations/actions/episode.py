"""The episode: one deal, or one game of deals, as the frameworks see it, stepped by action
ids, with chance nodes for the deal and each seat's observation."""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass, field, replace
from typing import Any, Final, cast

from piquet.core.actions import (
    PLAY,
    Action,
    Discard,
)
from piquet.core.cards import CardSet
from piquet.core.deal import ELDER, YOUNGER, Deal, Phase
from piquet.core.errors import IllegalActionError
from piquet.core.match import Match, MatchView, Player, new_match
from piquet.core.roles import Role
from piquet.core.rules import Format, Rules
from piquet.core.view import DealView
from piquet.integrations.actions.ids import (
    ACTION_NAMES,
    CHANCE,
    DISCARD_DONE,
    NUM_ACTIONS,
    SELECT_BASE,
    TERMINAL,
    _legal_ids,
    _selectable,
    decode_action,
    encode_action,
    encode_discard,
    max_deal_decisions,
    max_deal_points,
)
from piquet.integrations.board import CardRun, SeatParts, deal_parts
from piquet.table.seats import person
from piquet.table.state import Pack, TableState, dealt_from
from piquet.table.views import last_deal_view, seen, seen_deal

__all__ = ["Episode", "EpisodeFormat"]

# ---------------------------------------------------------------------- the episode


_PACKS: Final = {36: tuple(range(36)), 32: tuple(i for i in range(36) if i % 9)}


class EpisodeFormat(enum.Enum):
    DEAL = "deal"
    """One deal; player 0 is elder; returns are the deal's point difference."""
    GAME = "game"
    """Deals until one player reaches the target; returns +1 / -1 (0 if drawn)."""
    PARTIE = "partie"
    """The Rubicon partie (rule sets that play one); returns are the settlement's points."""


_KEPT_IN_DISCARD: Final = ("deal", "to_move", "view0", "view1", "table")
"""What an episode has worked out that a card laid out for a discard does not change."""

_MATCH_FORMATS: Final = {EpisodeFormat.GAME: Format.GAME, EpisodeFormat.PARTIE: Format.PARTIE}

_GAME_ID: Final = "episode"
_SEATS: Final = (person(0, "player_0"), person(1, "player_1"))
"""The table's seats: the frameworks' agents, by their names."""

_DEAL_TABLES: dict[Rules, TableState] = {}
"""A deal episode's table before its pack, by rule set (immutable: shared)."""


def _deal_table(rules: Rules) -> TableState:
    table = _DEAL_TABLES.get(rules)
    if table is None:
        if len(_DEAL_TABLES) > 64:
            _DEAL_TABLES.clear()
        table = _DEAL_TABLES[rules] = TableState.new(
            _GAME_ID, _SEATS, new_match(rules, seed=0, format=Format.GAME))
    return table


@dataclass(frozen=True, slots=True)
class Episode:
    """One deal (or one game, or one partie) driven by ids, the pack drawn by chance nodes.

    Immutable: :meth:`apply` returns the next episode.  Players are 0 and 1;
    in a deal episode player 1 deals (so player 0 is elder); in a game or partie
    episode a chance node picks the first dealer, and a
    :class:`~piquet.core.match.Match` plays the deals (each dealt from the pack the
    chance nodes drew, by :meth:`~piquet.table.state.TableState.with_pack`), alternates the
    deal, and ends and settles the game or partie.

    The match sits at a table (:class:`~piquet.table.state.TableState`, its seats the two
    agents).  A step moves the engine itself (checking the action as the table would, in
    the same words), and the table follows only when read (:attr:`table`,
    :meth:`TableState.followed <piquet.table.state.TableState.followed>`: each move in its
    log as :meth:`TableState.apply <piquet.table.state.TableState.apply>` writes it), so
    the game has a record (:meth:`record`, replayed by :meth:`from_record`) and a loop of
    ids and tensors does not pay for the log.  A seat's view of the deal is the table's
    (:func:`~piquet.table.views.seen_deal`: the hidden information exactly as the browser
    shows that seat), and the labels of the legal ids are the table's menu
    (:meth:`labels`).  A deal episode's table plays its one deal to its end, whatever the
    score.
    """

    rules: Rules
    format: EpisodeFormat
    max_deals: int
    pack: tuple[int, ...] = ()
    """Cards of the current deal's pack drawn so far (top first)."""
    base: TableState | None = None
    """The table (a game or partie's once the first dealer is drawn, a deal's once its
    pack is) as it was last brought up to date: the moves since are in :attr:`match` (a
    deal episode's in :attr:`now`), and the table follows them when read (:attr:`table`
    is the table now).  A game's current deal is only in play once this episode's pack is
    drawn."""
    match: Match | None = None
    """The game or partie as it stands (None in a deal episode, or before the first dealer
    is drawn): the engine a step moves."""
    selected: int = 0
    """Cards the seat to act has laid out for its discard (its own secret)."""
    cut_off: bool = False
    """A game episode stopped undecided at ``max_deals``."""
    kernel: bool = True
    """Play the cards on the compiled kernel's board (:mod:`piquet.integrations.board`)
    once only cards are left to decide; False: every step through the engine."""
    run: CardRun | None = None
    """The cards being played on the kernel's board.  While a run goes on, :attr:`match`
    (or :attr:`now`) stands where it began; :attr:`deal` is the current deal."""
    now: Deal | None = None
    """A deal episode's deal as it stands (None before its pack is drawn): the engine a
    step moves; during a run on the kernel's board, where the run began."""
    given: tuple[Pack, ...] = ()
    """The packs a game's or partie's match was dealt since ``base`` (given to the table
    when it follows)."""
    _cache: dict[str, object] = field(default_factory=dict, init=False, repr=False,
                                      compare=False)
    """What this (immutable) episode has already worked out: who moves, the current deal,
    each player's view, the legal ids.  Private; a new episode starts with it empty."""

    def __deepcopy__(self, memo: object) -> Episode:
        return self  # immutable

    @classmethod
    def start(
        cls, rules: Rules, *, format: EpisodeFormat = EpisodeFormat.DEAL, max_deals: int = 50,
        kernel: bool = True,
    ) -> Episode:
        """A new episode: nothing drawn yet (``kernel``: see :attr:`kernel`).

        Raises :class:`IllegalActionError` if ``max_deals`` is below 1, ``kernel`` is not a
        bool, or the rule set does not play the format (a partie).
        """
        if max_deals < 1:
            raise IllegalActionError(f"max_deals must be at least 1, not {max_deals}")
        if not isinstance(kernel, bool):
            raise IllegalActionError(f"kernel must be True or False, not {kernel!r}")
        if format is EpisodeFormat.PARTIE and (why := rules.format_refusal(
                Format.PARTIE, offered=(Format.GAME, Format.PARTIE))) is not None:
            raise IllegalActionError(why)
        # the most deals the episode may take: a partie's own (two more when level),
        # which the observation's "deals played" is measured against
        extra = 2 if rules.partie_tie_extra_deals else 0
        most = {EpisodeFormat.DEAL: 1, EpisodeFormat.GAME: max_deals,
                EpisodeFormat.PARTIE: rules.partie_deals + extra}[format]
        return cls(rules, format, most, kernel=kernel)

    # ------------------------------------------------------------------ the state
    @property
    def table(self) -> TableState | None:
        """The table now, worked out when asked: :attr:`base` once it has followed the moves
        made since (:meth:`TableState.followed <piquet.table.state.TableState.followed>`),
        and during a run on the kernel's board the run's cards applied through the table
        (each checked as :meth:`TableState.apply <piquet.table.state.TableState.apply>`
        checks it)."""
        base = self.base
        if base is None:
            return None
        cache = self._cache
        table = cast("TableState | None", cache.get("table"))
        if table is None:
            if self.format is EpisodeFormat.DEAL and not base.packs:
                # a deal episode's table is given its pack when first read (the deal
                # stepped meanwhile is the one it deals: Deal.new, as below)
                base = base.with_pack(self.pack, dealer=1, target=False)
            table = base.followed(self._engine(base), self.given)
            if self.run is not None:
                table = table.play_on(PLAY[card] for card in self.run.cards)
            cache["table"] = table
        return table

    def _engine(self, base: TableState) -> Match:
        """The match the engine has reached (outside a run on the kernel's board): a deal
        episode's is ``base``'s with :attr:`now` carried on."""
        if self.format is not EpisodeFormat.DEAL:
            assert self.match is not None
            return self.match
        now = self.now
        assert now is not None
        m = base.match
        if m.deals or m.deal is None or len(now.history) == len(m.deal.history):
            return m  # nothing new (a deal over in ``base``: its match has settled it)
        return m.with_deal(now)

    @property
    def single(self) -> Deal | None:
        """The deal of a deal episode (once the pack is drawn); during a run on the
        kernel's board, where the run began."""
        return self.now

    @property
    def over(self) -> bool:
        if self.format is EpisodeFormat.DEAL:
            if self.run is not None:
                return not self.run.waiting
            return self.now is not None and self.now.is_over
        return self.cut_off or (self.match is not None and self.match.finished)

    @property
    def dealer(self) -> int | None:
        """The player who deals the current deal (None until the first dealer is drawn)."""
        if self.format is EpisodeFormat.DEAL:
            return 1
        if self.match is None:
            return None
        # cut off after its last deal, the match has already passed the deal on
        return 1 - self.match.dealer if self.cut_off else self.match.dealer

    @property
    def deal(self) -> Deal | None:
        """The current deal (None while its pack is drawn); at the end, the last deal."""
        cache = self._cache
        if "deal" not in cache:
            cache["deal"] = self._deal()
        return cache["deal"]  # type: ignore[return-value]

    def _deal(self) -> Deal | None:
        if self.run is not None:
            return self.run.deal
        if self.format is EpisodeFormat.DEAL:
            return self.now
        m = self.match
        if m is None:
            return None
        if self.over:
            return m.last_deal
        return m.deal if len(self.pack) == len(self.pack_cards) else None

    @property
    def scores(self) -> tuple[int, int]:
        """Game scores of players 0 and 1 (before the current deal; at the end, final)."""
        if self.match is None:
            return (0, 0)
        return (self.match.scores[0], self.match.scores[1])

    @property
    def deals(self) -> tuple[tuple[int, int], ...]:
        """Points of players 0 and 1 in each finished deal."""
        if self.format is EpisodeFormat.DEAL:
            if self.run is not None:
                return () if self.run.waiting else (self.run.scores,)
            d = self.now
            return ((d.scores[0], d.scores[1]),) if d is not None and d.is_over else ()
        if self.match is None:
            return ()
        out = []
        for s in self.match.deals:
            pts = [0, 0]
            pts[s.players[0]], pts[s.players[1]] = s.points
            out.append((pts[0], pts[1]))
        return tuple(out)

    @property
    def winner(self) -> int | None:
        m = self.match
        if m is None or not m.finished or not m.games:
            return None
        return m.games[-1].winner

    # ------------------------------------------------------------------ who moves
    @property
    def pack_cards(self) -> tuple[int, ...]:
        """Every card of the rule set's pack, by index."""
        return _PACKS[self.rules.deck_size]

    def role_of(self, player: int) -> Role:
        """The role (0 elder, 1 younger) of ``player`` in the current deal."""
        return YOUNGER if player == self.dealer else ELDER

    def player_of(self, role: int) -> Player:
        assert self.dealer is not None
        return Player(self.dealer if role == YOUNGER else 1 - self.dealer)

    @property
    def to_move(self) -> int:
        """The player to move, :data:`CHANCE` or :data:`TERMINAL`."""
        cache = self._cache
        mover = cache.get("to_move")
        if mover is None:
            mover = cache["to_move"] = self._to_move()
        return mover  # type: ignore[return-value]

    def _to_move(self) -> int:
        if self.run is not None and self.run.waiting:
            return self.player_of(self.run.seat)
        if self.over:
            return TERMINAL
        deal = self.deal
        if deal is None:
            return CHANCE
        assert deal.to_act is not None
        return self.player_of(deal.to_act)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(outcome, probability) at a chance node: the first dealer, or the next card."""
        if self.to_move != CHANCE:
            raise IllegalActionError("not a chance node")
        if self.dealer is None:
            return [(0, 0.5), (1, 0.5)]
        drawn = set(self.pack)
        left = [c for c in self.pack_cards if c not in drawn]
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def draw_rest(self, rng: random.Random) -> Episode:
        """The episode once the chance nodes of the current pack are drawn by ``rng``: the
        same draws (``rng.randrange`` over :meth:`chance_outcomes`, one a card) and the same
        episode as applying them one by one, without the episodes between.

        Raises :class:`IllegalActionError` unless the next card of a pack is to be drawn.
        """
        if self.to_move != CHANCE or self.dealer is None:
            raise IllegalActionError("not drawing a pack now")
        drawn = set(self.pack)
        left = [c for c in self.pack_cards if c not in drawn]
        pack = list(self.pack)
        while left:
            pack.append(left.pop(rng.randrange(len(left))))
        return self._but(pack=tuple(pack[:-1]))._apply_chance(pack[-1])

    # ------------------------------------------------------------------ views
    def view(self, player: int) -> DealView | None:
        """What ``player`` sees of the current deal (None while the pack is drawn): the
        table's view of the seat (:func:`~piquet.table.views.seen_deal`; at the end, of the
        deal just finished, :func:`~piquet.table.views.last_deal_view`)."""
        key = "view1" if player else "view0"
        cache = self._cache
        if key not in cache:
            table = self.table
            if table is None or self.deal is None:
                cache[key] = None
            elif self.over:
                cache[key] = last_deal_view(table.match, player)
            else:
                cache[key] = seen_deal(table, player)
        return cache[key]  # type: ignore[return-value]

    def seat_view(self, player: int) -> DealView | None:
        """What ``player`` sees of the current deal, for the adapters' strings and tensors:
        :meth:`view`, or during a run on the kernel's board the same read from the board
        (:meth:`~piquet.integrations.board.CardRun.seat_view`; its events carry no note)."""
        if self.run is not None:
            return self.run.seat_view(self.role_of(player))
        return self.view(player)

    def seat_parts(self, player: int) -> SeatParts | None:
        """What the adapters' tensors read of :meth:`seat_view` (``player``), read without
        building the view (:class:`~piquet.integrations.board.SeatParts`)."""
        if self.run is not None:
            return self.run.seat_parts(self.role_of(player))
        deal = self.deal
        return None if deal is None else deal_parts(deal, self.role_of(player))

    @property
    def packet(self) -> int | None:
        """The packet size the current deal was dealt by (None while its pack is drawn)."""
        if self.run is not None:
            return self.run.base.packet
        deal = self.deal
        return None if deal is None else deal.packet

    def selected_by(self, player: int) -> CardSet:
        """The cards ``player`` has laid out (empty unless it is discarding now)."""
        if self.run is None and self.deal is not None and self.to_move == player:
            return CardSet(self.selected)
        return CardSet()

    def legal_ids(self) -> list[int]:
        """The legal ids of the player to move (chance outcomes at a chance node)."""
        mover = self.to_move
        if mover == TERMINAL:
            return []
        if mover == CHANCE:
            return [o for o, _ in self.chance_outcomes()]
        if self.run is not None:
            return self.run.legal_ids()
        cache = self._cache
        ids = cast("list[int] | None", cache.get("legal"))
        if ids is None:
            # what legal_action_ids reads of the mover's view, read from the deal without
            # building the whole view (tests/test_integrations_actions.py: the same ids)
            deal = self.deal
            assert deal is not None and deal.to_act is not None
            exchange = deal.phase is Phase.EXCHANGE
            ids = cache["legal"] = _legal_ids(
                deal.discard_range() if exchange else None, deal.hands[deal.to_act],
                () if exchange else deal.legal_actions(), self.rules, self.selected)
        return list(ids)

    def match_view(self, player: int) -> MatchView:
        """A :class:`~piquet.core.match.MatchView` for ``player``, for the package's own players."""
        table = self.table
        if self.match is not None and table is not None and self.deal is not None and (
                not self.over):
            return seen(table, player)
        return MatchView(
            player=player,
            rules=self.rules.name,
            rule_set=self.rules,
            format=Format.GAME,
            seed_public=False,
            players=(0, 1),
            names=("player 0", "player 1"),
            in_game=(0, 1),
            dealer=self.dealer if self.dealer is not None else 1,
            role=None if self.deal is None else self.role_of(player),
            scores=self.scores,
            game_number=1,
            deal_number=len(self.deals) + 1,
            deals=(),
            games=(),
            deal=self.view(player),
            to_act=None if self.to_move < 0 else Player(self.to_move),
            finished=self.over,
            ledger=(0, 0),
            pool=0,
        )

    def labels(self) -> dict[int, str]:
        """The legal ids of the player to move, each with its label in the period's words,
        from the table's menu (:func:`piquet.integrations.actions.tabled.labels`)."""
        from piquet.integrations.actions.tabled import labels

        return labels(self)

    # ------------------------------------------------------------------ records
    def record(self) -> dict[str, Any]:
        """The episode's game as a record through its table's log
        (:func:`piquet.integrations.actions.tabled.record`); :meth:`from_record` replays
        it to the same record, byte for byte."""
        from piquet.integrations.actions.tabled import record

        return record(self)

    @classmethod
    def from_record(cls, record: Any) -> Episode:
        """The episode a record of :meth:`record` was written from
        (:func:`piquet.integrations.actions.tabled.replay`).  Raises
        :class:`~piquet.core.errors.RecordError` for a record that does not replay."""
        from piquet.integrations.actions.tabled import replay

        return replay(record)

    # ------------------------------------------------------------------ moving
    def apply(self, action_id: int) -> Episode:
        """The episode after ``action_id`` (a chance outcome at a chance node).

        Raises :class:`IllegalActionError` saying what was wrong and what is allowed.
        """
        mover = self.to_move
        if mover == TERMINAL:
            raise IllegalActionError("the episode is over: no more actions")
        if mover == CHANCE:
            return self._apply_chance(action_id)
        if self.run is not None:
            return self._apply_card(self.run, action_id)
        deal = self.deal
        assert deal is not None and deal.to_act is not None
        if deal.phase is Phase.EXCHANGE:
            return self._apply_discard_step(action_id)
        try:
            step = decode_action(action_id, rules=self.rules, hand=CardSet(deal.hands[deal.to_act]))
            if not isinstance(step, Action):
                raise IllegalActionError(f"{step}: no discarding now")
            return self._after(step)  # the deal checks the action
        except IllegalActionError as exc:
            raise IllegalActionError(f"{exc}; legal: {self._legal_text()}") from None

    def apply_action(self, action: Action) -> Episode:
        """Apply one engine action (a whole discard at once), for the package's players."""
        if isinstance(action, Discard):
            ep = self
            for i in encode_discard(action.cards):
                ep = ep.apply(i)
            return ep
        return self.apply(encode_action(action, rules=self.rules))

    def _but(
        self,
        *,
        pack: tuple[int, ...] | None = None,
        base: TableState | None = None,
        selected: int | None = None,
        cut_off: bool | None = None,
        run: CardRun | None = None,
        match: Match | None = None,
        now: Deal | None = None,
        given: tuple[Pack, ...] | None = None,
    ) -> Episode:
        """This episode with the given fields changed, and the ``run`` given (else none)
        (``dataclasses.replace`` without its scan of the fields: the adapters make one a
        step).  A ``base`` given without ``match`` (``now``, ``given``) brings them to its
        own."""
        if base is None:
            base = self.base
            match = self.match if match is None else match
            now = self.now if now is None else now
            given = self.given if given is None else given
        elif self.format is EpisodeFormat.DEAL:
            if now is None:
                m = base.match
                now = m.last_deal if m.deals else m.deal
        elif match is None:
            match = base.match
        return Episode(
            self.rules,
            self.format,
            self.max_deals,
            self.pack if pack is None else pack,
            base,
            match,
            self.selected if selected is None else selected,
            self.cut_off if cut_off is None else cut_off,
            self.kernel,
            run,
            now,
            () if given is None else given,
        )

    def _legal_text(self) -> str:
        return ", ".join(ACTION_NAMES[i] for i in self.legal_ids()[:30])

    def _apply_chance(self, outcome: int) -> Episode:
        if self.dealer is None:
            if outcome not in (0, 1):
                raise IllegalActionError(f"first dealer must be player 0 or 1, not {outcome}")
            match = new_match(self.rules, seed=0, format=_MATCH_FORMATS[self.format])
            return self._but(base=TableState.new(_GAME_ID, _SEATS,
                                                 replace(match, dealer=outcome)))
        if outcome not in self.pack_cards or outcome in self.pack:
            raise IllegalActionError(
                f"chance outcome {outcome} is not a card left to draw for the pack"
            )
        pack = (*self.pack, outcome)
        if len(pack) < len(self.pack_cards):
            return self._but(pack=pack)
        if self.format is EpisodeFormat.DEAL:
            # one deal, player 1 dealing, no game target stopping it; the table is given
            # the pack when read (the same deal: TableState.with_pack, target=False)
            return self._but(pack=pack, base=_deal_table(self.rules),
                             now=Deal.new(self.rules, pack))
        # the match is dealt the pack as the table would deal it (TableState.with_pack),
        # and the table is given it when it follows (:attr:`table`)
        assert self.match is not None
        match, given = dealt_from(self.match, pack)
        return self._but(pack=pack, match=match, given=(*self.given, given))

    def _apply_discard_step(self, action_id: int) -> Episode:
        deal = self.deal
        assert deal is not None and deal.to_act is not None
        hand = deal.hands[deal.to_act]
        lo, hi = deal.discard_range()
        sel = self.selected
        if action_id == DISCARD_DONE:
            if not lo <= sel.bit_count() <= hi:
                raise IllegalActionError(
                    f"discard-done: {sel.bit_count()} cards laid out; lay out {lo} to {hi}"
                )
            return self._but(selected=0)._after(Discard(CardSet(sel)))
        card = action_id - SELECT_BASE
        if not 0 <= card < 36 or card not in _selectable(hand & ~sel, sel, lo, hi):
            raise IllegalActionError(
                f"{action_id} ({ACTION_NAMES[action_id] if 0 <= action_id < NUM_ACTIONS else '?'})"
                f": not allowed now; legal: {self._legal_text()}"
            )
        after = self._but(selected=sel | 1 << card)
        # the same deal, mover and views: only the cards laid out (and so the legal ids)
        # change; the new episode keeps what this one worked out instead of working it anew
        cache = self._cache
        kept = after._cache
        kept.update({k: cache[k] for k in _KEPT_IN_DISCARD if k in cache})
        # the adapters' tensors (piquet.integrations.observation): the other player's is the
        # same; the mover's is the one before with the card laid out
        mover = self.to_move
        for key, into in ((f"info{1 - mover}", f"info{1 - mover}"),
                          (f"info{mover}", f"laid{mover}")):
            if key in cache:
                kept[into] = cache[key]
        return after

    def _apply_card(self, run: CardRun, action_id: int) -> Episode:
        """A card played on the kernel's board; at the deal's end the engine takes the
        run's cards on (the last one through :meth:`_after`)."""
        if not (0 <= action_id < 36 and run.allowed >> action_id & 1):
            # refused: the engine's deal says why, in the words of the engine path
            deal = run.deal
            assert deal.to_act is not None
            try:
                step = decode_action(action_id, rules=self.rules,
                                     hand=CardSet(deal.hands[deal.to_act]))
                if not isinstance(step, Action):
                    raise IllegalActionError(f"{step}: no discarding now")
                deal.apply(step)
            except IllegalActionError as exc:
                raise IllegalActionError(f"{exc}; legal: {self._legal_text()}") from None
            name = ACTION_NAMES[action_id]
            raise IllegalActionError(  # the board and the engine disagree: a fault, said so
                f"{action_id} ({name}): refused by the kernel's board but allowed by the "
                f"engine; legal on the board: {self._legal_text()}")
        after = run.play(action_id)
        if after.waiting or self.format is EpisodeFormat.DEAL:
            # (a deal episode ends with its deal: the engine's deal is worked out only if
            # asked for, :attr:`deal`)
            return self._but(run=after)
        # the deal of a game or partie is over: the match takes the run's cards on (the
        # table follows them when read)
        m = self.match
        assert m is not None
        for card in run.cards:
            m = m.apply(PLAY[card])
        return self._but(match=m)._after(PLAY[action_id])

    def _after(self, action: Action) -> Episode:
        """The episode once ``action`` is played in the current deal by the player to move,
        checked by the engine as :meth:`TableState.apply
        <piquet.table.state.TableState.apply>` checks it (in the same words); the table
        follows when read, from the table this episode worked out if it did."""
        base: TableState | None = self._cache.get("table")  # type: ignore[assignment]
        if self.format is EpisodeFormat.DEAL:
            now = self.now
            assert now is not None
            after_deal = now.apply(action)
            return self._but(base=base or self.base, now=after_deal,
                             run=self._run_from(after_deal))
        given = self.given if base is None else ()  # (a table worked out has them)
        if base is None:
            base = self.base
        match = self.match
        assert match is not None
        after = match.apply(action)
        if len(after.deals) > len(match.deals) and not after.finished:
            # the deal is over and the match dealt the next from its own seed: the chance
            # nodes draw that pack instead
            if len(after.deals) >= self.max_deals and self.format is EpisodeFormat.GAME:
                return self._but(base=base, match=after, given=given, cut_off=True)
            return self._but(base=base, match=after, given=given, pack=())
        return self._but(base=base, match=after, given=given,
                         run=None if after.finished else self._run_from(after.deal))

    def _run_from(self, deal: Deal | None) -> CardRun | None:
        """The run on the kernel's board from ``deal``, where only cards are left."""
        if not self.kernel or deal is None or deal.phase is not Phase.PLAY:
            return None
        return CardRun.start(deal)

    # ------------------------------------------------------------------ results
    def returns(self) -> tuple[float, float]:
        """Player 0's and player 1's return: zero until the end."""
        if not self.over:
            return (0.0, 0.0)
        if self.format is EpisodeFormat.DEAL:
            a, b = self.deals[-1]
            return (float(a - b), float(b - a))
        winner = self.winner
        if winner is None:
            return (0.0, 0.0)
        if self.format is EpisodeFormat.PARTIE:
            assert self.match is not None
            won = float(self.match.games[-1].settled)
            return (won, -won) if winner == 0 else (-won, won)
        return (1.0, -1.0) if winner == 0 else (-1.0, 1.0)

    def max_utility(self) -> float:
        if self.format is EpisodeFormat.DEAL:
            return float(max_deal_points(self.rules))
        if self.format is EpisodeFormat.PARTIE:
            # 100 plus both totals, every deal (and the two extra ones) at its most
            return float(100 + (self.rules.partie_deals + 2) * max_deal_points(self.rules))
        return 1.0

    def max_length(self) -> int:
        """A bound on the player decisions of the whole episode."""
        return self.max_deals * max_deal_decisions(self.rules)
