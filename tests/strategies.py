"""Hypothesis strategies for arbitrary IR: every node class, every sugared builtin at its exact
arity (so the printer's sugar is exercised), and names and literal texts that need quoting."""

from __future__ import annotations

from hypothesis import strategies as st

from iterir import (
    AxisLiteral,
    FencilDefinition,
    FunCall,
    FunctionDefinition,
    Lambda,
    Literal,
    Node,
    OffsetLiteral,
    StencilClosure,
    Sym,
    SymRef,
)
from iterir import vocabulary as voc

plain_names = st.from_regex(r"[a-zA-Z_][a-zA-Z0-9_ᐞ]{0,6}", fullmatch=True)
names = st.one_of(
    plain_names,
    st.sampled_from(sorted(voc.BUILTINS | voc.KEYWORDS | {"c", "u", "It", "L", "x"})),
    st.text(max_size=4),  # anything at all: printed in backquotes
)
number_texts = st.one_of(
    st.integers(-(2**70), 2**70).map(str),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.from_regex(r"-?[0-9]{1,3}(\.[0-9]{0,3})?([eE][+-]?[0-9]{1,2})?", fullmatch=True),
)
literals = st.builds(
    Literal,
    st.one_of(number_texts, st.sampled_from(["True", "False"]), st.text(max_size=5)),
    st.sampled_from(sorted(voc.PRIMITIVES)),
)
offsets = st.builds(OffsetLiteral, st.one_of(st.integers(-(2**40), 2**40), names))
axes = st.builds(AxisLiteral, names)
dtypes = st.one_of(st.none(), st.tuples(st.sampled_from(sorted(voc.PRIMITIVES)), st.booleans()))
syms = st.builds(Sym, names, st.sampled_from([None, "Iterator", "Value"]), dtypes)
leaves = st.one_of(st.builds(SymRef, names), literals, offsets, axes)


def _call(builtin: str, *args: Node) -> FunCall:
    return FunCall(SymRef(builtin), args)


def _extend(children: st.SearchStrategy[Node]) -> st.SearchStrategy[Node]:
    some = st.lists(children, max_size=3)
    return st.one_of(
        st.builds(FunCall, children, some),
        st.builds(Lambda, st.lists(syms, max_size=3), children),
        st.builds(_call, st.sampled_from(sorted(voc.INFIX_BY_BUILTIN)), children, children),
        st.builds(_call, st.sampled_from(sorted(voc.PREFIX_BY_BUILTIN)), children),
        st.builds(_call, st.just("if_"), children, children, children),
        st.builds(_call, st.just("tuple_get"), children, children),
        st.builds(_call, st.just("named_range"), axes, children, children),
        st.builds(
            lambda b, args: _call(b, *args),
            st.sampled_from(["make_tuple", "shift", "cartesian_domain", "unstructured_domain"]),
            some,
        ),
    )


expressions = st.recursive(leaves, _extend, max_leaves=25)
function_definitions = st.builds(FunctionDefinition, names, st.lists(syms, max_size=3), expressions)
closures = st.builds(
    StencilClosure, expressions, expressions, expressions, st.lists(expressions, max_size=3)
)
fencils = st.builds(
    FencilDefinition,
    names,
    st.lists(function_definitions, max_size=3),
    st.lists(syms, max_size=4),
    st.lists(closures, max_size=3),
)
programs = st.one_of(expressions, function_definitions, closures, fencils)
