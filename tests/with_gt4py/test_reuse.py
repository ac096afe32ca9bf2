"""What `typeinf.gt4py.infer` reuses from earlier calls (`Reuse`) is never stale: a program that
differs from the previous one in one literal's type, one offset, its offset provider or only its
source spans is typed as if inferred afresh (and as GT4Py types it); an equal one is told equal by
the conversion itself (`from_gt4py`'s `previous`), exactly when it is equal. Each installation
of the drop-ins, and each `Reuse`, keeps its own: nothing is shared between two."""

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
from benchmarks.icon4py_inference import walk
from iterir import nodes as n
from iterir.offset_types import offset_types_from_json
from iterir.traversal import preorder
from tests.test_gtir_properties import gtir
from tests.test_gtir_samples import SAMPLES
from typeinf.gt4py import (
    ConversionError,
    Reuse,
    from_gt4py,
    infer,
    install,
    offset_types_to_gt4py,
    to_gt4py,
    uninstall,
)
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


def _outcome(node: ir.Node, provider: dict, reuse: Reuse | None = None) -> list[object] | str:
    """What `infer` leaves: the type on every node, in pre-order, or its error's message."""
    try:
        typed = infer(
            node,
            offset_provider_type=provider,
            allow_undeclared_symbols=not isinstance(node, ir.Program),
            reuse=reuse,
        )
    except AssertionError as error:
        return str(error)
    return [each.type for each in walk(typed)]


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

    reuse = Reuse()
    _outcome(*first, reuse)
    after = _outcome(*second, reuse)
    assert after == _outcome(*second)  # nothing reused

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
    reuse = Reuse()
    for kind in ("int32", "int32", "int64", "int64", "int32", "float32", "float64"):
        program = _constant(kind)
        expected = theirs.infer(program, offset_provider_type={})
        typed = infer(program, offset_provider_type={}, reuse=reuse)
        for gt4pys, mine in zip(walk(expected), walk(typed), strict=True):
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
        reuse = Reuse()
        for line in (10, 100):  # the second equal but for its spans: not given the first's tree
            infer(
                program(line),
                offset_provider_type={"Ioff": IDim},
                allow_undeclared_symbols=True,
                reuse=reuse,
            )
            assert _spans(reuse) == _spans_of(program(line))
        with pytest.raises(AssertionError, match=r"^f\.py:101:1: error: offset `Ioff` is unknown"):
            infer(program(100), offset_provider_type={}, allow_undeclared_symbols=True, reuse=reuse)
        install(strict=True)  # the drop-in's own reuse: the same
        try:
            theirs.infer(
                program(10), offset_provider_type={"Ioff": IDim}, allow_undeclared_symbols=True
            )
            with pytest.raises(AssertionError, match=r"^f\.py:101:1: error: offset `Ioff`"):
                theirs.infer(program(100), offset_provider_type={}, allow_undeclared_symbols=True)
        finally:
            uninstall()


def _spans(reuse: Reuse) -> list[object]:
    """The source spans of the tree `reuse` keeps (its last inference's), in pre-order."""
    assert reuse.last is not None
    return [node.loc for node in reuse.last.inference.nodes]


def _spans_of(node: ir.Node) -> list[object]:
    """The source spans of our conversion of `node`, in pre-order."""
    return [each.loc for each in preorder(from_gt4py(node))[0]]


def _counted(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Our inference's runs from now on (each call of `_inferred`, behind both drop-ins)."""
    runs: list[object] = []
    run = ours._inferred
    monkeypatch.setattr(ours, "_inferred", lambda *a: runs.append(a) or run(*a))
    return runs


def test_each_reuse_keeps_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two `Reuse`s share nothing: a program inferred with one is inferred again with the other
    (then reused with either); `infer` without one keeps nothing."""
    runs = _counted(monkeypatch)
    first, second = Reuse(), Reuse()
    program = _constant("int32")
    for reuse, inferences in ((first, 1), (first, 1), (second, 2), (first, 2), (second, 2)):
        infer(program, offset_provider_type={}, reuse=reuse)
        assert len(runs) == inferences
    assert first.last is not None and second.last is not None
    assert first.last is not second.last
    for inferences in (3, 4):
        infer(program, offset_provider_type={})
        assert len(runs) == inferences


def test_two_installations_share_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the drop-ins of one installation reuse is theirs alone: its sites share one
    `Reuse` (both `infer`s use it); the next installation starts with a new one, and infers an
    equal program again."""
    from gt4py.next.iterator.transforms import pass_manager

    runs = _counted(monkeypatch)
    program = _constant("int32")
    reuses = []
    for inferences in ((1, 1), (2, 2)):
        install(strict=True)
        try:
            drop_ins = (theirs.infer, theirs.reinfer, pass_manager.infer)
            (reuse,) = {id(d.installation.reuse): d.installation.reuse for d in drop_ins}.values()
            reuses.append(reuse)
            theirs.infer(program, offset_provider_type={})
            assert len(runs) == inferences[0]
            pass_manager.infer(program, offset_provider_type={})  # the pass manager's own name
            assert len(runs) == inferences[1]
        finally:
            uninstall()
    assert reuses[0] is not reuses[1]
