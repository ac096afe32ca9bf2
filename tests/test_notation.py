"""The notation: `parse_type(pformat(t))` is `t` up to renaming, in both notations.

Generated types keep to what the notation can say: a value's locations are ANYWHERE and the
`ItOrVal`s of one kind share a pair of fresh locations (the located notation prints neither), and
a row of values has its locations known exactly when its dtypes are.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

import iterir
import typeinf
from tests.conftest import ROOT
from tests.welltyped import well_typed_programs
from typeinf.core.constructors import (
    D_EMPTY,
    DEMPTY,
    DTUPLE,
    FUN,
    T_EMPTY,
    TEMPTY,
    TTUPLE,
    constant,
    prim,
    row,
)
from typeinf.core.instance import is_instance
from typeinf.core.notation import to_ascii
from typeinf.core.terms import FAMILIES, Cell, Sort, Type, find, make, var
from typeinf.fencil.constructors import (
    ANYWHERE,
    COLUMN,
    ITERATOR,
    L_EMPTY,
    LENGTH,
    LIST,
    LTUPLE,
    SCALAR,
    SKIP,
    VAL,
    VALLISTTUPLE,
    VALTUPLE,
    VALUE,
    loc,
)
from typeinf.fencil.infer import solve
from typeinf.fencil.notation import pformat
from typeinf.fencil.reader import TypeSyntaxError, parse_type
from typeinf.within import subject


@st.composite
def types(draw: st.DrawFn) -> Cell:
    pools: dict[Sort, list[Cell]] = {}

    def pooled(sort: Sort, family: frozenset[str] | None = None) -> Cell:
        pool = pools.setdefault(sort, [])
        if pool and draw(st.booleans()):
            return draw(st.sampled_from(pool))
        cell = var(sort, family)
        pool.append(cell)
        return cell

    def size() -> Cell:
        return draw(st.sampled_from([lambda: COLUMN, lambda: SCALAR, lambda: pooled(Sort.SIZE)]))()

    def location() -> Cell:
        return draw(
            st.sampled_from([lambda: ANYWHERE, lambda: loc("Vertex"), lambda: pooled(Sort.LOC)])
        )()

    def dtype(depth: int) -> Cell:
        choice = draw(st.integers(0, 4 if depth < 2 else 1))
        if choice == 0:
            return prim(draw(st.sampled_from(["bool", "int32", "float64", "uint8", "axis"])))
        if choice == 1:
            family = draw(st.sampled_from([None, None, *FAMILIES.values()]))
            return pooled(Sort.DTYPE, family) if family is None else var(Sort.DTYPE, family)
        if choice == 2:
            items = [dtype(depth + 1) for _ in range(draw(st.integers(0, 3)))]
            tail = D_EMPTY if draw(st.booleans()) or not items else pooled(Sort.DROW)
            return row(DTUPLE, items, tail)
        length = (
            constant(LENGTH, draw(st.integers(0, 9)))
            if draw(st.booleans())
            else pooled(Sort.LENGTH)
        )
        skip = constant(SKIP, draw(st.booleans())) if draw(st.booleans()) else pooled(Sort.SKIP)
        return make(LIST, dtype(depth + 1), length, skip)

    def value() -> Cell:
        kind = draw(st.integers(0, 2))
        if kind == 0:
            return make(VAL, VALUE, dtype(0), size(), ANYWHERE, ANYWHERE)
        if kind == 1:
            return make(VAL, ITERATOR, dtype(0), size(), location(), location())
        # An `ItOrVal` stands on two fresh locations of its own, as read (no notation writes
        # them).
        return make(VAL, pooled(Sort.KIND), dtype(0), size(), var(Sort.LOC), var(Sort.LOC))

    def value_row() -> Cell:
        kind = draw(st.sampled_from([VALUE, ITERATOR]))
        current = var(Sort.LOC) if kind is VALUE else location()
        if draw(st.booleans()):
            return make(VALTUPLE, kind, var(Sort.DROW), size(), current, var(Sort.LROW))
        count = draw(st.integers(0, 2))
        dtypes = row(DTUPLE, [dtype(1) for _ in range(count)], D_EMPTY)
        locations = row(LTUPLE, [location() for _ in range(count)], L_EMPTY)
        return make(VALTUPLE, kind, dtypes, size(), current, locations)

    def arguments(depth: int) -> Cell:
        choice = draw(st.integers(0, 3))
        items = [type_(depth + 1) for _ in range(draw(st.integers(0, 2)))]
        if choice == 0:
            return row(TTUPLE, items, T_EMPTY)
        if choice == 1:
            return row(TTUPLE, items, pooled(Sort.TROW))
        if choice == 2:
            return row(TTUPLE, items, value_row())
        length = constant(LENGTH, 3) if draw(st.booleans()) else pooled(Sort.LENGTH)
        tail = make(VALLISTTUPLE, VALUE, var(Sort.DROW), length, pooled(Sort.SKIP), size())
        return row(TTUPLE, items, tail)

    def type_(depth: int) -> Cell:
        choice = draw(st.integers(0, 3 if depth < 3 else 1))
        if choice == 0:
            return pooled(Sort.TYPE)
        if choice == 1:
            return value()
        if choice == 2:
            return make(FUN, arguments(depth), type_(depth + 1))
        return row(TTUPLE, [type_(depth + 1) for _ in range(draw(st.integers(0, 2)))], T_EMPTY)

    return type_(0)


def _row_view(cell: Cell) -> tuple[Cell, Cell] | str | None:
    """A row as (first item, rest), "empty", or None when it is not a known row. A ValTuple or
    ValListTuple whose dtypes are known is the same type as the tuple of its items."""
    if cell.ctor is TEMPTY:
        return "empty"
    if cell.ctor is TTUPLE:
        return cell.args[0], cell.args[1]
    if cell.ctor is VALTUPLE or cell.ctor is VALLISTTUPLE:
        dtypes = find(cell.args[1])
        if dtypes.ctor is DEMPTY:
            return "empty"
        if dtypes.ctor is DTUPLE:
            if cell.ctor is VALTUPLE:
                kind, _, size, current, defined = cell.args
                locations = find(defined)
                item = make(VAL, kind, dtypes.args[0], size, current, locations.args[0])
                rest = make(VALTUPLE, kind, dtypes.args[1], size, current, locations.args[1])
            else:
                kind, _, length, skip, size = cell.args
                item = make(
                    VAL,
                    kind,
                    make(LIST, dtypes.args[0], length, skip),
                    size,
                    ANYWHERE,
                    ANYWHERE,
                )
                rest = make(VALLISTTUPLE, kind, dtypes.args[1], length, skip, size)
            return item, rest
    return None


def _equivalent(a: Cell, b: Cell, locations: bool) -> bool:
    """Whether `b` is `a` with its variables renamed one to one (sorts and families kept), rows
    of values taken as the tuples they stand for, and locations ignored where they are not
    printed: everywhere without `locations`, and on values always."""
    forward: dict[int, int] = {}
    backward: dict[int, int] = {}
    stack = [(a, b)]
    while stack:
        x, y = (find(c) for c in stack.pop())
        if (not locations and Sort.LOC in (x.sort, y.sort)) or (
            Sort.LROW in (x.sort, y.sort) and not locations
        ):
            continue
        if x.ctor is None or y.ctor is None:
            if x.ctor is not None or y.ctor is not None or (x.sort, x.family) != (y.sort, y.family):
                return False
            if forward.setdefault(id(x), id(y)) != id(y) or backward.setdefault(id(y), id(x)) != id(
                x
            ):
                return False
            continue
        if x.ctor is not y.ctor:
            x_row, y_row = _row_view(x), _row_view(y)
            if x_row is None or y_row is None or (x_row == "empty") != (y_row == "empty"):
                return False
            if x_row != "empty":
                stack.extend(zip(x_row, y_row, strict=True))  # type: ignore[arg-type]  # both (item, rest): neither None nor "empty" here
            continue
        if (x.label, len(x.args)) != (y.label, len(y.args)):
            return False
        unprinted = x.ctor is VAL and find(x.args[0]) is VALUE  # a value's locations
        stack.extend(
            zip(x.args[:3], y.args[:3], strict=True)
            if unprinted
            else zip(x.args, y.args, strict=True)
        )
    return True


@given(types(), st.booleans())
def test_parse_type_reads_back_what_pformat_writes(type_: Cell, locations: bool) -> None:
    text = pformat(type_, locations=locations)
    back = parse_type(text, locations=locations)
    assert _equivalent(type_, back, locations)
    # Once read, a type prints and reads back to the letter: what the notation says is all of it.
    again = pformat(back, locations=locations)
    assert pformat(parse_type(again, locations=locations), locations=locations) == again


def test_canonical_strings_read_back_to_the_letter() -> None:
    for text in [
        "(It[T₂, T₂, T₀¹]) → T₀¹",
        "((It[T₂, …₃, T¹], …)₀ → T₄¹) → (It[T₅, …₃, T¹], …)₀ → It[T₅, T₂, T₄¹]",
        "(ItOrVal₀[(T₁, T₂):T₃⁴]) → ItOrVal₀[T₂⁴]",
        "L[T₀, 4, False]¹",
        "(bool, float64, T₀)¹",
    ]:
        assert pformat(parse_type(text), locations=True) == text


def test_an_empty_row_of_values_keeps_its_hidden_numbers() -> None:
    """The numbering walks a ValTuple's fields even when it prints as `()`: the type of
    `↑(λ() → x)` is `() → It[T₁⁰]`. Read back, `()` is a plain empty tuple and numbers afresh."""
    assert pformat(parse_type("() → It[T₁⁰]")) == "() → It[T₀¹]"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("(T₀¹ →", "not a type at its end"),
        ("ItOrVal₀[T₁, 3, T₂¹]", "not a type at column 14"),
        ("ItOrVal₀[T₁, T₂, T₃]", "not a type at column 20"),
        ("(T₀¹) → )", "not a type at column 9"),
        ("(T₀¹) → T₀¹ where T₀: real", "unknown family 'real'"),
        ("T₀¹ → T₂", "a function's arguments must be a tuple"),
        ("complex128⁰", "unknown dtype 'complex128'"),
        ("(T₀¹) → T₀", "variable 0 stands for a dtype and a type"),
    ],
)
def test_malformed_types(text: str, message: str) -> None:
    with pytest.raises(TypeSyntaxError, match=message.replace("(", r"\(")):
        parse_type(text)


# -- the compact notation reads back at least as general, the located one exactly --------------
# On the engine's cells (`solve`), as the notation prints and reads them; tests/test_types.py
# states the same of the public values. The compact notation writes no location (the design's
# table, tests/test_design_table.py); read back, each iterator gets fresh locations of its own.
def infer(node: iterir.Node) -> Type:
    type_ = solve(subject(node, False, None)).type
    assert type_ is not None
    return type_


def infer_all(node: iterir.Node) -> dict[int, Type]:
    return solve(subject(node, False, None)).types


def _exact(type_: Type, text: str, locations: bool | None = None) -> tuple[bool, bool]:
    """Whether `type_` is an instance of `text` read back, and the other way round."""
    back = parse_type(text, locations=locations)
    return is_instance(back, type_), is_instance(type_, back)


@pytest.mark.parametrize(
    ("program", "compact", "located"),
    [
        ("λ(x) → ·x + 1.0", "(It[float64⁰]) → float64⁰", "(It[T₁, T₁, float64⁰]) → float64⁰"),
        (
            "λ(a, b) → ·a + ·b",
            "(It[T₀¹], It[T₀¹]) → T₀¹ where T₀: numeric",
            "(It[T₂, T₂, T₀¹], It[T₃, T₃, T₀¹]) → T₀¹ where T₀: numeric",
        ),
        ("deref", "(It[T₀¹]) → T₀¹", "(It[T₂, T₂, T₀¹]) → T₀¹"),
        (
            "λ(a, b) → ·{a, b}",
            "(It[T₀¹], It[T₂¹]) → (T₀, T₂)¹",
            "(It[T₂, T₂, T₀¹], It[T₂, T₂, T₃¹]) → (T₀, T₃)¹",
        ),
        ("⟪iₒ, 1ₒ⟫", "(It[T₀¹]) → It[T₀¹]", "(It[T₂, T₃, T₀¹]) → It[T₄, T₃, T₀¹]"),
        ("can_deref", "(It[T₀¹]) → bool¹", "(It[T₂, T₃, T₀¹]) → bool¹"),
    ],
)
def test_a_stencil_prints_no_location_compact_and_reads_back_exactly_located(
    program: str, compact: str, located: str
) -> None:
    """Compact, a stencil's type is the design's text, read back as general or more; located,
    it is GT4Py's text and reads back as exactly the type."""
    type_ = infer(iterir.parse(program))
    assert pformat(type_) == compact
    assert _exact(type_, compact)[0]
    assert pformat(type_, locations=True) == located
    assert _exact(type_, located) == (True, True)


def test_a_compact_iterator_stands_at_locations_of_its_own() -> None:
    assert pformat(parse_type("(It[float64ᶜ]) → float64ᶜ"), locations=True) == (
        "(It[T₀, T₁, float64ᶜ]) → float64ᶜ"
    )
    # GT4Py's located notation, where `It[d]` is an iterator standing nowhere in particular.
    assert pformat(parse_type("It[float64ᶜ]", locations=True), locations=True) == "It[float64ᶜ]"
    # Read back, the two iterators of one location stay one location: the located text says so.
    shared = "(It[T₂, T₂, T₀¹], It[T₂, T₂, T₃¹]) → T₀¹"
    assert pformat(parse_type(shared), locations=True) == shared
    assert pformat(parse_type(shared)) == "(It[T₀¹], It[T₂¹]) → T₀¹"


@pytest.mark.parametrize(
    ("program", "node", "compact", "located"),
    [
        # 1. A value made from a row of values (a reduction's parameter) stands ANYWHERE, as
        # every other value, so it reads back from a text that prints no locations of a value.
        ("reduce(λ(acc, x) → acc, 0.0)", "x", "T₀¹", "T₀¹"),
        ("reduce(λ(acc, x) → (λ(t) → acc)({x, x}), 0.0)", "{x, x}", "(T₀, T₀)¹", "(T₀, T₀)¹"),
        ("map_(λ(a, b) → a)", "b", "T₀¹", "T₀¹"),
        ("λ(x: Val[float32]) → x", "x: Val[float32]", "float32⁰", "float32⁰"),
        # 2. `ItOrVal`s: neither notation writes their locations.
        (
            "λ(x, y) → {x, y}",
            "λ(x, y) → {x, y}",
            "(ItOrVal₀[T₁²], ItOrVal₀[T₃²]) → ItOrVal₀[(T₁, T₃)²]",
            "(ItOrVal₀[T₁²], ItOrVal₀[T₅²]) → ItOrVal₀[(T₁, T₅)²]",
        ),
        ("λ(x) → x[1]", "x", "ItOrVal₀[(T₁, T₂):T₃⁴]", "ItOrVal₀[(T₁, T₂):T₃⁴]"),
        (
            "f(a, out, n) { out ← (λ(p) → 3)(a) @ c⟨ IDim: [0, n) ⟩; }",
            "f(a, out, n) { out ← (λ(p) → 3)(a) @ c⟨ IDim: [0, n) ⟩; }",
            "{f(ItOrVal₀[T₁²], It[int32ᶜ], int32ˢ)}",
            "{f(ItOrVal₀[T₁²], It[ANYWHERE, T₄, int32ᶜ], int32ˢ)}",
        ),
        # 3. A row of values whose length is known is the tuple of its items: `lift`'s
        # `ValTuple` of one or two iterators reads back as that tuple, both ways.
        ("↑deref", "↑deref", "(It[T₀¹]) → It[T₀¹]", "(It[T₂, T₃, T₀¹]) → It[T₂, T₃, T₀¹]"),
        (
            "↑(λ(a, b) → ·a + ·b)",
            "↑(λ(a, b) → ·a + ·b)",
            "(It[T₀¹], It[T₀¹]) → It[T₀¹] where T₀: numeric",
            "(It[T₂, T₃, T₀¹], It[T₂, T₃, T₀¹]) → It[T₂, T₃, T₀¹] where T₀: numeric",
        ),
        (
            "scan(λ(s, a) → s + ·a, True, 0.0)",
            "scan(λ(s, a) → s + ·a, True, 0.0)",
            "(It[float64ᶜ]) → float64ᶜ",
            "(It[T₀, T₀, float64ᶜ]) → float64ᶜ",
        ),
    ],
)
def test_a_type_reads_back_from_its_texts(
    program: str, node: str, compact: str, located: str
) -> None:
    """The kinds of type whose text once read back as another type (values made from rows of
    values, `ItOrVal`s, rows of values of known length): the compact text reads back at least
    as general, in either spelling; the located text exactly, unless an `ItOrVal` stands on
    locations that are not a fresh pair of its own (no notation writes them)."""
    parsed = iterir.parse(program)
    types = infer_all(parsed)
    nodes = [n for n in iterir.walk(parsed) if iterir.pformat(n) == node]
    type_ = types[id(parsed if node == program else nodes[0])]
    assert pformat(type_) == compact
    assert _exact(type_, compact)[0]
    assert _exact(type_, to_ascii(compact))[0]
    assert pformat(type_, locations=True) == located
    exact = _exact(type_, located, locations=True)
    assert exact[0]
    assert exact[1] or "ItOrVal" in located


@given(well_typed_programs)
def test_every_inferred_type_reads_back_from_its_texts(
    generated: tuple[iterir.Node, Type],
) -> None:
    """For every node of a well-typed program, the compact text and its ASCII spelling, read
    back, are at least as general as the type (it is an instance of them); the located text
    (GT4Py's) reads back as exactly the type, unless it holds an `ItOrVal`, whose locations no
    notation writes (then at least as general)."""
    program, _ = generated
    for type_ in infer_all(program).values():
        compact = pformat(type_)
        assert "ANYWHERE" not in compact, compact
        assert _exact(type_, compact)[0], compact
        assert _exact(type_, to_ascii(compact))[0], compact
        located = pformat(type_, locations=True)
        exact = _exact(type_, located, locations=True)
        assert exact[0], located
        assert exact[1] or "ItOrVal" in located, located
    # The same through the public type values: `is_instance(parse_type(pformat(t)), t)`.
    for value in typeinf.infer_all(program).values():
        back = typeinf.parse_type(typeinf.pformat(value))
        assert typeinf.is_instance(back, value), str(value)


# -- the ASCII spelling (issue 12, item 6) -------------------------------------------------------
@given(types(), st.booleans())
def test_the_ascii_spelling_of_a_type_reads_back_to_the_same_type(
    type_: Cell, locations: bool
) -> None:
    text = pformat(type_, locations=locations)
    spelled = to_ascii(text)
    assert spelled.isascii()
    assert pformat(parse_type(spelled, locations=locations), locations=locations) == pformat(
        parse_type(text, locations=locations), locations=locations
    )


@given(well_typed_programs)
def test_the_ascii_spelling_of_every_inferred_type_reads_back(
    generated: tuple[iterir.Node, Type],
) -> None:
    program, _ = generated
    for type_ in [infer(program), *infer_all(program).values()]:
        for locations in (False, True):
            text = pformat(type_, locations=locations)
            back = parse_type(to_ascii(text), locations=locations or None)
            assert pformat(back, locations=locations) == pformat(
                parse_type(text, locations=locations or None), locations=locations
            )


def test_the_ascii_spelling_has_every_character_of_the_notation() -> None:
    assert to_ascii("((It[T₂, …₃, T¹²], …)₀ → T₄ᶜ) ⇒ ItOrVal₁₀[(T₅, T₆):T₇ˢ]") == (
        "((It[T2, ...3, T^12], ...)0 -> T4^c) => ItOrVal10[(T5, T6):T7^s]"
    )
    assert pformat(parse_type("(L[...2, 4, True]^1, ...) -> T0^1")) == "(L[…₀, 4, True]¹, …) → T₂¹"
    # A digit after `T` is a variable's number unless more of a name follows.
    assert pformat(parse_type("It[T1, T0x, float64^c]"), locations=True) == "It[T₀, T0x, float64ᶜ]"
    with pytest.raises(TypeSyntaxError, match="not a type at column 11"):
        parse_type("(T0^1) -> )")


# -- shared graphs ------------------------------------------------------------------------------
def test_a_type_too_large_to_write_out_prints_as_a_placeholder_at_once() -> None:
    """Written out, the type of a chain of definitions that doubles it has 2^32 leaves: the
    printer measures it on the graph (linear), so a message shows the part too large as a
    placeholder at once, where walking the text hangs. In a process of its own, so that a hang
    shows as the timeout."""
    code = (
        "import iterir\n"
        "from tests.test_shared_graphs import doubling\n"
        "from typeinf.fencil.infer import solve\n"
        "from typeinf.within import subject\n"
        "from typeinf.fencil.notation import FencilPrinter\n"
        "program = iterir.parse(doubling(6))\n"
        "type_ = solve(subject(program, False, None)).types[id(program)]\n"
        "print(FencilPrinter([type_]).format(type_))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("{f1 :: (ItOrVal₀[T₁²]) → ItOrVal₀[(T₁, T₁)²], f2 :: ")
    assert "f6 :: ‹a type of 17,179,869,195 cells, too large to print›" in done.stdout
