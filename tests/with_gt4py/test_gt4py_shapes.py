"""The shapes of `tests/test_gtir_gt4py_shapes.py`, built as GT4Py's nodes and typed by GT4Py's
inference and by ours through the drop-in (strict): both accept each, with equal types."""

from __future__ import annotations

import pytest
from gt4py.next.iterator.type_system import inference as theirs

import iterir
from tests.test_gtir_gt4py_shapes import IDS, PROVIDER, SHAPES
from typeinf.gt4py import infer, installed, offset_types_to_gt4py, to_gt4py


@pytest.mark.parametrize(("rule", "origin", "text", "expected"), SHAPES, ids=IDS)
def test_gt4py_and_the_drop_in_agree(rule: str, origin: str, text: str, expected: str) -> None:
    node = to_gt4py(iterir.parse(text))
    provider = offset_types_to_gt4py(PROVIDER)
    gt4pys = theirs.infer(node, offset_provider_type=provider, allow_undeclared_symbols=True)
    ours = infer(node, offset_provider_type=provider, allow_undeclared_symbols=True)
    assert ours.type == gt4pys.type
    with installed(strict=True):  # the switch too: GT4Py's name for its inference calls ours
        assert theirs.infer(node, offset_provider_type=provider).type == gt4pys.type
