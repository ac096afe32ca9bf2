"""The drop-in never breaks a build: where ours rejects a node that GT4Py's inference accepts,
GT4Py's result is used with one `DisagreementWarning` per program; `strict` raises ours; where
both reject, ours is raised (a fault of ours that is no type error gives way to GT4Py's error).

Ours is made to reject here by replacing its inference (`_inferred`, behind both drop-ins) with
one that raises: the point is the switch's policy, whatever the reason for the rejection."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import pytest
from gt4py.next import common
from gt4py.next.iterator import ir
from gt4py.next.iterator.ir_utils import ir_makers as im
from gt4py.next.iterator.type_system import inference as theirs
from gt4py.next.type_system import type_specifications as ts

import iterir
from typeinf import TypeInferenceError
from typeinf.gt4py import DisagreementWarning, GT4PyTypeInferenceError, install, uninstall
from typeinf.gt4py import inference as ours

IDim = common.Dimension("IDim")
F64 = ts.ScalarType(kind=ts.ScalarKind.FLOAT64)
FIELD = ts.FieldType(dims=[IDim], dtype=F64)


def _program(name: str, body: ir.Expr) -> ir.Program:
    """`name`: out @ {IDim: [0, 10)} ← `body` of `a` (a float64 field)."""
    domain = im.domain(common.GridType.CARTESIAN, {IDim: (0, 10)})
    return ir.Program(
        id=name,
        function_definitions=[],
        params=[im.sym("a", FIELD), im.sym("out", FIELD)],
        declarations=[],
        body=[ir.SetAt(expr=body, domain=domain, target=im.ref("out"))],
    )


def well_typed(name: str) -> ir.Program:
    return _program(name, im.op_as_fieldop("plus")("a", "a"))


def _ill_typed(name: str) -> ir.Program:
    """A float64 field plus a bool: GT4Py's inference rejects it, and so does ours."""
    return _program(name, im.op_as_fieldop("plus")("a", im.literal_from_value(True)))


@pytest.fixture
def ours_rejects(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Ours raises a located type error on every node; the list counts its calls."""
    calls: list[int] = []

    def rejecting(node: iterir.Node, offsets: object) -> object:
        calls.append(1)
        raise GT4PyTypeInferenceError(TypeInferenceError("typeinf says no", node))

    monkeypatch.setattr(ours, "_inferred", rejecting)
    yield calls
    uninstall()


def _disagreements(caught: list[warnings.WarningMessage]) -> list[str]:
    return [str(w.message) for w in caught if issubclass(w.category, DisagreementWarning)]


def test_a_node_ours_rejects_and_gt4py_accepts_gets_gt4pys_types_and_one_warning_per_program(
    ours_rejects: list[int],
) -> None:
    install()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        first = theirs.infer(well_typed("first"), offset_provider_type={})
        again = theirs.infer(well_typed("first"), offset_provider_type={})
        theirs.infer(well_typed("second"), offset_provider_type={})
    assert len(ours_rejects) == 3  # ours was asked each time
    assert first.body[0].expr.type == FIELD and again.body[0].expr.type == FIELD
    told = _disagreements(caught)
    assert len(told) == 2, told
    assert told[0].startswith("typeinf rejected program `first`, which GT4Py's own type")
    assert "typeinf says no" in told[0] and "please report it" in told[0]
    assert "`second`" in told[1]


def test_reinfer_falls_back_as_infer_does(ours_rejects: list[int]) -> None:
    install()
    node = im.op_as_fieldop("plus")(im.ref("a", FIELD), im.ref("a", FIELD))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        theirs.reinfer(node, offset_provider_type={})
    assert ours_rejects and node.type == FIELD
    assert len(_disagreements(caught)) == 1


def test_strict_raises_ours_and_never_asks_gt4py(
    ours_rejects: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    gt4pys = theirs.infer
    asked: list[int] = []

    def counted(*args: object, **kwargs: object) -> object:
        asked.append(1)
        return gt4pys(*args, **kwargs)

    monkeypatch.setattr(theirs, "infer", counted)
    install(strict=True)
    with pytest.raises(GT4PyTypeInferenceError, match="typeinf says no"):
        theirs.infer(well_typed("p"), offset_provider_type={})
    assert ours_rejects and not asked


def test_a_node_both_reject_raises_ours_located() -> None:
    install()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", DisagreementWarning)
            with pytest.raises(GT4PyTypeInferenceError, match="type mismatch"):
                theirs.infer(_ill_typed("p"), offset_provider_type={})
    finally:
        uninstall()


def test_a_fault_of_ours_gives_way_to_gt4pys_error_where_gt4py_rejects_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def crashing(node: iterir.Node, offsets: object) -> object:
        raise KeyError("a fault of ours")

    monkeypatch.setattr(ours, "_inferred", crashing)
    install()
    try:
        with pytest.raises(Exception) as raised:
            theirs.infer(_ill_typed("p"), offset_provider_type={})
        assert not isinstance(raised.value, KeyError)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = theirs.infer(well_typed("q"), offset_provider_type={})
        assert result.body[0].expr.type == FIELD
        assert "a fault of ours" in _disagreements(caught)[0]
    finally:
        uninstall()
