"""Every error issue 14 lists for GTIR (GT4Py 1.2.3 raises a bare exception on each: GTIR.md
section 1), located (file:line:col of the node at fault) and its full message pinned; and the
checks GT4Py lacks (docs/gtir.md, "Where we differ from GT4Py"), each an error because no
sample of GT4Py's violates it."""

from __future__ import annotations

import pytest

import iterir
import typeinf
from iterir.nodes import CartesianOffset, Program
from iterir.offset_types import offset_types_from_json
from tests.test_gtir_samples import SAMPLES
from tests.test_gtir_typing import V2E
from typeinf.core.diagnostics import render, source_of
from typeinf.core.errors import MalformedIRError

HEAD = "p(a: Field[[IDimₕ], f64], out: Field[[IDimₕ], f64], n: i32"
D = "c⟨ IDimₕ: [0, n[ ⟩"
VERTICES = "u⟨ Vertexₕ: [0, 5[ ⟩"

#: (what, program text, offset provider, the first error as `str(error)` prints it)
ERRORS = [
    (
        "mismatched scalar types in arithmetic",
        "{1,\n (x: f32) + 1.0}",
        None,
        "e.itir:2:2: error: `plus` takes `(T₀, T₀) → T₀`, not `(float32, float64) → T₁`",
    ),
    (
        "deref of a non-iterator",
        "{1,\n ·(x: f64)}",
        None,
        "e.itir:2:2: error: type mismatch: expected `It[D₀, D₁, T₂]`, found `float64`",
    ),
    (
        "deref of an iterator not defined at its position",
        "as_fieldop(deref, c⟨ IDimₕ: [0, 5[ ⟩)(\n  (a: Field[[Vertexₕ], i32]))",
        None,
        "e.itir:1:12: error: `[Vertex] ⊆ [IDim]` cannot hold: [Vertex] not in [IDim]",
    ),
    (
        "a tuple index out of range",
        "{1, {(x: i32), 2}[2]}",
        None,
        "e.itir:1:5: error: tuple index 2 is out of range: `tuple[int32, int32]` has 2 elements",
    ),
    (
        "an unknown offset",
        f"as_fieldop(λ(it) → ·⟪E2Vₒ, 0ₒ⟫(it), {VERTICES})((e: Field[[Edgeₕ], f64]))",
        {"V2E": V2E},
        "e.itir:1:22: error: offset `E2V` is unknown: the offset provider does not name it",
    ),
    (
        "an unknown offset, the offset provider empty",
        f"as_fieldop(λ(it) → ·⟪E2Vₒ, 0ₒ⟫(it), {VERTICES})((e: Field[[Edgeₕ], f64]))",
        {},
        "e.itir:1:22: error: offset `E2V` is unknown: the offset provider does not name it",
    ),
    (
        "an unknown offset, no offset provider",
        f"as_fieldop(λ(it) → ·⟪E2Vₒ, 0ₒ⟫(it), {VERTICES})((e: Field[[Edgeₕ], f64]))",
        None,
        "e.itir:1:22: error: offset `E2V` is unknown: no offset provider was given",
    ),
    (
        "a recursive definition",
        f"{HEAD}) {{\n  f = λ(x) → g(x);\n  g = λ(x) → f(x);\n  out @ {D} ← a;\n}}",
        None,
        "e.itir:3:14: error: recursion is not allowed: f → g → f",
    ),
    (
        "an IfStmt condition that is not bool",
        f"{HEAD}) {{\n  if (n) {{ out @ {D} ← a; }} else {{ }}\n}}",
        None,
        "e.itir:2:7: error: the condition of `if` must be `bool`, not `int32`",
    ),
    (
        "a SetAt whose expression and target differ in dimensions",
        f"{HEAD}, b: Field[[IDimₕ, KDimᵥ], f64]) {{\n  out @ {D} ← b;\n}}",
        None,
        "e.itir:2:30: error: the expression written is `Field[[IDim, KDimᵥ], float64]`, its "
        "target `Field[[IDim], float64]`: KDimᵥ is extra",
    ),
    (
        "a SetAt whose expression and target differ in dtype",
        f"{HEAD}, b: Field[[IDimₕ], i32]) {{\n  out @ {D} ← b;\n}}",
        None,
        "e.itir:2:30: error: the expression written is `Field[[IDim], int32]`, its target "
        "`Field[[IDim], float64]`",
    ),
    (
        "a field of dimensions the domain cannot reach",
        f"{HEAD}, b: Field[[IDimₕ, KDimᵥ], f64]) {{\n"
        f"  out @ {D} ← as_fieldop(λ(it) → ·it, {D})(b);\n}}",
        None,
        "e.itir:2:49: error: `[IDim, KDimᵥ] ⊆ [IDim]` cannot hold: [KDimᵥ] not in [IDim]",
    ),
    (
        "a connectivity applied at the wrong position",
        "as_fieldop(λ(it) →\n  ·⟪V2Eₒ, 0ₒ⟫(it), c⟨ IDimₕ: [0, 5[ ⟩)((e: Field[[Edgeₕ], f64]))",
        {"V2E": V2E},
        "e.itir:2:4: error: `D₀ = shift([IDim], Offset[Vertex→Edge])` cannot hold: a shift from "
        "[Vertex] applies to an iterator at [IDim]",
    ),
    (
        "tuple_get without its tuple (an IndexError before)",
        "{(x: f32),\n tuple_get(0)}",
        None,
        "e.itir:2:2: error: `tuple_get` takes 2 arguments, not 1",
    ),
]


@pytest.mark.parametrize(
    ("what", "text", "provider", "expected"), ERRORS, ids=[w for w, *_ in ERRORS]
)
def test_each_error_is_located_and_said(
    what: str, text: str, provider: dict | None, expected: str
) -> None:
    errors = typeinf.check(iterir.parse(text, "e.itir"), provider).errors
    assert errors, what
    assert str(errors[0]).splitlines()[0] == expected
    with pytest.raises(typeinf.TypeInferenceError) as raised:
        typeinf.infer(iterir.parse(text, "e.itir"), provider)
    assert str(raised.value).splitlines()[0] == expected  # `infer` raises the first


#: The checks GT4Py lacks (GTIR.md section 5), each with a program that violates it, the error,
#: and the builtin whose every use in the samples passes it.
CHECKS = [
    (
        "bool operands of and_/or_",
        "and_(True, (x: i32))",
        "e.itir:1:1: error: `and_` takes `(bool, bool) → bool`, not `(bool, int32) → T₀`",
        "and_",
    ),
    (
        "equal branches of if_",
        "if_((c: bool), 1, 1.0)",
        "e.itir:1:1: error: `if_` takes `(bool, T₀, T₀) → T₀`, not `(bool, int32, float64) → T₁`",
        "if_",
    ),
    (
        "integer named_range bounds",
        "c⟨ IDimₕ: [0, (x: f64)[ ⟩",
        "e.itir:1:4: error: `named_range` takes `(Dimension[T₀], int32, int32) → NamedRange[T₀]`, "
        "not `(Dimension[IDim], int32, float64) → T₁`",
        "named_range",
    ),
    (
        "an offset unknown to an empty offset provider",
        f"as_fieldop(λ(it) → ·⟪E2Vₒ, 0ₒ⟫(it), {VERTICES})((e: Field[[Edgeₕ], f64]))",
        "e.itir:1:22: error: offset `E2V` is unknown: the offset provider does not name it",
        "shift",
    ),
    (
        "the source of cast_",
        "cast_({(x: i32), 2}, float64)",
        "e.itir:1:1: error: `tuple[int32, int32]: scalar` cannot hold: `cast_` converts a scalar",
        "cast_",
    ),
]


def _uses(builtin: str) -> int:
    """How many calls of `builtin` the samples hold."""
    return sum(
        1
        for sample in SAMPLES
        for node in iterir.walk(iterir.from_json(sample["ir"]))
        if isinstance(node, iterir.FunCall)
        and isinstance(node.fun, iterir.SymRef)
        and node.fun.id == builtin
    )


@pytest.mark.parametrize(
    ("check", "text", "expected", "builtin"), CHECKS, ids=[c for c, *_ in CHECKS]
)
def test_each_check_gt4py_lacks_is_an_error(
    check: str, text: str, expected: str, builtin: str
) -> None:
    """An error, not a warning: no sample violates it (all 942 type, each use of the builtin
    with it: `test_gtir_typing_samples`), and the samples do use the builtin."""
    errors = typeinf.check(iterir.parse(text, "e.itir"), {}).errors
    assert [str(e).splitlines()[0] for e in errors] == [expected]
    assert _uses(builtin) > 0, f"no sample calls `{builtin}`: the samples cannot decide {check}"


def test_no_sample_violates_a_check_gt4py_lacks() -> None:
    """Each sample types with every check an error (so none is a warning), with its own offset
    provider: an empty one for the Cartesian programs, whose offsets are then all known."""
    for sample in SAMPLES:
        node = iterir.from_json(sample["ir"])
        offsets = offset_types_from_json(sample["offset_provider_type"])
        assert typeinf.check(node, offsets).errors == [], sample["id"]
        if isinstance(node, Program) and not offsets:
            assert typeinf.check(node, {}).errors == []


def test_a_type_error_notes_the_rules_behind_each_side() -> None:
    """As for fencils, `check` gives a GTIR type error notes on where its types come from (the
    explaining run, made only when there are errors)."""
    text = "p(a: Field[[IDimₕ], f64], n: i32) {\n  a @ c⟨ IDimₕ: [0, n[ ⟩ ← as_fieldop(λ(x) → ·x + 1, c⟨ IDimₕ: [0, n[ ⟩)(a);\n}"
    (error,) = typeinf.check(iterir.parse(text, "e.itir")).errors
    assert error.message == (
        "type mismatch: expected `(It[D₀, D₁, int32]) → int32`, found "
        "`(It[[IDim], [IDim], float64]) → T₂`"
    )
    assert [(note, iterir.pformat(node)) for note, node in error.notes] == [
        ("`(It[D₀, D₁, int32]) → int32` comes from the typing of `deref`", "·x"),
        ("`(It[D₀, D₁, int32]) → int32` comes from the typing of `plus`", "·x + 1"),
        (
            "`(It[[IDim], [IDim], float64]) → T₂` comes from the typing of `cartesian_domain`",
            "c⟨ IDimₕ: [0, n[ ⟩",
        ),
        ("`(It[[IDim], [IDim], float64]) → T₂` comes from a relation of `a`", "a"),
    ]
    program = iterir.parse(text, "e.itir")
    (error,) = typeinf.check(program).errors
    rendered = render(error, source_of("e.itir", text, program), False).splitlines()
    assert rendered[0] == "e.itir:2:39: error: " + error.message
    assert (
        "  note: `(It[D₀, D₁, int32]) → int32` comes from the typing of `plus` at 2:46" in rendered
    )


def test_an_untyped_program_parameter_gets_a_variable_its_uses_determine() -> None:
    """No error: an untyped parameter is a variable, as in GT4Py's printed text; one that
    nothing uses stays a variable of the program's signature."""
    unused = f"{HEAD},\n  m) {{ out @ {D} ← a; }}"
    checked = typeinf.check(iterir.parse(unused, "e.itir"))
    assert checked.errors == []
    assert str(checked.type) == "{p(Field[[IDim], float64], Field[[IDim], float64], int32, T₀)}"
    text = (
        "p(a, out: Field[[IDimₕ], f64], b) {\n"
        "  out @ c⟨ IDimₕ: [0, 5[ ⟩ ← a;\n"
        "  out @ c⟨ IDimₕ: [0, 5[ ⟩ ← a;\n"
        "  out @ c⟨ IDimₕ: [0, 5[ ⟩ ← b;\n"
        "}\n"
    )
    checked = typeinf.check(iterir.parse(text, "e.itir"))
    assert checked.errors == []
    assert str(checked.type) == (
        "{p(Field[[IDim], float64], Field[[IDim], float64], Field[[IDim], float64])}"
    )
    assert str(typeinf.infer(iterir.parse(text, "e.itir"))) == str(checked.type)


def test_a_node_built_where_its_class_may_not_stand_is_a_malformed_ir_error() -> None:
    """A tree built in Python with a node where its class may not stand is a located
    MalformedIRError for every entry point (it was iterir's bare MisplacedNodeError on GTIR)."""
    text = (
        "p(a: Field[[IDimₕ], f64], n: i32) {\n"
        "  a @ c⟨ IDimₕ: [0, n[ ⟩ ← as_fieldop(λ(x) → ·x, c⟨ IDimₕ: [0, n[ ⟩)(a);\n}"
    )
    program = iterir.parse(text, "m.itir")
    object.__setattr__(program.body[0], "expr", iterir.Sym("zz"))  # type: ignore[attr-defined]
    message = "m.itir:2:3: error: a Sym cannot stand inside the `expr` of a SetAt"
    assert [str(e).splitlines()[0] for e in typeinf.check(program).errors] == [message]
    for entry in (typeinf.infer, typeinf.infer_all):
        with pytest.raises(MalformedIRError) as caught:
            entry(program)
        assert str(caught.value).splitlines()[0] == message


@pytest.mark.parametrize(
    ("body", "column"),
    [
        # A definition whose type contains itself: was an internal error (generalizing it).
        ("  f = λ(x) → x(x);\n  a @ c⟨ IDimₕ: [0, n[ ⟩ ← as_fieldop(λ(y) → ·y, c⟨ IDimₕ: [0, n[ ⟩)(a);", 16),
        # One inside a statement that nothing else constrains: was accepted silently.
        ("  a @ c⟨ IDimₕ: [0, n[ ⟩ ← as_fieldop(λ(y) → (λ(f) → ·y)(λ(x) → x(x)), c⟨ IDimₕ: [0, n[ ⟩)(a);", 67),
    ],
)  # fmt: skip
def test_an_infinite_type_is_an_error_at_its_node(body: str, column: int) -> None:
    text = f"p(a: Field[[IDimₕ], f64], n: i32) {{\n{body}\n}}"
    (error,) = typeinf.check(iterir.parse(text, "i.itir")).errors
    assert str(error).splitlines()[0] == (
        f"i.itir:2:{column}: error: this would need an infinite type "
        "(`(…) → T₀`, where `…` is the type itself)"
    )


def test_a_misplaced_node_the_printer_cannot_show_is_named_by_its_parents_class() -> None:
    """A `Literal` where a `CartesianOffset` wants an axis: the error is at the offset's span,
    or, with none, names the offset by its class (printing it needs the axis's kind: it was an
    AttributeError from the printer)."""
    program = iterir.parse(
        "p(a: Field[[IDimₕ], f64], n: i32) {\n"
        "  a @ c⟨ IDimₕ: [0, n[ ⟩ ← as_fieldop(λ(x) → ·⟪IDimₕ→IDimₕ, 1ₒ⟫(x), "
        "c⟨ IDimₕ: [0, n[ ⟩)(a);\n}",
        "c.itir",
    )
    offset = next(n for n in iterir.walk(program) if isinstance(n, CartesianOffset))
    object.__setattr__(offset, "domain", iterir.Literal("1", "int32"))
    (error,) = typeinf.check(program).errors
    assert isinstance(error, MalformedIRError)
    assert str(error).splitlines()[0] == (
        "c.itir:2:48: error: a Literal cannot stand inside the `domain` of a CartesianOffset"
    )
    object.__setattr__(offset, "loc", None)  # as read from JSON: located by its text
    (error,) = typeinf.check(program).errors
    assert str(error).splitlines()[0] == (
        "<ir> a CartesianOffset: error: a Literal cannot stand inside the `domain` of a CartesianOffset"
    )


def test_a_name_declared_twice_is_said_as_in_the_fencil_ir() -> None:
    """A program parameter and a lambda's parameter declared twice: a `DuplicateNameError`
    each, in the fencil IR's words (GTIR said a plain `TypeInferenceError`, its note "the first
    `a`")."""
    text = f"{HEAD}, a: f64) {{\n  out @ {D} ← as_fieldop(λ(x, x) → ·x, {D})(a, a);\n}}"
    program = iterir.parse(text, "e.itir")
    errors = typeinf.check(program).errors
    assert [type(error) for error in errors] == [typeinf.DuplicateNameError] * 2
    assert [render(error, source_of("e.itir", text, program), False) for error in errors] == [
        "e.itir:1:61: error: `a` is declared twice\n"
        f"    {HEAD}, a: f64) {{\n"
        f"{' ' * 64}^\n"
        "  note: the first `a` is declared at 1:3",
        "e.itir:2:46: error: `x` is declared twice\n"
        f"      out @ {D} ← as_fieldop(λ(x, x) → ·x, {D})(a, a);\n"
        f"{' ' * 49}^\n"
        "  note: the first `x` is declared at 2:43",
    ]
