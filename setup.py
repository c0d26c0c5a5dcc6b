"""Build piquet's compiled core, the C extension ``piquet._native`` (see
``src/piquet/native/``), with a cache shared by every checkout on the machine.

``pip install .`` / ``pip install -e .`` run this through setuptools (the metadata is in
pyproject.toml).  The built module is kept in ``$PIQUET_NATIVE_CACHE`` (default
``~/.cache/piquet/native``) under a digest of the C sources, the compiler and its flags and
the Python ABI; a build whose digest is there copies the module instead of compiling, so a
second clone on the same machine compiles nothing.  No Python file is part of the digest.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import platform
import shutil
import sys
import sysconfig
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
NATIVE = ROOT / "src" / "piquet" / "native"
FLAGS = ["-O2", "-std=gnu11", "-ffp-contract=off", "-fno-strict-aliasing", "-Wall",
         "-Wno-unused-function"]


def _sources_digest() -> str:
    spec = importlib.util.spec_from_file_location("_piquet_native_src", NATIVE / "__init__.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    digest = mod.sources_digest(NATIVE)
    assert digest is not None, f"no C sources in {NATIVE}"
    return str(digest)


SOURCES = _sources_digest()


def cache_dir() -> Path:
    base = os.environ.get("PIQUET_NATIVE_CACHE")
    if base:
        return Path(base)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "piquet" / "native"


class CachedBuildExt(build_ext):
    """build_ext that looks in the shared cache first and fills it after compiling."""

    def build_extension(self, ext: Any) -> None:
        cc = self.compiler.compiler_so if hasattr(self.compiler, "compiler_so") else []
        key = hashlib.sha256(repr((
            SOURCES, FLAGS, list(cc), sysconfig.get_config_var("EXT_SUFFIX"),
            sys.implementation.cache_tag, platform.machine(), sys.version,
        )).encode()).hexdigest()[:24]
        dest = Path(self.get_ext_fullpath(ext.name))
        cached = cache_dir() / key / dest.name
        if cached.is_file():
            dest.parent.mkdir(parents=True, exist_ok=True)
            # a new file, not the old one rewritten: a process running the old module keeps it
            tmp = dest.with_name(f".{dest.name}.{os.getpid()}")
            shutil.copyfile(cached, tmp)
            os.replace(tmp, dest)
            print(f"piquet._native: reused {cached} (no compile)")
            return
        super().build_extension(ext)
        try:
            cached.parent.mkdir(parents=True, exist_ok=True)
            tmp = cached.with_name(f".{cached.name}.{os.getpid()}")
            shutil.copyfile(dest, tmp)
            os.replace(tmp, cached)
            print(f"piquet._native: compiled, kept in {cached}")
        except OSError as exc:  # a read-only home: the build stands, uncached
            print(f"piquet._native: compiled; not cached ({exc})")


setup(
    ext_modules=[
        Extension(
            "piquet._native",
            sources=["src/piquet/native/module.c"],
            depends=[str(p.relative_to(ROOT)) for p in sorted(NATIVE.glob("*.h"))],
            extra_compile_args=FLAGS,
            define_macros=[("PQ_SOURCE_DIGEST", f'"{SOURCES}"')],
        )
    ],
    cmdclass={"build_ext": CachedBuildExt},
)
