"""Every constructor of the table (`typeinf.fencil.constructors.CONSTRUCTORS`) through every behaviour
the core has for types: printing (an arm in the printer's table, both notations), reading back,
unification with a fresh copy, instantiation (the plan, the generated code, a direct call's),
matching (generated and walked), and `is_instance`. A constructor added to the table without
one of these fails here, naming it, instead of failing a user."""

from __future__ import annotations

import pytest

from iterir.vocabulary import GTIR_BUILTINS, PRIMITIVES
from typeinf.core import constructors as engine
from typeinf.core.codegen import compiled, compiled_call, compiled_matcher
from typeinf.core.instance import is_instance
from typeinf.core.matching import walk_match
from typeinf.core.schemes import Scheme
from typeinf.core.terms import Cell, find
from typeinf.core.unify import unify
from typeinf.fencil import constructors as c
from typeinf.fencil.notation import FencilPrinter, pformat
from typeinf.fencil.reader import parse_type
from typeinf.fencil.signatures import BUILTINS

#: A type in which each constructor occurs, written in the notation (located where it shows).
EXAMPLES: dict[engine.Constructor, str] = {
    c.VAL: "(T₀¹) → T₀¹",
    engine.FUN: "((T₀) → T₁, T₀) → T₁",
    c.ITERATOR_KIND: "(It[T₂, T₂, T₀¹]) → T₀¹",
    c.VALUE_KIND: "(float64⁰) → float64⁰",
    c.COLUMN_SIZE: "(It[T₀, T₀, float64ᶜ]) → float64ᶜ",
    c.SCALAR_SIZE: "(axisˢ, T₀ˢ, T₀ˢ) → named_rangeˢ where T₀: integer",
    engine.PRIM: "(int32⁰) → bool⁰",
    c.LIST: "(L[T₀, T₁, T₂]³) → T₀³",
    c.LOC: "(It[Vertex, Edge, T₀¹]) → It[Edge, Edge, T₀¹]",
    c.LENGTH: "(L[T₀, 4, T₁]²) → T₀²",
    c.SKIP: "(L[T₀, T₁, True]², L[T₀, T₁, False]²) → T₀²",
    engine.TTUPLE: "(T₀, T₁) → T₀",
    engine.TEMPTY: "() → T₀",
    engine.DTUPLE: "((T₀, T₁)²) → T₀²",
    engine.DEMPTY: "(()⁰) → bool⁰",
    c.LTUPLE: "lift of a stencil of two inputs",
    c.LEMPTY: "lift of a stencil of two inputs",
    c.VALTUPLE: "((It[T₂, …₃, T¹], …)₀ → T₄¹) → (It[T₅, …₃, T¹], …)₀ → It[T₅, T₂, T₄¹]",
    c.VALLISTTUPLE: "((T₀¹):(T¹, …)₂ → T₀¹, T₀¹) → (L[…₂, T₅, T₆]¹, …) → T₀¹",
}


LIFTED = "((It[T₂, …₃, T¹], …)₀ → T₄¹) → (It[T₅, …₃, T¹], …)₀ → It[T₅, T₂, T₄¹]"


def _example(ctor: engine.Constructor) -> tuple[Cell, str]:
    """The example type of `ctor`, and its located text. Rows of locations are made only by a
    row of values' rule (they hold the defined locations of its items once known): `lift`'s
    type after its stencil's is known keeps them in its second, unexpanded row."""
    text = EXAMPLES[ctor]
    if text != "lift of a stencil of two inputs":
        type_ = parse_type(text)
        assert isinstance(type_, Cell)
        return type_, text
    lift = parse_type(LIFTED)
    assert isinstance(lift, Cell)
    params = engine.fixed_params(lift)
    assert params is not None
    assert not unify(
        params[0], parse_type("(It[T₀, T₁, T₂³], It[T₀, T₄, T₅³]) → T₂³", locations=True)
    )
    return lift, pformat(lift, locations=True)


def _constructors(cell: Cell) -> set[engine.Constructor]:
    seen: set[int] = set()
    found: set[engine.Constructor] = set()
    stack = [cell]
    while stack:
        root = find(stack.pop())
        if id(root) in seen:
            continue
        seen.add(id(root))
        if root.ctor is not None:
            found.add(root.ctor)
        stack.extend(root.args)
    return found


def test_the_table_names_each_constructor_once() -> None:
    assert list(c.CONSTRUCTORS) == [ctor.name for ctor in c.CONSTRUCTORS.values()]
    assert len(set(c.CONSTRUCTORS.values())) == len(c.CONSTRUCTORS)


@pytest.mark.parametrize("ctor", list(c.CONSTRUCTORS.values()), ids=lambda ctor: ctor.name)
def test_every_constructor_has_every_behaviour(ctor: engine.Constructor) -> None:
    assert ctor in EXAMPLES, f"no example type with {ctor.name}: add one (and its behaviours)"
    assert ctor in FencilPrinter.ARMS, f"the printer has no arm for {ctor.name}"
    check_every_behaviour(ctor, *_example(ctor))


def check_every_behaviour(ctor: engine.Constructor, type_: Cell, text: str) -> None:
    """Every behaviour of `ctor`, with `type_`, a type holding it whose located text is `text`:
    the walk each constructor of the core goes through, and one added from outside it
    (`tests/test_toy_constructor.py`) too."""
    assert all(i < len(ctor.params) for i in ctor.locations)
    # Reading: the example holds the constructor, and reads back from both notations to the
    # same text.
    assert ctor in _constructors(type_), f"{text} does not contain {ctor.name}"
    for located in (False, True):
        printed = pformat(type_, locations=located)
        assert pformat(parse_type(printed, locations=located), locations=located) == printed
    assert pformat(type_, locations=True) == text
    # Unification with a fresh copy of itself, and `is_instance` both ways.
    scheme = Scheme(type_)
    copy = scheme.instantiate()
    assert not unify(copy, scheme.instantiate())
    assert pformat(copy, locations=True) == text
    assert is_instance(type_, scheme.instantiate()) and is_instance(scheme.instantiate(), type_)
    # Instantiation: the plan, the generated code and a direct call's form agree.
    assert pformat(compiled(scheme)(), locations=True) == text
    call = compiled_call(scheme)
    assert call is not None
    *params, result = call()
    assert pformat(engine.fun(params, result), locations=True) == text
    # Matching, generated and walked, against the parameters' own types gives the type.
    for match in (
        compiled_matcher(scheme),
        lambda types, undecided: walk_match(type_, types, undecided),
    ):
        assert match is not None
        *given, _ = scheme.instantiate_call()  # type: ignore[misc]  # a function of fixed arity
        undecided: list[tuple[Cell, Cell]] = []
        matched = match(list(given), undecided)
        assert matched is not None and not undecided
        assert pformat(engine.fun(list(given), matched), locations=True) == text


def test_rows_of_values_meet_argument_rows_by_their_rule() -> None:
    for ctor in c.ROWS_OF_VALUES:
        assert ctor.meet is not None
    lifted = parse_type("((It[T¹], …)₀ → T₂¹) → (It[T¹], …)₀ → It[T₂¹]")
    stencil = parse_type("(It[T₀¹], It[T₂¹]) → T₀¹")
    lift = Scheme(lifted).instantiate()
    assert not unify(engine.fixed_params(lift)[0], stencil)  # type: ignore[index]  # lift takes one
    # The lifted function's row has its dtypes now, but not yet its items' defined locations
    # (`_`): the located notation shows the current location the items share (the compact one
    # writes no location; the compact result read back stands at fresh locations of its own).
    assert pformat(find(lift).args[1]) == "(It[T₀²], It[T₁²]) → It[T₀²]"
    assert pformat(find(lift).args[1], locations=True) == (
        "(It[T₃, _, T₀²], It[T₃, _, T₁²]) → It[T₅, T₆, T₀²]"
    )


def test_the_grammar_builtins_have_a_rule_each() -> None:
    from typeinf.fencil.rules import RULES

    ruled = {name for name, signature in BUILTINS.items() if signature.how == "rule"}
    assert ruled == set(RULES)


def test_every_gtir_builtin_has_a_rule_or_a_signature() -> None:
    """GTIR's one table of rules and its signatures (`builtins/gtir.gsig`) type every builtin
    of GTIR's vocabulary but the type names (which `cast_` reads); those in both are typed by
    their rule, which falls back on the signature (`if_` but of lists, a comparison but of
    dimensions and domains). Each rule applies somewhere: to a call of its builtin or to the
    call that applies one."""
    from typeinf.gtir.rules import RULES
    from typeinf.gtir.signatures import SIGNATURES

    assert sorted(set(GTIR_BUILTINS) - set(RULES) - set(SIGNATURES)) == sorted(PRIMITIVES)
    assert set(RULES) | set(SIGNATURES) <= set(GTIR_BUILTINS)
    assert sorted(set(RULES) & set(SIGNATURES)) == [
        "and_", "eq", "greater", "greater_equal", "if_", "less", "less_equal", "not_eq", "or_",
        "xor_",
    ]  # fmt: skip
    assert [name for name, rule in RULES.items() if rule.called is rule.applied is None] == []
