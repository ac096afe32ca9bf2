"""The pytest plugin `tools.icon4py_oracle` loads into icon4py's stencil tests (`-p
tools.icon4py_oracle_plugin`), beside typeinf's own plugin (whose `--typeinf-gt4py` switches the
drop-in), in each of its runs:

- `--oracle-rejections DIR` (the strict run): for each test that fails or errs with an error
  raised by typeinf's drop-in (`typeinf.gt4py.install(strict=True)` raises our type errors), the
  place it was raised (`Site`: the step of GT4Py's pass manager that ran, the function that
  called the drop-in), the program, the first line of our message, and the node the drop-in was
  given, saved to DIR for the lead to reproduce: `NNN.itir` (GT4Py's `str()` of it), `NNN.json`
  (`typeinf.gt4py.from_gt4py` and `iterir.to_json`), `NNN.offsets.json` (the offset-provider
  types it was given, beside it so that `typeinf infer DIR/NNN.json` reads them) and, where the
  node is part of a program, `NNN.program.itir` (the program the pass manager held). A node
  rejected in several tests is saved once. `DIR/rejections.json` lists them, written again at
  each rejection and at the end of the session (an empty list when there was none).
- `--oracle-warned FILE` (the `on` run): the pytest ids of the tests that emitted a
  `typeinf.gt4py.DisagreementWarning`, one a line, sorted, written at the end of the session.
- `--oracle-serial-builds`: GT4Py compiles in the calling thread (`BUILD_JOBS_MODE` serial), so
  that a program's compilation, and a rejection in it, happens in the test that compiles it:
  GT4Py's `compile()` otherwise queues it in worker threads or processes, and a test that never
  calls its program (icon4py's `--skip-stenciltest-verification`) never sees its error.
- The backend `tools.icon4py_oracle_plugin:GTFN_PASSES` (for icon4py's `--backend`): GT4Py's
  roundtrip backend (the program run as Python, no C++) with the pass-manager options of GT4Py's
  gtfn backend (`GTFNTranslationStep._preprocess_program`: temporaries extracted, reductions
  unrolled, domain sizes as its defaults leave them), so that a test types the intermediates
  gtfn would build, and still computes its result.

The report header says what the run was (`typeinf-oracle: …` lines, as `tools.gt4py_oracle`
reads them back). Runs only in icon4py's environment (Python ≥ 3.12, GT4Py installed); GT4Py and
typeinf's GT4Py package are imported only where a test needs them.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import importlib.metadata
import json
import linecache
import re
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from types import FrameType, TracebackType
from typing import Any

import pytest

from iterir.files import write_text

#: The attribute that names the gtfn-options backend, for `--backend MODULE:GTFN_PASSES`
#: (made on demand by the module's `__getattr__`: no attribute of that name may exist).
BACKEND_ATTRIBUTE = "GTFN_PASSES"
#: Its name, in GT4Py's backend object (not "gtfn…": icon4py skips tests on gtfn by name).
GTFN_PASSES_NAME = "roundtrip_with_gtfn_passes"
#: Where the drop-in is called: the `__call__` of `typeinf.gt4py.switch`'s drop-ins.
DROP_IN = ("typeinf.gt4py.switch", "__call__")
PASS_MANAGER = "gt4py.next.iterator.transforms.pass_manager"
#: The distributions whose versions the header names.
VERSIONS = ("gt4py", "icon4py-testing", "icon4py-common")
HEADER = "typeinf-oracle: "
REJECTIONS = "rejections.json"


@dataclass(frozen=True)
class Frame:
    """One frame of a traceback: its module, function, line number and source line."""

    module: str
    function: str
    lineno: int
    line: str


@dataclass(frozen=True)
class Site:
    """Where the drop-in rejected a node: `step`, the pass-manager statement that ran (its
    callee, e.g. `CollapseTuple.apply`; the caller where no pass manager ran), `where` the pass
    manager's function and line, `caller` the function that called the drop-in."""

    step: str
    where: str
    caller: str


@dataclass(frozen=True)
class Rejection:
    """One test's rejection: the program, the site, our message's first line, the error's
    class, and the stem of the files that hold the rejected node (in the rejections folder)."""

    test: str
    program: str
    step: str
    where: str
    caller: str
    message: str
    error: str
    files: str


def site_of(frames: Sequence[Frame]) -> tuple[Site, int, int | None] | None:
    """The site of a rejection in a traceback's frames (outermost first), with the index of the
    outermost drop-in frame and of the innermost pass-manager frame above it (None: no pass
    manager ran); None when no drop-in frame is among them."""
    drop_in = next(
        (i for i, f in enumerate(frames) if (f.module, f.function) == DROP_IN and i > 0), None
    )
    if drop_in is None:
        return None
    caller = frames[drop_in - 1]
    called_from = f"{caller.module}:{caller.function}"
    managers = [i for i in range(drop_in) if frames[i].module == PASS_MANAGER]
    if not managers:
        return Site(called_from, f"{caller.module}:{caller.lineno}", called_from), drop_in, None
    manager = frames[managers[-1]]
    where = f"{manager.function}:{manager.lineno}"
    return Site(step_name(manager.line), where, called_from), drop_in, managers[-1]


def step_name(line: str) -> str:
    """The callee of a pass-manager statement: `inlined = CollapseTuple.apply(` gives
    `CollapseTuple.apply`, `ir = MergeLet().visit(ir)` gives `MergeLet`; else the line."""
    match = re.match(r"\s*(?:[\w.]+\s*=\s*)?([A-Za-z_][\w.]*)\s*\(", line)
    return match.group(1) if match else line.strip()


def traceback_frames(
    error: BaseException,
) -> tuple[BaseException, list[Frame], list[FrameType]] | None:
    """The error, of `error` and its causes and contexts, whose traceback passes through the
    drop-in, and its frames, outermost first, with Python's frame objects (whose locals hold the
    node)."""
    seen: set[int] = set()
    pending: list[BaseException] = [error]
    while pending:
        current = pending.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        frames, objects = _frames(current.__traceback__)
        if any((f.module, f.function) == DROP_IN for f in frames):
            return current, frames, objects
        pending += [e for e in (current.__context__, current.__cause__) if e is not None]
    return None


def _frames(tb: TracebackType | None) -> tuple[list[Frame], list[FrameType]]:
    frames: list[Frame] = []
    objects: list[FrameType] = []
    while tb is not None:
        frame = tb.tb_frame
        module = str(frame.f_globals.get("__name__", "?"))
        line = linecache.getline(frame.f_code.co_filename, tb.tb_lineno).strip()
        frames.append(Frame(module, frame.f_code.co_name, tb.tb_lineno, line))
        objects.append(frame)
        tb = tb.tb_next
    return frames, objects


def first_line(error: BaseException) -> str:
    return next((line.strip() for line in str(error).splitlines() if line.strip()), "")


# -- the rejections folder --------------------------------------------------------------------


class Rejections:
    """The rejections of one session and the folder their nodes are saved to."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.found: list[Rejection] = []
        #: The stem of each node saved, by a digest of GT4Py's printing of it.
        self.saved: dict[str, str] = {}

    def note(self, test: str, error: BaseException) -> None:
        traced = traceback_frames(error)
        if traced is None:
            return
        raised, frames, objects = traced
        located = site_of(frames)
        if located is None:
            return
        site, drop_in, manager = located
        node = objects[drop_in].f_locals.get("node")
        options = objects[drop_in].f_locals.get("options") or {}
        program = objects[manager].f_locals.get("ir") if manager is not None else None
        name = getattr(program if program is not None else node, "id", None)
        stem = self.save(node, program, options.get("offset_provider_type"))
        self.found.append(
            Rejection(
                test,
                str(name) if name is not None else "?",
                site.step,
                site.where,
                site.caller,
                first_line(raised),
                type(raised).__name__,
                stem,
            )
        )
        self.write()  # as found: a run stopped half-way keeps what it found

    def save(self, node: Any, program: Any, offset_types: Any) -> str:
        text = str(node)
        digest = hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()
        if digest in self.saved:
            return self.saved[digest]
        stem = f"{len(self.saved) + 1:03d}"
        self.saved[digest] = stem
        self.folder.mkdir(parents=True, exist_ok=True)
        write_text(self.folder / f"{stem}.itir", text + "\n")
        if program is not None and program is not node:
            write_text(self.folder / f"{stem}.program.itir", f"{program}\n")
        for suffix, made in ((".json", _node_json), (".offsets.json", _offsets_json)):
            try:
                value = made(node if suffix == ".json" else offset_types)
            except Exception as error:  # a node ours cannot convert is itself worth the report
                value = {"not converted": f"{type(error).__name__}: {first_line(error)}"}
            if value is not None:
                write_text(self.folder / f"{stem}{suffix}", json.dumps(value, indent=1) + "\n")
        return stem

    def write(self) -> None:
        listed = [asdict(rejection) for rejection in self.found]
        self.folder.mkdir(parents=True, exist_ok=True)
        write_text(self.folder / REJECTIONS, json.dumps(listed, indent=1) + "\n")


def _node_json(node: Any) -> Any:
    iterir = importlib.import_module("iterir")
    gt4py = importlib.import_module("typeinf.gt4py")
    return iterir.to_json(gt4py.from_gt4py(node))


def _offsets_json(offset_types: Any) -> Any:
    if offset_types is None:
        return None
    corpus = importlib.import_module("tools.icon4py_corpus")
    return corpus.offset_types_json(offset_types)


def read_rejections(folder: Path) -> list[Rejection]:
    """The rejections a run saved in `folder` (`rejections.json`); ValueError if unreadable."""
    path = folder / REJECTIONS
    try:
        listed = json.loads(path.read_text(encoding="utf-8"))
        return [Rejection(**entry) for entry in listed]
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, TypeError) as error:
        raise ValueError(f"cannot read {path}: {error}") from None


# -- the gtfn-options backend -----------------------------------------------------------------


def __getattr__(name: str) -> Any:
    """`GTFN_PASSES`, made when icon4py's `--backend` first asks for it (it needs GT4Py)."""
    if name == BACKEND_ATTRIBUTE:
        return gtfn_passes_backend()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@functools.cache
def gtfn_passes_backend() -> Any:
    """GT4Py's roundtrip backend whose pass manager runs with gtfn's options."""
    dataclasses = importlib.import_module("dataclasses")
    pass_manager = importlib.import_module(PASS_MANAGER)
    roundtrip = importlib.import_module("gt4py.next.program_processors.runners.roundtrip")
    transforms = functools.partial(
        pass_manager.apply_common_transforms, extract_temporaries=True, unroll_reduce=True
    )
    executor = roundtrip.Roundtrip(transforms=transforms)
    return dataclasses.replace(roundtrip.default, name=GTFN_PASSES_NAME, executor=executor)


# -- pytest's hooks ---------------------------------------------------------------------------

_state: dict[str, Any] = {}


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("typeinf-oracle", "tools.icon4py_oracle")
    group.addoption("--oracle-rejections", metavar="DIR", help="save strict rejections here")
    group.addoption("--oracle-warned", metavar="FILE", help="list the tests that warned here")
    group.addoption(
        "--oracle-serial-builds", action="store_true", help="GT4Py compiles in the test's thread"
    )


def pytest_configure(config: pytest.Config) -> None:
    folder = config.getoption("oracle_rejections")
    _state["rejections"] = Rejections(Path(folder)) if folder else None
    warned = config.getoption("oracle_warned")
    _state["warned_file"] = Path(warned) if warned else None
    _state["warned"] = set()
    if config.getoption("oracle_serial_builds"):
        serial_builds()


def serial_builds() -> None:
    """GT4Py's compilation in the calling thread, its runner made again in that mode (typeinf's
    drop-in leaves a serial mode as it is)."""
    gt4py_config: Any = importlib.import_module("gt4py.next.config")
    gt4py_config.BUILD_JOBS_MODE = gt4py_config.BuildJobsMode.SERIAL
    importlib.import_module("gt4py.next.otf.runners").reset_default_runner()


def pytest_report_header(config: pytest.Config) -> list[str]:
    lines = [f"{name} {_version(name)}" for name in VERSIONS]
    lines.append(f"backend={config.getoption('backend', None)}")
    lines.append(f"typeinf-gt4py={config.getoption('typeinf_gt4py', None)}")
    return [HEADER + line for line in lines]


def _version(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "absent"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    yield
    rejections: Rejections | None = _state.get("rejections")
    if rejections is not None and call.excinfo is not None:
        rejections.note(item.nodeid, call.excinfo.value)


def pytest_warning_recorded(warning_message: warnings.WarningMessage, nodeid: str) -> None:
    category = warning_message.category
    if _state.get("warned_file") is not None and category.__name__ == "DisagreementWarning":
        _state["warned"].add(nodeid or "(outside a test)")


def pytest_unconfigure(config: pytest.Config) -> None:
    rejections: Rejections | None = _state.get("rejections")
    if rejections is not None:
        rejections.write()
    warned_file: Path | None = _state.get("warned_file")
    if warned_file is not None:
        warned_file.parent.mkdir(parents=True, exist_ok=True)
        write_text(warned_file, "".join(f"{test}\n" for test in sorted(_state["warned"])))
