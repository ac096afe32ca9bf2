"""`typeinf.infer` reuses the type of a closed lambda typed before (`GtirInference.reused`):
its program types and its errors (message and node) are those of the inference that types
every lambda afresh, on programs that apply a few stencils, well or ill typed, again and
again."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.gtir_shapes import OFFSET_TYPES
from iterir import FunCall, Lambda, Node, SymRef
from iterir.builders import (
    as_fieldop,
    axis,
    call,
    cartesian_domain,
    cartesian_offset,
    deref,
    field,
    lam,
    named_range,
    offset,
    program,
    scalar,
    set_at,
    sym,
    unstructured_domain,
)
from iterir.nodes import Program
from typeinf.errors import TypeInferenceError
from typeinf.gtir_collect import GtirInference
from typeinf.gtir_infer import _program_type

IDIM = axis("IDim", "horizontal")


def _stencils() -> list[Lambda]:
    """Closed lambdas: some type on every field, some only on float fields or on edges, one
    takes two inputs, one holds a lambda of its own."""
    shifted = call(FunCall(SymRef("shift"), (cartesian_offset(IDIM), offset(1))))("a")
    neighbors = call("neighbors")(offset("V2E"), "a")
    inner = lam("x")(call("multiplies")(deref("x"), 2.0))
    return [
        lam("a")(deref("a")),
        lam("a")(call("plus")(deref(shifted), 1.0)),
        lam("a")(call(call("reduce")("plus", 0.0))(neighbors)),
        lam("a", "b")(call("plus")(deref("a"), deref("b"))),
        lam("a")(call(inner)("a")),
        lam("a")(call("less")(deref("a"), 0)),
    ]


FIELDS = {
    "f": field(["IDim"], "float64"),
    "g": field(["IDim"], "int32"),
    "e": field(["Edge"], "float64"),
    "v": field(["Vertex"], "float64"),
}
#: Statements that type: (stencil, target, inputs, on a Cartesian domain).
WELL_TYPED = [
    (0, "f", ["f"], True),
    (0, "g", ["g"], True),
    (1, "f", ["f"], True),
    (2, "v", ["e"], False),
    (3, "f", ["f", "f"], True),
    (4, "f", ["f"], True),
]
statement = st.one_of(
    st.sampled_from(WELL_TYPED),
    st.tuples(
        st.integers(0, len(_stencils()) - 1),
        st.sampled_from(sorted(FIELDS)),
        st.lists(st.sampled_from(sorted(FIELDS)), min_size=1, max_size=2),
        st.booleans(),
    ),
)


def _program(statements: list[tuple[int, str, list[str], bool]], fresh: bool) -> Program:
    """Each statement writes a stencil applied to fields; `fresh`: each its own copy of the
    stencil (else one object for all its uses)."""
    shared = _stencils()
    body = []
    for index, target, inputs, cartesian in statements:
        stencil = (_stencils() if fresh else shared)[index]
        domain = (
            cartesian_domain(named_range("IDim", 0, "n", "horizontal"))
            if cartesian
            else unstructured_domain(named_range("Vertex", 0, "n", "horizontal"))
        )
        body.append(set_at(target, domain, call(as_fieldop(stencil, domain))(*inputs)))
    params = [sym(name, type=type_) for name, type_ in FIELDS.items()]
    return program("p", [*params, sym("n", type=scalar("int32"))], body)


def _outcome(node: Node, reuse: bool) -> tuple[str, int | None]:
    """The program's type, or the error's message and the id of its node."""
    try:
        inference = GtirInference(node, OFFSET_TYPES, program_only=reuse)
    except TypeInferenceError as error:
        return f"{type(error).__name__}: {error}", id(error.node)
    return str(_program_type(inference)), None


@settings(max_examples=300, deadline=None)
@given(st.lists(statement, min_size=1, max_size=8), st.booleans())
def test_reused_stencils_type_as_stencils_typed_afresh(
    statements: list[tuple[int, str, list[str], bool]], fresh: bool
) -> None:
    node = _program(statements, fresh)
    assert _outcome(node, reuse=True) == _outcome(node, reuse=False)


def test_a_stencil_used_again_is_reused() -> None:
    """What the property compares is reuse: the stencil's third use is not typed inside (its
    first is only noted, its second kept)."""
    node = _program([(1, "f", ["f"], True)] * 3, fresh=True)
    inference = GtirInference(node, OFFSET_TYPES, program_only=True)
    assert inference.stencils is not None and len(inference.stencils) == 1
    untyped = sum(cell is None for cell in inference.types)
    afresh = GtirInference(node, OFFSET_TYPES)
    assert untyped > sum(cell is None for cell in afresh.types)
    assert str(_program_type(inference)) == str(_program_type(afresh))
