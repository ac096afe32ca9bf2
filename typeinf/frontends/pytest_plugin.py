"""A pytest plugin for IR snapshot tests in a compiler's own test suite.

    def test_lowering(typeinf_snapshot):
        typeinf_snapshot.check(lower(program))

The first check of a test compares the inferred types of the IR with the file
`__typeinf_snapshots__/<test module>.<class>.<test name>[<parameters>].types` next to the test
(later checks in the same test add `.2`, `.3`, … or use `name=`), and fails with a unified diff
when they differ. The name is the test's whole node id, escaped so that two tests never share a
file: what a file name cannot hold, `.` and `%` become `%XX` (`int/32` → `int%2F32`).
`pytest --typeinf-update` writes the files instead. Registered through the `pytest11` entry
point, so installing typeinf is enough.

`pytest --typeinf-gt4py=on` (or `strict`, or `off`) switches typeinf's drop-in for GT4Py's type
inference on for the session (`gt4py_switches`), and the session's report ends with what it did.
"""

from __future__ import annotations

import difflib
import hashlib
import os
import re
from pathlib import Path
from typing import Any

import pytest

from iterir import Node, ParseError
from iterir.files import read_text, write_text
from typeinf.core.diagnostics import Source
from typeinf.core.offsets import OffsetProvider, read_offsets
from typeinf.frontends import gt4py_switches
from typeinf.frontends.snapshots import EXPECTED_SUFFIX, expected_text
from typeinf.infer import AllowFree
from typeinf.route import route, solve_either

FOLDER = "__typeinf_snapshots__"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--typeinf-update",
        action="store_true",
        default=False,
        help="write the expected types of typeinf_snapshot checks instead of comparing",
    )
    parser.addoption(
        "--typeinf-gt4py",
        metavar="MODE",
        default=None,
        help="typeinf's drop-in for GT4Py's type inference in this session: off (GT4Py's own), "
        "on (ours, GT4Py's where they disagree, with a DisagreementWarning) or strict (ours, "
        f"its errors raised); default: as the environment variable {gt4py_switches.VARIABLE} "
        "says",
    )


#: The files `--typeinf-update` wrote in this run, each with "created" or "updated": said at
#: the end of the run (`pytest_terminal_summary`), as `typeinf snapshot update` says them.
WRITTEN = pytest.StashKey[list[tuple[str, Path]]]()


#: The drop-in's mode that `--typeinf-gt4py` gave the session (None: the option was not given).
SWITCHED = pytest.StashKey[str | None]()


def pytest_configure(config: pytest.Config) -> None:
    config.stash[WRITTEN] = []
    given: str | None = config.getoption("--typeinf-gt4py")
    mode = None
    if given is not None:
        try:
            mode = gt4py_switches.mode_of(given, "--typeinf-gt4py")
            gt4py_switches.switch(mode)
        except (gt4py_switches.ModeError, ImportError) as error:
            raise pytest.UsageError(str(error)) from None
    config.stash[SWITCHED] = mode


def pytest_unconfigure(config: pytest.Config) -> None:
    if config.stash.get(SWITCHED, None) not in (None, "off"):
        gt4py_switches.switch("off")


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    dropin = gt4py_switches.summary_text()
    if dropin is not None:
        terminalreporter.write_sep("-", "typeinf drop-in")
        terminalreporter.write_line(dropin)
        gt4py_switches.summary_reported()
    written = config.stash.get(WRITTEN, [])
    if not written:
        return
    counts = {done: sum(1 for d, _ in written if d == done) for done in ("created", "updated")}
    said = ", ".join(f"{n} {done}" for done, n in counts.items() if n)
    terminalreporter.write_sep("-", f"typeinf snapshots: {said}")
    for done, path in written:
        terminalreporter.write_line(f"{done} {path}")


class TypeinfSnapshot:
    """The `typeinf_snapshot` fixture: compares (or, with --typeinf-update, stores) IR types;
    `written` collects what it writes (`WRITTEN`)."""

    def __init__(
        self,
        folder: Path,
        stem: str,
        update: bool,
        written: list[tuple[str, Path]] | None = None,
    ) -> None:
        self.folder, self.stem, self.update = folder, stem, update
        self.written = [] if written is None else written
        self.checks = 0
        self.used: set[Path] = set()

    def path(self, name: str | None = None) -> Path:
        suffix = "." + _label(name) if name else "" if self.checks == 1 else f".{self.checks}"
        return self.folder / _short(f"{self.stem}{suffix}{EXPECTED_SUFFIX}")

    def check(
        self,
        node: Node,
        offset_provider: OffsetProvider | dict[str, Any] | None = None,
        *,
        name: str | None = None,
        allow_free: AllowFree = False,
        accept_errors: bool = False,
    ) -> None:
        """Compare the types inferred for `node` with the stored ones. `allow_free` is as for
        `typeinf.check`; `accept_errors` lets `--typeinf-update` record type errors as the
        expected output (without it, a program with type errors fails instead, its file kept)."""
        self.checks += 1
        path = self.path(name)
        if path in self.used:
            pytest.fail(
                f"{path} is already checked in this test: give another name=", pytrace=False
            )
        self.used.add(path)
        checked = solve_either(node, route(node, read_offsets(offset_provider)), allow_free)
        actual = expected_text(checked, Source())
        expected = _stored(path)
        if self.update:
            if checked.errors and not accept_errors:
                pytest.fail(
                    f"{path} is not updated: the program has type errors (pass "
                    f"accept_errors=True to record them as its expected output):\n{actual}",
                    pytrace=False,
                )
            if expected != actual:
                path.parent.mkdir(parents=True, exist_ok=True)
                write_text(path, actual)  # whole or not at all
                self.written.append(("created" if expected is None else "updated", path))
            return
        if expected is None:
            pytest.fail(
                f"no expected types in {path}: run pytest with --typeinf-update to write them",
                pytrace=False,
            )
        if expected != actual:
            diff = "".join(
                difflib.unified_diff(
                    expected.splitlines(keepends=True),
                    actual.splitlines(keepends=True),
                    f"{path} (expected)",
                    "inferred",
                )
            )
            pytest.fail(f"the inferred types differ from {path}:\n{diff}", pytrace=False)


def _stored(path: Path) -> str | None:
    """The expected types kept in `path`, None when there are none; one that cannot be read (a
    folder, a FIFO, not UTF-8, too large) fails the test, naming it."""
    if not os.path.lexists(path):
        return None
    try:
        return read_text(path)
    except ParseError as error:
        pytest.fail(str(error), pytrace=False)


_PLAIN = re.compile(r"[\w+=,-]")  # kept as they are: readable, and valid in file names everywhere
_LONGEST = 200  # bytes of a file name; most file systems take 255


def _escaped(text: str) -> str:
    """`text` with every other character (`.` and `%` among them) as `%XX` of its UTF-8 bytes,
    so that two texts are never one name."""
    return "".join(
        char
        if _PLAIN.fullmatch(char)
        else "".join(f"%{byte:02X}" for byte in char.encode("utf-8", "surrogatepass"))
        for char in text
    )


def _label(name: str) -> str:
    """A `name=` of a check as a file name part; one of digits only starts escaped, as the
    unnamed checks are numbered (`.2`)."""
    escaped = _escaped(name)
    return f"%{ord(name[0]):02X}{escaped[1:]}" if name.isascii() and name.isdigit() else escaped


def _short(filename: str) -> str:
    """`filename`, or when too long for a file system its start and a digest of the whole (`~`
    is escaped in names, so a shortened name is never another one)."""
    if len(filename.encode()) <= _LONGEST:
        return filename
    digest = hashlib.sha256(filename.encode()).hexdigest()[:16]
    return (
        filename.encode()[: _LONGEST - 40].decode(errors="ignore") + f"~{digest}{EXPECTED_SUFFIX}"
    )


def _stem(test_file: Path, node_id: str) -> str:
    """`<module>.<class>….<test>[<parameters>]` from a node id such as
    `tests/test_a.py::TestA::test_same[int/32]`: names are identifiers, joined by `.`; the
    parameters' id is escaped."""
    names, bracket, parameters = node_id.split("::", 1)[1].partition("[")
    stem = ".".join([test_file.stem, *map(_escaped, names.split("::"))])
    return f"{stem}[{_escaped(parameters.removesuffix(']'))}]" if bracket else stem


@pytest.fixture
def typeinf_snapshot(request: pytest.FixtureRequest) -> TypeinfSnapshot:
    test_file = Path(str(request.node.path))
    return TypeinfSnapshot(
        test_file.parent / FOLDER,
        _stem(test_file, request.node.nodeid),
        request.config.getoption("--typeinf-update"),
        request.config.stash.get(WRITTEN, None),
    )
