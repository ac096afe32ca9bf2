"""The switch that makes GT4Py 1.2.3 use typeinf's inference for the whole process, and undoes it.

GT4Py's passes reach its inference through module attributes, read at each call: most through
the module, `inference.infer(…)` / `inference.reinfer(…)`; the pass manager through its own
name `infer` (it imports the function). `install` sets each of these attributes to ours
(`typeinf.gt4py.infer`, `reinfer`), `uninstall` puts GT4Py's back; `installed()` does both
around a `with` block, leaving the switch as it found it. Nothing else of GT4Py's inference
changes (`copy_type`, `SanitizeTypes`, the type synthesizers stay GT4Py's).

"The whole process" is this process: GT4Py compiles programs by default in worker processes
it spawns (`config.BUILD_JOBS_MODE` "process"), which import GT4Py afresh and would use its own
inference. While installed, that mode becomes "thread" (compilation in threads of this
process, a mode GT4Py has; serial and thread modes are left as they are), and GT4Py's runner
is made again; `uninstall` restores the mode.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from typeinf.gt4py import inference

#: (module, attribute) where GT4Py's passes find its inference, and ours for it.
SITES: tuple[tuple[str, str, Callable[..., Any]], ...] = (
    ("gt4py.next.iterator.type_system.inference", "infer", inference.infer),
    ("gt4py.next.iterator.type_system.inference", "reinfer", inference.reinfer),
    ("gt4py.next.iterator.transforms.pass_manager", "infer", inference.infer),
)

#: GT4Py's own functions, by site, while ours are installed.
_SAVED: dict[tuple[str, str], Callable[..., Any]] = {}


def install() -> None:
    """Make GT4Py's passes call typeinf's `infer` and `reinfer` (again: no effect)."""
    if _SAVED:
        return
    for module_name, attribute, ours in SITES:
        module = importlib.import_module(module_name)
        _SAVED[module_name, attribute] = getattr(module, attribute)
        setattr(module, attribute, ours)
    config = importlib.import_module("gt4py.next.config")
    if config.BUILD_JOBS_MODE is config.BuildJobsMode.PROCESS:
        _SAVED[config.__name__, "BUILD_JOBS_MODE"] = config.BUILD_JOBS_MODE
        setattr(config, "BUILD_JOBS_MODE", config.BuildJobsMode.THREAD)  # noqa: B010
        _new_runner()


def uninstall() -> None:
    """Give GT4Py its own inference back (not installed: no effect)."""
    for (module_name, attribute), theirs in _SAVED.items():
        setattr(importlib.import_module(module_name), attribute, theirs)
    if ("gt4py.next.config", "BUILD_JOBS_MODE") in _SAVED:
        _new_runner()
    _SAVED.clear()


def _new_runner() -> None:
    """GT4Py's compilation runner made again, in the mode its configuration now says."""
    importlib.import_module("gt4py.next.otf.runners").reset_default_runner()


def is_installed() -> bool:
    return bool(_SAVED)


@contextmanager
def installed() -> Iterator[None]:
    """typeinf's inference inside the block; on leaving, the switch is as it was before."""
    was = is_installed()
    install()
    try:
        yield
    finally:
        if not was:
            uninstall()
