"""typeinf.gt4py on GT4Py 1.2 itself (run in the Python ≥ 3.12 venv by
tests/test_gt4py_bridge.py, and on each of 1.2.1–1.2.3 by `python3 -m tools.gt4py_versions`):
every GTIR sample and generated GTIR converts to GT4Py's nodes and back unchanged, types and
locations included, and prints as GT4Py printed it; what has no counterpart is a
ConversionError that names where it is."""

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
from hypothesis import strategies as st

import iterir
from iterir import gtir_types as gt
from iterir import nodes as n
from iterir import vocabulary as voc
from iterir.offset_types import NeighborConnectivityType, offset_types_from_json
from iterir.traversal import walk
from tests.strategies import plain_names
from tests.test_gtir_properties import gtir, gtir_types
from tests.test_gtir_samples import SAMPLES
from tests.with_gt4py.versions import as_printed, without_layout
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
from typeinf.gtir.terms import DimensionSetError, canonical

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
    # Equality compares `n.Sym.type`, `n.SymRef.type` and `n.Literal.type`; the JSON says it too.
    assert iterir.to_json(back) == sample["ir"]
    # As GT4Py 1.2.3 printed it; before 1.2.3, without the literals' types (`as_printed`), which
    # makes lines shorter: where there were any, their breaks may fall elsewhere.
    expected = as_printed(sample["text"])
    if expected == sample["text"]:
        assert pformat(theirs) == expected
    else:
        assert without_layout(pformat(theirs)) == without_layout(expected)


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


def _spans(node: n.Node) -> list[n.SourceSpan | None]:
    return [each.loc for each in walk(node)]


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
    assert span == n.SourceSpan("f.py", 3, 7, 3, 7)
    assert location_to_gt4py(span) == location
    group = concepts.SourceLocationGroup(concepts.SourceLocation("g.py", 1, 2, 1, 5), location)
    assert location_from_gt4py(group) == n.SourceSpan("g.py", 1, 2, 1, 5)


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
def test_generated_gtir_round_trips_or_is_refused_naming_the_node(node: n.Node) -> None:
    try:
        theirs = to_gt4py(node)
    except ConversionError as error:
        event("refused")  # --hypothesis-show-statistics shows how many of each
        assert error.node is not None
        assert error.path.startswith("$")
        if error.node.loc is None:
            assert str(error).startswith(f"<gt4py> {error.path}: error: ")
        else:
            assert f"(at {error.path})" in error.message
    else:
        event("converted")
        assert from_gt4py(theirs) == node


# GTIR generated within what GT4Py's own validation accepts (names matching its `SymbolName`,
# a `FieldType`'s dtype a scalar or a list, a data type where GT4Py wants one, distinct
# parameter names, no `Program`, whose references GT4Py checks are bound): all of it converts.
_dims = st.builds(gt.Dimension, plain_names, st.sampled_from(sorted(gt.KIND_SUFFIXES)))
_dim_lists = st.lists(_dims, max_size=3).map(tuple)


def _gt4py_set(dims: list[gt.Dimension]) -> tuple[gt.Dimension, ...] | None:
    """The dimensions as a set in GT4Py's order, or None where they make no set."""
    try:
        return canonical(dims)
    except DimensionSetError:
        return None


#: A field's or a domain's dimensions: a set (typeinf.gtir.terms.canonical), in GT4Py's order.
_field_dims = st.lists(_dims, max_size=3).map(_gt4py_set).filter(lambda ds: ds is not None)
_scalars = st.builds(
    gt.ScalarType,
    st.sampled_from(sorted(voc.PRIMITIVES)),
    st.one_of(st.none(), st.lists(st.integers(0, 9), min_size=1, max_size=2).map(tuple)),
)


def _data_compound(inner: st.SearchStrategy[gt.GType]) -> st.SearchStrategy[gt.GType]:
    lists = st.builds(gt.ListType, inner, st.one_of(st.none(), _dims))
    return st.one_of(
        lists,
        st.builds(gt.FieldType, _field_dims, st.one_of(_scalars, lists)),
        st.builds(gt.TupleType, st.lists(inner, max_size=3).map(tuple)),
        st.builds(gt.IteratorType, st.one_of(_dim_lists, st.just("unknown")), _dim_lists, inner),
    )


_data_types = st.recursive(
    st.one_of(_scalars, st.builds(gt.DomainType, _field_dims)), _data_compound, max_leaves=5
)
_any_types = st.recursive(
    st.one_of(
        _data_types,
        st.builds(gt.DimensionType, _dims),
        st.builds(gt.NamedRangeType, _dims),
        st.builds(
            gt.OffsetLiteralType,
            st.one_of(_scalars, st.builds(gt.Dimension, plain_names, st.just("horizontal"))),
        ),
        st.just(gt.DeferredType()),
        st.just(gt.VoidType()),
    ),
    lambda inner: st.builds(
        gt.FunctionType,
        st.lists(inner, max_size=2).map(tuple),
        st.dictionaries(plain_names, inner, max_size=2).map(lambda d: tuple(d.items())),
        st.dictionaries(plain_names, inner, max_size=2).map(lambda d: tuple(d.items())),
        inner,
    ),
    max_leaves=4,
)
_axes = st.builds(n.AxisLiteral, plain_names, st.sampled_from(sorted(gt.KIND_SUFFIXES)))
_params = st.lists(plain_names, max_size=3, unique=True).flatmap(
    lambda ids: st.tuples(*(st.builds(n.Sym, st.just(i), type=st.none() | _any_types) for i in ids))
)
_leaves = st.one_of(
    st.builds(n.SymRef, plain_names, st.none() | _any_types),
    st.builds(n.Literal, st.text(max_size=5), st.sampled_from(sorted(voc.PRIMITIVES))),
    st.builds(n.OffsetLiteral, st.one_of(st.integers(-(2**40), 2**40), plain_names)),
    _axes,
    st.builds(n.InfinityLiteral, st.sampled_from(["POSITIVE", "NEGATIVE"])),
    st.builds(n.CartesianOffset, _axes, _axes),
)
_expressions = st.recursive(
    _leaves,
    lambda inner: st.one_of(
        st.builds(n.FunCall, inner, st.lists(inner, max_size=3).map(tuple)),
        st.builds(n.Lambda, _params, inner),
    ),
    max_leaves=15,
)
_statements = st.recursive(
    st.builds(n.SetAt, _expressions, _expressions, _expressions),
    lambda inner: st.builds(
        n.IfStmt, _expressions, st.lists(inner, max_size=2), st.lists(inner, max_size=2)
    ),
    max_leaves=4,
)
_gt4py_valid = st.one_of(
    _expressions,
    _statements,
    st.builds(n.FunctionDefinition, plain_names, _params, _expressions),
    st.builds(
        n.Temporary,
        plain_names,
        st.none() | _expressions,
        st.one_of(
            st.none(), _scalars, st.builds(gt.TupleType, st.lists(_scalars, max_size=2).map(tuple))
        ),
    ),
)


@given(_any_types)
def test_generated_types_that_gt4py_accepts_round_trip_both_ways(value: gt.GType) -> None:
    theirs = type_to_gt4py(value)
    assert type_from_gt4py(theirs) == value
    assert type_to_gt4py(type_from_gt4py(theirs)) == theirs


@given(_gt4py_valid)
def test_generated_gtir_that_gt4py_accepts_round_trips_both_ways(node: n.Node) -> None:
    theirs = to_gt4py(node)
    back = from_gt4py(theirs)
    assert back == node
    again = to_gt4py(back)
    assert again == theirs  # GT4Py's equality: its fields but `type` and `location`


def test_what_is_not_gtir_is_refused_naming_where() -> None:
    fencil = n.FencilDefinition("f", (), (), ())
    with pytest.raises(ConversionError, match=r"fencil IR's; GT4Py 1\.2's GTIR has no such"):
        to_gt4py(fencil)
    annotated = n.Lambda((n.Sym("x", kind="Iterator"),), n.SymRef("x"))
    with pytest.raises(
        ConversionError, match=r"^<gt4py> \$\.params\[0\]\.kind: error: `kind` is the fencil IR's"
    ):
        to_gt4py(annotated)
    with pytest.raises(ConversionError) as refused:
        to_gt4py(n.Lambda((), n.FunCall(n.SymRef("named_range"), (n.AxisLiteral("IDim"),))))
    assert str(refused.value).startswith("<gt4py> $.expr.args[0].kind: error: an axis without")

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
        match=r"^<gt4py> \$: error: a str is not a GTIR node of GT4Py 1\.2 \(gt4py",
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


def test_a_refused_type_is_located_at_its_span_else_at_its_path() -> None:
    text = "λ(d: Domain[unknown]) → d"  # GT4Py 1.2 refuses a DomainType over "unknown"
    with pytest.raises(ConversionError) as refused:
        to_gt4py(iterir.parse(text, "d.gtir"))
    assert str(refused.value).startswith("d.gtir:1:3: error: GT4Py refuses this DomainType")
    assert str(refused.value).endswith("(at $.params[0].type)")
    unparsed = n.Lambda((n.Sym("d", type=gt.DomainType("unknown")),), n.SymRef("d"))
    with pytest.raises(ConversionError) as refused:
        to_gt4py(unparsed)
    message = str(refused.value)
    assert message.startswith("<gt4py> $.params[0].type: error: GT4Py refuses this DomainType")
    assert "(at " not in message  # said once, as the location


def test_what_is_no_type_or_node_is_named_with_its_article() -> None:
    with pytest.raises(ConversionError, match=r"^<gt4py> \$: error: an int \(3\) is not a GTIR"):
        type_to_gt4py(3)  # type: ignore[arg-type]
    with pytest.raises(ConversionError, match=r"^<gt4py> \$: error: an int is not a GTIR node"):
        from_gt4py(3)
    with pytest.raises(ConversionError, match=r"^<gt4py> \$: error: an ellipsis is not an iterir"):
        to_gt4py(...)  # type: ignore[arg-type]


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
    with pytest.raises(
        ConversionError, match=r"^<gt4py> \$\.x: error: an int is no offset-provider"
    ):
        offset_types_from_gt4py({"x": 3})


def test_a_literal_keeps_its_type_both_ways() -> None:
    theirs = to_gt4py(n.Literal("1", "int64"))
    assert theirs.type == ts.ScalarType(kind=ts.ScalarKind.INT64)
    assert from_gt4py(theirs) == n.Literal("1", "int64")


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
    node: n.Node = n.SymRef("x")
    for _ in range(3_000):  # beyond the interpreter's recursion limit
        node = n.FunCall(n.SymRef("deref"), (node,))
    theirs = to_gt4py(node)
    assert from_gt4py(theirs) == node
