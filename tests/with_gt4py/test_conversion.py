"""typeinf.gt4py on GT4Py 1.2.3 itself (run in the Python ≥ 3.12 venv by
tests/test_gt4py_bridge.py): every GTIR sample and generated GTIR converts to GT4Py's nodes and
back unchanged, types and locations included, and prints as GT4Py printed it; what has no
counterpart is a ConversionError that names where it is."""

from __future__ import annotations

import numpy as np
import pytest
from gt4py._core import definitions as core_defs
from gt4py.eve import concepts
from gt4py.next import common
from gt4py.next.iterator import ir
from gt4py.next.iterator.pretty_printer import pformat
from gt4py.next.type_system import type_specifications as ts
from hypothesis import event, given

import iterir
from iterir import gtir_types as gt
from iterir.nodes import (
    AxisLiteral,
    FencilDefinition,
    FunCall,
    Lambda,
    Literal,
    Node,
    SourceSpan,
    Sym,
    SymRef,
)
from iterir.offset_types import NeighborConnectivityType, offset_types_from_json
from iterir.traversal import walk
from tests.test_gtir_properties import gtir, gtir_types
from tests.test_gtir_samples import SAMPLES
from typeinf import TypeInferenceError
from typeinf.gt4py import (
    ConversionError,
    from_gt4py,
    location_from_gt4py,
    location_to_gt4py,
    offset_types_from_gt4py,
    offset_types_to_gt4py,
    to_gt4py,
    type_from_gt4py,
    type_to_gt4py,
)

IDS = [s["id"] for s in SAMPLES]


def test_every_sample_is_here() -> None:
    assert len(SAMPLES) == 942


@pytest.mark.parametrize("sample", SAMPLES, ids=IDS)
def test_sample_round_trips_through_gt4py_nodes_and_prints_as_gt4py_did(sample: dict) -> None:
    ours = iterir.from_json(sample["ir"])
    theirs = to_gt4py(ours)
    assert isinstance(theirs, getattr(ir, sample["ir"]["node"]))
    back = from_gt4py(theirs)
    assert back == ours
    # Equality compares `Sym.type`, `SymRef.type` and `Literal.type`; the JSON says it too.
    assert iterir.to_json(back) == sample["ir"]
    assert pformat(theirs) == sample["text"]


@pytest.mark.parametrize("sample", SAMPLES, ids=IDS)
def test_sample_offset_provider_types_round_trip(sample: dict) -> None:
    ours = offset_types_from_json(sample["offset_provider_type"])
    theirs = offset_types_to_gt4py(ours)
    for name, value in theirs.items():
        if isinstance(value, common.NeighborConnectivityType):
            recorded = sample["offset_provider_type"][name]
            assert value.max_neighbors == recorded["max_neighbors"]
            assert value.dtype == core_defs.dtype(getattr(np, recorded["dtype"]))
            assert value.source_dim.kind == common.DimensionKind(recorded["domain"][0]["kind"])
    assert offset_types_from_gt4py(theirs) == ours


def _spans(node: Node) -> list[SourceSpan | None]:
    return [n.loc for n in walk(node)]


def test_spans_become_gt4py_locations_and_come_back() -> None:
    sample = max(SAMPLES, key=lambda s: s["nodes"])
    ours = iterir.parse(sample["text"], "sample.itir")
    theirs = to_gt4py(ours)
    assert theirs.location == concepts.SourceLocation(
        "sample.itir", ours.loc.line, ours.loc.column, ours.loc.end_line, ours.loc.end_column
    )
    back = from_gt4py(theirs)
    assert back == ours
    assert _spans(back) == _spans(ours)
    assert all(span is not None and span.filename == "sample.itir" for span in _spans(back))


def test_a_location_without_an_end_is_an_empty_span_and_back() -> None:
    location = concepts.SourceLocation("f.py", 3, 7)
    span = location_from_gt4py(location)
    assert span == SourceSpan("f.py", 3, 7, 3, 7)
    assert location_to_gt4py(span) == location
    group = concepts.SourceLocationGroup(concepts.SourceLocation("g.py", 1, 2, 1, 5), location)
    assert location_from_gt4py(group) == SourceSpan("g.py", 1, 2, 1, 5)


def test_a_gt4py_location_is_our_error_location() -> None:
    node = ir.SymRef(id="x", location=concepts.SourceLocation("stencil.py", 12, 5, 12, 6))
    assert str(TypeInferenceError("boom", from_gt4py(node))) == "stencil.py:12:5: error: boom"


def test_gt4py_types_the_samples_do_not_hold_convert_too() -> None:
    local = common.Dimension("V2E", common.DimensionKind.LOCAL)
    vertex = common.Dimension("Vertex")
    f64 = ts.ScalarType(kind=ts.ScalarKind.FLOAT64)
    from gt4py.next.iterator.type_system import type_specifications as it_ts

    for theirs in (
        it_ts.IteratorType(position_dims="unknown", defined_dims=[vertex], element_type=f64),
        ts.ListType(element_type=f64, offset_type=local),
        it_ts.OffsetLiteralType(value="V2E"),
        it_ts.OffsetLiteralType(value=ts.ScalarType(kind=ts.ScalarKind.INT32)),
        it_ts.NamedRangeType(dim=vertex),
        ts.DimensionType(dim=local),
        ts.DeferredType(constraint=None),
        ts.VoidType(),
        ts.DomainType(dims=[vertex]),
        ts.FunctionType(
            pos_only_args=[f64], pos_or_kw_args={"a": f64}, kw_only_args={"b": f64}, returns=f64
        ),
        ts.ScalarType(kind=ts.ScalarKind.INT8, shape=[3, 4]),
    ):
        ours = type_from_gt4py(theirs)
        assert type_to_gt4py(ours) == theirs
    assert type_from_gt4py(it_ts.OffsetLiteralType(value="V2E")) == gt.OffsetLiteralType(
        gt.Dimension("V2E", "horizontal")
    )


@given(gtir_types)
def test_generated_types_round_trip_or_are_refused_with_their_path(value: gt.GType) -> None:
    try:
        theirs = type_to_gt4py(value)
    except ConversionError as error:
        assert str(error).startswith("<gt4py> $")
    else:
        assert type_from_gt4py(theirs) == value


@given(gtir)
def test_generated_gtir_round_trips_or_is_refused_naming_the_node(node: Node) -> None:
    try:
        theirs = to_gt4py(node)
    except ConversionError as error:
        event("refused")  # --hypothesis-show-statistics shows how many of each
        assert error.node is not None
        assert error.path.startswith("$")
        assert f"(at {error.path})" in error.message
    else:
        event("converted")
        assert from_gt4py(theirs) == node


def test_what_is_not_gtir_is_refused_naming_where() -> None:
    fencil = FencilDefinition("f", (), (), ())
    with pytest.raises(ConversionError, match=r"fencil IR's; GT4Py 1\.2\.3's GTIR has no such"):
        to_gt4py(fencil)
    annotated = Lambda((Sym("x", kind="Iterator"),), SymRef("x"))
    with pytest.raises(
        ConversionError, match=r"fencil IR's annotation .*\(at \$\.params\[0\]\.kind\)"
    ):
        to_gt4py(annotated)
    with pytest.raises(ConversionError) as refused:
        to_gt4py(Lambda((), FunCall(SymRef("named_range"), (AxisLiteral("IDim"),))))
    assert "an axis without a kind" in str(refused.value)
    assert "(at $.expr.args[0].kind)" in str(refused.value)

    call = ir.FunCall(
        fun=ir.SymRef(id="f"),
        args=[
            ir.SymRef(id="a"),
            ir.Literal(value="x", type=ts.ScalarType(kind=ts.ScalarKind.STRING)),
        ],
    )
    with pytest.raises(ConversionError) as refused:
        from_gt4py(call)
    assert str(refused.value).startswith("<gt4py> $.args[1].type.kind: error: scalar kind")
    with pytest.raises(
        ConversionError,
        match=r"^<gt4py> \$: error: a str is not a GTIR node of GT4Py 1\.2\.3 \(gt4py",
    ):
        from_gt4py("deref")
    assert str(ConversionError("x", "$.a")) == "<gt4py> $.a: error: x"
    with pytest.raises(ConversionError) as refused:
        from_gt4py(ir.Sym(id="x", type=ts.DeferredType(constraint=ts.FieldType)))
    assert str(refused.value).startswith("<gt4py> $.type: error: DeferredType(constraint=")
    with pytest.raises(ConversionError) as refused:
        to_gt4py(iterir.parse("p(a: Field[[IDimₕ], f64]) { out @ c⟨ IDimₕ: [0, 1[ ⟩ ← a; }"))
    assert "GT4Py refuses this Program" in str(refused.value)
    assert "out" in str(refused.value)
    assert isinstance(refused.value, TypeInferenceError)


def test_what_has_no_offset_provider_counterpart_is_refused() -> None:
    ours = {
        "V2E": NeighborConnectivityType(
            (gt.Dimension("Vertex"), gt.Dimension("V2E", "local")),
            gt.Dimension("Edge"),
            None,
            "int32",
            4,
        )
    }
    theirs = offset_types_to_gt4py(ours)
    with pytest.raises(ConversionError, match=r"\$\.V2E\.dtype"):
        offset_types_from_gt4py(
            {"V2E": common.NeighborConnectivityType(**{**vars(theirs["V2E"]), "dtype": "int32"})}
        )
    with pytest.raises(ConversionError, match=r"no offset-provider type"):
        offset_types_from_gt4py({"x": 3})


def test_a_literal_keeps_its_type_both_ways() -> None:
    theirs = to_gt4py(Literal("1", "int64"))
    assert theirs.type == ts.ScalarType(kind=ts.ScalarKind.INT64)
    assert from_gt4py(theirs) == Literal("1", "int64")


def test_types_nested_too_deep_are_refused_not_a_recursion_error() -> None:
    ours: gt.GType = gt.ScalarType("int32")
    theirs = ts.ScalarType(kind=ts.ScalarKind.INT32)
    for _ in range(gt.MAX_DEPTH + 2):
        ours, theirs = gt.TupleType((ours,)), ts.TupleType(types=[theirs])
    with pytest.raises(ConversionError, match="nested more than 64 levels"):
        type_to_gt4py(ours)
    with pytest.raises(ConversionError, match="nested more than 64 levels"):
        type_from_gt4py(theirs)


def test_a_deep_tree_converts_both_ways_without_recursion() -> None:
    node: Node = SymRef("x")
    for _ in range(3_000):  # beyond the interpreter's recursion limit
        node = FunCall(SymRef("deref"), (node,))
    theirs = to_gt4py(node)
    assert from_gt4py(theirs) == node
