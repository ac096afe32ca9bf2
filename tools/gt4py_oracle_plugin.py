"""The pytest plugin `tools.gt4py_oracle` loads into GT4Py's own test suite (`-p
tools.gt4py_oracle_plugin`), in both of its runs, so that both see the same tests:

- `--oracle-inference` says whose type inference GT4Py's passes call, set at `pytest_configure`
  in the main process and in each pytest-xdist worker:
  - `gt4py` (the default): GT4Py's own, left as it is;
  - `ours-strict`: typeinf's, `typeinf.gt4py.install(strict=True)`: our type errors are raised,
    never handed back to GT4Py's inference (what shows every program ours rejects);
  - `ours-default`: typeinf's as a user installs it, `typeinf.gt4py.install()`: where ours
    rejects a program that GT4Py's inference accepts, GT4Py's types are used, with a
    `typeinf.gt4py.DisagreementWarning` (what shows whether a user's tests would break).
- With `ours-default`, a `DisagreementWarning` stays a warning: the plugin adds
  `always::typeinf.gt4py.DisagreementWarning` to the `filterwarnings` of the ini file, so a
  checkout's `filterwarnings = error` cannot make it a test failure (GT4Py 1.2.1's and main's
  pyproject.toml have no `filterwarnings`; a `-W` on the command line or a test's own
  `filterwarnings` mark still come after, as pytest orders them). The drop-in warns once per
  program per installation; the plugin forgets the programs warned of before each test, so that
  each test in which ours rejects a program warns (a program compiled in one test and taken
  from GT4Py's cache in another is inferred, and warns, only in the first).
- `--oracle-warned FILE` (with `ours-default`): the ids of the tests (pytest node ids) that
  emitted a `DisagreementWarning`, one a line, sorted, written at the end of the session by the
  main process (pytest-xdist hands it its workers' warnings); an empty file when none did.
- `--oracle-backends common,roundtrip,…` keeps only the tests of those backend groups (see
  `backend_group`); the others are deselected, as `-k` would.
- One compatibility shim, for a checkout's tests newer or older than the installed GT4Py:
  where a module the tests import was renamed (`RENAMED`), the name that does not exist is
  made an alias of the one that does, before any test module is imported.

The report header says what was done, on lines starting `typeinf-oracle:` (`inference=…` names
the `install` call made), which `tools.gt4py_oracle` reads back from pytest's output.

Runs only in the GT4Py environment (Python ≥ 3.12, GT4Py installed).
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import sys
import warnings
from pathlib import Path
from types import ModuleType

import pytest

#: (the old name, the new name) of GT4Py modules renamed between the releases the oracle runs:
#: GT4Py 1.2.3 renamed `gt4py.eve.extended_typing` to `gt4py.eve.xtyping`, which the tests of
#: GT4Py's main branch from before that change still import under its old name.
RENAMED: tuple[tuple[str, str], ...] = (("gt4py.eve.extended_typing", "gt4py.eve.xtyping"),)

#: The backend groups, the substrings of a backend's dotted name that put it in one (first
#: match wins), and what `--oracle-backends` means by default.
GROUP_MARKS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("gpu", ("gpu", "cupy")),
    ("jax", ("jax",)),
    ("dace", (".runners.dace",)),
    ("gtfn", (".runners.gtfn", ".formatters.gtfn")),
    (
        "roundtrip",
        (".runners.roundtrip", ".runners.double_roundtrip", ".formatters.pretty_print", ".lisp"),
    ),
    ("embedded", ("next_tests.definitions.",)),
)
GROUPS = ("common", "embedded", "roundtrip", "gtfn", "dace", "gpu", "jax")
DEFAULT_BACKENDS = "common,embedded,roundtrip,gtfn"
#: The fixtures of GT4Py's tests whose parameter is a backend (None: embedded execution).
BACKEND_FIXTURES = ("program_processor", "program_processor_no_transforms", "exec_alloc_descriptor")

#: `--oracle-inference`'s choices: GT4Py's inference, ours strict, ours as `install()` makes it.
INFERENCES = ("gt4py", "ours-strict", "ours-default")
#: The warning the drop-in gives where it used GT4Py's types (`ours-default`), as a filter names it.
DISAGREEMENT = "typeinf.gt4py.DisagreementWarning"

_header: list[str] = []
#: With `ours-default` in the main process: where to write the ids of the tests that warned.
_warned_file: list[Path] = []
#: Those ids, as pytest records the warnings.
_warned_tests: set[str] = set()


def alias_renamed_modules() -> list[str]:
    """Make each missing name of `RENAMED` an alias of the existing one; what was aliased."""
    done = []
    for old, new in RENAMED:
        present = [name for name in (old, new) if _exists(name)]
        if len(present) != 1:
            continue  # both (nothing to do) or neither (not this GT4Py's concern)
        missing = new if present == [old] else old
        module = importlib.import_module(present[0])
        sys.modules[missing] = module
        parent, _, leaf = missing.rpartition(".")
        setattr(importlib.import_module(parent), leaf, module)
        done.append(f"{missing} -> {present[0]}")
    return done


def _exists(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ImportError:
        return False


def backend_group(params: dict[str, object], markers: set[str]) -> str:
    """The backend group of a test, from its parameters (`callspec.params`) and markers: that
    of the first parameter naming a backend, else `dace` for a test marked `uses_dace`, else
    `common` (a test not run on any backend: a pass's or a type's unit test)."""
    for name, value in params.items():
        named = _backend_name(value)
        if named is not None:
            return _group_of(named)
        if name in BACKEND_FIXTURES and (
            value is None or (isinstance(value, tuple) and bool(value) and value[0] is None)
        ):
            return (
                "embedded"  # (identity tests only: a parameter may be a field, whose `==` is not)
            )
    return "dace" if "uses_dace" in markers else "common"


def _backend_name(value: object) -> str | None:
    """The dotted name of the backend a parameter value names (GT4Py's test definitions hold
    them as `str` enums, sometimes first in a tuple), or None."""
    if isinstance(value, tuple) and value:
        value = value[0]
    if isinstance(value, str) and value.startswith(
        ("gt4py.next.program_processors.", "next_tests.definitions.")
    ):
        return str.__str__(value)
    return None


def _group_of(name: str) -> str:
    for group, marks in GROUP_MARKS:
        if any(mark in name for mark in marks):
            return group
    return "common"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("typeinf-oracle", "tools.gt4py_oracle: GT4Py's tests as the oracle")
    group.addoption(
        "--oracle-inference",
        choices=INFERENCES,
        default="gt4py",
        help="whose type inference GT4Py's passes call: GT4Py's, ours strict "
        "(typeinf.gt4py.install(strict=True)) or ours as installed by default "
        "(typeinf.gt4py.install(): GT4Py's types where ours disagrees, with a warning)",
    )
    group.addoption(
        "--oracle-warned",
        metavar="FILE",
        help="with ours-default: write the ids of the tests that emitted a DisagreementWarning",
    )
    group.addoption(
        "--oracle-backends",
        default=DEFAULT_BACKENDS,
        help=f"comma-separated backend groups to keep, of {', '.join(GROUPS)}",
    )


def pytest_configure(config: pytest.Config) -> None:
    wanted = _wanted(config)
    unknown = wanted - set(GROUPS)
    if unknown:
        raise pytest.UsageError(
            f"--oracle-backends: unknown group(s) {', '.join(sorted(unknown))}; "
            f"the groups are {', '.join(GROUPS)}"
        )
    gt4py = importlib.import_module("gt4py")
    _header.append(f"gt4py {gt4py.__version__} from {gt4py.__file__}")
    _header.extend(f"aliased {alias}" for alias in _aliased)
    _header.append(f"backends={','.join(sorted(wanted))}")
    inference = str(config.getoption("oracle_inference"))
    warned = config.getoption("oracle_warned")
    if warned and inference != "ours-default":
        raise pytest.UsageError("--oracle-warned: only ours-default gives DisagreementWarnings")
    if inference == "gt4py":
        _header.append("inference=gt4py")
        return
    _header.append(f"inference={inference} via {_install_ours(strict=inference == 'ours-strict')}")
    if inference == "ours-default":
        config.addinivalue_line("filterwarnings", f"always::{DISAGREEMENT}")
        _header.append(f"filterwarnings: always::{DISAGREEMENT}")
        if warned and not hasattr(config, "workerinput"):  # the main process, not a worker
            _warned_file.append(Path(str(warned)))


def _install_ours(*, strict: bool) -> str:
    """typeinf installed into GT4Py, strict or as by default; how `install` was called."""
    switch: ModuleType = importlib.import_module("typeinf.gt4py")
    if "strict" not in inspect.signature(switch.install).parameters:
        # A typeinf from before the fallback: its install() is strict, and has no default mode.
        if not strict:
            raise pytest.UsageError(
                f"{switch.__file__}: this typeinf's install() has no fallback to GT4Py's "
                "inference: run it as ours-strict"
            )
        switch.install()
        called = "install() (strict: this typeinf has no fallback)"
    elif strict:
        switch.install(strict=True)
        called = "install(strict=True)"
    else:
        switch.install()
        called = "install() (default: GT4Py's types where ours disagrees, with a warning)"
    if not switch.is_installed():
        raise pytest.UsageError("typeinf.gt4py.install() left typeinf uninstalled")
    return f"typeinf.gt4py.{called} from {switch.__file__}"


def _wanted(config: pytest.Config) -> set[str]:
    given = str(config.getoption("oracle_backends"))
    return {group.strip() for group in given.split(",") if group.strip()}


def pytest_report_header(config: pytest.Config) -> list[str]:
    return [f"typeinf-oracle: {line}" for line in _header]


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Forget the programs the drop-in warned of in earlier tests (`ours-default`): each test in
    which ours rejects a program warns. (The drop-ins of one installation share one set.)"""
    if item.config.getoption("oracle_inference") != "ours-default":
        return
    switch = importlib.import_module("typeinf.gt4py.switch")
    for module_name, attribute, _ours in switch.SITES:
        warned = getattr(getattr(sys.modules.get(module_name), attribute, None), "warned", None)
        if isinstance(warned, set):
            warned.clear()


def pytest_warning_recorded(
    warning_message: warnings.WarningMessage,
    when: str,
    nodeid: str,
) -> None:
    """Note the test that emitted a `DisagreementWarning` (`--oracle-warned`, main process)."""
    if not _warned_file:
        return
    category = warning_message.category
    disagreement = importlib.import_module("typeinf.gt4py").DisagreementWarning
    if isinstance(category, type) and issubclass(category, disagreement):
        _warned_tests.add(nodeid or f"({when})")


def pytest_unconfigure(config: pytest.Config) -> None:
    for path in _warned_file:
        text = "".join(f"{test}\n" for test in sorted(_warned_tests))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Keep the tests of the wanted backend groups (after GT4Py's conftest added its markers)."""
    wanted = _wanted(config)
    kept: list[pytest.Item] = []
    dropped: list[pytest.Item] = []
    for item in items:
        callspec = getattr(item, "callspec", None)
        params: dict[str, object] = dict(callspec.params) if callspec is not None else {}
        markers = {mark.name for mark in item.iter_markers()}
        (kept if backend_group(params, markers) in wanted else dropped).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


#: Done on import, which `-p` does before pytest loads GT4Py's conftest files (they import the
#: test helpers that import the renamed module), in the main process and in each worker.
_aliased = alias_renamed_modules()
