"""Games, parties, the lurch and the three-player pool, over a seeded stream of deals.

A :class:`Match` is immutable, like a :class:`~piquet.core.deal.Deal`: it holds the
rule set, the format, the seed, the current deal and everything settled so
far, and :meth:`Match.apply` returns the next match.  Every random choice (the
cut for deal, each shuffle and cut of the pack) comes from the seed, so a
match is exactly its seed plus its list of actions (:meth:`Match.replay`).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

from piquet.core.actions import Action, DealBy, parse_action
from piquet.core.cards import Card, pack
from piquet.core.deal import ELDER, YOUNGER, Deal, Phase
from piquet.core.errors import IllegalActionError, PiquetError, RecordError, SetupError
from piquet.core.matchtypes import DealSummary, GameResult, MatchView, settlement
from piquet.core.roles import Player, Role
from piquet.core.rules import Format, Rules, get_rules, preset, rules_from_mapping
from piquet.core.view import deal_view, public_view

__all__ = [
    "DealSummary",
    "GameResult",
    "Match",
    "MatchView",
    "Player",
    "given_packs_refusal",
    "new_match",
]

MAX_SEED = 2**63 - 1

def _seeded(seed: int, *parts: object) -> random.Random:
    return random.Random(":".join(["piquet", str(seed), *map(str, parts)]))


_pack: Final = pack
_NEW: Final = object.__new__
_SET: Final = object.__setattr__
_PLAYERS: Final = tuple(tuple(range(n)) for n in range(4))
"""A match of n players' players, ``tuple(range(n))``."""



def given_packs_refusal(record: Any) -> str | None:
    """Why the readers of records (:meth:`Match.from_record`, :mod:`piquet.core.notation`:
    ``piquet replay``, ``piquet play --resume``) refuse ``record``, if its cards were given to
    its table (``"packs"``: drawn by a research environment's chance nodes) rather than
    dealt from its seed: they deal every deal from the seed, so its moves would meet other
    cards.  None for any other record."""
    if not isinstance(record, dict) or "packs" not in record:
        return None
    packs = record["packs"]
    n = len(packs) if isinstance(packs, list) else 0
    held = f"{n} pack{'s' if n != 1 else ''}" if n else "packs"
    return (f'this record\'s cards were not dealt from its seed: it carries "packs" ({held} '
            "drawn by a research environment's chance nodes), and a record is replayed here "
            "by dealing every deal from its seed. Replay it as the episode it was written "
            "from, with piquet.integrations.actions.Episode.from_record (the OpenSpiel and "
            "PettingZoo adapters' records); a record without \"packs\" replays here")

@dataclass(frozen=True)
class Match:
    """A whole match.  Build one with :func:`new_match`; move it with :meth:`apply`.

    >>> m = new_match("rubicon", seed=7, names=["Ann", "Bob"])
    >>> m
    <Match rubicon partie seed 7 | game 1 deal 1 | Ann: 0, Bob: 0 | Bob to act>
    >>> [str(a) for a in m.legal_actions()]
    ['deal:2', 'deal:3']
    >>> m = m.apply(m.legal_actions()[0], m.to_act)
    >>> m.deal
    <Deal rubicon exchange elder to act | elder AS KS QS 9S 7S 9H 8H KD JD TD 9D TC | ...>
    >>> m.view(0).deal.discard_range  # Ann is elder: she lays out 1 to 5 cards
    (1, 5)
    """

    rules: Rules
    format: Format
    seed: int
    names: tuple[str, ...]
    games_to_play: int
    in_game: tuple[int, int]
    """The two players of the current game (for a pool, one stands out)."""
    dealer: int
    scores: tuple[int, int]
    """Current game score of ``in_game`` (in that order)."""
    game_number: int
    deal_number: int
    deal: Deal | None
    deals: tuple[DealSummary, ...] = ()
    games: tuple[GameResult, ...] = ()
    cuts: tuple[tuple[tuple[int, str], ...], ...] = ()
    """Each cut for deal: the cards each player cut, in order."""
    history: tuple[tuple[int, Action], ...] = ()
    ledger: tuple[int, ...] = ()
    pool: int = 0
    streak: tuple[int, int] = (-1, 0)
    """Pool: the player who won the last game and how many running."""
    finished: bool = False
    _partie_extra: int = field(default=0)
    last_deal: Deal | None = field(default=None, compare=False, repr=False)
    """The deal that finished last, in its end state (the views of a finished deal and the
    records read it; the match itself has moved on to the next deal)."""

    def __repr__(self) -> str:
        """A short line: the rules, the format, the seed, where the match stands, e.g.
        ``<Match rubicon partie seed 7 | game 1 deal 3 | Ann: 34, Bob: 12 | Bob to act>``."""
        scores = ", ".join(
            f"{self.names[p]}: {self.scores[i]}" for i, p in enumerate(self.in_game))
        actor = self.to_act
        state = "over" if self.finished else (
            "between deals" if actor is None else f"{self.names[actor]} to act")
        return (
            f"<Match {self.rules.name} {self.format.value} seed {self.seed} | "
            f"game {self.game_number} deal {self.deal_number} | {scores} | {state}>"
        )

    # ------------------------------------------------------------------ players
    @property
    def n_players(self) -> int:
        return len(self.names)

    def role_of(self, player: int) -> Role | None:
        """The role (0 elder, 1 younger) of ``player`` in the current deal."""
        if player not in self.in_game:
            return None
        return YOUNGER if player == self.dealer else ELDER

    def player_of(self, role: int) -> Player:
        """The player who holds ``role`` in the current deal."""
        elder = self.in_game[0] if self.in_game[1] == self.dealer else self.in_game[1]
        return Player(self.dealer if role == YOUNGER else elder)

    @property
    def to_act(self) -> Player | None:
        """The player to act, or None when the match is over."""
        if self.finished or self.deal is None or self.deal.to_act is None:
            return None
        return self.player_of(self.deal.to_act)

    def legal_actions(self) -> list[Action]:
        return [] if self.deal is None or self.finished else self.deal.legal_actions()

    def random_action(self, rng: random.Random) -> Action:
        if self.deal is None or self.finished:
            raise IllegalActionError("the match is over: there is nothing to do")
        return self.deal.random_action(rng)

    # ------------------------------------------------------------------ verify / can / apply
    def verify(self, action: Action, player: int | None = None) -> None:
        """Raise :class:`IllegalActionError` unless ``player`` may take ``action`` now."""
        self._verify_turn(player).verify(action)

    def _verify_turn(self, player: int | None) -> Deal:
        """The deal in play, if ``player`` (when given) is the one to act."""
        if self.finished or self.deal is None:
            raise IllegalActionError("the match is over: no more actions")
        if player is not None and player != self.to_act:
            raise IllegalActionError(
                f"it is not {self.names[player]}'s turn; {self.names[self._actor()]} is to act"
            )
        return self.deal

    def _actor(self) -> Player:
        """The player to act; refuses when nobody is."""
        player = self.to_act
        if player is None:
            raise IllegalActionError("the match is over: nobody is to act")
        return player

    def can(self, action: Action, player: int | None = None) -> bool:
        try:
            self.verify(action, player)
        except IllegalActionError:
            return False
        return True

    def apply(self, action: Action, player: int | None = None) -> Match:
        """The match after ``action`` (by ``player`` if given; checked).  ``self`` is unchanged."""
        deal = self._verify_turn(player).apply(action)  # the deal checks the action
        actor = self.to_act
        # a frozen dataclass's copy, without ``replace``'s cost on every move
        attrs = self.__dict__.copy()
        attrs["deal"] = deal
        attrs["history"] = (*self.history, (actor, action))
        if deal.is_over:
            attrs["last_deal"] = deal
        m = object.__new__(Match)
        object.__setattr__(m, "__dict__", attrs)
        if deal.is_over:
            m = m._settle_deal()
        return m

    # ------------------------------------------------------------------ deals and games
    def _new_deal(self) -> Match:
        rng = _seeded(self.seed, "deal", self.game_number, self.deal_number)
        pack = _pack(self.rules)
        rng.shuffle(pack)
        cut = rng.randint(2, len(pack) - 2)  # a cut of at least two cards (1754)
        pack = pack[cut:] + pack[:cut]
        return self._dealt(self._deal_of(pack))

    def _dealt(self, deal: Deal) -> Match:
        """This match with ``deal`` in play, settled at once if dealing it ended it (a carte
        blanche shown as it is dealt may reach the game's target)."""
        if not deal.is_over:
            return replace(self, deal=deal)
        return replace(self, deal=deal, last_deal=deal)._settle_deal()

    def _deal_of(self, pack: Sequence[int]) -> Deal:
        """A fresh deal of this match from ``pack``: the game's score and target around it."""
        elder_player = self.in_game[0] if self.in_game[1] == self.dealer else self.in_game[1]
        start = (
            self.scores[self.in_game.index(elder_player)],
            self.scores[self.in_game.index(self.dealer)],
        )
        target = self.rules.target if self.format is not Format.PARTIE else None
        return Deal.new(self.rules, pack, start=start, target=target)

    def with_pack(
        self, pack: Sequence[int], *, dealer: int | None = None, packet: int | None = None
    ) -> Match:
        """This match with its current deal dealt again from a given ``pack`` (top first),
        as at a real table whose cards are entered (:mod:`piquet.tally`): ``dealer`` changes
        who deals, ``packet`` deals by that packet size at once.  The seeded packs are not
        drawn; the history is unchanged.  A deal that dealing ends (a carte blanche shown as
        it is dealt reaching the target) is settled at once: the match returned is then
        over (``deal`` None) or at its next deal.  Raises :class:`IllegalActionError` for a
        pack that is not the rule set's or a packet size it does not deal by.
        """
        m = self if dealer is None or dealer == self.dealer else replace(self, dealer=dealer)
        deal = m._deal_of(pack)
        if packet is not None and deal.phase is Phase.DEAL:
            deal = deal.apply(DealBy(packet))
        return m._dealt(deal)

    def with_deal(self, deal: Deal) -> Match:
        """This match with its deal in play carried on to ``deal``: the same deal further on
        (its history begins with the deal in play's), played outside the match or counted
        again by a scorer (:meth:`Deal.rescored`, :mod:`piquet.tally`).  Its new actions join
        the match's history; a deal that is over is settled on its own count.  Raises
        :class:`IllegalActionError` for a deal that is not the deal in play carried on."""
        current = self.deal
        if self.finished or current is None:
            raise IllegalActionError("the match is over: no deal is in play")
        done = current.history
        if (
            deal.deck != current.deck
            or deal.start != current.start
            or deal.rules != current.rules
            or deal.history[: len(done)] != done
        ):
            raise IllegalActionError("that deal is not the deal in play carried on")
        moves = tuple(
            (self.player_of(role if role is not None else 0), action)
            for role, action in deal.history[len(done) :]
        )
        return replace(self, history=(*self.history, *moves))._dealt(deal)

    def named(self, names: Sequence[str]) -> Match:
        """This match with the players called ``names`` (one a player); nothing else
        changes.  Raises :class:`SetupError` for the wrong number of names."""
        if len(names) != len(self.names):
            raise SetupError(f"this match has {len(self.names)} players, not {len(names)} names")
        return replace(self, names=tuple(str(n) for n in names))

    def _settle_deal(self) -> Match:
        deal = self.deal
        assert deal is not None
        elder_p, younger_p = self.player_of(ELDER), self.player_of(YOUNGER)
        pts = deal.scores
        scores = list(self.scores)
        scores[self.in_game.index(elder_p)] += pts[ELDER]
        scores[self.in_game.index(younger_p)] += pts[YOUNGER]
        reached = deal.game_reached_by
        summary = DealSummary(
            self.game_number,
            self.deal_number,
            self.dealer,
            (elder_p, younger_p),
            pts,
            (
                {k.value: v for k, v in deal.tally.by_kind(ELDER).items()},
                {k.value: v for k, v in deal.tally.by_kind(YOUNGER).items()},
            ),
            None if reached is None else (elder_p, younger_p)[reached],
        )
        m = replace(self, scores=(scores[0], scores[1]), deals=(*self.deals, summary))
        if m.format is Format.PARTIE:
            n = m._deals_in_game()
            if n >= m.rules.partie_deals + m._partie_extra:
                sa, sb = m.scores
                if sa != sb:
                    return m._end_game(m.in_game[0] if sa > sb else m.in_game[1])
                if not (m.rules.partie_tie_extra_deals and m._partie_extra == 0):
                    return m._end_game(None)
                # level after the partie's deals: each deals once more
                m = replace(m, _partie_extra=2)
        else:
            winner = m._game_winner(summary.reached)
            if winner is not None:
                return m._end_game(winner)
        other = m.in_game[0] if m.in_game[1] == m.dealer else m.in_game[1]
        return replace(m, dealer=other, deal_number=m.deal_number + 1)._new_deal()

    def _deals_in_game(self) -> int:
        return sum(1 for d in self.deals if d.game == self.game_number)

    def _game_winner(self, reached: int | None) -> int | None:
        if reached is not None:
            return reached
        a, b = self.in_game
        sa, sb = self.scores
        if max(sa, sb) >= self.rules.target and sa != sb:
            return a if sa > sb else b
        return None

    def _end_game(self, winner: int | None) -> Match:
        a, b = self.in_game
        sa, sb = self.scores
        rules = self.rules
        lurch = False
        stake = 1
        settled = 0
        rubiconed = False
        if winner is not None:
            loser = b if winner == a else a
            ws, ls = (sa, sb) if winner == a else (sb, sa)
            if self.format is Format.PARTIE:
                settled, flag = settlement(rules.settlement, ws, ls)
                rubiconed = bool(flag)
            elif rules.lurch_below and ls < rules.lurch_below:
                lurch = True
                stake = 2
            _ = loser
        result = GameResult(
            self.game_number, (a, b), (sa, sb), winner, lurch, stake, settled, rubiconed
        )
        m = replace(self, games=(*self.games, result), deal=None)
        if self.format is Format.POOL:
            return m._pool_next(result)
        if len(m.games) >= self.games_to_play:
            return replace(m, finished=True)
        return m._next_game(winner)

    def _next_game(self, last_winner: int | None) -> Match:
        m = replace(
            self, game_number=self.game_number + 1, deal_number=1, scores=(0, 0), _partie_extra=0
        )
        if self.rules.cut_after_game:
            return m._cut_for_deal()
        # the deal keeps alternating
        other = m.in_game[0] if m.in_game[1] == m.dealer else m.in_game[1]
        return replace(m, dealer=other)._new_deal()

    def _pool_next(self, result: GameResult) -> Match:
        winner = result.winner
        assert winner is not None
        a, b = result.players
        loser = b if winner == a else a
        ledger = list(self.ledger)
        pool = self.pool
        # every loser lays down one to the pool; a lurched loser pays another to the winner
        ledger[loser] -= 1
        pool += 1
        if result.lurch:
            ledger[loser] -= 1
            ledger[winner] += 1
        run = self.streak[1] + 1 if self.streak[0] == winner else 1
        if run >= 2:
            ledger[winner] += pool
            return replace(self, ledger=tuple(ledger), pool=0, streak=(winner, run), finished=True)
        out = next(p for p in range(3) if p not in (a, b))
        m = replace(
            self,
            ledger=tuple(ledger),
            pool=pool,
            streak=(winner, run),
            in_game=(winner, out),
            game_number=self.game_number + 1,
            deal_number=1,
            scores=(0, 0),
        )
        return m._cut_for_deal()

    def _cut_for_deal(self) -> Match:
        """The two players in the game cut; the lower card deals (re-cut on equal ranks)."""
        rng = _seeded(self.seed, "cut", self.game_number)
        a, b = self.in_game
        cuts: list[tuple[int, str]] = []
        while True:
            pack = _pack(self.rules)
            rng.shuffle(pack)
            ca, cb = Card.from_index(pack[0]), Card.from_index(pack[1])
            cuts.extend([(a, str(ca)), (b, str(cb))])
            if ca.rank != cb.rank:
                break
        dealer = a if ca.rank < cb.rank else b
        return replace(self, dealer=dealer, cuts=(*self.cuts, tuple(cuts)))._new_deal()

    # ------------------------------------------------------------------ results and views
    def result(self) -> dict[str, Any]:
        """The settled result: ``{"scores": [...], "winner": player | None, ...}``."""
        if self.format is Format.POOL:
            winner = self.streak[0] if self.finished else None
            return {
                "scores": list(self.ledger),
                "winner": winner,
                "ledger": list(self.ledger),
                "games": [g.to_json() for g in self.games],
            }
        if len(self.games) == 1:
            g = self.games[0]
            scores = [0, 0]
            for p, s in zip(g.players, g.scores, strict=True):
                scores[p] = s
            out: dict[str, Any] = {"scores": scores, "winner": g.winner}
            if self.format is Format.PARTIE:
                out["settled"] = g.settled
                out["rubiconed"] = g.rubiconed
            if g.lurch:
                out["lurch"] = True
                out["stake"] = g.stake
            return out
        wins = [0, 0]
        for g in self.games:
            if g.winner is not None:
                wins[g.winner] += g.stake
        winner = None if wins[0] == wins[1] else (0 if wins[0] > wins[1] else 1)
        return {
            "scores": wins,
            "winner": winner if self.finished else None,
            "games": [g.to_json() for g in self.games],
        }

    def view(self, player: int) -> MatchView:
        """Everything ``player`` may see, and nothing else."""
        if not 0 <= player < self.n_players:
            raise IllegalActionError(f"no player {player}: players are 0 to {self.n_players - 1}")
        finished = self.finished
        deal = self.deal
        in_game = self.in_game
        dealer = self.dealer
        role = (None if finished or player not in in_game
                else YOUNGER if player == dealer else ELDER)  # ``role_of``
        dv = deal_view(deal, role) if deal is not None and role is not None else None
        to_act = (None if finished or deal is None or deal.to_act is None
                  else self.player_of(deal.to_act))  # ``to_act``
        rules = self.rules
        view: MatchView = _NEW(MatchView)
        # every field of MatchView, in its order, as one dict (a frozen dataclass's
        # ``__init__`` sets them one by one, each through ``object.__setattr__``)
        _SET(view, "__dict__", {
            "player": player,
            "rules": rules.name,
            "rule_set": rules,
            "format": self.format,
            "seed_public": False,
            "players": _PLAYERS[n] if (n := len(self.names)) < 4 else tuple(range(n)),
            "names": self.names,
            "in_game": in_game,
            "dealer": dealer,
            "role": role,
            "scores": self.scores,
            "game_number": self.game_number,
            "deal_number": self.deal_number,
            "deals": self.deals,
            "games": self.games,
            "deal": dv,
            "to_act": to_act,
            "finished": finished,
            "ledger": self.ledger,
            "pool": self.pool,
        })
        return view

    def public_view(self) -> dict[str, Any]:
        """What a spectator may see, JSON-ready: the game's score and settled deals and
        games, and the current deal's :func:`~piquet.core.view.public_view` (no hand, no
        discard, no stock: only what both players have shown or played)."""
        return {
            "rules": self.rules.name,
            "format": self.format.value,
            "players": list(range(self.n_players)),
            "names": list(self.names),
            "in_game": list(self.in_game),
            "dealer": self.dealer,
            "elder": None if self.deal is None or self.finished else self.player_of(ELDER),
            "scores": list(self.scores),
            "game_number": self.game_number,
            "deal_number": self.deal_number,
            "deals": [d.to_json() for d in self.deals],
            "games": [g.to_json() for g in self.games],
            "deal": None
            if self.deal is None or self.finished
            else public_view(self.deal).to_json(),
            "to_act": self.to_act,
            "finished": self.finished,
            "ledger": list(self.ledger),
            "pool": self.pool,
        }

    # ------------------------------------------------------------------ records
    def to_record(self) -> dict[str, Any]:
        """The match as JSON-ready data: rules, format, seed, players, actions."""
        rules: Any = self.rules.name if self.rules.is_preset else self.rules.knobs_json()
        return {
            "piquet": 1,
            "rules": rules,
            "format": self.format.value,
            "games": self.games_to_play,
            "seed": self.seed,
            "players": list(self.names),
            "actions": [[p, str(a)] for p, a in self.history],
            "result": self.result() if self.finished else None,
        }

    @classmethod
    def from_record(cls, record: Any) -> Match:
        """Rebuild a match by replaying a record; raises :class:`RecordError` if it does not
        (a record whose cards were given rather than dealt from its seed among them:
        :func:`given_packs_refusal`)."""
        if not isinstance(record, dict) or record.get("piquet") != 1:
            raise RecordError('not a piquet record: expected an object with "piquet": 1')
        if (why := given_packs_refusal(record)) is not None:
            raise RecordError(why)
        try:
            raw_rules = record["rules"]
            rules = (
                preset(raw_rules)  # a house rule comes as its knobs, never a file's name
                if isinstance(raw_rules, str)
                else rules_from_mapping(raw_rules)
            )
            fmt = Format(record.get("format", rules.default_format.value))
            seed = record["seed"]
            names = record.get("players")
            games = record.get("games", 1)
            actions = record["actions"]
        except (KeyError, TypeError) as exc:
            raise RecordError(f"record is missing or mangles a field: {exc}") from None
        except ValueError as exc:
            raise RecordError(f"record has a bad value: {exc}") from None
        if not isinstance(seed, int) or isinstance(seed, bool) or not isinstance(actions, list):
            raise RecordError("record: seed must be an integer and actions a list")
        if not isinstance(games, int) or isinstance(games, bool):
            raise RecordError(f"record: games must be a whole number, not {games!r}")
        if names is not None and not (
            isinstance(names, list) and all(isinstance(n, str) for n in names)
        ):
            raise RecordError(f"record: players must be a list of names, not {names!r}")
        try:
            m = new_match(rules, seed=seed, format=fmt, names=names, games=games)
        except PiquetError as exc:
            raise RecordError(f"record cannot start its match: {exc}") from None
        for n, entry in enumerate(actions, 1):
            if not (
                isinstance(entry, list)
                and len(entry) == 2
                and isinstance(entry[0], int)
                and isinstance(entry[1], str)
            ):
                raise RecordError(f'action {n}: expected [player, "action"], got {entry!r}')
            player, text = entry
            try:
                m = m.apply(parse_action(text), player)
            except ValueError as exc:
                raise RecordError(f"action {n} ({text!r} by player {player}): {exc}") from None
        expected = record.get("result")
        if expected is not None and expected != m.result():
            raise RecordError(
                f"record states the result {expected} but the replay gives {m.result()}"
            )
        return m

    @classmethod
    def replay(
        cls,
        rules: Rules,
        seed: int,
        actions: Iterable[tuple[int, Action]],
        *,
        format: Format | None = None,
        names: Sequence[str] | None = None,
        games: int = 1,
    ) -> Match:
        m = new_match(rules, seed=seed, format=format, names=names, games=games)
        for player, action in actions:
            m = m.apply(action, player)
        return m

    @property
    def deal_start(self) -> int:
        """Where the deal now in play begins in :attr:`history` (its length when no deal is
        in play).  (A deal dealt by :meth:`with_pack` with a ``packet`` holds that dealing,
        which the history does not: there it is one early.  Only the tally deals so, and it
        takes back its own entries.)"""
        return len(self.history) - (len(self.deal.history) if self.deal is not None else 0)

    def takeback_index(self, players: int | Sequence[int]) -> int | None:
        """Where the last move of ``players`` (one or several) stands in :attr:`history`, if
        it may be taken back: a move of the deal now in play, in a match not over.  None if
        there is none (a move of an earlier deal stays: the next hand has been seen)."""
        deal = self.deal
        if self.finished or deal is None:
            return None
        history = self.history
        # back from the last move, one for each move of the deal (``deal_start``'s range,
        # walked along the deal's own chain of moves rather than counted first)
        node = deal._hist
        i = len(history) - 1
        who = {players} if isinstance(players, int) else set(players)
        while node is not None:
            if history[i][0] in who:
                return i
            node, i = node[0], i - 1
        return None

    def before_each(self) -> list[tuple[Match, int]]:
        """The match as it stood before each action of its history, and who took it,
        replayed from its seed (what an undo needs, for a match resumed from a record)."""
        m = new_match(self.rules, seed=self.seed, format=self.format, names=self.names,
                      games=self.games_to_play)
        out: list[tuple[Match, int]] = []
        for player, action in self.history:
            out.append((m, player))
            m = m.apply(action, player)
        return out


def new_match(
    rules: Rules | str | None = None,
    *,
    seed: int | None = None,
    format: Format | str | None = None,
    names: Sequence[str] | None = None,
    games: int = 1,
) -> Match:
    """Start a match: cut for deal and deal the first hand.

    ``format`` defaults to the rule set's; ``seed`` to a random one (kept in
    the match, so the record replays).  A pool has three players.  Raises
    :class:`SetupError` for an option out of range.
    """
    r = rules if isinstance(rules, Rules) else get_rules(rules)
    try:
        fmt = Format(format) if isinstance(format, str) else (format or r.default_format)
    except ValueError:
        raise SetupError(
            f"unknown format {format!r}; use one of: {', '.join(f.value for f in Format)}"
        ) from None
    if (why := r.format_refusal(fmt)) is not None:
        raise SetupError(why)
    n = 3 if fmt is Format.POOL else 2
    if names is None:
        names = tuple(f"player {i + 1}" for i in range(n))
    if len(names) != n:
        raise SetupError(f"a {fmt.value} needs {n} players, not {len(names)}")
    if seed is None:
        seed = random.SystemRandom().randrange(MAX_SEED)
    if not 0 <= seed <= MAX_SEED:
        raise SetupError(f"seed must be 0 to {MAX_SEED}")
    if games < 1:
        raise SetupError("games must be at least 1")
    m = Match(
        rules=r,
        format=fmt,
        seed=seed,
        names=tuple(names),
        games_to_play=games,
        in_game=(0, 1),
        dealer=0,
        scores=(0, 0),
        game_number=1,
        deal_number=1,
        deal=None,
        ledger=(0,) * n if fmt is not Format.POOL else (-1, -1, -1),
        pool=3 if fmt is Format.POOL else 0,
    )
    if fmt is Format.POOL:
        # the highest cut stands out first (cut again while the highest is shared);
        # the other two cut for the deal
        rng = _seeded(seed, "pool")
        while True:
            pack = _pack(r)
            rng.shuffle(pack)
            ranks = [Card.from_index(pack[p]).rank for p in range(3)]
            if ranks.count(max(ranks)) == 1:
                break
        out = ranks.index(max(ranks))
        in_game = tuple(p for p in range(3) if p != out)
        m = replace(m, in_game=(in_game[0], in_game[1]),
                    cuts=(tuple((p, str(Card.from_index(pack[p]))) for p in range(3)),))
    return m._cut_for_deal()
