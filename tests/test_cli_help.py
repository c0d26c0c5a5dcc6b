"""Every command's --help reads as written: no format escapes leak into what the user sees."""

from __future__ import annotations

import argparse

from piquet.cli import build_parser, command_names


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("piquet has no commands")


def test_every_commands_help_prints_no_escaped_percent_sign() -> None:
    parser = build_parser()
    subs = _subparsers(parser)
    assert sorted(subs) == sorted(command_names())
    for name, sub in subs.items():
        text = sub.format_help()
        assert "%%" not in text and "%(" not in text, f"piquet {name} --help: {text}"
    assert "%%" not in parser.format_help()


def test_advise_help_says_the_interval_once() -> None:
    text = _subparsers(build_parser())["advise"].format_help()
    assert "paired 95% interval" in " ".join(text.split())
