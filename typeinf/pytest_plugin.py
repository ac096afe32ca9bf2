"""A pytest plugin for IR snapshot tests in a compiler's own test suite.

    def test_lowering(typeinf_snapshot):
        typeinf_snapshot.check(lower(program))

The first check of a test compares the inferred types of the IR with the file
`__typeinf_snapshots__/<test module>.<test name>.types` next to the test (later checks in the
same test add `.2`, `.3`, … or use `name=`), and fails with a unified diff when they differ.
`pytest --typeinf-update` writes the files instead. Registered through the `pytest11` entry
point, so installing typeinf is enough.
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path
from typing import Any

import pytest

from iterir import Node
from iterir.files import write_text
from typeinf.diagnostics import Source
from typeinf.offsets import OffsetProvider
from typeinf.snapshots import EXPECTED_SUFFIX, snapshot_text

FOLDER = "__typeinf_snapshots__"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--typeinf-update",
        action="store_true",
        default=False,
        help="write the expected types of typeinf_snapshot checks instead of comparing",
    )


class TypeinfSnapshot:
    """The `typeinf_snapshot` fixture: compares (or, with --typeinf-update, stores) IR types."""

    def __init__(self, folder: Path, stem: str, update: bool) -> None:
        self.folder, self.stem, self.update = folder, stem, update
        self.checks = 0

    def path(self, name: str | None = None) -> Path:
        suffix = f".{name}" if name else "" if self.checks == 1 else f".{self.checks}"
        return self.folder / f"{self.stem}{suffix}{EXPECTED_SUFFIX}"

    def check(
        self,
        node: Node,
        offset_provider: OffsetProvider | dict[str, Any] | None = None,
        *,
        name: str | None = None,
    ) -> None:
        """Compare the types inferred for `node` with the stored ones."""
        self.checks += 1
        path = self.path(_safe(name) if name else None)
        actual = snapshot_text(node, offset_provider, Source())
        if self.update:
            if not path.exists() or path.read_text(encoding="utf-8") != actual:
                path.parent.mkdir(parents=True, exist_ok=True)
                write_text(path, actual)  # whole or not at all
            return
        if not path.exists():
            pytest.fail(
                f"no expected types in {path}: run pytest with --typeinf-update to write them",
                pytrace=False,
            )
        expected = path.read_text(encoding="utf-8")
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


def _safe(text: str) -> str:
    """A file name part for a test name or label (parameters bring brackets and slashes)."""
    return re.sub(r"[^\w.-]+", "_", text).strip("_") or "_"


@pytest.fixture
def typeinf_snapshot(request: pytest.FixtureRequest) -> TypeinfSnapshot:
    test_file = Path(str(request.node.path))
    stem = f"{test_file.stem}.{_safe(request.node.name)}"
    return TypeinfSnapshot(
        test_file.parent / FOLDER, stem, request.config.getoption("--typeinf-update")
    )
