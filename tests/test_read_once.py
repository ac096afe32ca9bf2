"""An offset provider is read once, where it comes in, then handed down (issue 33, item 6):
followed from each way in (`tests.offset_flow`), `read_offsets` is its one reading, the view of
the dialect that types the tree is made once, and it never climbs back: no dialect reads it
again or is asked about its form. The GT4Py bridge's: tests/with_gt4py/test_read_once.py."""

from __future__ import annotations

import ast

import pytest

from tests.conftest import ROOT
from tests.offset_flow import EXAMPLES, cli, follow, ways_in

READ = ["typeinf.core.offsets.read_offsets"]


@pytest.mark.parametrize("way", list(ways_in()))
def test_each_way_in_reads_the_offset_provider_once(way: str) -> None:
    run, given = ways_in()[way]
    flow = follow(run, given)
    assert flow.reads == READ
    assert len(flow.views) == 1  # the view of the dialect that types the tree, once
    assert flow.climbs == []


def test_the_command_line_reads_its_offset_provider_once_for_every_file() -> None:
    path = str(EXAMPLES / "nabla.offsets.json")
    files = [str(EXAMPLES / f"{name}.itir") for name in ("nabla", "edge_sum", "laplacian")]
    flow = follow(lambda: cli("infer", *files, "--offset-provider", path), path)
    assert flow.reads == READ
    assert flow.climbs == []


def test_a_dialect_takes_only_the_offset_providers_values_from_the_reading_module() -> None:
    """What the fencil IR and GTIR import from `typeinf.core.offsets`: the values the fencil IR's
    rules read, never a function that reads a provider."""
    imported = {
        alias.name
        for package in ("fencil", "gtir")
        for path in sorted((ROOT / "typeinf" / package).glob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom) and node.module == "typeinf.core.offsets"
        for alias in node.names
    }
    assert imported <= {"Connectivity", "Dimension", "OffsetProvider"}


def test_the_test_of_gt4pys_form_is_written_once() -> None:
    written = [
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / "typeinf").rglob("*.py"))
        if "def in_gt4py_form(" in path.read_text(encoding="utf-8")
    ]
    assert written == ["typeinf/core/offsets.py"]
