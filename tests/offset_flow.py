"""Where an offset provider goes once it is given (issue 33, item 6): every call of ours that is
handed it, in any of its forms, the files those calls are in, each entry into the code that
reads it (`typeinf.core.offsets`) from outside it, and each climb back. A climb hands it from a
dialect back to the reading code, or asks a dialect about its form. Computing an `Offsets` view
(the fencil IR's or GTIR's, once read) is counted apart from the reads.

For tests/test_read_once.py, and as a script on any checkout, which prints the figures:

    PYTHONPATH=CHECKOUT python3 -m tests.offset_flow
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

import iterir
import typeinf
from iterir.gtir_types import Dimension as GTIRDimension
from iterir.offset_types import NeighborConnectivityType
from typeinf.core.offsets import Connectivity, Dimension
from typeinf.frontends.cli import main

PACKAGE = str(Path(typeinf.__file__).parent)
EXAMPLES = Path(PACKAGE).parent / "examples"
#: The module that reads offset providers.
READER = "typeinf.core.offsets"
#: Functions of a dialect that read an offset provider (GTIR had two before issue 33).
DIALECT_READERS = frozenset({"typeinf.gtir.infer.in_gt4py_form", "typeinf.gtir.infer.offset_types"})
DIALECTS = ("typeinf.fencil.", "typeinf.gtir.")


@dataclass
class Flow:
    """What following a provider found: each call handed it (`module.function`) and the file of
    each, each entry into the reading code from outside it and each view made, and each climb
    (`caller → callee`), in order."""

    calls: list[str] = field(default_factory=list)
    files: set[str] = field(default_factory=set)
    reads: list[str] = field(default_factory=list)
    views: list[str] = field(default_factory=list)
    climbs: list[str] = field(default_factory=list)


def _an_entry(value: object) -> bool:
    return isinstance(
        value, Dimension | Connectivity | NeighborConnectivityType | GTIRDimension
    ) or (isinstance(value, dict) and ("t" in value or "type" in value))


def _carries(value: object, given: object) -> bool:
    """Whether `value` is the provider in one of its forms: as given, read (`Offsets`, on a
    checkout that has it), or a dict of offset entries (either form, objects or JSON)."""
    if value is given or type(value).__name__ == "Offsets":
        return True
    return type(value) is dict and bool(value) and all(map(_an_entry, value.values()))


def _name(frame: FrameType | None) -> tuple[str, str]:
    """The module of `frame`'s code, and its function qualified by the module ("" for none)."""
    if frame is None:
        return "", ""
    module = str(frame.f_globals.get("__name__"))
    return module, f"{module}.{frame.f_code.co_qualname}"


def _caller(frame: FrameType) -> FrameType | None:
    """The frame that called `frame`'s function, past `functools.cached_property`."""
    caller = frame.f_back
    while caller is not None and caller.f_globals.get("__name__") == "functools":
        caller = caller.f_back
    return caller


def _reading(module: str, function: str) -> bool:
    return module == READER or function in DIALECT_READERS


def follow(run: Callable[[], object], given: object) -> Flow:
    """Run `run`, following the offset provider `given` (a path, JSON or objects)."""
    flow = Flow()

    def profile(frame: FrameType, event: str, _: Any) -> None:
        if event != "call" or not frame.f_code.co_filename.startswith(PACKAGE):
            return
        code = frame.f_code
        names = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
        if not any(_carries(frame.f_locals.get(name), given) for name in names):
            return
        module, function = _name(frame)
        flow.calls.append(function)
        flow.files.add(str(Path(code.co_filename).relative_to(Path(PACKAGE).parent)))
        from_module, from_function = _name(_caller(frame))
        if _reading(module, function) and not _reading(from_module, from_function):
            views = flow.views if ".Offsets." in function else flow.reads
            views.append(function)
        if _reading(module, function) and (
            from_module.startswith(DIALECTS) or function in DIALECT_READERS
        ):
            flow.climbs.append(f"{from_function} → {function}")

    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
    return flow


def cli(*argv: str) -> None:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        main(list(argv))


def ways_in() -> dict[str, tuple[Callable[[], object], object]]:
    """The ways in measured: each runs one inference and names the provider it is given."""
    fencil = iterir.parse((EXAMPLES / "nabla.itir").read_text(encoding="utf-8"))
    gtir = iterir.parse((EXAMPLES / "gtir_vertex_sum.itir").read_text(encoding="utf-8"))
    ours_path = str(EXAMPLES / "nabla.offsets.json")
    gt4py_path = str(EXAMPLES / "gtir_vertex_sum.offsets.json")
    ours = json.loads(Path(ours_path).read_text(encoding="utf-8"))
    gt4py = json.loads(Path(gt4py_path).read_text(encoding="utf-8"))
    return {
        "typeinf.infer, fencil (nabla, JSON)": (lambda: typeinf.infer(fencil, ours), ours),
        "typeinf.infer, fencil (nabla, path)": (
            lambda: typeinf.infer(fencil, ours_path),
            ours_path,
        ),
        "typeinf.check, fencil (nabla, JSON)": (lambda: typeinf.check(fencil, ours), ours),
        "Reinference, fencil (nabla, JSON)": (
            lambda: typeinf.Reinference(ours).check(fencil),
            ours,
        ),
        "typeinf.infer, GTIR (GT4Py's JSON)": (lambda: typeinf.infer(gtir, gt4py), gt4py),
        "typeinf.infer_all, GTIR (GT4Py's JSON)": (lambda: typeinf.infer_all(gtir, gt4py), gt4py),
        "typeinf.check, GTIR (GT4Py's JSON)": (lambda: typeinf.check(gtir, gt4py), gt4py),
        "Reinference, GTIR (GT4Py's JSON)": (lambda: typeinf.Reinference(gt4py).check(gtir), gt4py),
        "command line, fencil": (
            lambda: cli("infer", str(EXAMPLES / "nabla.itir"), "--offset-provider", ours_path),
            ours_path,
        ),
        "command line, GTIR": (
            lambda: cli(
                "infer", str(EXAMPLES / "gtir_vertex_sum.itir"), "--offset-provider", gt4py_path
            ),
            gt4py_path,
        ),
    }


def report() -> str:
    lines = []
    for name, (run, given) in ways_in().items():
        flow = follow(run, given)
        lines.append(
            f"{name}: {len(flow.calls)} calls in {len(flow.files)} files, "
            f"{len(flow.reads)} reads, {len(flow.views)} views made, {len(flow.climbs)} climbs"
        )
        lines.append(f"    files: {', '.join(sorted(flow.files))}")
        lines.append(f"    reads: {', '.join(flow.reads)}; views: {', '.join(flow.views)}")
        lines.extend(f"    climb: {climb}" for climb in flow.climbs)
    return "\n".join(lines)


if __name__ == "__main__":
    print(report())
