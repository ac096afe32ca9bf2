"""Switching typeinf's drop-in for GT4Py's type inference on from outside a program, with no
change to its code (docs/gt4py.md, "Switch it on"):

- the environment variable `TYPEINF_GT4PY`, for any Python process of an environment where
  typeinf is installed: the `.pth` file the wheel puts in site-packages calls `at_startup` when
  Python starts, which arms an import hook; once `gt4py.next` has been imported, the hook
  installs the drop-in (`typeinf.gt4py.install`), and when the process ends the summary is
  printed on standard error;
- pytest's `--typeinf-gt4py` option, from the plugin typeinf registers (`pytest_plugin`), for
  one test session, the summary at the end of the session's report.

Each takes `off` (GT4Py's own inference), `on` (ours, with GT4Py's as the fallback and a
`DisagreementWarning` where they disagree) or `strict` (ours, its errors raised). The option
wins over the variable for the session. This module imports neither GT4Py nor
`typeinf.gt4py` until the drop-in is installed: a process that never imports GT4Py pays only
for reading the variable.
"""

from __future__ import annotations

import atexit
import functools
import importlib.abc
import importlib.machinery
import os
import sys
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

#: The environment variable, and what it and the pytest option take.
VARIABLE = "TYPEINF_GT4PY"
MODES = ("off", "on", "strict")
#: The module after whose import the variable's drop-in is installed: GT4Py's passes and their
#: configuration are reached through it, and a program that uses GT4Py imports it first.
GT4PY = "gt4py.next"


class ModeError(ValueError):
    """A value of the variable or the option that is none of `MODES`."""


def mode_of(value: str, where: str) -> str:
    """`value`, said by `where`, as one of `MODES` (case and surrounding blanks do not count;
    an empty value is `off`, as an unset variable)."""
    mode = value.strip().lower() or "off"
    if mode not in MODES:
        raise ModeError(f"{where}={value!r} is not one of {', '.join(MODES)}")
    return mode


def switch(mode: str) -> None:
    """The drop-in as `mode` says: installed, strict or not, or GT4Py's own inference (then
    not armed either: the variable's hook is gone). Installing needs GT4Py (else ImportError,
    which says to install it)."""
    if mode == "off":
        sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, AfterImport)]
        if GT4PY not in sys.modules:  # nothing can be installed
            return
    from typeinf import gt4py  # GT4Py is imported here, not before

    gt4py.uninstall()
    if mode != "off":
        gt4py.install(strict=mode == "strict")


def summary_text() -> str | None:
    """The installed drop-in's summary (`typeinf.gt4py.Summary.text`); None when GT4Py is not
    imported or the drop-in is not installed."""
    if GT4PY not in sys.modules:
        return None
    from typeinf import gt4py

    summary = gt4py.summary()
    return None if summary is None else summary.text()


@functools.cache  # once a process: a virtual environment's `site` may read its .pth files twice
def at_startup() -> None:
    """What the `.pth` file runs when Python starts: the variable read, a bad value said on
    standard error (the drop-in then stays off), the drop-in armed for GT4Py's import."""
    try:
        mode = mode_of(os.environ.get(VARIABLE, ""), VARIABLE)
    except ModeError as error:
        print(f"typeinf: {error}; the drop-in stays off", file=sys.stderr)
        return
    if mode == "off":
        return
    if GT4PY in sys.modules:
        _installed_for_the_process(mode)
    else:
        sys.meta_path.insert(0, AfterImport(GT4PY, lambda: _installed_for_the_process(mode)))


def print_summary() -> None:
    """The summary on standard error, at the end of a process the variable switched."""
    text = summary_text()
    if text is not None:
        print(text, file=sys.stderr)


def summary_reported() -> None:
    """The summary was said already (pytest's report): the end of the process says it no more."""
    atexit.unregister(print_summary)


def _installed_for_the_process(mode: str) -> None:
    try:
        switch(mode)
    except Exception as error:  # GT4Py's own inference stays, said once
        message = f"typeinf: {VARIABLE}={mode}: the drop-in could not be installed: {error}"
        if mode == "strict":
            raise ImportError(message) from None
        print(f"{message}; GT4Py's own type inference is used", file=sys.stderr)
        return
    atexit.register(print_summary)


class AfterImport(importlib.abc.MetaPathFinder):
    """An import hook that runs `then` once the module `name` has been executed, then leaves
    `sys.meta_path`: the module is found by the finders after it, and its loader is wrapped
    for that one execution (the module keeps its own loader)."""

    def __init__(self, name: str, then: Callable[[], None]) -> None:
        self.name = name
        self.then = then

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != self.name:
            return None
        sys.meta_path.remove(self)
        for finder in sys.meta_path:
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                break
        else:
            return None
        if spec.loader is not None:
            spec.loader = ThenLoader(spec.loader, self.then)
        return spec


class ThenLoader(importlib.abc.Loader):
    """`loader`, which runs `then` after it has executed its module, and puts itself back."""

    def __init__(self, loader: importlib.abc.Loader, then: Callable[[], None]) -> None:
        self.loader = loader
        self.then = then

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self.loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        if module.__spec__ is not None:
            module.__spec__.loader = self.loader
        module.__loader__ = self.loader
        self.loader.exec_module(module)
        self.then()

    def __getattr__(self, name: str) -> Any:  # the rest of a loader's protocol, the loader's
        return getattr(self.loader, name)
