"""GTIR typing as a table: program text → its type (GTIR's notation), or the error it is
(`ErrorClass: message`). Each row is a rule of docs/gtir.md, "Typing", at work."""

from __future__ import annotations

import pytest

import iterir
import typeinf
from iterir import FunctionDefinition, SymRef
from iterir.builders import if_stmt, program
from iterir.gtir_types import Dimension
from iterir.nodes import Program, SetAt
from iterir.offset_types import NeighborConnectivityType
from typeinf.core.errors import TypeInferenceError

F = "a: Field[[IDimₕ], f64], out: Field[[IDimₕ], f64], n: i32"
D = "c⟨ IDimₕ: [0, n[ ⟩"

#: (rule, program, type or `ErrorClass: message`)
SPEC = [
    ("literals", "(x: i64)", "int64"),
    ("literals", "{(x: i64), 1.0:f32, True}", "tuple[int64, float32, bool]"),
    ("infinity", "c⟨ IDimₕ: [-∞, ∞[ ⟩", "Domain[[IDim]]"),
    # GT4Py prints a float literal's value as Python's `str` of it: `inf`, `-inf`, `nan`, with
    # `:f32` for a float32 (its `str()` of `im.literal("inf", "float32")` is `inf:f32`). A bare
    # `inf` or `nan` is a name; where nothing binds it, some float.
    ("inf and nan", "(x: f32) × inf + nan", "float32"),
    ("inf and nan", "(x: f64) + -inf", "float64"),
    (
        "inf and nan",
        "{inf, nan:f32, -inf:f32, -inf, inf:float64, (b: bool)}",
        "tuple[T₀, float32, float32, float64, float64, bool] where T₀: float",
    ),
    ("inf and nan", "λ(inf) → inf + (x: i32)", "(int32) → int32"),
    (
        "inf and nan",
        "(x: i32) + nan:f32",
        "UnsatisfiableConstraintError: `plus` takes `(T₀, T₀) → T₀`, not `(int32, float32) → T₁`",
    ),
    (
        "inf and nan",  # GT4Py 1.2.3's str() of the program, its parameters typed here
        f"clip({F}) {{ out @ {D} ← (⇑(λ(x) → ·x + (inf - nan)))(a); }}",
        "{clip(Field[[IDim], float64], Field[[IDim], float64], int32)}",
    ),
    ("arithmetic", "λ(x, y) → x + y + (z: i32)", "(int32, int32) → int32"),
    ("arithmetic", "(x: i32) + 1", "int32"),
    ("comparison", "(x: f64) < 1.0", "bool"),
    ("if_", "if_((c: bool), (a: i32), 1)", "int32"),
    ("tuples", "{(x: i32), 1.0}[1]", "float64"),
    ("tuples", "λ(t) → t[1] + (x: f32)", "(tuple[T₀, float32, *T₁]) → float32"),
    ("deref", "λ(it) → ·it + (x: i32)", "(It[D₀, D₁, int32]) → int32"),
    ("cast_", "cast_((x: i32), float64)", "float64"),
    (
        "cast_",
        f"p({F}) {{ f = λ(x) → cast_(x, float64); out @ {D} ← a; }}",
        "{f :: (T₀) → float64 where T₀: scalar, p(Field[[IDim], float64], Field[[IDim], float64], int32)}",
    ),
    ("neg", "neg((x: f32))", "float32"),
    (
        "list_get",
        "λ(i) → list_get(i, (l: List[f64, V2Eₗ])) + list_get(0ₒ, (l: List[f64, V2Eₗ]))",
        "(T₀) → float64",
    ),
    (
        "list_get",
        "list_get(1.0, (l: List[f64, V2Eₗ]))",
        "UnsatisfiableConstraintError: `float64: index` cannot hold: an index is an integer or an integer offset",
    ),
    (
        "concat_where",
        "concat_where(IDimₕ < 5 ∧ KDimᵥ >= 1, (a: Field[[IDimₕ], f64]), 0.0)",
        "Field[[IDim, KDimᵥ], float64]",
    ),
    ("broadcast", "broadcast((a: Field[[IDimₕ], i32]), {KDimᵥ})", "Field[[IDim, KDimᵥ], int32]"),
    (
        "broadcast",  # axes known by their type (what GT4Py's `reinfer` leaves of a typed tuple)
        "broadcast((a: Field[[IDimₕ], i32]), (t: tuple[Dimension[Cellₕ], Dimension[KDimᵥ]]))",
        "Field[[Cell, IDim, KDimᵥ], int32]",
    ),
    (
        "broadcast",
        "broadcast((a: Field[[IDimₕ], i32]), (t: tuple[Dimension[Cellₕ], f64]))",
        "GrammarBuiltinError: `broadcast` takes a tuple of axes, `{IDimₕ, KDimᵥ}`",
    ),
    ("domains", "u⟨ Vertexₕ: [0, (n: i32)[, KDimᵥ: [0, 3[ ⟩", "Domain[[Vertex, KDimᵥ]]"),
    ("index", "{index(KDimᵥ), (x: i32)}[0]", "Field[[KDimᵥ], int32]"),
    (
        "get_domain_range",
        "get_domain_range((a: Field[[IDimₕ], f64]), IDimₕ)",
        "tuple[int32, int32]",
    ),
    (
        "as_fieldop",
        "as_fieldop(λ(x, y) → ·x × ·y, c⟨ IDimₕ: [0, 5[ ⟩)((a: Field[[IDimₕ], f64]), 2.0)",
        "Field[[IDim], float64]",
    ),
    (
        "as_fieldop over tuples",
        "as_fieldop(λ(t) → {(·t)[1], (·t)[0]}, c⟨ IDimₕ: [0, 5[ ⟩)({(a: Field[[IDimₕ], f64]), 1})",
        "tuple[Field[[IDim], int32], Field[[IDim], float64]]",
    ),
    (
        "as_fieldop with a builtin stencil",
        "as_fieldop(deref, c⟨ IDimₕ: [0, 5[ ⟩)((a: Field[[IDimₕ], i32]))",
        "Field[[IDim], int32]",
    ),
    (
        "programs",
        f"p({F}) {{ out @ {D} ← as_fieldop(λ(it) → ·it + 1.0, {D})(a); }}",
        "{p(Field[[IDim], float64], Field[[IDim], float64], int32)}",
    ),
    (
        "let-polymorphism",
        f"p({F}) {{ id = λ(x) → x; out @ {D} ← as_fieldop(λ(it) → id(·it) + {{id(1), 1.0}}[1], {D})(a); }}",
        "{id :: (T₀) → T₀, p(Field[[IDim], float64], Field[[IDim], float64], int32)}",
    ),
    (
        "temporaries",
        f"p({F}) {{ t = temporary(domain={D}, dtype={{f64, i32}}); t @ {D} ← {{a, index(IDimₕ)}}; }}",
        "{p(Field[[IDim], float64], Field[[IDim], float64], int32)}",
    ),
    (
        "if statements",
        f"p({F}, c: bool) {{ if (c) {{ out @ {D} ← a; }} else {{ }} }}",
        "{p(Field[[IDim], float64], Field[[IDim], float64], int32, bool)}",
    ),
    (
        "mismatch",
        "(x: f32) + 1.0",
        "UnsatisfiableConstraintError: `plus` takes `(T₀, T₀) → T₀`, not `(float32, float64) → T₁`",
    ),
    (
        "SetAt",
        f"p({F}) {{ out @ {D} ← as_fieldop(λ(it) → ·it > 1.0, {D})(a); }}",
        "UnsatisfiableConstraintError: the expression written is `Field[[IDim], bool]`, "
        "its target `Field[[IDim], float64]`",
    ),
    (
        "SetAt dimensions",
        f"p({F}, b: Field[[IDimₕ, KDimᵥ], f64]) {{ out @ {D} ← b; }}",
        "UnsatisfiableConstraintError: the expression written is `Field[[IDim, KDimᵥ], float64]`, "
        "its target `Field[[IDim], float64]`: KDimᵥ is extra",
    ),
    (
        "IfStmt",
        f"p({F}) {{ if (n) {{ out @ {D} ← a; }} else {{ }} }}",
        "UnsatisfiableConstraintError: the condition of `if` must be `bool`, not `int32`",
    ),
    (
        "untyped parameter: a variable",
        f"p({F}, m) {{ out @ {D} ← a; }}",
        "{p(Field[[IDim], float64], Field[[IDim], float64], int32, T₀)}",
    ),
    (
        "recursion",
        f"p({F}) {{ f = λ(x) → g(x); g = λ(x) → f(x); out @ {D} ← a; }}",
        "RecursionCycleError: recursion is not allowed: f → g → f",
    ),
    (
        "deref where the iterator is not defined",
        "as_fieldop(deref, c⟨ IDimₕ: [0, 5[ ⟩)((a: Field[[Vertexₕ], i32]))",
        "UnsatisfiableConstraintError: `[Vertex] ⊆ [IDim]` cannot hold: [Vertex] not in [IDim]",
    ),
    (
        "deref of a non-iterator",
        "·(x: f64)",
        "UnsatisfiableConstraintError: type mismatch: expected `It[D₀, D₁, T₂]`, found `float64`",
    ),
    (
        "tuple index",
        "{(x: i32), 2}[2]",
        "UnsatisfiableConstraintError: tuple index 2 is out of range: `tuple[int32, int32]` "
        "has 2 elements",
    ),
    (
        "map_tuple: a builtin instantiated per item",
        "map_tuple(neg)({(x: f64), 1})",
        "tuple[float64, int32]",
    ),
    (
        "tree_map_tuple: each leaf",
        "tree_map_tuple(neg)({(x: f64), {1, (y: f32)}})",
        "tuple[float64, tuple[int32, float32]]",
    ),
    (
        "map_tuple: a lambda is one function",
        "map_tuple(λ(v) → v + 1)({(x: i32), 1})",
        "tuple[int32, int32]",
    ),
    (
        "map_tuple of a non-tuple",
        "map_tuple(neg)((x: f64))",
        "UnsatisfiableConstraintError: `T₁ = map_tuple((T₀) → T₀, float64)` cannot hold: "
        "`map_tuple` and `tree_map_tuple` map over a tuple",
    ),
]


def _outcome(text: str) -> str:
    try:
        return str(typeinf.infer(iterir.parse(text)))
    except TypeInferenceError as error:
        return f"{type(error).__name__}: {error.message}"


@pytest.mark.parametrize(
    ("rule", "program", "expected"), SPEC, ids=[f"{r}: {p}" for r, p, _ in SPEC]
)
def test_spec(rule: str, program: str, expected: str) -> None:
    assert _outcome(program) == expected


def test_check_reports_each_failing_statement() -> None:
    program = iterir.parse(
        f"p({F}, b: Field[[IDimₕ], i32]) {{ out @ {D} ← b; if (n) {{ out @ {D} ← a; }} "
        f"else {{ out @ {D} ← b; }} }}"
    )
    checked = typeinf.check(program)
    assert checked.type is None
    wrote = "the expression written is `Field[[IDim], int32]`, its target `Field[[IDim], float64]`"
    assert [e.message for e in checked.errors] == [
        wrote,
        "the condition of `if` must be `bool`, not `int32`",
        wrote,
    ]


def test_infer_all_types_every_set_at_and_definition() -> None:
    program = iterir.parse(
        f"p({F}) {{ f = λ(x) → ·x; out @ {D} ← as_fieldop(λ(it) → f(it), {D})(a); }}"
    )
    types = typeinf.infer_all(program, attach=True)
    statement = program.body[0]
    assert isinstance(statement, SetAt)
    assert str(types[id(statement.expr)]) == "Field[[IDim], float64]"
    assert str(types[id(statement.domain)]) == "Domain[[IDim]]"
    definition = program.function_definitions[0]
    assert isinstance(definition, FunctionDefinition)
    assert str(definition.inferred_type) == "f :: (It[D₀, D₁, T₂]) → T₂ where D₁ ⊆ D₀"  # type: ignore[attr-defined]


def test_a_fencil_expression_is_still_typed_as_the_fencil_ir() -> None:
    assert str(typeinf.infer(iterir.parse("λ(x) → ·x + 1"))) == "(It[int32⁰]) → int32⁰"


V2E = NeighborConnectivityType(
    (Dimension("Vertex"), Dimension("V2E", "local")), Dimension("Edge"), None, "int32", 4
)
VERTICES = "u⟨ Vertexₕ: [0, 5[ ⟩"
#: (rule, expression, offset provider, type or error), the provider in GT4Py's types.
SHIFTS = [
    (
        "Cartesian shift",
        "as_fieldop(λ(it) → ·⟪IDimₕ→IDimₕ, 1ₒ⟫(it), c⟨ IDimₕ: [0, 5[ ⟩)((a: Field[[IDimₕ], f64]))",
        None,
        "Field[[IDim], float64]",
    ),
    (
        "connectivity",
        f"as_fieldop(λ(it) → ·⟪V2Eₒ, 0ₒ⟫(it), {VERTICES})((e: Field[[Edgeₕ], f64]))",
        {"V2E": V2E},
        "Field[[Vertex], float64]",
    ),
    (
        "connectivity, the provider as JSON",
        f"as_fieldop(λ(it) → ·⟪V2Eₒ, 0ₒ⟫(it), {VERTICES})((e: Field[[Edgeₕ], f64]))",
        {
            "V2E": {
                "t": "NeighborConnectivityType",
                "domain": [
                    {"t": "Dimension", "value": "Vertex", "kind": "horizontal"},
                    {"t": "Dimension", "value": "V2E", "kind": "local"},
                ],
                "codomain": {"t": "Dimension", "value": "Edge", "kind": "horizontal"},
                "skip_value": None,
                "dtype": "int32",
                "max_neighbors": 4,
            }
        },
        "Field[[Vertex], float64]",
    ),
    (
        "a field the shift does not reach",
        f"as_fieldop(λ(it) → ·⟪V2Eₒ, 0ₒ⟫(it), {VERTICES})((e: Field[[Vertexₕ], f64]))",
        {"V2E": V2E},
        "UnsatisfiableConstraintError: `[Vertex] ⊆ [Edge]` cannot hold: [Vertex] not in [Edge]",
    ),
    (
        "a connectivity at the wrong position",
        "as_fieldop(λ(it) → ·⟪V2Eₒ, 0ₒ⟫(it), c⟨ IDimₕ: [0, 5[ ⟩)((e: Field[[Edgeₕ], f64]))",
        {"V2E": V2E},
        "UnsatisfiableConstraintError: `D₀ = shift([IDim], Offset[Vertex→Edge])` cannot hold: "
        "a shift from [Vertex] applies to an iterator at [IDim]",
    ),
    (
        "an unknown offset",
        f"as_fieldop(λ(it) → ·⟪E2Vₒ, 0ₒ⟫(it), {VERTICES})((e: Field[[Edgeₕ], f64]))",
        {},
        "TypeInferenceError: offset `E2V` is unknown: the offset provider does not name it",
    ),
    (
        "lift: defined everywhere",
        "as_fieldop(λ(it) → ·⟪IDimₕ→IDimₕ, 1ₒ⟫((↑(λ(x) → ·x × 2.0))(it)), c⟨ IDimₕ: [0, 5[ ⟩)"
        "((e: Field[[IDimₕ], f64]))",
        None,
        "Field[[IDim], float64]",
    ),
    (
        "an offset passed to a definition",
        "program p(e: Field[[IDimₕ], f64], out: Field[[IDimₕ], f64]) { "
        "f = λ(d) → λ(it) → ·⟪d, 1ₒ⟫(it); "
        "out @ c⟨ IDimₕ: [0, 5[ ⟩ ← as_fieldop(f(IDimₕ→IDimₕ), c⟨ IDimₕ: [0, 5[ ⟩)(e); }",
        None,
        "{f :: (Offset[T₀→T₁]) → (It[D₂, D₃, T₄]) → T₄ where D₃ ⊆ D₅, D₅ = shift(D₂, Offset[T₀→T₁]), "
        "p(Field[[IDim], float64], Field[[IDim], float64])}",
    ),
    (
        "neighbors and reduce",
        f"as_fieldop(λ(it) → reduce(plus, 0.0)(neighbors(V2Eₒ, it)), {VERTICES})"
        "((e: Field[[Edgeₕ], f64]))",
        {"V2E": V2E},
        "Field[[Vertex], float64]",
    ),
    (
        "map_list with a constant list",
        f"as_fieldop(λ(it) → map_list(multiplies)(neighbors(V2Eₒ, it), make_const_list(2.0)), "
        f"{VERTICES})((e: Field[[Edgeₕ], f64]))",
        {"V2E": V2E},
        "Field[[Vertex], List[float64, V2Eₗ]]",
    ),
    (
        "neighbors of a field it does not reach",
        f"as_fieldop(λ(it) → reduce(plus, 0.0)(neighbors(V2Eₒ, it)), {VERTICES})"
        "((e: Field[[Vertexₕ], f64]))",
        {"V2E": V2E},
        "UnsatisfiableConstraintError: `[Vertex] ⊆ [Edge]` cannot hold: [Vertex] not in [Edge]",
    ),
    (
        "scan",
        "as_fieldop(scan(λ(acc, x) → acc + ·x, True, 0.0), c⟨ KDimᵥ: [0, 5[ ⟩)"
        "((a: Field[[KDimᵥ], f64]))",
        None,
        "Field[[KDimᵥ], float64]",
    ),
    (
        "as_fieldop without a domain: GT4Py's deduction, a connectivity moved back",
        "(⇑(λ(it) → ·⟪V2Eₒ, 0ₒ⟫(it)))((e: Field[[Edgeₕ, KDimᵥ], f64]))",
        {"V2E": V2E},
        "Field[[Vertex, KDimᵥ], float64]",
    ),
    (
        "as_fieldop without a domain: the union over inputs and shifts",
        "(⇑(λ(a, b) → ·a + ·⟪IDimₕ→IDimₕ, 1ₒ⟫(b)))((a: Field[[KDimᵥ], f64]), (b: Field[[IDimₕ], f64]))",
        None,
        "Field[[IDim, KDimᵥ], float64]",
    ),
    (
        "as_fieldop without a domain over a scalar: no dimensions",
        "(⇑(λ(x) → make_const_list(·x)))(1)",
        None,
        "Field[[], List[int32]]",
    ),
    (
        "as_fieldop without a domain in a definition: the deduction waits for the input",
        "program p(a: Field[[IDimₕ], f64], out: Field[[IDimₕ], f64]) { g = λ(x) → (⇑(λ(it) → ·it))(x); "
        "out @ c⟨ IDimₕ: [0, 5[ ⟩ ← g(a); }",
        None,
        "{g :: (T₀) → T₁ where D₂ = deduced(T₀), T₁ = Field[D₂, T₃], D₄ ⊆ D₅, "
        "It[D₅, D₄, T₃] = lift(T₀, D₂), p(Field[[IDim], float64], Field[[IDim], float64])}",
    ),
    (
        "no offset provider",
        f"as_fieldop(λ(it) → ·⟪V2Eₒ, 0ₒ⟫(it), {VERTICES})((e: Field[[Edgeₕ], f64]))",
        None,
        "TypeInferenceError: offset `V2E` is unknown: no offset provider was given",
    ),
]


@pytest.mark.parametrize(
    ("rule", "text", "provider", "expected"), SHIFTS, ids=[r for r, *_ in SHIFTS]
)
def test_shift(rule: str, text: str, provider: dict | None, expected: str) -> None:
    try:
        found = str(typeinf.infer(iterir.parse(text), provider))
    except TypeInferenceError as error:
        found = f"{type(error).__name__}: {error.message}"
    assert found == expected


def test_if_statements_nest_deeper_than_python_recurses() -> None:
    flat = iterir.parse(f"p({F}, c: i32) {{ out @ {D} ← a; }}")
    assert isinstance(flat, Program)
    statement = flat.body[0]
    for _ in range(3_000):
        statement = if_stmt(SymRef("c"), [statement])
    deep = program("p", flat.params, [statement])
    errors = typeinf.check(deep, max_errors=2).errors
    assert [e.message for e in errors] == ["the condition of `if` must be `bool`, not `int32`"] * 2


def test_infer_all_numbers_the_variables_over_the_program() -> None:
    """As for fencils: a node's type relates to its parent's (one variable, one number)."""
    program = iterir.parse("λ(x) → λ(y) → {x, (z: i32), y}")
    types = typeinf.infer_all(program)
    inner = program.expr  # type: ignore[attr-defined]
    y_type = types[id(inner.params[0])]
    assert repr(y_type) == "Var(sort='dtype', number=1)"
    assert types[id(inner.expr)].items[2] == y_type  # type: ignore[union-attr]
    assert str(types[id(inner.params[0])]) == "T₀"  # printed on its own, numbered afresh


def test_an_inference_goes_when_its_caller_drops_it() -> None:
    """No reference cycle keeps a run (and its cells) for the cyclic collector: inside a host
    such as GT4Py's pass manager, the host's passes would pay for collecting ours. Told by the
    collector finding nothing to free once the run is dropped (a weak reference would tell it
    too, but a class compiled by mypyc takes none: tools/compile.py)."""
    import gc

    from typeinf.gtir.collect import GtirInference

    node = iterir.parse(f"λ(a, b, n) → as_fieldop(λ(x, y) → ·x + ·y, {D})(a, b)")
    GtirInference(node)  # what a first run makes once (signatures read, caches filled)
    enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        run = GtirInference(node)
        assert run.types[0] is not None
        del run
        assert gc.collect() == 0
    finally:
        if enabled:
            gc.enable()
