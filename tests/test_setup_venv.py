"""``scripts/setup-venv``'s choice of interpreter, where it refuses: it says which
interpreters it tried and why none could make ``.venv``, and leaves no ``.venv`` behind.
(Where it succeeds, every fresh clone's set-up is the test: CI and ``scripts/run``.)"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _setup_in(tmp_path: Path, python: str) -> subprocess.CompletedProcess[str]:
    """``scripts/setup-venv`` copied into an empty tree at ``tmp_path``, run with
    ``PYTHON=python`` (it refuses before it installs anything)."""
    (tmp_path / "scripts").mkdir()
    shutil.copy2(ROOT / "scripts" / "setup-venv", tmp_path / "scripts" / "setup-venv")
    return subprocess.run(
        [str(tmp_path / "scripts" / "setup-venv")], cwd=tmp_path, text=True,
        capture_output=True, timeout=60, env={"PATH": "/usr/bin:/bin", "PYTHON": python},
    )


def test_an_interpreter_not_found_is_named_and_nothing_is_made(tmp_path: Path) -> None:
    done = _setup_in(tmp_path, str(tmp_path / "no-such-python"))
    assert done.returncode == 1
    assert "no Python 3.11 or newer could make .venv" in done.stderr
    assert "no-such-python was found" in done.stderr
    assert "PYTHON=/path/to/python3" in done.stderr  # what to do about it
    assert not (tmp_path / ".venv").exists()


def test_an_interpreter_that_cannot_make_a_venv_says_why(tmp_path: Path) -> None:
    """Debian's Python without its ``python3.11-venv`` package: ``-m venv`` fails; the
    last line of what it said is passed on, and the half-made ``.venv`` removed."""
    fake = tmp_path / "python3.11"
    fake.write_text(
        "#!/bin/sh\n"
        'if [ "$1" = "-m" ]; then mkdir -p .venv/bin; '
        'echo "Error: ensurepip is not available" >&2; exit 1; fi\n'
        f'exec {sys.executable} "$@"\n'
    )
    fake.chmod(0o755)
    done = _setup_in(tmp_path, str(fake))
    assert done.returncode == 1
    assert "could not make .venv: Error: ensurepip is not available" in done.stderr
    assert not (tmp_path / ".venv").exists()


def test_an_interpreter_too_old_is_passed_over(tmp_path: Path) -> None:
    old = tmp_path / "python3"
    old.write_text("#!/bin/sh\nexit 1\n")  # sys.version_info < (3, 11): exit status 1
    old.chmod(0o755)
    done = _setup_in(tmp_path, str(old))
    assert done.returncode == 1
    assert "is older than Python 3.11" in done.stderr
    assert not (tmp_path / ".venv").exists()
