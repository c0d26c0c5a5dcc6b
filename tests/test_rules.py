"""Rule sets as data: presets, aliases, house rules from TOML, ``Rules.replace`` and its checks."""

from __future__ import annotations

import dataclasses
import inspect
import json
from pathlib import Path
from typing import Any

import pytest

from piquet.core.cards import Rank
from piquet.core.errors import PiquetError, RulesError
from piquet.core.rules import (
    DEFAULT_PRESET,
    KNOB_DOCS,
    PRESETS,
    Format,
    Leftovers,
    PlayScoring,
    PointMeasure,
    PointScoring,
    Rules,
    get_rules,
    load_rules_file,
    rules_from_mapping,
)

KNOBS = [f.name for f in dataclasses.fields(Rules)]


# ---------------------------------------------------------------------- presets


def test_the_six_presets() -> None:
    assert list(PRESETS) == [
        "cotgrave-1662",
        "cotton-1674",
        "du-coeur-1995",
        "court-gamester-1754",
        "encyclopedia-19c",
        "rubicon",
    ]
    for name, rules in PRESETS.items():
        assert rules.name == name
        assert get_rules(name) is rules
    assert DEFAULT_PRESET == "encyclopedia-19c"
    assert get_rules() is PRESETS["encyclopedia-19c"]
    assert get_rules(None) is PRESETS[DEFAULT_PRESET]


@pytest.mark.parametrize(
    ("alias", "preset"),
    [
        ("1662", "cotgrave-1662"),
        ("cotgrave", "cotgrave-1662"),
        ("1674", "cotton-1674"),
        ("cotton", "cotton-1674"),
        ("1995", "du-coeur-1995"),
        ("du-coeur", "du-coeur-1995"),
        ("1754", "court-gamester-1754"),
        ("court-gamester", "court-gamester-1754"),
        ("19c", "encyclopedia-19c"),
        ("encyclopedia", "encyclopedia-19c"),
        ("modern", "rubicon"),
        ("rubicon-piquet", "rubicon"),
        (" Rubicon ", "rubicon"),
        ("COTTON-1674", "cotton-1674"),
    ],
)
def test_aliases(alias: str, preset: str) -> None:
    assert get_rules(alias) is PRESETS[preset]


def test_unknown_preset_names_the_presets() -> None:
    with pytest.raises(RulesError) as err:
        get_rules("whist")
    assert str(err.value) == (
        "unknown rule set 'whist'; the presets are: cotgrave-1662, cotton-1674, du-coeur-1995, "
        "court-gamester-1754, encyclopedia-19c, rubicon"
    )
    assert isinstance(err.value, PiquetError)


# What RULES.md gives for each preset, knob by knob (a sample of the table's rows).
EXPECTED: dict[str, dict[str, Any]] = {
    "cotgrave-1662": dict(
        deck_size=36,
        stock_size=12,
        packet_sizes=(2, 3, 4),
        elder_max=8,
        elder_min=1,
        younger_min=1,
        elder_sees_unused=True,
        younger_leftovers=Leftovers.ELDER_NAMES_SUIT,
        both_blanche_score=True,
        point_measure=PointMeasure.PIPS,
        point_scoring=PointScoring.TENS,
        sequences_same_suit=True,
        low_rank=Rank.SIX,
        play_scoring=PlayScoring.TENTH_CARDS,
        younger_declares_after_lead=False,
        pique_elder_only=False,
        ask_missing=True,
    ),
    "cotton-1674": dict(
        deck_size=36,
        elder_max=8,
        younger_min=1,
        younger_leftovers=Leftovers.HIDDEN,
        point_measure=PointMeasure.PIPS,
        play_scoring=PlayScoring.TENTH_CARDS,
    ),
    "du-coeur-1995": dict(
        deck_size=36,
        elder_max=8,
        younger_max=8,
        younger_min=1,
        younger_leftovers=Leftovers.YOUNGER_TURNS_UP,
        both_blanche_score=False,
        sequences_same_suit=False,
        play_scoring=PlayScoring.WINNER_TENTHS,
        target=121,
    ),
    "court-gamester-1754": dict(
        deck_size=32,
        stock_size=8,
        low_rank=Rank.SEVEN,
        elder_max=5,
        younger_min=1,
        younger_leftovers=Leftovers.ELDER_NAMES_CARD,
        cut_after_game=False,
        point_measure=PointMeasure.PIPS,
        point_scoring=PointScoring.TENS,
        play_scoring=PlayScoring.TENTH_CARDS,
        lurch_below=50,
        target=100,
        show_sets=False,
    ),
    "encyclopedia-19c": dict(
        deck_size=32,
        packet_sizes=(2,),
        elder_max=5,
        younger_min=0,
        younger_leftovers=Leftovers.YOUNGER_LOOKS,
        point_measure=PointMeasure.CARDS,
        point_scoring=PointScoring.PER_CARD,
        younger_declares_after_lead=True,
        play_scoring=PlayScoring.LEADS_AND_WINS,
        pique_elder_only=True,
        target=100,
    ),
    "rubicon": dict(
        deck_size=32,
        packet_sizes=(2, 3),
        elder_max=5,
        younger_min=1,
        younger_leftovers=Leftovers.YOUNGER_LOOKS,
        point_measure=PointMeasure.CARDS,
        younger_declares_after_lead=True,
        pique_elder_only=True,
        repique_bonus=60,
        pique_bonus=30,
        default_format=Format.PARTIE,
        partie_deals=6,
        partie_tie_extra_deals=True,
    ),
}


@pytest.mark.parametrize("preset", list(PRESETS))
def test_preset_values_follow_rules_md(preset: str) -> None:
    rules = PRESETS[preset]
    for knob, value in EXPECTED[preset].items():
        assert getattr(rules, knob) == value, knob


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_shares_the_common_values(preset: str) -> None:
    r = PRESETS[preset]
    assert r.stock_size == r.deck_size - 24
    assert r.sequence_value(3) == 3 and r.sequence_value(4) == 4 and r.sequence_value(5) == 15
    assert r.sequence_value(2) == 0
    assert r.trio_value == 3 and r.quatorze_value == 14 and r.set_min_rank == Rank.TEN
    assert r.blanche_value == 10 and r.cards_bonus == 10 and r.capot_bonus == 40
    assert r.pique_threshold == 30 and r.pique_bonus == 30 and r.repique_bonus == 60
    assert r.default_format in r.formats
    assert rules_from_mapping(r.knobs(), base=r) == r
    assert r.replace() == r


def test_knob_docs_cover_every_knob() -> None:
    assert set(KNOB_DOCS) == set(KNOBS)
    assert all(text.strip() for text in KNOB_DOCS.values())
    assert list(PRESETS["rubicon"].knobs()) == KNOBS


def test_the_knobs_words_are_read_from_the_source_only_when_shown() -> None:
    """A process that never shows the rules in words (the web server, a test worker, a
    tournament) does not parse this module's source at start; the first reader does."""
    import subprocess
    import sys

    code = (
        "import piquet.web.app, piquet.core.rules.knobs as k\n"
        "print(k.KNOB_DOCS._fill is not None, k.VALUE_DOCS._fill is not None)\n"
        "import dataclasses\n"
        "print(set(k.KNOB_DOCS) == {f.name for f in dataclasses.fields(k.Rules)},"
        " k.KNOB_DOCS._fill is None)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["True", "True", "True", "True"]
    # and help(Rules) still shows every knob with each preset's value and its passage
    shown = inspect.getdoc(Rules) or ""
    assert shown.startswith("Every rule knob of Piquet.")
    assert "Knobs, with each preset's value and source:" in shown
    for knob in KNOBS[1:]:
        assert f"\n{knob}: {KNOB_DOCS[knob]}" in shown
    assert shown.count("  rubicon = ") == len(KNOBS) - 1


def test_rules_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        PRESETS["rubicon"].target = 5  # type: ignore[misc]


# ---------------------------------------------------------------------- replace and checks


def test_replace_changes_only_the_named_knobs() -> None:
    base = PRESETS["rubicon"]
    house = base.replace(target=150, younger_min=0, younger_leftovers="hidden")
    assert house.target == 150 and house.younger_min == 0
    assert house.younger_leftovers is Leftovers.HIDDEN
    for knob in KNOBS:
        if knob not in ("target", "younger_min", "younger_leftovers"):
            assert getattr(house, knob) == getattr(base, knob), knob
    assert base.target == 100


def test_replace_reads_enum_names_and_values_and_ranks() -> None:
    r = PRESETS["rubicon"]
    assert r.replace(point_measure="PIPS").point_measure is PointMeasure.PIPS
    assert r.replace(point_measure="pips").point_measure is PointMeasure.PIPS
    assert r.replace(play_scoring="tenth-cards").play_scoring is PlayScoring.TENTH_CARDS
    assert r.replace(set_min_rank="Q").set_min_rank is Rank.QUEEN
    assert r.replace(set_min_rank=12).set_min_rank is Rank.QUEEN
    assert r.replace(formats=["game"], default_format="game").formats == (Format.GAME,)
    assert r.replace(packet_sizes=[3]).packet_sizes == (3,)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"colour": 3}, r"unknown knob 'colour'; the knobs are: name, deck_size"),
        ({"target": "many"}, r'knob \'target\': "many" is not a whole number'),
        ({"target": True}, r"knob 'target': true is not a whole number"),
        ({"target": 0}, r"knob 'target': must be at least 1"),
        ({"cut_after_game": "yes"}, r'knob \'cut_after_game\': "yes" is not true or false'),
        ({"deck_size": 52}, r"knob 'deck_size': 52 is not allowed; use 32 or 36"),
        # as the rules file writes it, not a Python tuple (5,)
        ({"packet_sizes": [5]}, r"knob 'packet_sizes': \[5\]: each size must divide 12"),
        ({"packet_sizes": []}, r"knob 'packet_sizes': \[\] is not a non-empty list"),
        ({"packet_sizes": ["2"]}, r"knob 'packet_sizes': \[\"2\"\] is not a list of whole numbers"),
        # the values as the rules file (TOML) or the web's JSON writes them, not Python's
        ({"cut_after_game": 1.5}, r"knob 'cut_after_game': 1.5 is not true or false"),
        ({"target": [True, "x"]}, r'knob \'target\': \[true, "x"\] is not a whole number'),
        ({"younger_leftovers": "peek"},
         r'knob \'younger_leftovers\': "peek" is not one of: hidden'),
        ({"formats": ["game", "duel"]}, r'knob \'formats\': "duel" is not one of: game, partie'),
        ({"default_format": "pool"}, r"knob 'default_format': pool is not among formats"),
        ({"set_min_rank": 5}, r"knob 'set_min_rank': 5 is not a rank"),
        ({"set_min_rank": "6"}, r"knob 'set_min_rank': 6 is not in a 32-card pack"),
        ({"elder_max": 8}, r"knob 'elder_max': 8: must be 1 to 7 with a stock of 8"),
        ({"elder_min": 6}, r"knob 'elder_min': 6: must be 0 to elder_max"),
        ({"younger_min": 4}, r"knob 'younger_min': 4: must be 0 to 3"),
        ({"partie_deals": 5}, r"knob 'partie_deals': 5: must be a positive even number"),
        ({"capot_bonus": -1}, r"knob 'capot_bonus': must not be negative"),
        ({"sequence_values": [1] * 8}, r"knob 'sequence_values': give 1 to 7 values"),
        ({"name": "  "}, r'knob \'name\': "  " is not a non-empty string'),
    ],
)
def test_bad_knobs_are_refused_naming_the_knob(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        PRESETS["rubicon"].replace(**changes)


def test_rules_constructor_checks_too() -> None:
    with pytest.raises(RulesError, match="deck_size"):
        Rules(deck_size=33)


def test_rules_from_mapping_defaults_to_the_default_preset() -> None:
    r = rules_from_mapping({"target": 120})
    assert r.target == 120
    assert r.younger_leftovers is PRESETS[DEFAULT_PRESET].younger_leftovers


# ---------------------------------------------------------------------- TOML house rules


def _write(tmp_path: Path, text: str, name: str = "house.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_toml_knobs_at_top_level(tmp_path: Path) -> None:
    path = _write(tmp_path, 'base = "rubicon"\ntarget = 150\nyounger_min = 0\n')
    r = load_rules_file(path)
    assert r.target == 150 and r.younger_min == 0
    assert r.name == "house"
    assert r.replace(name="rubicon", target=100, younger_min=1) == PRESETS["rubicon"]


def test_toml_knobs_under_a_knobs_table(tmp_path: Path) -> None:
    text = (
        'name = "our-table"\nbase = "1754"\ntarget = 150\n'
        '[knobs]\nyounger_leftovers = "hidden"\nset_min_rank = "J"\nformats = ["game"]\n'
    )
    r = load_rules_file(_write(tmp_path, text))
    assert r.name == "our-table"
    assert r.target == 150
    assert r.younger_leftovers is Leftovers.HIDDEN
    assert r.set_min_rank is Rank.JACK
    assert r.formats == (Format.GAME,)
    assert r.deck_size == 32 and r.lurch_below == 50  # from the base


def test_get_rules_loads_a_toml_path(tmp_path: Path) -> None:
    path = _write(tmp_path, 'base = "cotton"\ntarget = 101\n', "ours.toml")
    r = get_rules(str(path))
    assert r.name == "ours" and r.target == 101 and r.deck_size == 36


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("target = 150\n", r"must say which preset it starts from, e.g. base = \"rubicon\""),
        ("base = 3\n", r"base must be a preset name"),
        ('base = "whist"\n', r"unknown rule set 'whist'; the presets are"),
        ('base = "rubicon"\nknobs = 3\n', r"\[knobs\] must be a table"),
        ('base = "rubicon"\ntarget = \n', r"is not valid TOML"),
        ('base = "rubicon"\ncolour = "red"\n', r"unknown knob 'colour'"),
        ('base = "rubicon"\n[knobs]\ncolour = "red"\n', r"unknown knob 'colour'"),
        ('base = "rubicon"\ntarget = "high"\n', r'knob \'target\': "high" is not a whole number'),
        ('base = "rubicon"\n[knobs]\nelder_max = 9\n', r"knob 'elder_max': 9: must be 1 to 7"),
        ('base = "rubicon"\nyounger_leftovers = 1\n', r"knob 'younger_leftovers': 1 is not one"),
    ],
)
def test_bad_toml_is_refused_with_a_message(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        load_rules_file(_write(tmp_path, text))


def test_missing_toml_file(tmp_path: Path) -> None:
    with pytest.raises(RulesError, match="cannot read rule file"):
        load_rules_file(tmp_path / "nowhere.toml")


def test_toml_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin.toml"
    path.write_bytes(b'base = "rubicon"\nname = "caf\xe9"\n')
    with pytest.raises(RulesError, match="is not valid TOML"):
        load_rules_file(path)


def test_piquet_rules_house_file_cites_the_base_presets_source_for_unchanged_knobs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 12: "piquet rules house.toml (base rubicon) cites unchanged knobs as 'house rule
    (same as court-gamester-1754: ...)'": an unchanged knob cites its base preset's source."""
    from piquet.cli import main
    from piquet.core.sources import citation

    path = _write(tmp_path, 'base = "rubicon"\ntarget = 150\nyounger_min = 0\n')
    assert main(["rules", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["name"] == "house" and data["base"] == "rubicon"
    knobs = data["knobs"]
    for knob, entry in knobs.items():
        if knob in ("target", "younger_min"):
            assert entry["source"].startswith("house rule, changed from rubicon's "), knob
        else:
            assert entry["source"] == citation("rubicon", knob), knob
    assert knobs["target"]["source"] == "house rule, changed from rubicon's 100"
    assert main(["rules", str(path)]) == 0
    out = capsys.readouterr().out
    assert "house rules on rubicon" in out and "same as court-gamester-1754" not in out


@pytest.mark.parametrize(
    ("text", "file", "said"),
    [
        ('name = "rubicon"\nbase = "1754"\ntarget = 150\n', "house.toml", "is named 'rubicon'"),
        ('base = "19c"\n[knobs]\nname = "Modern"\n', "house.toml", "is named 'Modern'"),
        ('base = "rubicon"\ntarget = 150\n', "1754.toml", "takes its name from the file: '1754'"),
    ],
)
def test_a_house_rule_may_not_take_a_presets_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, file: str, said: str
) -> None:
    """Fault 19: a house rule named "rubicon" was played and reported as rubicon.  Refused,
    naming every name that is taken (the presets and their aliases)."""
    from piquet.cli import main

    path = _write(tmp_path, text, file)
    with pytest.raises(RulesError, match="a preset's name") as info:
        load_rules_file(path)
    message = str(info.value)
    assert said in message and 'name = "our-table"' in message
    for taken in ("encyclopedia-19c", "rubicon", "1754", "modern", "rubicon-piquet"):
        assert taken in message.rpartition(" take ")[2]
    assert main(["rules", str(path), "--json"]) == 2
    captured = capsys.readouterr()
    assert "a preset's name" in captured.err and not captured.out
    assert "Traceback" not in captured.err


def test_every_named_choice_has_words_and_value_text_uses_them() -> None:
    from piquet.core.rules import CHOICE_ENUMS, VALUE_DOCS, Format, value_text

    for cls in CHOICE_ENUMS:
        for member in cls:
            assert VALUE_DOCS[member].strip(), member
            assert value_text(member) == VALUE_DOCS[member].rstrip(".")
    assert value_text(True) == "yes" and value_text(False) == "no"
    assert value_text(Rank.TEN) == "ten" and value_text((2, 3)) == "2, 3"
    assert value_text((Format.GAME,)) == VALUE_DOCS[Format.GAME].rstrip(".")


def test_a_house_rule_starts_from_a_preset_never_another_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A ``base`` naming a rule file (itself, or one leading back to it) recursed until
    Python gave up, a traceback in every command: ``base`` is a preset, as the file's
    own error said."""
    from piquet.cli import main

    own = tmp_path / "self.toml"
    own.write_text(f'base = "{own}"\nname = "selfy"\n', encoding="utf-8")
    a, b = tmp_path / "a.toml", tmp_path / "b.toml"
    a.write_text(f'base = "{b}"\nname = "a"\n', encoding="utf-8")
    b.write_text(f'base = "{a}"\nname = "b"\n', encoding="utf-8")
    for path in (own, a):
        with pytest.raises(RulesError, match="base must be a preset name, one of cotgrave-1662"):
            load_rules_file(path)
        assert main(["rules", str(path)]) == 2
        err = capsys.readouterr().err
        assert "base must be a preset name" in err and "Traceback" not in err


@pytest.mark.parametrize(
    "name", ["\x1b]0;pwned\x07\x1b[2J", "two\nlines", "bell\x07", "\u202eevil", "x" * 101]
)
def test_a_rule_sets_name_is_one_short_line_of_printable_text(tmp_path: Path, name: str) -> None:
    """The name is printed by every table and record: a terminal's escape sequences in a
    house rule's name (or a record's) reached the terminal as they were.  Checked however
    the rule set is made (a file, knobs, ``Rules`` itself)."""
    path = tmp_path / "house.toml"
    path.write_text(f'base = "rubicon"\nname = {json.dumps(name)}\n', encoding="utf-8")
    with pytest.raises(RulesError, match="knob 'name'"):
        load_rules_file(path)
    with pytest.raises(RulesError, match="knob 'name'"):
        rules_from_mapping({"name": name}, base=get_rules("rubicon"))


def test_a_name_may_hold_any_text_of_one_line(tmp_path: Path) -> None:
    """Letters of any script, a no-break space, a long name: still names."""
    import dataclasses as dc

    for name in ("Club de l\u2019Oise", "a\u00a0b", "Piquet à la Cour", "x" * 100):
        assert rules_from_mapping({"name": name}, base=get_rules("rubicon")).name == name
    with pytest.raises(RulesError, match="knob 'name'"):
        dc.replace(get_rules("rubicon"), name="bad\x1b[2J")
    odd = tmp_path / "bad\x07name.toml"
    odd.write_text('base = "rubicon"\n', encoding="utf-8")
    with pytest.raises(RulesError, match="takes its name from the file"):
        load_rules_file(odd)
