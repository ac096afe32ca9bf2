"""The switch that makes GT4Py 1.2 use typeinf's inference for the whole process, and undoes it.

GT4Py's passes reach its inference through module attributes, read at each call: most through
the module, `inference.infer(…)` / `inference.reinfer(…)`; the pass manager through its own
name `infer` (it imports the function). `install` sets each of these attributes to ours
(`typeinf.gt4py.infer`, `reinfer`, each behind a `_DropIn`), `uninstall` puts GT4Py's back;
`installed()` does both around a `with` block, leaving the switch as it found it. Nothing else
of GT4Py's inference changes (`copy_type`, `SanitizeTypes`, the type synthesizers stay GT4Py's).

Never breaking a build: when ours rejects a node (a type error, a node it cannot convert, or a
fault of its own), the drop-in asks GT4Py's inference, which GT4Py would have called. If GT4Py
accepts the node, GT4Py's result is used and a `DisagreementWarning` says that the two
disagreed, once per program; if GT4Py rejects it too, ours is raised (it is located).
`install(strict=True)` raises ours at once instead (this project's own tests run strict).

"The whole process" is this process: GT4Py compiles programs by default in worker processes
it spawns (`config.BUILD_JOBS_MODE` "process"), which import GT4Py afresh and would use its own
inference. While installed, that mode becomes "thread" (compilation in threads of this
process, a mode GT4Py has; serial and thread modes are left as they are), and GT4Py's runner
is made again; `uninstall` restores the mode.
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from typeinf.core.errors import TypeInferenceError
from typeinf.gt4py import inference
from typeinf.gt4py.errors import DisagreementWarning

#: (module, attribute) where GT4Py's passes find its inference, and ours for it.
SITES: tuple[tuple[str, str, Callable[..., Any]], ...] = (
    ("gt4py.next.iterator.type_system.inference", "infer", inference.infer),
    ("gt4py.next.iterator.type_system.inference", "reinfer", inference.reinfer),
    ("gt4py.next.iterator.transforms.pass_manager", "infer", inference.infer),
)

#: GT4Py's own functions, by site, while ours are installed. The switch is process-wide state by
#: nature: GT4Py's module attributes are.
_SAVED: dict[tuple[str, str], Callable[..., Any]] = {}

#: Where a `DisagreementWarning` tells its reader to send the program.
REPORT = (
    "please report it to typeinf with the program (`str(program)` or its JSON) and the "
    "offset provider; `typeinf.gt4py.install(strict=True)` raises this error instead"
)


class _DropIn:
    """Ours in GT4Py's place at one site: GT4Py's own function when ours fails on a node that
    GT4Py's accepts (not `strict`), with one warning per program (module docstring)."""

    def __init__(
        self,
        ours: Callable[..., Any],
        theirs: Callable[..., Any],
        strict: bool,
        warned: set[str],
    ) -> None:
        self.ours = ours
        self.theirs = theirs
        self.strict = strict
        self.warned = warned  # the programs warned of during this installation, at any site

    def __call__(self, node: Any, **options: Any) -> Any:
        if self.strict:
            return self.ours(node, **options)
        try:
            return self.ours(node, **options)
        except Exception as ours_error:  # any fault of ours must not stop a build
            try:
                result = self.theirs(node, **options)
            except Exception as theirs_error:
                # GT4Py rejects it too: ours, which is located, unless ours is a fault of ours.
                if isinstance(ours_error, TypeInferenceError):
                    raise ours_error from None
                raise theirs_error from None
            self._warn(node, ours_error)
            return result

    def _warn(self, node: Any, error: Exception) -> None:
        program = getattr(node, "id", None)
        key = str(program) if isinstance(program, str) else str(error).partition("\n")[0]
        if key in self.warned:
            return
        self.warned.add(key)
        what = f"program `{program}`" if isinstance(program, str) else "a node"
        warnings.warn(
            f"typeinf rejected {what}, which GT4Py's own type inference accepts, so GT4Py's "
            f"types were used: {error}\n{REPORT}",
            DisagreementWarning,
            stacklevel=3,
        )


def install(*, strict: bool = False) -> None:
    """Make GT4Py's passes call typeinf's `infer` and `reinfer` (again: no effect). Where ours
    rejects a node that GT4Py's inference accepts, GT4Py's result is used with a
    `DisagreementWarning`, unless `strict`: then ours is raised."""
    if _SAVED:
        return
    warned: set[str] = set()
    for module_name, attribute, ours in SITES:
        module = importlib.import_module(module_name)
        theirs = getattr(module, attribute)
        _SAVED[module_name, attribute] = theirs
        setattr(module, attribute, _DropIn(ours, theirs, strict, warned))
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
def installed(*, strict: bool = False) -> Iterator[None]:
    """typeinf's inference inside the block (`install`'s `strict`); on leaving, the switch is as
    it was before. Installed already, it stays as it was installed."""
    was = is_installed()
    install(strict=strict)
    try:
        yield
    finally:
        if not was:
            uninstall()
