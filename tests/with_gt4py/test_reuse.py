"""The reuse of the previous inference by `typeinf.gt4py.infer` is never stale: a program that
differs from the previous one in one literal's type, one offset or its offset provider is
typed as if inferred afresh (and as GT4Py types it); an equal one is told equal by the
conversion itself (`from_gt4py`'s `previous`), exactly when it is equal."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from gt4py.eve import concepts
from gt4py.next import common
from gt4py.next.iterator import ir
from gt4py.next.iterator.ir_utils import ir_makers as im
from gt4py.next.iterator.type_system import inference as theirs
from gt4py.next.iterator.type_system import type_specifications as it_ts
from gt4py.next.type_system import type_specifications as ts
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st

import iterir
from iterir import nodes as n
from iterir.offset_types import offset_types_from_json
from iterir.traversal import preorder
from tests.test_gtir_properties import gtir
from tests.test_gtir_samples import SAMPLES
from tests.with_gt4py.test_dropin import _walk
from typeinf.gt4py import ConversionError, from_gt4py, infer, offset_types_to_gt4py, to_gt4py
from typeinf.gt4py import inference as ours

TYPED = [s for s in SAMPLES if "gt4py_error" not in s]
PROVIDERS = list(
    {repr(s["offset_provider_type"]): s["offset_provider_type"] for s in SAMPLES}.values()
)
KINDS = ("bool", "int32", "int64", "float32", "float64")
IDim = common.Dimension("IDim")


def _changes(tree: dict) -> list[tuple[dict, str, object]]:
    """Every change of one node of a sample's JSON: (node, field, new value): a literal of
    another scalar kind, an offset by one more, or an offset of another name."""
    changes: list[tuple[dict, str, object]] = []
    stack: list[Any] = [tree]
    while stack:
        value = stack.pop()
        if isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, dict):
            if value.get("node") == "Literal":
                changes += [(value, "type", k) for k in KINDS if k != value["type"]]
            elif value.get("node") == "OffsetLiteral":
                offset = value["value"]
                changes.append((value, "value", offset + 1 if isinstance(offset, int) else "Koff"))
            stack.extend(value.values())
    return changes


def _outcome(node: ir.Node, provider: dict) -> list[object] | str:
    """What `infer` leaves: the type on every node, in pre-order, or its error's message."""
    try:
        typed = infer(
            node,
            offset_provider_type=provider,
            allow_undeclared_symbols=not isinstance(node, ir.Program),
        )
    except AssertionError as error:
        return str(error)
    return [each.type for each in _walk(typed)]


def _built(tree: dict, provider: dict) -> tuple[ir.Node, dict]:
    return to_gt4py(iterir.from_json(tree)), offset_types_to_gt4py(offset_types_from_json(provider))


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_an_inference_given_again_is_never_stale(data: st.DataObject) -> None:
    """After `infer` on a sample, `infer` on the sample itself, or changed in one node, or
    with another offset provider, leaves what it leaves with no previous inference; and the
    conversion gives the previous tree itself exactly when the two trees are equal."""
    sample = data.draw(st.sampled_from(TYPED))
    tree, provider = sample["ir"], sample["offset_provider_type"]
    changed, changed_provider = copy.deepcopy(tree), provider
    how = data.draw(st.sampled_from(("same", "node", "provider")))
    event(how)
    if how == "node":
        changes = _changes(changed)
        assume(changes)
        node, field, value = data.draw(st.sampled_from(changes))
        node[field] = value
    elif how == "provider":
        changed_provider = data.draw(st.sampled_from(PROVIDERS))
    first, second = _built(tree, provider), _built(changed, changed_provider)

    ours._PREVIOUS.forget()
    _outcome(*first)
    after = _outcome(*second)
    ours._PREVIOUS.forget()
    assert after == _outcome(*second)

    converted = from_gt4py(first[0])
    again = from_gt4py(second[0], previous=preorder(converted)[0])
    assert again == iterir.from_json(changed)
    assert (again is converted) == (iterir.from_json(changed) == iterir.from_json(tree))


@given(gtir, gtir, st.booleans())
def test_a_tree_converted_after_another_is_that_one_exactly_when_equal(
    first: n.Node, second: n.Node, same: bool
) -> None:
    if same:
        second = first
    try:
        theirs_first, theirs_second = to_gt4py(first), to_gt4py(second)
    except ConversionError:
        assume(False)
    converted = from_gt4py(theirs_first)
    again = from_gt4py(theirs_second, previous=preorder(converted)[0])
    assert again == second
    assert (again is converted) == (second == first)


def _constant(kind: str) -> ir.Program:
    """A program that writes a literal of `kind` into a field: its type is the literal's."""
    domain = im.domain(common.GridType.CARTESIAN, {IDim: (0, 10)})
    field = ts.FieldType(dims=[IDim], dtype=ts.ScalarType(kind=ts.ScalarKind[kind.upper()]))
    return ir.Program(
        id="p",
        function_definitions=[],
        params=[im.sym("out", field)],
        declarations=[],
        body=[
            ir.SetAt(
                expr=im.as_fieldop(im.lambda_()(im.literal("1", kind)), domain)(),
                domain=domain,
                target=im.ref("out"),
            )
        ],
    )


def test_programs_differing_in_one_literal_are_typed_as_gt4py_types_each() -> None:
    ours._PREVIOUS.forget()
    for kind in ("int32", "int32", "int64", "int64", "int32", "float32", "float64"):
        program = _constant(kind)
        expected = theirs.infer(program, offset_provider_type={})
        typed = infer(program, offset_provider_type={})
        for gt4pys, mine in zip(_walk(expected), _walk(typed), strict=True):
            assert mine.type == gt4pys.type, f"{kind}: {gt4pys}"


def test_an_error_after_an_equal_program_cites_its_own_places() -> None:
    """A program equal to the previous one but elsewhere in its file (or sharing a part with
    it) gets its own spans: reusing the previous tree's nodes would cite the previous places."""

    def at(line: int) -> concepts.SourceLocation:
        return concepts.SourceLocation(filename="f.py", line=line, column=1)

    def shifted(line: int) -> ir.FunCall:  # deref(shift(Ioff, 1)(it)), a line a node
        it = it_ts.IteratorType(
            position_dims=[IDim],
            defined_dims=[IDim],
            element_type=ts.ScalarType(kind=ts.ScalarKind.INT32),
        )
        shift = ir.FunCall(
            fun=ir.SymRef(id="shift", location=at(line)),
            args=[
                ir.OffsetLiteral(value="Ioff", location=at(line + 1)),
                ir.OffsetLiteral(value=1, location=at(line + 2)),
            ],
            location=at(line + 3),
        )
        applied = ir.FunCall(
            fun=shift,
            args=[ir.SymRef(id="it", type=it, location=at(line + 4))],
            location=at(line + 5),
        )
        return ir.FunCall(
            fun=ir.SymRef(id="deref", location=at(line + 6)), args=[applied], location=at(line + 7)
        )

    for program in (shifted, lambda line: im.make_tuple(shifted(line), im.literal("1", "int32"))):
        ours._PREVIOUS.forget()
        infer(program(10), offset_provider_type={"Ioff": IDim}, allow_undeclared_symbols=True)
        with pytest.raises(AssertionError, match=r"^f\.py:101:1: error: offset `Ioff` is unknown"):
            infer(program(100), offset_provider_type={}, allow_undeclared_symbols=True)
