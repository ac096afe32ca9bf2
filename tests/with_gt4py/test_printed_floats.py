"""GT4Py's printed GTIR with an infinite or not-a-number float literal (issue #34): GT4Py's
`str()` of each such literal, and of programs that hold them, reads and types as GT4Py types
the nodes themselves."""

from __future__ import annotations

import pytest
from gt4py.next import common
from gt4py.next.iterator import ir
from gt4py.next.iterator.ir_utils import ir_makers as im
from gt4py.next.iterator.type_system import inference as theirs
from gt4py.next.type_system import type_specifications as ts

import iterir
import typeinf
from iterir.nodes import SetAt
from iterir.traversal import walk
from typeinf.gt4py import from_gt4py

IDim = common.Dimension("IDim")
DOMAIN = im.domain(common.GridType.CARTESIAN, {IDim: (0, 10)})


@pytest.mark.parametrize("value", ["inf", "-inf", "nan"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_each_printed_literal_types_as_gt4pys_literal(value: str, dtype: str) -> None:
    literal = im.literal(value, dtype)
    text = str(literal)  # `inf`, `-inf:f32`, …
    # A typed reference beside it makes the text GTIR; its float fixes the literal's float.
    ours = typeinf.infer(iterir.parse(f"(x: {dtype}) + {text}"))
    assert str(ours) == dtype
    alone = str(typeinf.infer(iterir.parse(f"{{{text}, (b: bool)}}")))
    # Where GT4Py's text leaves the float to its reader (a bare `inf` or `nan`), some float.
    bare = text in ("inf", "nan")
    assert alone == ("tuple[T₀, bool] where T₀: float" if bare else f"tuple[{dtype}, bool]")


def _program(dtype: str, body: ir.Expr) -> ir.Program:
    field = ts.FieldType(
        dims=[IDim], dtype=ts.ScalarType(kind=getattr(ts.ScalarKind, dtype.upper()))
    )
    return ir.Program(
        id="clip",
        function_definitions=[],
        params=[im.sym("a", field), im.sym("out", field)],
        declarations=[],
        body=[ir.SetAt(expr=body, domain=DOMAIN, target=im.ref("out"))],
    )


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_a_printed_program_types_as_gt4py_types_it(dtype: str) -> None:
    stencil = im.lambda_("x")(
        im.plus(
            im.deref("x"),
            im.minus(
                im.literal("inf", dtype),
                im.multiplies_(im.literal("nan", dtype), im.literal("-inf", dtype)),
            ),
        )
    )
    program = _program(dtype, im.as_fieldop(stencil, DOMAIN)("a"))
    text = str(program)
    assert ("inf" in text) and ("nan" in text) and ("-inf" in text)
    expected = theirs.infer(program, offset_provider_type={}).body[0].expr.type
    # GT4Py's text drops the parameters' types: they are given back as typed parameters.
    typed_text = text.replace(
        "clip(a, out)", f"clip(a: Field[[IDimₕ], {dtype}], out: Field[[IDimₕ], {dtype}])"
    )
    ours = iterir.parse(typed_text)
    types = typeinf.infer_all(ours)
    statement = ours.body[0]
    assert isinstance(statement, SetAt)
    assert str(types[id(statement.expr)]) == f"Field[[IDim], {dtype}]"
    assert str(expected) == f"Field[[IDim], {dtype}]"
    # And GT4Py's nodes themselves, converted: their literals keep the values GT4Py printed.
    converted = from_gt4py(program)
    converted_types = typeinf.infer_all(converted)
    statement = converted.body[0]
    assert isinstance(statement, SetAt)
    assert str(converted_types[id(statement.expr)]) == f"Field[[IDim], {dtype}]"
    values = {n.value for n in walk(converted) if isinstance(n, iterir.Literal)}
    assert {"inf", "-inf", "nan"} <= values
