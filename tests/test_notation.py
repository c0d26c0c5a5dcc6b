"""Game records: text and JSON round-trip exactly, replay checked, and bad records refused."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from piquet.core.actions import parse_action
from piquet.core.errors import RecordError
from piquet.core.match import Match, new_match
from piquet.core.notation import annotate, dump_json, dump_text, load, loads, record_json, save
from piquet.core.rules import PRESETS, get_rules

PRESET_NAMES = list(PRESETS)
TAGS = {"Date": "1662-03-01", "Levels": ["human", "random"], "Event": "a test"}


def random_match(
    rules: str,
    seed: int,
    *,
    stop: int | None = None,
    format: str | None = None,
    games: int = 1,
) -> Match:
    """A match played with uniformly random legal actions (``stop``: after that many)."""
    m = new_match(rules, seed=seed, format=format, games=games)
    rng = random.Random(seed)
    n = 0
    while not m.finished and (stop is None or n < stop):
        m = m.apply(m.random_action(rng))
        n += 1
    return m


def same_match(a: Match, b: Match) -> None:
    assert a.history == b.history
    assert a.seed == b.seed and a.rules == b.rules and a.format == b.format
    assert a.names == b.names and a.games_to_play == b.games_to_play
    assert a.result() == b.result()


ROUND_TRIP = settings(max_examples=4, deadline=None, derandomize=True)


@pytest.mark.parametrize("preset", PRESET_NAMES)
@ROUND_TRIP
@given(seed=st.integers(0, 2**40), cut=st.one_of(st.none(), st.integers(0, 150)))
def test_text_record_round_trips_exactly(preset: str, seed: int, cut: int | None) -> None:
    m = random_match(preset, seed, stop=cut)
    text = dump_text(m, tags=TAGS)
    rec = loads(text)
    same_match(rec.match, m)
    assert dict(rec.tags) == TAGS
    assert dump_text(rec.match, tags=rec.tags) == text


@pytest.mark.parametrize("preset", PRESET_NAMES)
@ROUND_TRIP
@given(seed=st.integers(0, 2**40), cut=st.one_of(st.none(), st.integers(0, 150)))
def test_json_record_round_trips_exactly(preset: str, seed: int, cut: int | None) -> None:
    m = random_match(preset, seed, stop=cut)
    text = dump_json(m, tags=TAGS)
    rec = loads(text)
    same_match(rec.match, m)
    assert dump_json(rec.match, tags=rec.tags) == text
    # the same content as the text record, and readable by the engine's own loader
    assert dump_text(rec.match, tags=rec.tags) == dump_text(m, tags=TAGS)
    same_match(Match.from_record(json.loads(text)), m)


@pytest.mark.parametrize(
    ("preset", "format", "games"),
    [
        ("encyclopedia-19c", "partie", 1),
        ("rubicon", "game", 2),
        ("court-gamester-1754", "pool", 1),
        ("cotgrave-1662", "game", 3),
    ],
)
def test_formats_round_trip(preset: str, format: str, games: int) -> None:
    m = random_match(preset, 11, format=format, games=games)
    assert m.finished
    text = dump_text(m)
    assert dump_text(loads(text).match) == text
    js = dump_json(m)
    assert dump_json(loads(js).match) == js
    if format == "pool":
        assert "sits out" in text and "ledger" in text


def test_house_rules_round_trip_with_their_knobs() -> None:
    rules = get_rules("rubicon").replace(name="our-table", target=60, younger_min=0)
    m = new_match(rules, seed=5, format="game")
    rng = random.Random(5)
    while not m.finished:
        m = m.apply(m.random_action(rng))
    text = dump_text(m)
    assert '[Rules "our-table"]' in text and "[Knobs {" in text
    rec = loads(text)
    assert rec.match.rules == rules
    assert dump_text(rec.match) == text
    assert loads(dump_json(m)).match.rules == rules


def test_same_seed_and_moves_give_byte_identical_records() -> None:
    a = random_match("cotton-1674", 99)
    b = Match.replay(a.rules, a.seed, a.history, format=a.format)
    assert dump_text(a, tags=TAGS).encode() == dump_text(b, tags=TAGS).encode()
    assert dump_json(a, tags=TAGS).encode() == dump_json(b, tags=TAGS).encode()


def test_record_reads_as_the_game_went() -> None:
    m = random_match("cotgrave-1662", 3)
    text = dump_text(m)
    assert text.startswith('[Piquet 1]\n[Rules "cotgrave-1662"]\n')
    assert "\ndeal 1 of game 1: " in text
    assert "  dealt to elder: " in text and "  stock: " in text
    assert re.search(r'  elder says "Ruff of \d+\."', text)
    assert re.search(r"  trick 12: (elder|younger) \w\w, (elder|younger) \w\w; \w+ wins", text)
    assert "deal 1 scores: " in text and "game 1 stands: " in text
    assert re.search(r"game 1 won by player [12], \d+ to \d+", text)
    deals = annotate(m)
    assert [d.number for d in deals] == list(range(1, len(deals) + 1))
    assert sum(len(d.moves) for d in deals) == len(m.history)


def test_a_record_of_moves_alone_replays() -> None:
    m = random_match("rubicon", 8)
    text = dump_text(m)
    bare = "\n".join(
        line for line in text.splitlines() if line.startswith(("[", "elder:", "younger:"))
    )
    rec = loads(bare)
    same_match(rec.match, m)
    assert dump_text(rec.match) == text


def test_save_and_load_files(tmp_path: Path) -> None:
    m = random_match("du-coeur-1995", 4)
    for name in ("g.pqn", "g.json"):
        path = tmp_path / name
        written = save(path, m, tags=TAGS)
        assert path.read_text(encoding="utf-8") == written
        same_match(load(path).match, m)
    assert (tmp_path / "g.json").read_text().startswith("{\n")


# ---------------------------------------------------------------------- refusals
@pytest.fixture(scope="module")
def good_text() -> str:
    return dump_text(random_match("encyclopedia-19c", 21), tags={"Date": "2000-01-01"})


def refused(text: str, *fragments: str) -> str:
    with pytest.raises(RecordError) as info:
        loads(text)
    message = str(info.value)
    assert "\n" not in message
    for f in fragments:
        assert f in message, message
    return message


@pytest.mark.parametrize(
    "text",
    ["", "hello world\nthis is not a game\n", '[Event "x"]\n', "{}", "[1, 2]", "{not json"],
)
def test_not_a_record_at_all_is_refused(text: str) -> None:
    refused(text, "not a piquet record")


def test_a_future_version_is_refused(good_text: str) -> None:
    refused(good_text.replace("[Piquet 1]", "[Piquet 2]"), "line 1", "version 1")


def test_missing_and_malformed_tags_are_refused(good_text: str) -> None:
    refused(re.sub(r"\[Seed \d+\]\n", "", good_text), "[Seed ...]")
    refused(
        good_text.replace('[Rules "encyclopedia-19c"]', "[Rules encyclopedia]"),
        "line 2",
        "not JSON",
    )
    refused(
        good_text.replace('[Rules "encyclopedia-19c"]', '[Rules "no-such-rules"]'),
        "unknown rule set",
    )
    refused(good_text.replace("[Seed 21]", "[Seed 21]\n[Seed 22]"), "given twice")
    refused(good_text + '[Late "tag"]\n', "tag lines come before the first deal")


def _replace_nth_move(text: str, pattern: str, new: str, nth: int = 0) -> tuple[str, int]:
    lines = text.splitlines()
    hits = [i for i, x in enumerate(lines) if re.match(pattern, x)]
    i = hits[nth]
    lines[i] = new
    return "\n".join(lines) + "\n", i + 1


def test_an_illegal_move_is_refused_naming_line_deal_and_move(good_text: str) -> None:
    lines = good_text.splitlines()
    i = next(n for n, x in enumerate(lines) if re.match(r"(elder|younger): play:", x))
    role = lines[i].split(":")[0]
    bad, line_no = _replace_nth_move(good_text, r"(elder|younger): play:", f"{role}: play:6S")
    assert line_no == i + 1
    refused(bad, f"line {line_no}", "deal 1 of game 1, move", "6S")


@pytest.mark.parametrize(
    "corrupt",
    [
        lambda line: line.replace(": ", " ", 1),  # the colon lost
        lambda line: line.replace("elder", "eldr", 1).replace("younger", "yonger", 1),
        lambda line: line.split(":")[0] + ":",  # the action lost
    ],
    ids=["colon-lost", "role-misspelt", "action-lost"],
)
@pytest.mark.parametrize("nth", [0, 5, 20, 47])
def test_a_corrupted_move_line_is_blamed_on_itself_not_a_later_line(
    good_text: str, corrupt: Callable[[str], str], nth: int
) -> None:
    """Issue 12: "a corrupted move line in a .pqn record is blamed on a later line
    ('line 50' for a broken line 47): name the line that is wrong"."""
    lines = good_text.splitlines()
    moves = [i for i, x in enumerate(lines) if re.match(r"(elder|younger): ", x)]
    i = moves[nth]
    bad = list(lines)
    bad[i] = corrupt(lines[i])
    message = refused("\n".join(bad) + "\n", "is not a move as written")
    assert message.startswith(f"line {i + 1} ("), message


def test_a_changed_move_is_blamed_with_the_line_of_that_move(good_text: str) -> None:
    """A legal move changed (four cards exchanged become three): the first statement it
    falsifies is named, with the line of the move it follows, not a later move's line."""
    lines = good_text.splitlines()
    i = next(n for n, x in enumerate(lines) if x.startswith("elder: discard:"))
    lines[i] = " ".join(lines[i].split()[:-1])  # one card fewer
    message = refused("\n".join(lines) + "\n", f"on line {i + 1}", "exchanges")
    assert message.startswith(f"line {i + 2} ("), message


def test_a_move_out_of_turn_is_refused(good_text: str) -> None:
    lines = good_text.splitlines()
    i = next(n for n, x in enumerate(lines) if x.startswith("elder: "))
    lines[i] = lines[i].replace("elder: ", "younger: ", 1)
    refused("\n".join(lines), f"line {i + 1}", "it is elder's turn, not younger's")


def test_an_unreadable_move_is_refused(good_text: str) -> None:
    bad, line_no = _replace_nth_move(good_text, r"elder: ", "elder: fold")
    refused(bad, f"line {line_no}", "is not an action")


def test_a_wrong_stated_score_is_refused(good_text: str) -> None:
    m = re.search(r"(  deal 1 scores: .*?\(elder\) )(\d+)", good_text)
    assert m
    bad = good_text.replace(m.group(0), m.group(1) + str(int(m.group(2)) + 1), 1)
    line_no = bad[: bad.index(m.group(1))].count("\n") + 1
    refused(bad, f"line {line_no}", "deal 1 of game 1", "the replay does not")


def test_a_wrong_count_or_hand_or_trick_is_refused(good_text: str) -> None:
    m = re.search(r"  (elder|younger) counts (\d+) for", good_text)
    assert m
    refused(
        good_text.replace(m.group(0), m.group(0).replace(m.group(2), "99"), 1),
        "counts 99",
        "the replay",
    )
    m2 = re.search(r"  dealt to elder: (\S\S)", good_text)
    assert m2
    refused(good_text.replace(m2.group(0), "  dealt to elder: 7S", 1), "before the first move")
    m3 = re.search(r"  trick 1: .*; (elder|younger) wins", good_text)
    assert m3
    other = "younger" if m3.group(1) == "elder" else "elder"
    refused(
        good_text.replace(m3.group(0), m3.group(0)[: -len(m3.group(1)) - 5] + other + " wins", 1),
        "trick 1",
    )


def test_a_wrong_result_is_refused(good_text: str) -> None:
    m = re.search(r"\[Result (.*)\]", good_text)
    assert m
    result = json.loads(m.group(1))
    result["winner"] = 1 - result["winner"]
    refused(good_text.replace(m.group(1), json.dumps(result)), "line ", "the replay gives")
    refused(good_text.replace(m.group(1), "null"), "no result (unfinished)")


def test_moves_after_the_end_and_stray_lines_are_refused(good_text: str) -> None:
    refused(good_text + "elder: play:AS\n", "the game is over")
    lines = good_text.splitlines()
    lines.insert(12, "  elder sings a song")
    refused("\n".join(lines), "line 13", "elder sings a song")


def test_json_refusals() -> None:
    m = random_match("court-gamester-1754", 2)
    rec = record_json(m)
    bad = json.loads(json.dumps(rec))
    bad["actions"][5][1] = "play:AS"
    refused(json.dumps(bad), "action 6", "deal 1 of game 1")
    bad = json.loads(json.dumps(rec))
    bad["actions"][3] = "nonsense"
    refused(json.dumps(bad), "action 4", "expected [player")
    bad = json.loads(json.dumps(rec))
    bad["deals"][0]["score"] = [1, 2]
    refused(json.dumps(bad), '"deals" item 1', '"score"')
    bad = json.loads(json.dumps(rec))
    bad["result"] = {"scores": [0, 0], "winner": None}
    refused(json.dumps(bad), '"result"')
    bad = json.loads(json.dumps(rec))
    del bad["seed"]
    refused(json.dumps(bad), 'no "seed"')
    bad = json.loads(json.dumps(rec))
    bad["seed"] = "forty-two"
    refused(json.dumps(bad), "seed must be a whole number")


def test_files_that_are_not_records_are_refused(tmp_path: Path) -> None:
    binary = tmp_path / "x.pqn"
    binary.write_bytes(bytes(range(256)))
    with pytest.raises(RecordError, match="not UTF-8"):
        load(binary)
    with pytest.raises(RecordError, match="cannot read"):
        load(tmp_path / "missing.pqn")
    with pytest.raises(RecordError, match="directory"):
        load(tmp_path)


def test_names_and_tags_that_cannot_be_written_are_refused() -> None:
    m = new_match("rubicon", seed=1, names=["Ann\nBob", "Cy"])
    with pytest.raises(RecordError, match="one line"):
        dump_text(m)
    m = new_match("rubicon", seed=1)
    with pytest.raises(RecordError, match="written from the match"):
        dump_text(m, tags={"Seed": 3})
    with pytest.raises(RecordError, match="tag name"):
        dump_text(m, tags={"bad tag": 3})


def test_unfinished_record_resumes_where_it_stopped() -> None:
    m = random_match("cotgrave-1662", 17, stop=40)
    rec = loads(dump_text(m))
    assert not rec.match.finished and rec.match.to_act == m.to_act
    rng = random.Random(1)
    nxt = rec.match.apply(rec.match.random_action(rng))
    assert nxt.history[:-1] == m.history
    assert "[Result null]" in dump_text(m)
    assert parse_action(str(nxt.history[-1][1])) == nxt.history[-1][1]


def test_a_records_rules_are_a_preset_never_a_file_on_the_readers_machine(
    good_text: str, tmp_path: Path
) -> None:
    """docs/notation.md: ``Rules`` is a preset's name or a house rule's name, its knobs in
    ``Knobs``.  A ``Rules`` naming a ``.toml`` file was loaded from the reader's disk
    (replaying for its author only, and a way in for any file's contents)."""
    house = tmp_path / "house.toml"
    house.write_text('base = "encyclopedia-19c"\nname = "ours"\n', encoding="utf-8")
    refused(
        good_text.replace('[Rules "encyclopedia-19c"]', f'[Rules "{house}"]'),
        "unknown rule set",
    )
    record = new_match("rubicon", seed=3).to_record()
    record["rules"] = str(house)
    with pytest.raises(RecordError, match="unknown rule set"):
        Match.from_record(record)


def _declining_match(rules: str) -> Match:
    """A game where elder declines, at least once, to see younger's leftovers, and a
    sequence is declared in a suit: otherwise random."""
    for seed in range(1, 60):
        m = new_match(rules, seed=seed)
        rng = random.Random(seed)
        while not m.finished:
            legal = m.legal_actions()
            declines = [a for a in legal if str(a) == "decline"]
            m = m.apply(declines[0] if declines and m.deal is not None
                        and m.deal.to_act == 0 else rng.choice(legal))
        # one deal with both lines (the JSON record is checked deal by deal)
        for deal in dump_text(m).split("\ndeal ")[1:]:
            if "leftovers unseen" in deal and "says \"Tierce" in deal:
                return m
    raise AssertionError("no such game in 60 seeds")  # pragma: no cover


@pytest.mark.parametrize("rules", ["court-gamester-1754", "cotgrave-1662"])
def test_a_record_saying_the_rest_of_the_stock_still_replays(rules: str) -> None:
    """Before the leftovers had one name (issue 34) elder declining to see younger's
    leftovers "leaves the rest of the stock unseen": such a record reads, in text and in
    JSON, line by line (a JSON record of that time says its sequences in today's words and
    the leftovers in the earlier ones), and is written again in today's words."""
    m = _declining_match(rules)
    old_line = "elder leaves the rest of the stock unseen"
    for dump in (dump_text, dump_json):
        today = dump(m)
        assert "elder leaves younger's leftovers unseen" in today and old_line not in today
        old = today.replace("elder leaves younger's leftovers unseen", old_line)
        assert old != today
        back = loads(old).match
        same_match(back, m)
        assert dump(back) == today
        with pytest.raises(RecordError):
            loads(old.replace(old_line, "elder leaves the rest of the stock face down"))
