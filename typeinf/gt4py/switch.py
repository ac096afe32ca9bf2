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

What one installation keeps (its policy, the programs it warned of, what its `infer` calls reuse:
`typeinf.gt4py.Reuse`, and the build mode below) is its drop-ins', shared by them and by nobody
else: uninstalled, it goes with them, and the next `install` starts afresh. Whether ours is
installed is read from GT4Py's attributes themselves; the drop-in at a site holds GT4Py's
function it replaced.

"The whole process" is this process: GT4Py compiles programs by default in worker processes
it spawns (`config.BUILD_JOBS_MODE` "process"), which import GT4Py afresh and would use its own
inference. While installed, that mode becomes "thread" (compilation in threads of this
process, a mode GT4Py has; serial and thread modes are left as they are), and GT4Py's runner
is made again; `uninstall` restores the mode.
"""

from __future__ import annotations

import importlib
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
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

#: Where a `DisagreementWarning` tells its reader to send the program.
REPORT = (
    "please report it to typeinf with the program (`str(program)` or its JSON) and the "
    "offset provider; `typeinf.gt4py.install(strict=True)` raises this error instead"
)


@dataclass(frozen=True)
class Summary:
    """What the drop-ins of one installation did so far: the calls of each of ours (`infer`,
    `reinfer`), the seconds spent in them (wall clock, GT4Py's own inference included where
    the fallback asked it), and each `DisagreementWarning` as (the program, the first line of
    our message), in the order they were raised."""

    strict: bool
    calls: tuple[tuple[str, int], ...]
    seconds: float
    disagreements: tuple[tuple[str, str], ...]

    def text(self) -> str:
        """The summary as the pytest option and the environment variable print it."""
        mode = "strict" if self.strict else "on, with GT4Py's inference as the fallback"
        calls = ", ".join(f"{count} of `{name}`" for name, count in self.calls) or "none"
        lines = [
            f"typeinf's drop-in for GT4Py's type inference ({mode}):",
            f"  calls: {calls}; {self.seconds:.3f} s in inference",
            f"  DisagreementWarnings: {len(self.disagreements)}",
        ]
        lines += [f"    {program}: {first}" for program, first in self.disagreements]
        return "\n".join(lines)


class _Installation:
    """What the drop-ins of one `install` share: `strict`, the programs warned of (at any
    site), what their `infer` calls reuse, GT4Py's build mode that `install` replaced (None: it
    left the mode as it was), and what `summary` reports (counted under `lock`: GT4Py may call
    the drop-ins from several threads)."""

    __slots__ = (
        "build_mode",
        "calls",
        "disagreements",
        "lock",
        "reuse",
        "seconds",
        "strict",
        "warned",
    )

    def __init__(self, strict: bool) -> None:
        self.strict = strict
        self.warned: set[str] = set()
        self.reuse = inference.Reuse()
        self.build_mode: Any = None
        self.lock = threading.Lock()
        self.calls: dict[str, int] = {}
        self.seconds = 0.0
        self.disagreements: list[tuple[str, str]] = []

    def counted(self, name: str, seconds: float) -> None:
        with self.lock:
            self.calls[name] = self.calls.get(name, 0) + 1
            self.seconds += seconds

    def summary(self) -> Summary:
        with self.lock:
            return Summary(
                self.strict,
                tuple(sorted(self.calls.items())),
                self.seconds,
                tuple(self.disagreements),
            )


class _DropIn:
    """Ours in GT4Py's place at one site: GT4Py's own function when ours fails on a node that
    GT4Py's accepts (not `strict`), with one warning per program (module docstring)."""

    def __init__(
        self, ours: Callable[..., Any], theirs: Callable[..., Any], installation: _Installation
    ) -> None:
        self.ours = ours
        self.theirs = theirs
        self.installation = installation
        #: Ours with what it is given besides GT4Py's arguments (`infer`: the reuse).
        self.mine: Callable[..., Any] = ours
        if ours is inference.infer:
            self.mine = partial(ours, reuse=installation.reuse)

    def __call__(self, node: Any, **options: Any) -> Any:
        start = time.perf_counter()
        try:
            return self._called(node, options)
        finally:
            self.installation.counted(self.ours.__name__, time.perf_counter() - start)

    def _called(self, node: Any, options: dict[str, Any]) -> Any:
        if self.installation.strict:
            return self.mine(node, **options)
        try:
            return self.mine(node, **options)
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
        first_line = str(error).partition("\n")[0]
        key = program if isinstance(program, str) else first_line
        what = f"program `{program}`" if isinstance(program, str) else "a node"
        installation = self.installation
        with installation.lock:
            if key in installation.warned:
                return
            installation.warned.add(key)
            installation.disagreements.append((what, first_line))
        warnings.warn(
            f"typeinf rejected {what}, which GT4Py's own type inference accepts, so GT4Py's "
            f"types were used: {error}\n{REPORT}",
            DisagreementWarning,
            stacklevel=4,  # GT4Py's call of the drop-in
        )


def install(*, strict: bool = False) -> None:
    """Make GT4Py's passes call typeinf's `infer` and `reinfer` (again: no effect). Where ours
    rejects a node that GT4Py's inference accepts, GT4Py's result is used with a
    `DisagreementWarning`, unless `strict`: then ours is raised."""
    if is_installed():
        return
    installation = _Installation(strict)
    for module_name, attribute, ours in SITES:
        module = importlib.import_module(module_name)
        setattr(module, attribute, _DropIn(ours, getattr(module, attribute), installation))
    config = importlib.import_module("gt4py.next.config")
    if config.BUILD_JOBS_MODE is config.BuildJobsMode.PROCESS:
        installation.build_mode = config.BUILD_JOBS_MODE
        setattr(config, "BUILD_JOBS_MODE", config.BuildJobsMode.THREAD)  # noqa: B010
        _new_runner()


def uninstall() -> None:
    """Give GT4Py its own inference back (not installed: no effect)."""
    build_mode = None
    for module_name, attribute, _ in SITES:
        module = importlib.import_module(module_name)
        drop_in = getattr(module, attribute)
        if isinstance(drop_in, _DropIn):
            setattr(module, attribute, drop_in.theirs)
            build_mode = drop_in.installation.build_mode
    if build_mode is not None:
        config = importlib.import_module("gt4py.next.config")
        setattr(config, "BUILD_JOBS_MODE", build_mode)  # noqa: B010
        _new_runner()


def _new_runner() -> None:
    """GT4Py's compilation runner made again, in the mode its configuration now says."""
    importlib.import_module("gt4py.next.otf.runners").reset_default_runner()


def is_installed() -> bool:
    """Whether one of GT4Py's sites calls ours."""
    return _installation() is not None


def summary() -> Summary | None:
    """What the drop-ins installed now did since `install` (None: not installed)."""
    installation = _installation()
    return None if installation is None else installation.summary()


def _installation() -> _Installation | None:
    for module, attribute, _ in SITES:
        drop_in = getattr(importlib.import_module(module), attribute)
        if isinstance(drop_in, _DropIn):
            return drop_in.installation
    return None


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
