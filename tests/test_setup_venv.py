"""``scripts/setup-venv``'s choice of interpreter, where it refuses: it names each
interpreter it tried and why it could not make ``.venv``, and leaves no ``.venv`` behind.
(Where it succeeds, every fresh clone's set-up is the test: CI and ``scripts/run``.)"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: what Debian's Python says when its python3.11-venv package is missing
DEBIAN_NO_VENV = """\
The virtual environment was not created successfully because ensurepip is not
available.  On Debian/Ubuntu systems, you need to install the python3-venv
package using the following command.

    apt install python3.11-venv

You may need to use sudo with that command.  After installing the python3-venv
package, recreate your virtual environment.

Failing command: /somewhere/.venv/bin/python3.11
"""


def _setup_in(tmp_path: Path, python: str, *, cwd: Path | None = None
              ) -> subprocess.CompletedProcess[str]:
    """``scripts/setup-venv`` copied into an empty tree at ``tmp_path``, run with
    ``PYTHON=python`` (it refuses before it installs anything)."""
    (tmp_path / "scripts").mkdir(exist_ok=True)
    shutil.copy2(ROOT / "scripts" / "setup-venv", tmp_path / "scripts" / "setup-venv")
    return subprocess.run(
        [str(tmp_path / "scripts" / "setup-venv")], cwd=cwd or tmp_path, text=True,
        capture_output=True, timeout=60, env={"PATH": "/usr/bin:/bin", "PYTHON": python},
    )


def test_an_interpreter_not_found_is_named_and_nothing_is_made(tmp_path: Path) -> None:
    done = _setup_in(tmp_path, str(tmp_path / "no-such-python"))
    assert done.returncode == 1
    assert "no Python 3.11 or newer could make .venv" in done.stderr
    assert "no-such-python: not found" in done.stderr
    assert "PYTHON=/path/to/python3" in done.stderr  # what to do about it
    assert not (tmp_path / ".venv").exists()


def test_an_interpreter_that_cannot_make_a_venv_says_what_to_install(tmp_path: Path) -> None:
    """Debian's Python without its ``python3.11-venv`` package: ``-m venv`` fails; the
    line that says what to install is passed on, and the half-made ``.venv`` removed."""
    (tmp_path / "said.txt").write_text(DEBIAN_NO_VENV)
    fake = tmp_path / "python3.11"
    fake.write_text(
        "#!/bin/sh\n"
        'if [ "$1" = "-m" ]; then mkdir -p .venv/bin; '
        f'cat {tmp_path / "said.txt"}; exit 1; fi\n'
        f'exec {sys.executable} "$@"\n'
    )
    fake.chmod(0o755)
    done = _setup_in(tmp_path, str(fake))
    assert done.returncode == 1
    assert ("python3.11: could not make .venv: its venv module is missing (as root: apt install "
            "python3.11-venv)") in done.stderr
    assert not (tmp_path / ".venv").exists()


def test_an_interpreter_too_old_is_passed_over(tmp_path: Path) -> None:
    old = tmp_path / "python3"
    old.write_text("#!/bin/sh\nexit 1\n")  # sys.version_info < (3, 11): exit status 1
    old.chmod(0o755)
    done = _setup_in(tmp_path, str(old))
    assert done.returncode == 1
    assert "python3: older than Python 3.11" in done.stderr
    assert not (tmp_path / ".venv").exists()


def test_a_relative_python_is_read_from_where_the_command_was_typed(tmp_path: Path) -> None:
    here = tmp_path / "elsewhere"
    here.mkdir()
    done = _setup_in(tmp_path, "./missing/python3", cwd=here)
    assert done.returncode == 1
    assert f"{here}/./missing/python3: not found" in done.stderr


def test_a_broken_venv_is_not_kept(tmp_path: Path) -> None:
    """A ``.venv`` whose interpreter is gone (its Python removed) is made anew, not
    patched: ``venv`` would keep its dead links."""
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    (tmp_path / ".venv" / "bin" / "python").symlink_to(tmp_path / "gone" / "python3.11")
    done = _setup_in(tmp_path, str(tmp_path / "no-such-python"))
    assert done.returncode == 1
    assert not (tmp_path / ".venv").exists()
