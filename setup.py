"""Builds Truco Arena, compiling the rules engine and the sample bots' search with mypyc where it can.

The engine (``arena/engine``, but for ``options.py``) and the sample bots'
search modules (``SEARCH``: the heuristic policy, the world sampler, the
simulation search and the yardstick bot) are strict, typed Python, and mypyc
compiles that same source to C extensions that run random play about twice
as fast and a search about three times. Their classes are marked
``mypyc_attr(allow_interpreted_subclasses=True)``, so a bot of one's own may
still subclass them. The compiled build is optional and all or nothing:

* ``TRUCO_ARENA_COMPILE`` unset: compile for a wheel or a plain ``pip install .``
  when mypyc and a C compiler work, and install pure Python otherwise. An
  editable install (``pip install -e .``) stays pure Python, so that an edit of
  the engine takes effect without a rebuild.
* ``TRUCO_ARENA_COMPILE=1``: compile, and fail the install if that fails.
* ``TRUCO_ARENA_COMPILE=0``: pure Python.

``truco-arena --version`` says which build runs. ``options.py`` stays
interpreted: compiled, a wrongly typed option would raise ``TypeError`` from the
generated code before the module's own checks could raise ``OptionsError``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

ENGINE = Path("arena") / "engine"
INTERPRETED = {"options.py"}
SEARCH = ("heuristic.py", "worlds.py", "simulation.py", "yardstick.py")  # in sample_bots/


def _mode() -> str:
    """``"force"``, ``"off"`` or ``"auto"``, from ``TRUCO_ARENA_COMPILE``."""
    value = os.environ.get("TRUCO_ARENA_COMPILE", "").strip().lower()
    if value in ("", "auto"):
        return "auto"
    if value in ("1", "yes", "true", "on"):
        return "force"
    if value in ("0", "no", "false", "off"):
        return "off"
    sys.exit(f"error: TRUCO_ARENA_COMPILE={value!r}: use 1 to compile the engine or 0 for pure Python")


def _building_binaries() -> bool:
    """Whether this call builds code (a wheel, an install), not only metadata
    or an editable install: mypyc's work is wasted on the others."""
    commands = set(sys.argv[1:])
    if "editable_wheel" in commands:
        return _mode() == "force"
    return bool(commands & {"bdist_wheel", "build", "build_ext", "install"})


class AllOrNothing(build_ext):
    """build_ext that, unless the compiled build is forced, falls back to pure
    Python when any extension fails to build: the ``.py`` files are installed
    either way, and no half-compiled engine is left behind."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # a missing compiler or header: any failure means pure Python
            if _mode() == "force":
                raise
            for output in self.get_outputs():
                Path(output).unlink(missing_ok=True)
            print(f"warning: the engine could not be compiled ({exc}); installing pure Python", file=sys.stderr)


def _extensions() -> list[Any]:
    if _mode() == "off" or not _building_binaries():
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        if _mode() == "force":
            raise
        print("warning: mypyc is not available; installing pure Python", file=sys.stderr)
        return []
    sources = sorted(str(p) for p in ENGINE.glob("*.py") if p.name not in INTERPRETED)
    sources += [str(Path("sample_bots") / name) for name in SEARCH]
    try:
        return list(mypycify(["--strict", *sources], opt_level="3"))
    except Exception as exc:  # a type error mypyc refuses: still installable as Python
        if _mode() == "force":
            raise
        print(f"warning: mypyc refused the engine ({exc}); installing pure Python", file=sys.stderr)
        return []


setup(ext_modules=_extensions(), cmdclass={"build_ext": AllOrNothing})
