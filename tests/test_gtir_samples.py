"""Real GT4Py 1.2.3 GTIR (tests/data/gtir-samples): JSON and text read, print and round-trip.

GT4Py's text drops what `_Erased` removes, and only that: `Sym.type`, `SymRef.type`, and the
kind of a local axis (which GT4Py prints as a bare name, so it reads back as a `SymRef`).
"""

from __future__ import annotations

import json
import lzma
from pathlib import Path

import pytest

import iterir
from iterir import AxisLiteral, NodeTranslator, Sym, SymRef
from iterir.jsontext import dumps
from tests.conftest import DATA, required_file

GTIR_SAMPLES_PATH = DATA / "gtir-samples" / "samples.jsonl.xz"


def load_gtir_samples(path: Path = GTIR_SAMPLES_PATH) -> list[dict]:
    """The records of tests/data/gtir-samples (its README says where they come from)."""
    with lzma.open(required_file(path), "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


SAMPLES = load_gtir_samples()


class _Erased(NodeTranslator):
    """What GT4Py's text keeps of a node."""

    def visit_Sym(self, node: Sym) -> Sym:
        return node if node.type is None else Sym(node.id, loc=node.loc)

    def visit_SymRef(self, node: SymRef) -> SymRef:
        return node if node.type is None else SymRef(node.id, loc=node.loc)

    def visit_AxisLiteral(self, node: AxisLiteral) -> AxisLiteral | SymRef:
        return SymRef(node.value, loc=node.loc) if node.kind == "local" else node


def test_the_samples_are_all_there() -> None:
    assert len(SAMPLES) == 942
    assert sum(s["nodes"] for s in SAMPLES) == 101_698
    assert sum(s["ir"]["node"] == "Program" for s in SAMPLES) == 845


@pytest.mark.parametrize("sample", SAMPLES, ids=[s["id"] for s in SAMPLES])
def test_sample_round_trips(sample: dict) -> None:
    loaded = iterir.from_json(sample["ir"])
    assert dumps(iterir.to_json(loaded)) == dumps(sample["ir"])  # byte for byte
    assert sum(1 for _ in iterir.walk(loaded)) == sample["nodes"]
    from_text = iterir.parse(sample["text"], sample["id"])
    assert from_text == _Erased().visit(loaded)
    printed = iterir.pformat(loaded)
    assert iterir.parse(printed) == loaded  # types included
    assert iterir.pformat(iterir.parse(printed)) == printed
    assert iterir.from_json(json.loads(dumps(iterir.to_json(from_text)))) == from_text


def test_typeinf_format_reads_gtir(tmp_path: Path) -> None:
    from typeinf.frontends.cli import main

    sample = max(SAMPLES, key=lambda s: s["nodes"])
    text_file = tmp_path / "p.itir"
    text_file.write_text(sample["text"], encoding="utf-8")
    json_file = tmp_path / "p.json"
    json_file.write_text(dumps(sample["ir"]), encoding="utf-8")
    assert main(["format", str(text_file)]) == 0
    assert main(["format", str(json_file), "--to", "json"]) == 0
