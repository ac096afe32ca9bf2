"""What differs between GT4Py 1.2.1, 1.2.2 and 1.2.3 that matters to `typeinf.gt4py`, checked on
the installed release (`python3 -m tools.gt4py_versions` runs these on each): each difference is
there exactly on the releases `tests/with_gt4py/versions.py` says, and the bridge handles it.

Each test states what holds on each release, so that it runs (and means something) on all."""

from __future__ import annotations

import gt4py.eve
import pytest
from gt4py.eve import concepts
from gt4py.next import common
from gt4py.next.iterator import ir
from gt4py.next.iterator import pretty_printer as printer
from gt4py.next.iterator.ir_utils import ir_makers as im
from gt4py.next.iterator.type_system import inference as theirs
from gt4py.next.type_system import type_specifications as ts

from tests.with_gt4py.versions import (
    GT4PY,
    HAS_NONE_LITERAL,
    PRINTS_LITERAL_TYPES,
    PROMOTES_LISTS,
    SLOTTED_ANNEX,
    as_printed,
)
from typeinf.gt4py import ConversionError, from_gt4py, infer, type_from_gt4py
from typeinf.gt4py import nodes as bridge_nodes

Vertex = common.Dimension("Vertex")
Edge = common.Dimension("Edge")
V2E = common.Dimension("V2E", common.DimensionKind.LOCAL)
F64 = ts.ScalarType(kind=ts.ScalarKind.FLOAT64)
BOOL = ts.ScalarType(kind=ts.ScalarKind.BOOL)
ALONG_V2E = ts.ListType(element_type=F64, offset_type=V2E)


def test_the_release_is_one_the_extra_allows() -> None:
    assert (1, 2, 1) <= GT4PY < (1, 3, 0)


# -- NoneLiteral: 1.2.1 only ----------------------------------------------------------------------
def test_a_none_literal_is_refused_where_it_stands_on_1_2_1_and_there_is_none_after() -> None:
    assert hasattr(ir, "NoneLiteral") is HAS_NONE_LITERAL
    assert (bridge_nodes.NONE_LITERAL is not None) is HAS_NONE_LITERAL
    if not HAS_NONE_LITERAL:  # 1.2.2, 1.2.3: `None` is no GTIR expression
        assert bridge_nodes.NONE_LITERAL is None
        return
    call = im.call("f")(None)  # 1.2.1's makers turn `None` into a NoneLiteral
    assert type(call.args[0]) is ir.NoneLiteral
    with pytest.raises(ConversionError) as refused:
        from_gt4py(call)
    assert str(refused.value) == (
        "<gt4py> $.args[0]: error: a NoneLiteral (GT4Py 1.2.1's `None`, removed in 1.2.2) has "
        "no counterpart in iterir; GT4Py's own type inference has no rule for it either"
    )
    with pytest.raises(ConversionError, match=r"^<gt4py> \$: error: a NoneLiteral"):
        from_gt4py(ir.NoneLiteral())


# -- the annex: in the node's __dict__ up to 1.2.2, a slot from 1.2.3 on ---------------------------
def test_infer_leaves_the_original_annex_alone_and_gives_the_copy_its_own() -> None:
    assert ("__node_annex__" in concepts.Node.__slots__) is SLOTTED_ANNEX
    assert bridge_nodes.ANNEX_IN_DICT is not SLOTTED_ANNEX
    node = im.lambda_("x")(im.plus("x", im.literal("1.0", "float64")))
    table = node.annex.symtable
    node.annex.recorded = "a pass's note"  # not among what GT4Py's inference keeps
    node.annex.domain = "kept"  # `domain` is
    typed = infer(node, offset_provider_type={}, allow_undeclared_symbols=True)
    assert typed.annex is not node.annex
    assert node.annex.symtable is table and table["x"] is node.params[0]
    assert typed.annex.symtable["x"] is typed.params[0]
    assert not hasattr(typed.annex, "recorded") and typed.annex.domain == "kept"
    expected = theirs.infer(node, offset_provider_type={}, allow_undeclared_symbols=True)
    assert sorted(vars(typed.annex)) == sorted(vars(expected.annex))


# -- the printer: literal types from 1.2.3 on ------------------------------------------------------
def test_the_printer_writes_literal_types_from_1_2_3_on() -> None:
    assert hasattr(printer, "format_type") is PRINTS_LITERAL_TYPES
    literal = im.literal("0.0", "float32")
    assert printer.pformat(literal) == ("0.0:f32" if PRINTS_LITERAL_TYPES else "0.0")
    assert as_printed("{0.0:f32, 42:i64, x}") == (
        "{0.0:f32, 42:i64, x}" if PRINTS_LITERAL_TYPES else "{0.0, 42, x}"
    )
    assert as_printed("t = temporary(domain=d, dtype=i1);") == (
        "t = temporary(domain=d, dtype=i1);"
        if PRINTS_LITERAL_TYPES
        else "t = temporary(domain=d, dtype=bool);"
    )


# -- lists in `if_` and `concat_where`: promoted from 1.2.3 on -------------------------------------
def _typed(node: ir.Expr) -> object:
    """GT4Py's type of `node`, or the class of the error its inference raises."""
    try:
        return theirs.infer(node, offset_provider_type={}, allow_undeclared_symbols=True).type
    except AssertionError as error:
        return type(error)


def _ours(node: ir.Expr) -> object:
    return infer(node, offset_provider_type={}, allow_undeclared_symbols=True).type


def test_lists_of_if_and_concat_where_are_promoted_by_gt4py_from_1_2_3_on_by_ours_always() -> None:
    """`if_` of a list along no dimension (`make_const_list`'s) and one along V2E: from 1.2.3 on
    GT4Py's is along V2E (promoted), before of the true branch's type; `concat_where` of fields
    of lists: from 1.2.3 on typed, before an AssertionError in GT4Py's inference. Ours follows
    1.2.3 on every release (GTIR's rules are one for all), so on 1.2.1 and 1.2.2 the drop-in
    knows more than GT4Py of such an `if_`, and types such a `concat_where`."""
    const = im.call("make_const_list")(im.literal("1.0", "float64"))
    chosen = im.if_(im.ref("c", BOOL), const, im.ref("l", ALONG_V2E))
    unpromoted = ts.ListType(element_type=F64, offset_type=None)
    assert _typed(chosen) == (ALONG_V2E if PROMOTES_LISTS else unpromoted)
    assert _ours(chosen) == ALONG_V2E
    field = ts.FieldType(dims=[Vertex], dtype=ALONG_V2E)
    domain = im.domain(common.GridType.UNSTRUCTURED, {Vertex: (0, 5)})
    joined = im.concat_where(domain, im.ref("a", field), im.ref("b", field))
    assert _typed(joined) == (field if PROMOTES_LISTS else AssertionError)
    assert _ours(joined) == field


# -- OffsetType.tag (1.2.3), gt4py.eve.xtyping (1.2.3) ---------------------------------------------
def test_the_frontends_offset_type_has_a_tag_from_1_2_3_on_and_no_gtir_counterpart() -> None:
    """`ts.OffsetType` is the frontend's type of a `FieldOffset` (GTIR types an offset with
    `OffsetLiteralType`): it has no counterpart in iterir, with or without 1.2.3's `tag`."""
    has_tag = "tag" in ts.OffsetType.__datamodel_fields__
    assert has_tag is (GT4PY >= (1, 2, 3))
    tagged = {"tag": "V2E"} if has_tag else {}
    offset = ts.OffsetType(source=Edge, target=(Vertex, V2E), **tagged)
    with pytest.raises(ConversionError) as refused:
        type_from_gt4py(offset)
    assert str(refused.value) == (
        "<gt4py> $: error: an OffsetType has no counterpart among iterir's types"
    )


def test_eve_typing_helpers_moved_in_1_2_3_and_the_bridge_needs_neither() -> None:
    """`gt4py.eve.extended_typing` (to 1.2.2) became `gt4py.eve.xtyping` (1.2.3): the bridge
    imports neither (only `gt4py.eve.concepts` of eve, the same on every release)."""
    import importlib.util

    assert (importlib.util.find_spec("gt4py.eve.xtyping") is not None) is (GT4PY >= (1, 2, 3))
    assert (importlib.util.find_spec("gt4py.eve.extended_typing") is not None) is (
        GT4PY < (1, 2, 3)
    )
    assert gt4py.eve.concepts is concepts
