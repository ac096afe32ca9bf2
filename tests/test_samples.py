"""Real GT4Py 1.0.3 output (tests/data/gt4py-ir-samples): text and JSON read, print, round-trip."""

from __future__ import annotations

import json
import re

import pytest

import iterir
from iterir import NodeTranslator, Sym
from tests.conftest import MissingTestData, load_samples

SAMPLES = load_samples()


class _WithoutAnnotations(NodeTranslator):
    """GT4Py's text does not print parameter annotations; drop them to compare with the text."""

    def visit_Sym(self, node: Sym) -> Sym:
        return Sym(node.id)


def test_the_samples_are_all_there() -> None:
    assert len(SAMPLES) == 44


@pytest.mark.parametrize("sample", SAMPLES, ids=[s["id"] for s in SAMPLES])
def test_sample_round_trips(sample: dict) -> None:
    from_json = iterir.from_json(sample["ir"])
    assert json.dumps(iterir.to_json(from_json)) == json.dumps(sample["ir"])
    from_text = iterir.parse(sample["text"], sample["id"])
    assert from_text == _WithoutAnnotations().visit(from_json)
    assert iterir.parse(iterir.pformat(from_text)) == from_text
    assert iterir.parse(iterir.pformat(from_json)) == from_json
    assert sum(1 for _ in iterir.walk(from_json)) == sample["nodes"]


def test_missing_test_data_fails_naming_the_file(tmp_path) -> None:
    missing = tmp_path / "nowhere" / "samples.jsonl"
    with pytest.raises(MissingTestData, match=f"test data missing: {re.escape(str(missing))}"):
        load_samples(missing)
