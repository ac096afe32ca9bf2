"""Generated GTIR (every node class, every builtin at its arity, typed parameters of every type
form, names and literals that need quoting) round-trips through text and JSON; any text and any
JSON value either parses or raises a located ParseError."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

import iterir
from iterir import gtir_types as gt
from iterir import vocabulary as voc
from iterir.jsontext import dumps
from iterir.nodes import (
    AxisLiteral,
    CartesianOffset,
    FunCall,
    FunctionDefinition,
    IfStmt,
    InfinityLiteral,
    Lambda,
    Literal,
    Node,
    OffsetLiteral,
    Program,
    SetAt,
    Sym,
    SymRef,
    Temporary,
)
from tests.strategies import _call, names, number_texts
from tests.test_gtir_samples import SAMPLES
from tests.test_parser_fuzz import _parses_or_fails_cleanly, mutated_text

KINDS = sorted(gt.KIND_SUFFIXES)
scalar_kinds = st.sampled_from(sorted(voc.PRIMITIVES))
dimensions = st.builds(gt.Dimension, names, st.sampled_from(KINDS))
dim_lists = st.lists(dimensions, max_size=3).map(tuple)
maybe_unknown = st.one_of(dim_lists, st.just("unknown"))
scalars = st.builds(
    gt.ScalarType,
    scalar_kinds,
    st.one_of(st.none(), st.lists(st.integers(0, 9), min_size=1, max_size=2).map(tuple)),
)


def _compound(inner: st.SearchStrategy[gt.GType]) -> st.SearchStrategy[gt.GType]:
    some = st.lists(inner, max_size=3).map(tuple)
    keywords = st.lists(st.tuples(names, inner), max_size=2, unique_by=lambda kv: kv[0]).map(tuple)
    return st.one_of(
        st.builds(gt.FieldType, dim_lists, inner),
        st.builds(gt.TupleType, some),
        st.builds(gt.ListType, inner, st.one_of(st.none(), dimensions)),
        st.builds(gt.IteratorType, maybe_unknown, dim_lists, inner),
        st.builds(gt.FunctionType, some, keywords, keywords, inner),
        st.builds(gt.OffsetLiteralType, st.one_of(dimensions, scalars)),
    )


gtir_types = st.recursive(
    st.one_of(
        scalars,
        dimensions,
        st.builds(gt.DomainType, maybe_unknown),
        st.builds(gt.NamedRangeType, dimensions),
        st.builds(gt.DimensionType, dimensions),
        st.just(gt.DeferredType()),
        st.just(gt.VoidType()),
    ),
    _compound,
    max_leaves=6,
)
literals = st.builds(
    Literal,
    st.one_of(number_texts, st.sampled_from(["True", "False"]), st.text(max_size=5)),
    scalar_kinds,
)
axes = st.builds(AxisLiteral, names, st.sampled_from(KINDS))
syms = st.builds(Sym, names, type=st.one_of(st.none(), gtir_types))
leaves = st.one_of(
    st.builds(SymRef, names, st.one_of(st.none(), gtir_types)),
    literals,
    st.builds(OffsetLiteral, st.one_of(st.integers(-(2**40), 2**40), names)),
    axes,
    st.builds(InfinityLiteral, st.sampled_from(["POSITIVE", "NEGATIVE"])),
    st.builds(CartesianOffset, axes, axes),
)
#: Every builtin with sugar in GTIR's text, at the arity that has it.
SUGARED = {
    **dict.fromkeys(voc.GTIR_INFIX_BY_BUILTIN, 2),
    **dict.fromkeys(voc.GTIR_PREFIX_BY_BUILTIN, 1),
    "if_": 3,
    "tuple_get": 2,
}


def _extend(children: st.SearchStrategy[Node]) -> st.SearchStrategy[Node]:
    some = st.lists(children, max_size=3)
    return st.one_of(
        st.builds(FunCall, children, some),
        st.builds(Lambda, st.lists(syms, max_size=3), children),
        st.sampled_from(sorted(SUGARED)).flatmap(
            lambda b: st.lists(children, min_size=SUGARED[b], max_size=SUGARED[b]).map(
                lambda args: _call(b, *args)
            )
        ),
        st.builds(_call, st.just("named_range"), axes, children, children),
        st.builds(
            lambda b, args: _call(b, *args),
            st.sampled_from(
                [
                    *sorted(voc.GTIR_BUILTINS - voc.PRIMITIVES),
                    "make_tuple",
                    "shift",
                    "cartesian_domain",
                    "unstructured_domain",
                ]
            ),
            some,
        ),
    )


expressions = st.recursive(leaves, _extend, max_leaves=20)
set_ats = st.builds(SetAt, expressions, expressions, expressions)
statements = st.recursive(
    set_ats,
    lambda inner: st.builds(
        IfStmt, expressions, st.lists(inner, max_size=2), st.lists(inner, max_size=2)
    ),
    max_leaves=4,
)
temporaries = st.builds(
    Temporary,
    names,
    st.one_of(st.none(), expressions),
    st.one_of(
        st.none(), st.builds(gt.TupleType, st.lists(scalars, max_size=2).map(tuple)), scalars
    ),
)
function_definitions = st.builds(FunctionDefinition, names, st.lists(syms, max_size=3), expressions)
programs = st.builds(
    Program,
    names,
    st.lists(function_definitions, max_size=2),
    st.lists(syms, max_size=3),
    st.lists(temporaries, max_size=2),
    st.lists(statements, max_size=3),
)
gtir = st.one_of(programs, statements, temporaries, function_definitions, expressions)


@given(gtir)
def test_generated_gtir_round_trips_through_text(node: Node) -> None:
    text = iterir.pformat(node)
    assert iterir.parse(text) == node, text


@given(gtir)
def test_generated_gtir_round_trips_through_json(node: Node) -> None:
    text = dumps(iterir.to_json(node))
    loaded = iterir.from_json(json.loads(text))
    assert loaded == node
    assert dumps(iterir.to_json(loaded)) == text


@given(gtir_types)
def test_types_round_trip_through_json(value: gt.GType) -> None:
    assert gt.type_from_json(json.loads(json.dumps(gt.type_to_json(value)))) == value


json_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.text(max_size=5),
        st.sampled_from(["Program", "SetAt", "FieldType", "Dimension", "unknown", "horizontal"]),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(
            st.sampled_from(["node", "t", "id", "type", "kind", "dims", "dtype", "body", "expr"]),
            inner,
            max_size=4,
        ),
    ),
    max_leaves=12,
)


@given(json_values)
def test_any_json_value_loads_or_raises_a_located_parse_error(value: object) -> None:
    try:
        iterir.from_json(value, "v.json")
    except iterir.ParseError as error:
        assert str(error).startswith("v.json: $")


@given(st.text(alphabet="λ→←@(){}[]⟨⟩⟪⟫,;: ·⇑∞-ₕᵥₗₒ<=>+×ci0.:f64a_ \n", max_size=40))
def test_any_text_parses_or_raises_a_located_parse_error(text: str) -> None:
    _parses_or_fails_cleanly(text, "any.itir")


@given(mutated_text(st.sampled_from([s["text"] for s in SAMPLES[:40]])))
def test_mutated_gtir_text_parses_or_raises_parse_error(text: str) -> None:
    _parses_or_fails_cleanly(text, "mutant.itir")


@given(mutated_text(st.sampled_from([dumps(s["ir"]) for s in SAMPLES[:40]])))
def test_mutated_gtir_json_parses_or_raises_parse_error(text: str) -> None:
    _parses_or_fails_cleanly(text, "mutant.json")


def test_a_builtin_reference_with_a_type_is_called_plainly() -> None:
    """Sugar (`a - b`, `·x`, `if … then …`) has no place for a callee's type: a typed builtin
    reference is printed as a call, so that the text reads back to the same IR (a case
    hypothesis found)."""
    from iterir.gtir_types import ScalarType
    from iterir.nodes import FunCall, Program, SetAt, SymRef

    minus = FunCall(SymRef("minus", ScalarType("bool", None)), [SymRef("A"), SymRef("b")])
    deref = FunCall(SymRef("deref", ScalarType("int32", None)), [SymRef("A")])
    for expr, call in ((minus, "(minus: i1)(A, b)"), (deref, "(deref: i32)(A)")):
        program = Program("p", [], [], [], [SetAt(expr, SymRef("A"), SymRef("out"))])
        text = iterir.pformat(program)
        assert text == f"p() {{\n  out @ A ← {call};\n}}"
        assert iterir.parse(text) == program
