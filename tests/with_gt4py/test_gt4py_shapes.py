"""The shapes of `tests/test_gtir_gt4py_shapes.py`, built as GT4Py's nodes and typed by GT4Py's
inference and by ours through the drop-in (strict): both accept each, with equal types (but for
the two of GT4Py 1.2.3's list promotion, which GT4Py's inference refuses before 1.2.3)."""

from __future__ import annotations

import pytest
from gt4py import next as gtx
from gt4py.next.iterator.ir_utils import ir_makers as im
from gt4py.next.iterator.type_system import inference as theirs
from gt4py.next.type_system import type_specifications as ts

import iterir
from tests.test_gtir_gt4py_shapes import IDS, PROVIDER, SHAPES
from tests.with_gt4py.versions import PROMOTES_LISTS
from typeinf.gt4py import infer, installed, offset_types_to_gt4py, to_gt4py


@pytest.mark.parametrize(("rule", "origin", "text", "expected"), SHAPES, ids=IDS)
def test_gt4py_and_the_drop_in_agree(rule: str, origin: str, text: str, expected: str) -> None:
    node = to_gt4py(iterir.parse(text))
    provider = offset_types_to_gt4py(PROVIDER)
    ours = infer(node, offset_provider_type=provider, allow_undeclared_symbols=True)
    if "list promotion" in origin and not PROMOTES_LISTS:
        # GT4Py before 1.2.3 promotes no lists, and its inference refuses these two shapes;
        # ours types them on every release as 1.2.3's does (tests/with_gt4py/test_versions.py
        # compares the two on each release).
        with pytest.raises(AssertionError):
            theirs.infer(node, offset_provider_type=provider, allow_undeclared_symbols=True)
        assert "DeferredType" not in repr(ours.type)
        gt4pys = ours
    else:
        gt4pys = theirs.infer(node, offset_provider_type=provider, allow_undeclared_symbols=True)
    assert ours.type == gt4pys.type
    with installed(strict=True):  # the switch too: GT4Py's name for its inference calls ours
        assert theirs.infer(node, offset_provider_type=provider).type == gt4pys.type


def test_an_offset_provider_entry_that_is_no_offset_type_is_left_out_where_unused() -> None:
    """GT4Py's own tests pass a `FieldOffset` as an offset-provider type; GT4Py reads an entry
    only where a program shifts by it, and so does the drop-in."""
    vertex, v2e = gtx.Dimension("Vertex"), gtx.Dimension("V2E", gtx.DimensionKind.LOCAL)
    provider = {"V2E": gtx.FieldOffset("V2E", source=gtx.Dimension("Edge"), target=(vertex, v2e))}
    field = ts.FieldType(dims=[vertex, v2e], dtype=ts.ScalarType(kind=ts.ScalarKind.FLOAT64))
    node = im.as_fieldop(im.lambda_("it")(im.deref("it")))(im.ref("inp", field))
    expected = theirs.infer(node, offset_provider_type=provider, allow_undeclared_symbols=True)
    ours = infer(node, offset_provider_type=provider, allow_undeclared_symbols=True)
    assert ours.type == expected.type


def test_a_function_type_with_keyword_parameters_is_an_unknown_to_the_drop_in() -> None:
    deferred = ts.DeferredType(constraint=None)
    opaque = ts.FunctionType(
        pos_only_args=[],
        pos_or_kw_args={"f": deferred, "g": deferred},
        kw_only_args={},
        returns=deferred,
    )
    node = im.call(im.ref("opaque_fun", opaque))(im.ref("f", deferred), im.ref("g", deferred))
    expected = theirs.infer(node, offset_provider_type={}, allow_undeclared_symbols=True)
    ours = infer(node, offset_provider_type={}, allow_undeclared_symbols=True)
    assert isinstance(expected.type, ts.DeferredType) and isinstance(ours.type, ts.DeferredType)
