"""A game at the terminal: people at the keyboard, the computer in the other seats.

A :class:`Session` holds the game as a :class:`~piquet.table.TableState` (the match
and its seats: a person typing, or the computer at a level, whose moves come from
:mod:`piquet.table.ai` with its one seed formula; an undo is the table's).  It draws the table
from the player's view, asks the question of the moment, reads the answer
(a typo or an illegal move gets one line and the same question again), and
applies it.  Ctrl-C or the end of input saves the record and says how to
resume.  Output goes to a Rich console, input comes from ``read`` (``input``
by default), so the session runs the same in a terminal, in tmux and in tests.
"""

from __future__ import annotations

import contextlib
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from piquet.core.actions import Action
from piquet.core.errors import PiquetError
from piquet.core.match import Match, MatchView, new_match
from piquet.core.notation import save
from piquet.core.rules import Format
from piquet.core.view import deal_view
from piquet.table.ai import choose, computer_action, play_computers
from piquet.table.seats import Seat, computer, person
from piquet.table.state import UNDO, Entry, TableState
from piquet.table.summary import rules_summary
from piquet.tui.prompts import Ask, ask_for, read_action
from piquet.tui.screen import SAID_LINES, deal_end_lines, said_lines, table_lines

__all__ = ["Session", "advisor_hint", "default_record_path", "play_unattended"]

COMMANDS = (
    "?  the legal choices · hint  ask the advisor · undo  take back your last move "
    "(against the computer) · said  all said this deal · rules  the rules · redraw  the table · "
    "save  save and go on · "
    "quit  save and stop"
)


MAX_ANSWER = 200
"""The longest answer read (an answer is a few cards or words)."""


class _Stop(BaseException):
    """The player asked to stop (quit, Ctrl-C, end of input), or the terminal went away.

    (A ``BaseException``, as ``KeyboardInterrupt`` is: no ``except Exception`` on the way,
    the advisor's included, may swallow it.)"""

    def __init__(self, status: int, why: str, *, gone: bool = False) -> None:
        super().__init__(why)
        self.status = status
        self.why = why
        self.gone = gone
        """Whether the terminal may be gone (a hang-up): say what is saved if it can be."""


def _on_signal(signum: int, _frame: object) -> None:
    if signum == getattr(signal, "SIGHUP", None):
        raise _Stop(128 + signum, "the terminal closed", gone=True)
    raise _Stop(128 + signum, "terminated", gone=True)


@contextlib.contextmanager
def _on_hangup(handler: Any) -> Iterator[None]:
    """While inside, a hang-up (the terminal closed) or SIGTERM goes to ``handler`` (a
    function, or ``signal.SIG_IGN``); the handlers of before come back after.  (Only from
    the main thread, where signals are handled.)"""
    before: dict[int, Any] = {}
    try:
        for name in ("SIGHUP", "SIGTERM"):
            if hasattr(signal, name):
                sig = getattr(signal, name)
                before[sig] = signal.signal(sig, handler)
    except ValueError:  # not the main thread
        pass
    try:
        yield
    finally:
        for sig, old in before.items():
            signal.signal(sig, old)


def _stop_on_hangup() -> contextlib.AbstractContextManager[None]:
    """While inside, a hang-up or SIGTERM stops the game as Ctrl-C does: the record is
    saved."""
    return _on_hangup(_on_signal)


def _signals_held() -> contextlib.AbstractContextManager[None]:
    """While inside, a hang-up or SIGTERM is ignored (the record is being saved)."""
    return _on_hangup(signal.SIG_IGN)


def _flush_typed_ahead() -> None:
    """Forget what was typed at a terminal before the question it would answer was shown."""
    try:
        import termios

        if sys.stdin.isatty():
            termios.tcflush(sys.stdin, termios.TCIFLUSH)
    except (ImportError, OSError, ValueError, AttributeError):
        pass


def default_record_path(match: Match, folder: Path | None = None) -> Path:
    """Where an interrupted game is saved when no ``--record`` was given: ``piquet-SEED.pqn``
    in ``folder`` (the current directory), or, that file being there already (another game
    of the same seed), the first free ``piquet-SEED-2.pqn``, ``piquet-SEED-3.pqn``, ...; an
    existing file is never replaced."""
    where = folder if folder is not None else Path()
    path = where / f"piquet-{match.seed}.pqn"
    n = 2
    while path.exists() or path.is_symlink():
        path = where / f"piquet-{match.seed}-{n}.pqn"
        n += 1
    return path


def advisor_hint(view: MatchView) -> str:
    """The advisor's hint for ``view`` (:func:`piquet.advisor.hint`), in one line."""
    from piquet.advisor import hint  # it loads the solver: only when a hint is asked for

    try:
        said = str(hint(view))
    except Exception as exc:  # an advisor's failure must not end the game
        return f"The advisor has no hint here ({_one_line(str(exc)) or type(exc).__name__})."
    return said or "The advisor has no hint here."


def table_of(match: Match, levels: Sequence[str | None]) -> TableState:
    """``match`` at a table: seat ``p`` a person (``levels[p]`` None) or the computer at
    that level; a match already under way is replayed onto it (so undo reaches back)."""
    seats: list[Seat] = [
        person(p, name) if level is None else computer(p, level, name)
        for p, (level, name) in enumerate(zip(levels, match.names, strict=True))
    ]
    start = new_match(match.rules, seed=match.seed, format=match.format, names=match.names,
                      games=match.games_to_play)
    log = [Entry(p, str(a)) for p, a in match.history]
    return TableState.replay(f"terminal-{match.seed}", seats, start, log)


def play_unattended(
    match: Match, levels: Sequence[str], *, think_ms: int | None = None
) -> Match:
    """Play ``match`` to its end, every seat the computer at ``levels[p]``; raises
    :class:`PiquetError` on an AI bug."""
    def chooser(level: str, seed: int, view: MatchView) -> Action:
        return choose(level, seed, view, think_ms)

    return play_computers(table_of(match, levels), chooser).match


class Session:
    """One game at the terminal.  ``seats[p]`` is ``None`` for a person, else the
    computer's level."""

    def __init__(
        self,
        match: Match,
        *,
        seats: Sequence[str | None],
        think_ms: int | None = None,
        console: Console,
        read: Callable[[str], str] | None = None,
        record: Path | None = None,
        tags: dict[str, Any] | None = None,
        undo: bool = False,
        hotseat: bool = False,
        clear: bool = True,
    ) -> None:
        self.state = table_of(match, seats)
        self.seats = list(seats)
        self.think_ms = think_ms
        self.console = console
        self._read = read
        self.record = record
        self.tags = dict(tags or {})
        self.undo_allowed = undo
        self.hotseat = hotseat
        self.clear = clear and console.is_terminal
        self._saved_at: Path | None = None
        """The file chosen for the record when no ``record`` was given (once chosen)."""
        undos = self.tags.get("Undos", 0)
        self.undos = undos if isinstance(undos, int) and not isinstance(undos, bool) else 0
        self.last_human: int | None = None
        self._moved = False
        """Whether the computer moved since the player last answered."""
        self._note = ""
        """A line for the next table drawn (what was just done, e.g. an undo)."""

    @property
    def match(self) -> Match:
        return self.state.match

    def _choose(self, level: str, seed: int, view: MatchView) -> Action:
        return choose(level, seed, view, self.think_ms)

    # ------------------------------------------------------------------ output
    def out(self, markup: str = "") -> None:
        # at a terminal Rich wraps at word boundaries, short of the last column (so the
        # terminal itself never wraps a word); elsewhere (a pipe, a test) lines are whole
        if self.console.is_terminal:
            self.console.print(markup, highlight=False, soft_wrap=False, width=self._width())
        else:
            self.console.print(markup, highlight=False, soft_wrap=True)

    def _width(self) -> int:
        return max(self.console.width - 1, 20)

    def _rows(self, lines: Sequence[str]) -> int:
        """Screen rows the lines of markup take once wrapped at word boundaries."""
        width = self._width()
        return sum(
            max(len(Text.from_markup(x).wrap(self.console, width)), 1) for x in lines
        )

    def _fitted_table(self, view: MatchView, below: Sequence[str]) -> list[str]:
        """The table, cut to leave room for ``below`` (the question and its choices), the
        prompt and one refusal: the blank lines go first, then the oldest lines said, so
        that the title, the score and the hand stay on the screen (80 by 24 is enough)."""
        rules = self.match.rules
        if not self.console.is_terminal:
            return table_lines(view, rules, me=self._me())
        # a blank row, the prompt, a refusal (up to two rows) and the prompt again
        budget = self.console.height - self._rows(below) - 5
        tries = [(SAID_LINES, False)] + [(n, True) for n in range(SAID_LINES, -1, -1)]
        lines: list[str] = []
        for said, compact in tries:
            lines = table_lines(view, rules, me=self._me(), said=said, compact=compact,
                                columns=self._width())
            if self._rows(lines) <= budget:
                break
        return lines

    def _clear(self, *, scrollback: bool = False) -> None:
        """Clear the screen (``scrollback``: the terminal's scrollback too, at a hand-over,
        so that the next player cannot scroll up to the other's hand)."""
        if self.clear:
            self.console.clear()
            if scrollback:
                # ED 3 (xterm, tmux, VTE...): erase the saved lines; Rich has no control for it
                self.console.file.write("\x1b[3J")
                self.console.file.flush()
        else:
            self.out("")

    def _ask_line(self, prompt: str) -> str:
        if self._read is None and self._moved:
            # the computer moved since the last answer: a line typed meanwhile was typed
            # before this table was drawn, and does not answer this question
            _flush_typed_ahead()
        self._moved = False
        try:
            return self._read(prompt) if self._read is not None else input(prompt)
        except EOFError:
            raise _Stop(0, "input ended") from None
        except KeyboardInterrupt:
            raise _Stop(130, "interrupted") from None

    def _me(self) -> str:
        return "You"

    # ------------------------------------------------------------------ records
    def _tags(self) -> dict[str, Any]:
        tags = dict(self.tags)
        if self.undos:
            tags["Undos"] = self.undos
        return tags

    def save(self, path: Path | None = None) -> Path | None:
        target = path or self.record
        if target is None:
            return None
        save(target, self.match, tags=self._tags())
        return target

    # ------------------------------------------------------------------ the game
    def intro(self) -> None:
        """Offer the rules summary before the first deal."""
        rules = self.match.rules
        while True:
            text = (
                self._ask_line(f"Read a short summary of the rules ({rules.name}) first? (y/n)> ")
                .strip()
                .lower()
            )
            if text in ("y", "yes"):
                self.out("")
                for line in rules_summary(rules, cited=True):
                    self.out(escape(line))
                self.out("")
                self._ask_line("Press Enter to begin> ")
                return
            if text in ("n", "no", ""):
                return
            if text in ("quit", "exit"):
                raise _Stop(0, "quit")
            if text in ("?", "help"):
                self.out("Type y to read a short summary of the rules first, or n (or just "
                         "Enter) to begin; quit stops.")
                continue
            self.out("[red]! please answer y or n[/red]")

    def run(self, *, intro: bool = False) -> int:
        """Play to the end or until stopped; returns the exit status.

        Raises :class:`RecordError` if the record cannot be written (checked before the
        first deal), and :class:`PiquetError` if an AI makes an illegal move (the game so
        far is saved first).
        """
        self.save()  # a record that cannot be written is found out before play
        try:
            with _stop_on_hangup():
                if intro and not self.match.finished:
                    self.intro()
                while not self.match.finished:
                    p = self.match.to_act
                    if p is None:  # pragma: no cover
                        break
                    move = computer_action(self.state, self._choose)
                    if move is None:
                        self._human_turn(p)
                    else:
                        # flagged first: a move that ends the deal asks "Press Enter" at once
                        self._moved = True
                        self._apply(move[1], p)
        except _Stop as stop:
            return self._stopped(stop)
        except KeyboardInterrupt:  # while the computer was thinking
            return self._stopped(_Stop(130, "interrupted"))
        except PiquetError as exc:
            path = self._save_somewhere()
            raise PiquetError(f"{exc} (the game so far is saved in {path})") from None
        except Exception as exc:  # a fault of ours: the game is kept all the same
            path = self._save_somewhere()
            raise PiquetError(
                f"something went wrong inside piquet ({type(exc).__name__}: "
                f"{_one_line(str(exc))[:200]}); the game so far is saved in {path}: resume "
                f"with piquet play --resume {path}"
            ) from exc
        self._finished()
        return 0

    def _say_saved(self) -> None:
        """``save``: the record now, and the game goes on."""
        path = self._save_somewhere()
        self.out(f"Saved in {escape(str(path))}; the game goes on (quit stops it, "
                 f"piquet play --resume {escape(str(path))} brings it back).")

    def _save_somewhere(self) -> Path:
        """Save to the record, or else to a free ``piquet-SEED[-N].pqn`` (chosen once)."""
        if self.record is not None:
            self.save(self.record)
            return self.record
        if self._saved_at is None:
            self._saved_at = default_record_path(self.match)
        self.save(self._saved_at)
        return self._saved_at

    def _stopped(self, stop: _Stop) -> int:
        with _signals_held():  # a second hang-up must not cut the save short
            path = self._save_somewhere()
        if stop.gone:  # the terminal may be gone: saved is what matters, said if it can be
            with contextlib.suppress(Exception):
                self._say_stopped(stop, path)
            return stop.status
        self._say_stopped(stop, path)
        return stop.status

    def _say_stopped(self, stop: _Stop, path: Path) -> None:
        self.out("")
        taken = ""
        if self.record is None and path.name != f"piquet-{self.match.seed}.pqn":
            taken = f" (piquet-{self.match.seed}.pqn holds another game and is left as it was)"
        self.out(
            f"Game stopped ({stop.why}). The record so far is saved in "
            f"{escape(str(path))}{escape(taken)}."
        )
        self.out(f"Resume with: piquet play --resume {escape(str(path))}")

    def _finished(self) -> None:
        m = self.match
        res = m.result()
        self.out("")
        self.out("[bold]The match is over.[/bold]")
        scores = res.get("scores", [])
        people = self._humans()
        # the one person at the keyboard is "You", as in the lines of each game
        names = ["You" if people == [p] else n for p, n in enumerate(m.names)]
        parts = ", ".join(f"{escape(names[i])} {s}" for i, s in enumerate(scores))
        winner = res.get("winner")
        verdict = "drawn" if winner is None else (
            "you win" if names[winner] == "You" else f"{escape(names[winner])} wins")
        if "games" in res and m.format is not Format.POOL:
            # not points: the games won, a lurched game counting as it is paid (two)
            lurched = any(g.stake > 1 for g in m.games)
            parts = ("games won (a lurch counts two): " if lurched else "games won: ") + parts
        elif m.format is Format.POOL:
            parts = "stakes won or lost: " + ", ".join(
                f"{escape(names[i])} {s:+d}" for i, s in enumerate(scores))
            verdict = "nobody takes the pool" if winner is None else (
                "you take the pool" if names[winner] == "You"
                else f"{escape(names[winner])} takes the pool")
        self.out(f"Result: {parts}: {verdict}.")
        if "settled" in res:
            self.out(
                f"Settled for {res['settled']}" + (" (rubiconed)." if res.get("rubiconed") else ".")
            )
        path = self.save()
        if path is not None:
            self.out(
                f"The record is saved in {escape(str(path))} (piquet replay {escape(str(path))})."
            )
        else:
            self.out("To keep a record of a game, play with --record FILE.")

    def _apply(self, action: Action, player: int) -> None:
        before = self.match
        self.state = self.state.apply(player, str(action))
        after = self.match
        old = before.deal
        assert old is not None
        nxt = after.deal
        if nxt is None or len(nxt.history) != len(old.history) + 1:
            final = old.apply(action)
            self._deal_over(before, final)

    def _humans(self) -> list[int]:
        return [p for p, s in enumerate(self.seats) if s is None]

    def _deal_over(self, before: Match, final: Any) -> None:
        after = self.match
        humans = [p for p in self._humans() if p in before.in_game]
        if not humans:
            # a game of the pool played by the computers while the people sit out
            for g in after.games[len(before.games) :]:
                a, b = g.players
                names = after.names
                verdict = "drawn" if g.winner is None else f"{names[g.winner]} wins"
                self.out(
                    escape(
                        f"Game {g.number}: {names[a]} {g.scores[0]}, {names[b]} "
                        f"{g.scores[1]}: {verdict}."
                    )
                )
            return
        p = humans[0]
        if self.hotseat:
            # a shared screen: the player at the keyboard sees it, then hands over
            p = self.last_human if self.last_human in humans else humans[0]
        role = before.role_of(p)
        assert role is not None
        fv = deal_view(final, role)
        view = after.view(p)
        self._clear()
        columns = self._width() if self.console.is_terminal else None
        for line in deal_end_lines(fv, view, after.rules, me=self._me(), columns=columns):
            self.out(line)
        self.save()
        more = "the next deal" if not after.finished else "the result"
        while True:
            text = self._ask_line(f"Press Enter for {more}> ").strip().lower()
            if text in ("quit", "exit"):
                raise _Stop(0, "quit")
            if text == "save":
                self._say_saved()
                continue
            if text in ("", "y", "yes", "ok", "next", "n"):
                return
            if text == "undo":
                self.out("[red]! this deal is over: its moves stay as played (undo takes back "
                         "moves of the deal in play)[/red]")
                continue
            self.out("[red]! press Enter to go on, or type quit to save and stop[/red]")

    def _handover(self, p: int) -> None:
        name = self.match.names[p]
        self._clear(scrollback=True)
        self.out(f"[bold]{escape(name)} to play.[/bold] The other player, please look away.")
        while True:
            text = self._ask_line(f"{name}, press Enter when you are ready> ").strip().lower()
            if text in ("quit", "exit"):
                raise _Stop(0, "quit")
            if text == "save":
                self._say_saved()
                continue
            if text == "":
                break
            self.out("[red]! press Enter when the other player is not looking[/red]")
        self.last_human = p

    def _draw(self, view: MatchView, ask: Ask) -> None:
        below = [escape(ask.question)]
        if self._note:  # said once, under the table it concerns (a clear would wipe it)
            below.insert(0, f"[bold]{escape(self._note)}[/bold]")
            self._note = ""
        if ask.kind in ("declare", "leftovers", "appoint") and ask.choices:
            below += self._choice_lines(ask, brief=True)
        table = self._fitted_table(view, below)
        self._clear()
        for line in table:
            self.out(line)
        self.out("")
        for line in below:
            self.out(line)

    def _opponent_name(self, p: int) -> str:
        a, b = self.match.in_game
        return self.match.names[b if a == p else a]

    def _human_turn(self, p: int) -> None:
        if self.hotseat and self.last_human != p:
            self._handover(p)
        self.last_human = p
        view = self.match.view(p)
        rules = self.match.rules
        ask = ask_for(view, rules, opponent=self._opponent_name(p))
        self._draw(view, ask)
        while True:
            text = self._ask_line(ask.prompt)
            cmd = text.strip().lower()
            if cmd in ("?", "help"):
                self._show_choices(ask)
                continue
            if cmd == "hint":
                # the advisor may think for seconds: say so at once (Ctrl-C cancels)
                self.out("[dim]The advisor is thinking… (Ctrl-C to cancel)[/dim]")
                try:
                    said = advisor_hint(view)
                except KeyboardInterrupt:  # Ctrl-C while the advisor thinks: no hint, go on
                    said = "The hint is cancelled."
                self.out(escape(said))
                continue
            if cmd == "undo":
                if self._undo():
                    return
                continue
            if cmd == "rules":
                for line in rules_summary(rules, cited=True):
                    self.out(escape(line))
                continue
            if cmd in ("said", "dialog"):
                spoken = said_lines(view, me=self._me())
                self.out("[bold]Said in this deal[/bold]" if spoken else "Nothing is said yet.")
                for line in spoken:
                    self.out(f"  {line}")
                continue
            if cmd in ("redraw", "table"):
                self._draw(view, ask)
                continue
            if cmd in ("quit", "exit"):
                raise _Stop(0, "quit")
            if cmd == "save":  # save, and go on
                self._say_saved()
                continue
            if len(cmd) > MAX_ANSWER:
                self.out(f"[red]! that answer is {len(cmd)} characters long: an answer is a "
                         f"few cards or words. {escape(ask.how)}[/red]")
                continue
            try:
                action = read_action(ask, text, view, rules)
                self.match.verify(action, p)
            except PiquetError as exc:
                self.out(f"[red]! {escape(_one_line(str(exc)))}[/red]")
                continue
            self._apply(action, p)
            return

    def _show_choices(self, ask: Ask, *, brief: bool = False) -> None:
        """The numbered choices (``brief``: the first few and the last, as on the table)."""
        for line in self._choice_lines(ask, brief=brief):
            self.out(line)

    def _choice_lines(self, ask: Ask, *, brief: bool) -> list[str]:
        """The choices as lines of markup (``brief``: the first four, "...", the last)."""
        out: list[str] = []
        if not ask.numbered:
            if ask.choices:
                what = "You may play" if ask.kind == "play" else "Choose"
                out.append(f"{what}: " + ", ".join(escape(c.label) for c in ask.choices))
            if ask.kind == "play":
                out.append("(the number after a card is its number in your hand)")
            out.append(escape(ask.how))
            out.append(f"[dim]{escape(COMMANDS)}[/dim]")
            return out
        choices = list(enumerate(ask.choices, 1))
        width = len(str(len(choices)))
        if brief and len(choices) > 6:
            out = [f"  {n:>{width}}  {escape(c.label)}" for n, c in choices[:4]]
            out.append(f"  {'':>{width}}  ... ({len(choices) - 5} more: type ? to see all)")
            n, c = choices[-1]
            out.append(f"  {n:>{width}}  {escape(c.label)}")
            return out
        out = [f"  {n:>{width}}  {escape(c.label)}" for n, c in choices]
        if not brief:
            out.append(escape(ask.how))
            out.append(f"[dim]{escape(COMMANDS)}[/dim]")
        return out

    def _undo(self) -> bool:
        if not self.undo_allowed:
            self.out("[red]! undo is only for practice games against the computer[/red]")
            return False
        people = self._humans()
        if not any(self.state.can_undo(p) for p in people):
            earlier = any(p in people for p, _a in self.match.history)
            self.out("[red]! " + (
                "your moves of the deals before this one stay: its cards are seen"
                if earlier else "there is nothing of yours to take back yet") + "[/red]")
            return False
        self.state = self.state.apply(people[0], UNDO)
        self.undos += 1
        self._note = "Your last move is taken back."
        return True


def _one_line(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= 300 else line[:297] + "..."
