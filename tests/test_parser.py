"""The text syntax: every construct, precedence, spans, the lossless extensions, and errors."""

from __future__ import annotations

import pytest

import iterir
from iterir import (
    AxisLiteral,
    FencilDefinition,
    FunCall,
    Lambda,
    Literal,
    OffsetLiteral,
    StencilClosure,
    Sym,
    SymRef,
)
from iterir.builders import (
    call,
    cartesian_domain,
    closure,
    deref,
    fencil,
    fundef,
    if_,
    lam,
    lift,
    literal,
    make_tuple,
    named_range,
    shift,
    tuple_get,
    unstructured_domain,
)

parse = iterir.parse


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("x", SymRef("x")),
        ("True", literal("True", "bool")),
        ("3", literal("3", "int32")),
        ("-3", literal("-3", "int32")),
        ("3.0", literal("3.0", "float64")),
        ("1e-05", literal("1e-05", "float64")),
        ("λ(x) → x", lam("x")("x")),
        ("λ() → x", lam()("x")),
        ("λ(x, y) → x(y)", lam("x", "y")(call("x")("y"))),
        ("·x", deref("x")),
        ("¬x", call("not_")("x")),
        ("↑f", lift("f")),
        ("(↑deref)(x)", call(lift("deref"))("x")),
        ("if c then 1 else 2", if_("c", 1, 2)),
        ("{True, 42.0, x}", make_tuple(True, 42.0, "x")),
        ("{}", make_tuple()),
        ("{True, 42.0}[1]", tuple_get(1, make_tuple(True, 42.0))),
        ("⟪iₒ, 1ₒ⟫", shift("i", 1)),
        ("⟪V2Eₒ, -1ₒ⟫(it)", call(shift("V2E", -1))("it")),
        ("neighbors(V2Eₒ, it)", call("neighbors")(OffsetLiteral("V2E"), "it")),
        ("IDim: [0, n)", named_range("IDim", 0, "n")),
        (
            "c⟨ IDim: [0, n), JDim: [1, m) ⟩",
            cartesian_domain(named_range("IDim", 0, "n"), named_range("JDim", 1, "m")),
        ),
        ("u⟨ Vertex: [0, 9) ⟩", unstructured_domain(named_range("Vertex", 0, 9))),
        ("cast_(1.0, int64)", call("cast_")(1.0, "int64")),
        ("f(a)(b)", call(call("f")("a"))("b")),
    ],
)
def test_constructs(text: str, expected: iterir.Node) -> None:
    assert parse(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a + b × c", call("plus")("a", call("multiplies")("b", "c"))),
        ("a × b + c", call("plus")(call("multiplies")("a", "b"), "c")),
        ("a - b - c", call("minus")(call("minus")("a", "b"), "c")),
        ("a - (b - c)", call("minus")("a", call("minus")("b", "c"))),
        ("a / b × c", call("multiplies")(call("divides")("a", "b"), "c")),
        ("a < b == c", call("eq")(call("less")("a", "b"), "c")),
        ("a ∨ b ∧ c", call("or_")("a", call("and_")("b", "c"))),
        ("a > b ∧ c", call("and_")(call("greater")("a", "b"), "c")),
        ("·x + ·y", call("plus")(deref("x"), deref("y"))),
        ("·f(x)", deref(call("f")("x"))),
        ("·x[0]", deref(tuple_get(0, "x"))),
        ("¬·x", call("not_")(deref("x"))),
        ("a - -1", call("minus")("a", -1)),
        ("a -1", call("minus")("a", 1)),
        ("λ(x) → λ(y) → x + y", lam("x")(lam("y")(call("plus")("x", "y")))),
        ("if a then b else c + d", if_("a", "b", call("plus")("c", "d"))),
        ("if if a then b else c then d else e", if_(if_("a", "b", "c"), "d", "e")),
        ("f(λ(x) → x, y)", call("f")(lam("x")("x"), "y")),
    ],
)
def test_precedence_and_associativity(text: str, expected: iterir.Node) -> None:
    assert parse(text) == expected


@pytest.mark.parametrize(
    ("text", "value", "dtype"),
    [
        ("1.0f32", "1.0", "float32"),
        ("3i64", "3", "int64"),
        ("7u8", "7", "uint8"),
        ("-2i8", "-2", "int8"),
        ("65535u16", "65535", "uint16"),
        ("1f64", "1", "float64"),
        ("1.5e3f32", "1.5e3", "float32"),
        ("3i32", "3", "int32"),
        ('"inf"f64', "inf", "float64"),
        ('"a \\"b\\""i32', 'a "b"', "int32"),
        ('"1"b', "1", "bool"),
    ],
)
def test_typed_literals(text: str, value: str, dtype: str) -> None:
    assert parse(text) == Literal(value, dtype)


def test_annotations_and_quoted_names() -> None:
    assert parse("λ(x: It[float64], y: Val[L[int32]], z: It, w: bool, v) → x") == Lambda(
        (
            Sym("x", "Iterator", ("float64", False)),
            Sym("y", "Value", ("int32", True)),
            Sym("z", "Iterator"),
            Sym("w", dtype=("bool", False)),
            Sym("v"),
        ),
        SymRef("x"),
    )
    assert parse("`a b`(`True`, `if`)") == call(SymRef("a b"))(SymRef("True"), SymRef("if"))
    assert parse("`x\\`y`") == SymRef("x`y")
    assert parse("scalarᐞ0") == SymRef("scalarᐞ0")
    assert parse("⟪`a b`ₒ⟫") == shift("a b")
    assert parse("f(IDimₐ)") == call("f")(AxisLiteral("IDim"))


def test_definitions_closures_and_fencils() -> None:
    assert parse("f = λ(x, y) → x;") == fundef("f", "x", "y")("x")
    assert parse("out ← (deref)(a) @ D;") == closure("out", "deref", ["a"], "D")
    assert parse("{a, b} ← (s)() @ D;") == closure(make_tuple("a", "b"), "s", [], "D")
    text = """
        foo(i, a: It[float64], b) {
          f = λ(x) → x;
          g = λ(x) → ·x;
          b ← (g)(a) @ c⟨ IDim: [0, i) ⟩;
        }
    """
    assert parse(text) == fencil(
        "foo",
        ["i", Sym("a", "Iterator", ("float64", False)), "b"],
        [closure("b", "g", ["a"], cartesian_domain(named_range("IDim", 0, "i")))],
        [fundef("f", "x")("x"), fundef("g", "x")(deref("x"))],
    )
    assert parse("empty() { }") == FencilDefinition("empty", (), (), ())


def test_types_md_examples_parse() -> None:
    """The programs of the canonical examples of docs/notation.md, in the syntax written there."""
    fencil_text = (
        "f(i, j, k, a, b, c, d) { b ← (deref)(a) @ c⟨ IDim: [0, i), JDim: [0, j), KDim: [0, k) ⟩;"
        " d ← (deref)(c) @ c⟨ IDim: [0, i), JDim: [0, j), KDim: [0, k) ⟩; }"
    )
    node = parse(fencil_text)
    assert isinstance(node, FencilDefinition) and len(node.closures) == 2
    assert [p.id for p in node.params] == list("ijkabcd")
    reduce_text = "reduce(λ(acc, x, y) → acc + cast_(x × cast_(y, float64), int64), 0i64)"
    assert parse(reduce_text).args[1] == Literal("0", "int64")  # type: ignore[attr-defined]
    scan = parse("scan(λ(acc, x, y) → acc + ·x × ·y, True, 0i64)")
    assert scan == call("scan")(
        lam("acc", "x", "y")(call("plus")("acc", call("multiplies")(deref("x"), deref("y")))),
        True,
        Literal("0", "int64"),
    )
    assert parse("λ(x) → x[1]") == lam("x")(tuple_get(1, "x"))
    assert parse("⟪V2Eₒ, 0ₒ, E2Cₒ⟫") == shift("V2E", 0, "E2C")


def test_spans_point_at_the_source() -> None:
    text = "f(a) {\n  out ← (λ(x) → ·x + 1)(a) @ D;\n}"
    node = parse(text, "prog.itir")
    assert isinstance(node, FencilDefinition)
    (clo,) = node.closures
    assert isinstance(clo, StencilClosure)
    assert (clo.loc.filename, clo.loc.line, clo.loc.column) == ("prog.itir", 2, 3)
    stencil = clo.stencil
    assert isinstance(stencil, Lambda)
    assert (stencil.loc.line, stencil.loc.column, stencil.loc.end_column) == (2, 10, 23)
    body = stencil.expr
    assert isinstance(body, FunCall) and body.fun.loc.column == 20  # the `+`
    assert body.args[0].loc.column == 17 and body.args[1].loc.column == 22
    assert node.params[0].loc.column == 3
    assert (node.loc.line, node.loc.end_line) == (1, 3)


def test_parenthesized_spans_include_the_parentheses() -> None:
    node = parse("(a + b) × c")
    assert node.args[0].loc.column == 1 and node.args[0].loc.end_column == 8  # type: ignore[attr-defined]


def test_comments_are_ignored() -> None:
    assert parse("# a comment\nx # another\n") == SymRef("x")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "λ(x) → ",
            "t.itir:1:7: error: unexpected end of input; expected an expression\n"
            "    λ(x) → \n          ^",
        ),
        (
            "a + + b",
            "t.itir:1:5: error: unexpected `+`; expected an operand\n    a + + b\n        ^",
        ),
        (
            "f(a,\n  b))",
            "t.itir:2:5: error: unexpected `)`; expected `{`, `←`, the end of the "
            "input\n      b))\n        ^",
        ),
        ("1 + (2", "t.itir:1:7: error: unexpected end of input; expected `)`"),
        ("x $ y", "t.itir:1:3: error: unexpected character `$`"),
        ("λ(x: Foo) → x", "t.itir:1:6: error: unknown dtype `Foo` in annotation"),
        ("λ(x: It[It]) → x", "t.itir:1:9: error: unknown dtype `It` in annotation"),
        ("λ(x: L) → x", "t.itir:1:6: error: unknown dtype `L` in annotation"),
        (
            "f(a: It)",
            "t.itir:1:3: error: a parameter annotation is only allowed in a parameter list",
        ),
        ("g(f(a: It)) { }", "t.itir:1:3: error: a fencil parameter must be a name"),
        ("f(a)(b: It) { }", "t.itir:1:1: error: a fencil starts with its name and parameters"),
        (
            "f(a + b) { }",
            "t.itir:1:3: error: a fencil parameter must be a name\n    f(a + b) { }\n      ^^^^^",
        ),
        ("λ(x) → x { }", "t.itir:1:1: error: a fencil starts with its name and parameters"),
        ('"unterminated', 't.itir:1:1: error: unexpected character `"`'),
        ("f = λ(x) → x", "t.itir:1:13: error: unexpected end of input; expected"),
    ],
)
def test_errors_say_where_and_what(text: str, message: str) -> None:
    with pytest.raises(iterir.ParseError) as info:
        parse(text, "t.itir")
    assert str(info.value).startswith(message), str(info.value)


GTIR_RANGE = named_range("IDim", 0, "n", "horizontal")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("if c then IDimₕ: [0, n[ else x", if_("c", GTIR_RANGE, "x")),
        ("if IDimₕ: [0, n[ then a else b", if_(GTIR_RANGE, "a", "b")),
        ("IDimₕ: [0, n[ # a comment\n", GTIR_RANGE),
        ("c⟨ IDimₕ: [0, n[ # rows\n, KDimᵥ: [0, m[ ⟩",
         cartesian_domain(GTIR_RANGE, named_range("KDim", 0, "m", "vertical"))),
        ("IDimₕ: [0, n[ == x", call("eq")(GTIR_RANGE, "x")),
        ("IDimₕ: [0, n[ - 1", call("minus")(GTIR_RANGE, 1)),
        ("IDimₕ: [0, n[-x", call("minus")(GTIR_RANGE, "x")),
        # A `[` followed by an expression indexes: the range ends at the next one.
        ("IDimₕ: [0, t[-1][", named_range("IDim", 0, tuple_get(-1, "t"), "horizontal")),
        ("IDimₕ: [0, t[ # c\n 0][", named_range("IDim", 0, tuple_get(0, "t"), "horizontal")),
        ("IDimₕ: [0, `else`[0][", named_range("IDim", 0, tuple_get(0, "else"), "horizontal")),
    ],
)  # fmt: skip
def test_a_gtir_range_ends_before_a_keyword_a_comment_or_an_operator(
    text: str, expected: iterir.Node
) -> None:
    """GTIR's `[` that ends a range was told from one that indexes by a regular expression of what
    may follow it, which lacked `then`, `else`, operators and comments: `if c then IDimₕ: [0, n[
    else x` read `[` as opening an index, and failed at `else`."""
    assert parse(text) == expected
