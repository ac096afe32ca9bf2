"""`typeinf.gt4py.infer` and `reinfer` against GT4Py 1.2.3's own inference: on every GTIR
sample (built as GT4Py's nodes from its JSON), the type ours leaves on each node equals the
one GT4Py's leaves (on a copy) wherever GT4Py's is ground, and is GT4Py-compatible elsewhere;
type errors are our located errors and AssertionErrors, as GT4Py's callers expect."""

from __future__ import annotations

import pytest
from gt4py.eve import concepts
from gt4py.next import common
from gt4py.next.iterator import ir
from gt4py.next.iterator.ir_utils import ir_makers as im
from gt4py.next.iterator.type_system import inference as theirs
from gt4py.next.iterator.type_system import type_specifications as it_ts
from gt4py.next.type_system import type_specifications as ts

import iterir
from benchmarks.icon4py_inference import walk
from iterir.offset_types import offset_types_from_json
from tests.test_gtir_samples import SAMPLES
from typeinf import TypeInferenceError
from typeinf.gt4py import (
    GT4PyTypeInferenceError,
    Reuse,
    infer,
    offset_types_to_gt4py,
    reinfer,
    to_gt4py,
)

TYPED = [s for s in SAMPLES if "gt4py_error" not in s]
IDim = common.Dimension("IDim")
F64, I32 = ts.ScalarType(kind=ts.ScalarKind.FLOAT64), ts.ScalarType(kind=ts.ScalarKind.INT32)


def _ground(type_: object) -> bool:
    text = repr(type_)
    return type_ is not None and "DeferredType" not in text and "'unknown'" not in text


def compatible(gt4pys: object, ours: object) -> bool:
    """GT4Py-compatible: where GT4Py leaves no type, any of ours (or none); where it says
    `DeferredType`, any type of ours but none at all; an iterator's "unknown" positions, any
    positions; anything else, the same class with compatible fields (equal where ground)."""
    if gt4pys is None:
        return True
    if ours is None:
        return False
    if isinstance(gt4pys, ts.DeferredType):
        return True
    if type(gt4pys) is not type(ours):
        return False
    if isinstance(gt4pys, (list, tuple)):
        return len(gt4pys) == len(ours) and all(map(compatible, gt4pys, ours))  # type: ignore[arg-type]
    if isinstance(gt4pys, dict):
        return gt4pys.keys() == ours.keys() and all(  # type: ignore[attr-defined]
            compatible(v, ours[k])  # type: ignore[index]
            for k, v in gt4pys.items()
        )
    if isinstance(gt4pys, it_ts.IteratorType) and gt4pys.position_dims == "unknown":
        return compatible(gt4pys.defined_dims, ours.defined_dims) and compatible(  # type: ignore[attr-defined]
            gt4pys.element_type,
            ours.element_type,  # type: ignore[attr-defined]
        )
    if isinstance(gt4pys, ts.TypeSpec):
        return all(compatible(value, getattr(ours, name)) for name, value in vars(gt4pys).items())
    return gt4pys == ours


def typed_alike(expected: ir.Node, ours: ir.Node) -> list[tuple[ir.Node, ir.Node]]:
    """Assert that `ours`, a copy typed by the drop-in, has on each node the type GT4Py's
    copy `expected` has where that is ground, and one compatible with it elsewhere; the pairs
    of nodes, in pre-order."""
    pairs = list(zip(walk(expected), walk(ours), strict=True))
    for gt4pys, mine in pairs:
        assert type(gt4pys) is type(mine)
        if _ground(gt4pys.type):
            assert mine.type == gt4pys.type, f"{gt4pys}: {gt4pys.type} != {mine.type}"
        else:
            assert compatible(gt4pys.type, mine.type), f"{gt4pys}: {gt4pys.type} vs {mine.type}"
    return pairs


def test_compatible_says_what_it_should() -> None:
    deferred = ts.DeferredType(constraint=None)
    field = ts.FieldType(dims=[IDim], dtype=F64)
    assert compatible(None, None) and compatible(None, field)
    assert compatible(deferred, field) and not compatible(deferred, None)
    assert compatible(ts.TupleType(types=[deferred, I32]), ts.TupleType(types=[field, I32]))
    assert not compatible(ts.TupleType(types=[deferred, I32]), ts.TupleType(types=[field, F64]))
    assert not compatible(ts.TupleType(types=[deferred]), ts.TupleType(types=[field, field]))
    unknown = it_ts.IteratorType(position_dims="unknown", defined_dims=[IDim], element_type=F64)
    known = it_ts.IteratorType(position_dims=[IDim], defined_dims=[IDim], element_type=F64)
    assert compatible(unknown, known) and not compatible(known, unknown)
    assert not compatible(field, ts.FieldType(dims=[], dtype=F64))


def _built(sample: dict) -> tuple[ir.Node, dict]:
    node = to_gt4py(iterir.from_json(sample["ir"]))
    provider = offset_types_to_gt4py(offset_types_from_json(sample["offset_provider_type"]))
    return node, provider


@pytest.mark.parametrize("sample", TYPED, ids=[s["id"] for s in TYPED])
def test_our_types_are_gt4pys_where_it_knows_them(sample: dict) -> None:
    node, provider = _built(sample)
    standalone = not isinstance(node, ir.Program)
    expected = theirs.infer(
        node, offset_provider_type=provider, allow_undeclared_symbols=standalone
    )
    ours = infer(node, offset_provider_type=provider, allow_undeclared_symbols=standalone)
    assert ours == node and ours is not node  # a copy, as GT4Py's
    pairs = typed_alike(expected, ours)
    for gt4pys, mine in pairs:
        if isinstance(gt4pys, (ir.Lambda, ir.FunctionDefinition, ir.Program)):
            theirs_table, ours_table = gt4pys.annex.symtable, mine.annex.symtable
            assert list(ours_table) == list(theirs_table)
            assert all(ours_table[k] == theirs_table[k] for k in theirs_table)
    # Each occurrence its own node, as GT4Py's copy: a shared node may need two types.
    assert len({id(mine) for _, mine in pairs}) == len(pairs)


def test_the_sample_gt4py_rejects_types_here() -> None:
    (sample,) = [s for s in SAMPLES if "gt4py_error" in s]
    node, provider = _built(sample)
    with pytest.raises(AssertionError):
        theirs.infer(node, offset_provider_type=provider)
    typed = infer(node, offset_provider_type=provider)
    assert isinstance(typed.type, it_ts.ProgramType)


def _program_adding(left: ts.ScalarType, right: ts.ScalarType) -> ir.Program:
    where = concepts.SourceLocation("stencil.py", 7, 12, 7, 17)
    total = ir.FunCall(fun=im.ref("plus"), args=[im.ref("a"), im.ref("b")], location=where)
    domain = im.domain(common.GridType.CARTESIAN, {IDim: (0, 10)})
    return ir.Program(
        id="p",
        function_definitions=[],
        params=[
            im.sym("a", ts.FieldType(dims=[IDim], dtype=left)),
            im.sym("b", ts.FieldType(dims=[IDim], dtype=right)),
            im.sym("out", ts.FieldType(dims=[IDim], dtype=left)),
        ],
        declarations=[],
        body=[
            ir.SetAt(
                expr=im.as_fieldop(im.lambda_("x", "y")(im.plus(im.deref("x"), im.deref("y"))))(
                    "a", "b"
                ),
                domain=domain,
                target=im.ref("out"),
            ),
            ir.SetAt(expr=im.ref("a"), domain=domain, target=im.ref("out")),
            ir.SetAt(expr=total, domain=domain, target=im.ref("out")),
        ],
    )


def test_a_program_inferred_again_is_typed_as_gt4py_types_it() -> None:
    """`infer` with a `Reuse` gives the previous inference again for an equal program (GT4Py's
    passes infer unchanged programs again); a program that differs only in its parameters'
    types, in between, is inferred afresh: every call's types are those GT4Py's inference
    leaves."""
    provider: dict = {}
    reuse = Reuse()
    for left, right in ((F64, F64), (F64, F64), (I32, I32), (F64, F64)):
        program = _program_adding(left, right)
        program.body.pop()  # the mismatch `_program_adding` keeps for the error tests
        expected = theirs.infer(program, offset_provider_type=provider)
        ours = infer(program, offset_provider_type=provider, reuse=reuse)
        for gt4pys, mine in zip(walk(expected), walk(ours), strict=True):
            assert mine.type == gt4pys.type or compatible(gt4pys.type, mine.type)
            if _ground(gt4pys.type):
                assert mine.type == gt4pys.type


def test_an_equal_program_reuses_the_previous_inference(monkeypatch: pytest.MonkeyPatch) -> None:
    """The reuse hits: of four `infer`s with one `Reuse` (equal, equal, another, equal), three
    run our inference, the second reusing the first's; without one, all four do."""
    from typeinf.gt4py import inference

    runs: list[object] = []
    run = inference._inferred
    monkeypatch.setattr(inference, "_inferred", lambda *a: runs.append(a) or run(*a))
    for reuse, inferences in ((Reuse(), 3), (None, 4)):
        runs.clear()
        for left, right in ((F64, F64), (F64, F64), (I32, I32), (F64, F64)):
            program = _program_adding(left, right)
            program.body.pop()
            infer(program, offset_provider_type={}, reuse=reuse)
        assert len(runs) == inferences


def test_a_name_keeps_its_given_type_only_where_declared_nowhere() -> None:
    """The conversion keeps the type GT4Py left on a name exactly where our name resolution
    finds it declared nowhere (free or a builtin): on every sample, with a type left on every
    name, as GT4Py's previous inference leaves them."""
    from iterir.symbols import BindingKind, resolve
    from iterir.traversal import preorder
    from iterir.vocabulary import GTIR_BUILTINS
    from typeinf.gt4py.inference import _StandIns
    from typeinf.gt4py.nodes import from_gt4py

    wrong = []
    for sample in SAMPLES:
        node = to_gt4py(iterir.from_json(sample["ir"]))
        for each in walk(node):
            if type(each) is ir.SymRef and each.type is None:
                each.__dict__["type"] = F64
        stand_ins = _StandIns(node, allow_undeclared=False, given=False)
        ours = from_gt4py(node, stand_ins, None, stand_ins.leave)
        nodes, sizes = preorder(ours)
        table = resolve(ours, GTIR_BUILTINS, tree=(nodes, sizes))
        for position, each in enumerate(nodes):
            if type(each) is iterir.SymRef:
                kind = table.bindings[position][0]
                declared_nowhere = kind in (BindingKind.FREE, BindingKind.BUILTIN)
                if declared_nowhere != (each.type is not None):
                    wrong.append((sample["id"], each.id, kind))
    assert wrong == []


def test_a_type_error_is_ours_located_and_an_assertion_error() -> None:
    program = _program_adding(F64, I32)
    with pytest.raises(AssertionError):
        theirs.infer(program, offset_provider_type={})
    with pytest.raises(GT4PyTypeInferenceError) as caught:
        infer(program, offset_provider_type={})
    error = caught.value
    assert isinstance(error, TypeInferenceError) and isinstance(error, AssertionError)
    assert "float64" in error.message and "int32" in error.message
    assert str(error).startswith("<ir> ") or str(error).startswith("stencil.py:")


def test_an_error_points_at_gt4pys_location() -> None:
    program = _program_adding(F64, F64)
    bad = program.body[2]
    assert isinstance(bad, ir.SetAt)
    bad.expr.args[1] = im.literal("1", "int32")  # plus(Field[f64], int32) at stencil.py:7:12
    with pytest.raises(GT4PyTypeInferenceError, match=r"^stencil\.py:7:12"):
        infer(program, offset_provider_type={})


def test_reinfer_types_what_is_untyped_in_place_as_gt4py_does() -> None:
    for sample in TYPED[:200]:
        node, provider = _built(sample)
        standalone = not isinstance(node, ir.Program)
        kwargs = {"offset_provider_type": provider, "allow_undeclared_symbols": standalone}
        expected, ours = theirs.infer(node, **kwargs), theirs.infer(node, **kwargs)
        for each in (expected, ours):  # forget the types of every call under the root's
            for inner in walk(each):
                if isinstance(inner, ir.FunCall) and inner is not each:
                    inner.type = None
            each.type = None
        assert theirs.reinfer(expected, offset_provider_type=provider) is expected
        assert reinfer(ours, offset_provider_type=provider) is ours
        for gt4pys, mine in zip(walk(expected), walk(ours), strict=True):
            if _ground(gt4pys.type):
                assert mine.type == gt4pys.type, f"{sample['id']}: {gt4pys}"
            else:
                assert compatible(gt4pys.type, mine.type), f"{sample['id']}: {gt4pys}"


def test_reinfer_leaves_a_typed_node_alone() -> None:
    node = im.plus("a", "b")
    node.type = F64
    assert reinfer(node) is node and node.fun.type is None and node.args[0].type is None


def test_reinfer_types_a_node_object_met_twice_at_its_first_place_as_gt4py_does() -> None:
    def built() -> tuple[ir.Node, ir.SymRef]:
        x = im.ref("x")  # one object, the body of two lambdas applied to int32 and float64
        applied = [
            ir.FunCall(fun=ir.Lambda(params=[im.sym("x")], expr=x), args=[im.literal(v, kind)])
            for v, kind in (("1", "int32"), ("1.0", "float64"))
        ]
        return im.make_tuple(*applied), x

    (expected, theirs_x), (mine, our_x) = built(), built()
    theirs.reinfer(expected, offset_provider_type={})
    reinfer(mine, offset_provider_type={})
    assert our_x.type == theirs_x.type == ts.ScalarType(kind=ts.ScalarKind.INT32)
