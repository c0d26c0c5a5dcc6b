"""Game records as text (PQN) and JSON: writing, reading, replaying and checking them (the
notation itself: :mod:`piquet.core.notation`)."""

from __future__ import annotations

import contextlib
import contextvars
import json
import os
import re
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from piquet.core.actions import parse_action
from piquet.core.deal import ELDER, ROLE_NAMES, YOUNGER
from piquet.core.errors import PiquetError, RecordError
from piquet.core.match import Match, given_packs_refusal, new_match
from piquet.core.notation.annotate import DealNotes, _Walker, annotate
from piquet.core.rules import Rules, preset, rules_from_mapping

__all__ = [
    "RECORD_VERSION",
    "STANDARD_TAGS",
    "GameRecord",
    "dump_json",
    "dump_text",
    "load",
    "loads",
    "parse_json",
    "read_text",
    "record_json",
    "save",
    "write_whole",
]

RECORD_VERSION: Final = 1
STANDARD_TAGS: Final = ("Piquet", "Rules", "Knobs", "Format", "Games", "Seed", "Players", "Result")
"""Tags the notation writes from the match itself; any other tag is kept as given."""

_TAG: Final = re.compile(r"^\[([A-Za-z][A-Za-z0-9_]*)\s+(.*)\]$")
_MOVE: Final = re.compile(r"^(elder|younger)\s*:\s*(\S.*)$")
_TAG_NAME: Final = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
MAX_JSON_DEPTH: Final = 100
"""The deepest nesting of ``[ ]`` and ``{ }`` a record may hold (its own data is a few
levels deep): deeper JSON is refused, not left to exhaust Python's recursion."""
_TOO_DEEP: Final = f"nested too deeply (more than {MAX_JSON_DEPTH} levels of [ ] and {{ }})"


# ====================================================================== records
@dataclass(frozen=True, slots=True)
class GameRecord:
    """A replayed record: the match and the extra tags (Date, Levels, ...) it carries."""

    match: Match
    tags: Mapping[str, Any] = field(default_factory=dict)

    @property
    def resigned(self) -> int | None:
        """The player who resigned the game (the web table's tag ``Resigned``, written
        after the moves played), or None; checked when the record is read."""
        value = self.tags.get("Resigned")
        return value if type(value) is int else None

    def text(self) -> str:
        return dump_text(self.match, tags=self.tags)

    def json(self) -> str:
        return dump_json(self.match, tags=self.tags)


def _check_tags(tags: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, value in tags.items():
        if not _TAG_NAME.match(name):
            raise RecordError(f"tag name {name!r}: use letters, digits and _, starting a letter")
        if name in STANDARD_TAGS:
            raise RecordError(f"tag {name!r} is written from the match itself")
        if _depth(value) > MAX_JSON_DEPTH:
            raise RecordError(f"tag {name!r}: the value is {_TOO_DEEP}")
        try:
            json.dumps(value)
        except (TypeError, ValueError):
            raise RecordError(f"tag {name!r}: the value must be JSON data") from None
        out[name] = value
    return out


def _rules_tags(rules: Rules) -> tuple[str, dict[str, Any] | None]:
    if rules.is_preset:
        return rules.name, None
    knobs = rules.knobs_json()
    del knobs["name"]
    return rules.name, knobs


def _tag_line(name: str, value: Any) -> str:
    return f"[{name} {json.dumps(value, ensure_ascii=False)}]"


def _result(match: Match) -> dict[str, Any] | None:
    return match.result() if match.finished else None


def dump_text(match: Match, *, tags: Mapping[str, Any] | None = None) -> str:
    """The match as a text record (ends with a newline).

    Raises :class:`RecordError` for a tag that cannot be written.
    """
    extra = _check_tags(tags or {})
    name, knobs = _rules_tags(match.rules)
    lines = [_tag_line("Piquet", RECORD_VERSION), _tag_line("Rules", name)]
    if knobs is not None:
        lines.append(_tag_line("Knobs", knobs))
    lines += [
        _tag_line("Format", match.format.value),
        _tag_line("Games", match.games_to_play),
        _tag_line("Seed", match.seed),
        _tag_line("Players", list(match.names)),
    ]
    lines += [_tag_line(k, v) for k, v in extra.items()]
    lines.append(_tag_line("Result", _result(match)))
    for dn in annotate(match):
        lines.append("")
        lines.append(dn.opening[0])
        lines += [f"  {x}" for x in dn.opening[1:]]
        for mv in dn.moves:
            lines.append(f"{ROLE_NAMES[mv.role]}: {mv.action}")
            lines += [f"  {x}" for x in mv.notes]
    return "\n".join(lines) + "\n"


def record_json(match: Match, *, tags: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The match as a JSON-ready record: :meth:`Match.to_record` plus tags and deals."""
    extra = _check_tags(tags or {})
    out = match.to_record()
    out["tags"] = extra
    out["deals"] = [dn.to_json() for dn in annotate(match)]
    return out


def dump_json(match: Match, *, tags: Mapping[str, Any] | None = None) -> str:
    """The JSON record as text: one short value per line, so that records diff well."""
    return _json_text(record_json(match, tags=tags), 0) + "\n"


def _json_text(value: Any, indent: int) -> str:
    flat = json.dumps(value, ensure_ascii=False)
    if len(flat) + indent <= 96 or not isinstance(value, (dict, list)) or not value:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        items = [
            f"{pad}{json.dumps(k, ensure_ascii=False)}: {_json_text(v, indent + 2)}"
            for k, v in value.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [f"{pad}{_json_text(v, indent + 2)}" for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


# ====================================================================== reading
def _depth(value: Any) -> int:
    """How deeply lists and objects nest in ``value`` (0 for a number or a string), counted
    without recursion; stops counting past :data:`MAX_JSON_DEPTH`."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        elif isinstance(item, tuple):
            item = list(item)
        if not isinstance(item, list):
            continue
        deepest = max(deepest, level)
        if deepest > MAX_JSON_DEPTH:
            break
        stack.extend((x, level + 1) for x in item)
    return deepest


def parse_json(text: str) -> Any:
    """The JSON value of ``text``.  Raises :class:`ValueError` for text that is not JSON and
    :class:`RecordError` ("nested too deeply ...") for lists or objects nested more than
    :data:`MAX_JSON_DEPTH` deep."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise RecordError(_TOO_DEEP) from None
    if _depth(value) > MAX_JSON_DEPTH:
        raise RecordError(_TOO_DEEP)
    return value


def read_text(path: str | Path) -> str:
    """The text of a record file (game record or tally), one reading for every reader:
    UTF-8, a leading byte-order mark dropped.  Raises :class:`RecordError` for a file that
    cannot be read, a directory, or bytes that are not UTF-8 text."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except IsADirectoryError:
        raise RecordError(f"{str(p)!r} is a directory, not a record") from None
    except OSError as exc:
        raise RecordError(f"cannot read {str(p)!r}: {exc.strerror}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError(f"{str(p)!r} is not a piquet record (not UTF-8 text)") from None
    return text.removeprefix("\ufeff")


def _norm(line: str) -> str:
    return " ".join(line.split())


def _start(
    rules_value: Any,
    knobs: Any,
    fmt: Any,
    games: Any,
    seed: Any,
    names: Any,
    where: str,
) -> Match:
    try:
        if knobs is not None:
            if not isinstance(knobs, dict):
                raise RecordError(f"{where}: Knobs must be an object of knob values")
            rules = rules_from_mapping({**knobs, "name": rules_value})
        elif isinstance(rules_value, dict):
            rules = rules_from_mapping(rules_value)
        elif isinstance(rules_value, str):
            rules = preset(rules_value)  # a record's house rule comes with its Knobs
            if _EARLIER.get():
                rules = _earlier_reading(rules, games)
        else:
            raise RecordError(f"{where}: the rules must be a preset name or an object of knobs")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise RecordError(f"{where}: the seed must be a whole number, not {seed!r}")
        if not isinstance(games, int) or isinstance(games, bool):
            raise RecordError(f"{where}: games must be a whole number, not {games!r}")
        if fmt is not None and not isinstance(fmt, str):
            raise RecordError(f"{where}: the format must be one of game, partie, pool")
        if names is not None and (
            not isinstance(names, list) or not all(isinstance(n, str) for n in names)
        ):
            raise RecordError(f"{where}: players must be a list of names")
        return new_match(rules, seed=seed, format=fmt, names=names, games=games)
    except RecordError:
        raise
    except PiquetError as exc:
        raise RecordError(f"{where}: {exc}") from None


_EARLIER: contextvars.ContextVar[bool] = contextvars.ContextVar("earlier", default=False)
"""Whether a record is being read again under the earlier readings of its preset."""


def _earlier_reading(rules: Rules, games: Any) -> Rules:
    """``rules`` (a preset) as records written before a reading changed played it:
    ``court-gamester-1754`` cut again for the deal after each game of a match of several
    games until the source audit of 2026-11 (now the games agreed deal alternately)."""
    if rules.name == "court-gamester-1754" and isinstance(games, int) and games > 1:
        return rules.replace(cut_after_game=True)
    return rules


def _check_result(stated: Any, match: Match, where: str) -> None:
    actual = _result(match)
    if json.loads(json.dumps(stated)) != actual:
        said = "no result (unfinished)" if stated is None else json.dumps(stated)
        got = "no result (the game is not over)" if actual is None else json.dumps(actual)
        raise RecordError(f"{where}: the record states {said} but the replay gives {got}")


@dataclass(slots=True)
class _Stated:
    line: int
    text: str


def _segments(deals: Sequence[DealNotes]) -> list[list[tuple[str, ...]]]:
    """Derived lines between moves: segment k holds what follows move k, each line with the
    wording of earlier records where it differs (a record may state either)."""
    segs: list[list[tuple[str, ...]]] = [[]]
    for dn in deals:
        segs[-1].extend((x,) for x in dn.opening)
        for mv in dn.moves:
            segs.append(
                [(x, mv.earlier[i]) if i in mv.earlier else (x,) for i, x in enumerate(mv.notes)]
            )
    return segs


def _describe(deals: Sequence[DealNotes], k: int, move_lines: Sequence[int]) -> str:
    """Where segment ``k`` falls: after which move of which deal (and that move's line)."""
    if k == 0:
        return "before the first move"
    on = f" on line {move_lines[k - 1]}" if k <= len(move_lines) else ""
    n = 0
    for dn in deals:
        if n + len(dn.moves) >= k:
            return f"deal {dn.number} of game {dn.game}, after move {k - n}{on}"
        n += len(dn.moves)
    return f"after move {k}{on}"  # pragma: no cover


def _near(word: str, target: str) -> bool:
    """``word`` is ``target`` with at most two letters changed, added or dropped."""
    a, b = word.lower(), target
    if abs(len(a) - len(b)) > 2:
        return False
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ca != cb))
    return row[-1] <= 2


def _looks_like_move(line: str) -> bool:
    """A line meant as a move but not written ``elder: ACTION`` / ``younger: ACTION``
    (a misspelt role, a lost colon, a lost action).  No statement has this shape."""
    head, sep, _ = line.partition(":")
    if sep and head.strip() and " " not in head.strip():
        return any(_near(head.strip(), r) for r in ("elder", "younger"))
    first, _, rest = line.partition(" ")
    if not rest or not any(_near(first, r) for r in ("elder", "younger")):
        return False
    try:
        parse_action(rest.strip())
    except PiquetError:
        return False
    return True


def _stem(line: str) -> str:
    """What a statement is about: the words before its first colon, or its first two words."""
    head, sep, _ = line.partition(":")
    if sep and len(head) < 40:
        return head
    return " ".join(line.split()[:2])


def _compare(
    stated: list[list[_Stated]],
    canonical: list[list[tuple[str, ...]]],
    deals: Sequence[DealNotes],
    move_lines: Sequence[int],
) -> None:
    """Refuse the first stated line the replay does not make, naming that line."""
    for k, lines in enumerate(stated):
        if not lines:
            continue
        wordings = (
            [tuple(_norm(x) for x in alts) for alts in canonical[k]] if k < len(canonical) else []
        )
        want = [alts[0] for alts in wordings]
        pos = 0
        for st in lines:
            text = _norm(st.text)
            start = pos
            while pos < len(want) and text not in wordings[pos]:
                pos += 1
            if pos < len(want):
                pos += 1
                continue
            if _looks_like_move(text):
                raise RecordError(
                    f"line {st.line} ({_describe(deals, k, move_lines)}): {text!r} is not a "
                    "move as written: a move is 'elder: ACTION' or 'younger: ACTION', "
                    "e.g. 'elder: play:QH'"
                )
            like = [w for w in want[start:] if _stem(w) == _stem(text)]
            if like:
                says = f"; the replay says {like[0]!r}"
            elif start < len(want):
                says = f"; the replay says {want[start]!r} next"
            else:
                says = "; the replay says nothing more here"
            raise RecordError(
                f"line {st.line} ({_describe(deals, k, move_lines)}): the record states {text!r}, "
                f"which the replay does not{says}"
            )


def _parse_text(text: str) -> GameRecord:
    lines = text.splitlines()
    tags: dict[str, Any] = {}
    tag_lines: dict[str, int] = {}
    body_start = len(lines)
    for i, raw in enumerate(lines):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        m = _TAG.match(line)
        if not m:
            body_start = i
            break
        name, value_text = m.group(1), m.group(2)
        if name in tags:
            raise RecordError(f"line {i + 1}: the tag {name} is given twice")
        try:
            tags[name] = parse_json(value_text)
        except RecordError as exc:
            raise RecordError(f"line {i + 1}: the value of tag {name} is {exc}") from None
        except ValueError:
            raise RecordError(
                f"line {i + 1}: the value of tag {name} is not JSON "
                '(write a "quoted string", a number, a [list] or an {object})'
            ) from None
        tag_lines[name] = i + 1
    if tags.get("Piquet") != RECORD_VERSION:
        if "Piquet" in tags:
            raise RecordError(
                f"line {tag_lines['Piquet']}: this program reads records of version "
                f"{RECORD_VERSION}, not {tags['Piquet']!r}"
            )
        raise RecordError(
            "not a piquet record: a text record starts with the tag line [Piquet 1] "
            '(and a JSON record is an object with "piquet": 1)'
        )
    for need in ("Rules", "Seed"):
        if need not in tags:
            raise RecordError(f"the record has no [{need} ...] tag line")
    match = _start(
        tags["Rules"],
        tags.get("Knobs"),
        tags.get("Format"),
        tags.get("Games", 1),
        tags["Seed"],
        tags.get("Players"),
        f"line {tag_lines.get('Rules', 1)}",
    )
    walker = _Walker(match)
    stated: list[list[_Stated]] = [[]]
    move_lines: list[int] = []
    moves_in_deal = 0
    last_deal = (walker.match.game_number, walker.match.deal_number)
    for i in range(body_start, len(lines)):
        raw = lines[i]
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if _TAG.match(line) and not raw.startswith(" "):
            raise RecordError(f"line {i + 1}: tag lines come before the first deal")
        mv = _MOVE.match(line)
        if mv is None:
            stated[-1].append(_Stated(i + 1, line))
            continue
        here = (walker.match.game_number, walker.match.deal_number)
        if here != last_deal:
            moves_in_deal = 0
            last_deal = here
        moves_in_deal += 1
        where = f"line {i + 1} (deal {here[1]} of game {here[0]}, move {moves_in_deal})"
        try:
            try:
                action = parse_action(mv.group(2))
            except PiquetError as exc:
                raise RecordError(f"{where}: {exc}") from None
            role = ELDER if mv.group(1) == "elder" else YOUNGER
            if walker.match.finished or walker.match.deal is None:
                raise RecordError(f"{where}: the game is over; no more moves")
            player = walker.match.player_of(role)
            walker.step(player, role, action, where)
        except RecordError:
            # A broken line earlier (a mistyped move read as a statement, or a changed
            # move whose stated outcome no longer holds) is the one to name.
            _compare(stated, _segments(walker.deals), walker.deals, move_lines)
            raise
        move_lines.append(i + 1)
        stated.append([])
    _compare(stated, _segments(walker.deals), walker.deals, move_lines)
    if "Result" in tags:
        _check_result(tags["Result"], walker.match, f"line {tag_lines['Result']}")
    extra = {k: v for k, v in tags.items() if k not in STANDARD_TAGS}
    _check_resigned(extra, walker.match, f"line {tag_lines.get('Resigned', '?')}")
    return GameRecord(walker.match, extra)


def _parse_json_text(text: str) -> GameRecord:
    try:
        data = parse_json(text)
    except RecordError as exc:
        raise RecordError(f"not a piquet record: the JSON is {exc}") from None
    except ValueError as exc:
        raise RecordError(f"not a piquet record: the JSON does not parse ({exc})") from None
    return _from_json(data)


def _refuse_a_tally(data: Any, file: str = "FILE") -> None:
    """A tally (``piquet tally --save``) is not a game record: say so, and how to read it."""
    if isinstance(data, dict) and "tally" in data and "seed" not in data:
        raise RecordError(
            "this is a tally of a game played with real cards (written by piquet tally), "
            "not a game record: it holds the entries typed at the table, not a seed and moves; "
            f"read it with: piquet tally --load {file} (it replays every entry and shows the score)"
        )


def _from_json(data: Any) -> GameRecord:
    _refuse_a_tally(data)
    if not isinstance(data, dict) or data.get("piquet") != RECORD_VERSION:
        raise RecordError('not a piquet record: expected a JSON object with "piquet": 1')
    if (why := given_packs_refusal(data)) is not None:
        raise RecordError(why)
    for need in ("rules", "seed", "actions"):
        if need not in data:
            raise RecordError(f'the record has no "{need}"')
    match = _start(
        data["rules"],
        None,
        data.get("format"),
        data.get("games", 1),
        data["seed"],
        data.get("players"),
        "record",
    )
    actions = data["actions"]
    if not isinstance(actions, list):
        raise RecordError('"actions" must be a list of [player, "action"]')
    walker = _Walker(match)
    for n, entry in enumerate(actions, 1):
        if not (
            isinstance(entry, list)
            and len(entry) == 2
            and isinstance(entry[0], int)
            and not isinstance(entry[0], bool)
            and isinstance(entry[1], str)
        ):
            raise RecordError(f'action {n}: expected [player, "action"], got {entry!r}')
        player, text = entry
        m = walker.match
        where = f"action {n} ({text!r} by player {player}"
        if m.deal is not None and not m.finished:
            where += f", deal {m.deal_number} of game {m.game_number}"
        where += ")"
        if not 0 <= player < m.n_players:
            raise RecordError(f"{where}: there is no player {player}")
        role = m.role_of(player)
        if role is None:
            raise RecordError(f"{where}: that player sits out this game")
        try:
            action = parse_action(text)
        except PiquetError as exc:
            raise RecordError(f"{where}: {exc}") from None
        walker.step(player, role, action, where)
    if "deals" in data:
        stated = data["deals"]
        derived = [dn.to_json() for dn in walker.deals]
        if not isinstance(stated, list):
            raise RecordError('"deals" must be a list')
        for i in range(max(len(stated), len(derived))):
            if i >= len(stated) or i >= len(derived):
                raise RecordError(
                    f'"deals": the record has {len(stated)} deals, the replay {len(derived)}'
                )
            got, want = stated[i], derived[i]
            if got != want and walker.deals[i].in_todays_words(got) != want:
                where = f"deal {want['deal']} of game {want['game']}"
                if isinstance(got, dict):
                    for key in want:
                        if got.get(key) != want[key]:
                            raise RecordError(
                                f'"deals" item {i + 1} ({where}): "{key}" is stated as '
                                f"{json.dumps(got.get(key))[:200]} but the replay gives "
                                f"{json.dumps(want[key])[:200]}"
                            )
                raise RecordError(f'"deals" item {i + 1} ({where}) does not agree with the replay')
    if "result" in data:
        _check_result(data["result"], walker.match, '"result"')
    tags = data.get("tags", {})
    if not isinstance(tags, dict):
        raise RecordError('"tags" must be an object')
    checked = _check_tags(tags)
    _check_resigned(checked, walker.match, '"tags"')
    return GameRecord(walker.match, checked)


def _check_resigned(tags: Mapping[str, Any], match: Match, where: str) -> None:
    """A ``Resigned`` tag names a player of the match, and the game was not over (a
    finished game is not resigned)."""
    if "Resigned" not in tags:
        return
    value = tags["Resigned"]
    n = match.n_players
    if type(value) is not int or not 0 <= value < n:
        raise RecordError(
            f"{where}: the Resigned tag names the player who resigned, 0 to {n - 1}, "
            f"not {json.dumps(value)[:40]}"
        )
    if match.finished:
        raise RecordError(f"{where}: the Resigned tag is for a game resigned before its end; "
                          "this one was played to the end")


def loads(text: str) -> GameRecord:
    """Read a record (text or JSON), replay it and check every statement.

    Raises :class:`RecordError` naming the line (or action) and the deal that
    is wrong: an illegal move, a statement the replay contradicts, a missing
    tag, or text that is not a record at all.
    """
    body = text.lstrip("\ufeff")
    read = _parse_json_text if body.lstrip().startswith("{") else _parse_text
    try:
        return read(body)
    except RecordError as refused:
        # a record written under an earlier reading of its rule set replays as it was
        # played (the rules it then had go with the match, and with any record saved of it)
        token = _EARLIER.set(True)
        try:
            return read(body)
        except RecordError:
            raise refused from None
        finally:
            _EARLIER.reset(token)


def load(path: str | Path) -> GameRecord:
    """Read a record file; raises :class:`RecordError` if unreadable or not a record."""
    p = Path(path)
    text = read_text(p)
    try:
        if text.lstrip().startswith("{"):
            try:
                data_json: Any = parse_json(text)
            except ValueError:  # RecordError too: loads() says what is wrong with the JSON
                data_json = None
            _refuse_a_tally(data_json, shlex.quote(str(p)))
        return loads(text)
    except RecordError as exc:
        raise RecordError(f"{p.name}: {exc}") from None


def save(path: str | Path, match: Match, *, tags: Mapping[str, Any] | None = None) -> str:
    """Write the record to ``path``: JSON for a ``.json`` name, else text.

    Returns the text written; raises :class:`RecordError` if it cannot be written.
    """
    p = Path(path)
    text = (
        dump_json(match, tags=tags) if p.suffix.lower() == ".json" else dump_text(match, tags=tags)
    )
    write_whole(p, text)
    return text


def write_whole(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` (UTF-8) beside it, then put it in its place: an
    interrupted save leaves the file of before whole, never one cut short.

    Raises :class:`RecordError` if it cannot be written.
    """
    p = Path(path)
    if p.is_symlink():  # the file the link names is written, and the link kept
        p = p.resolve()
    part = p.with_name(f".{p.name}.part")
    try:
        part.write_text(text, encoding="utf-8")
        os.replace(part, p)
    except OSError as exc:
        with contextlib.suppress(OSError):
            part.unlink()
        raise RecordError(f"cannot write {str(p)!r}: {exc.strerror}") from None
