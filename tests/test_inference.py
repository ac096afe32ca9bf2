"""Inference behaviour: polymorphism, scoping, annotations, errors, determinism, depth."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import iterir
import typeinf
import typeinf.fencil.notation
from benchmarks.shapes import deep_calls, deep_lambdas, plus_chain
from iterir import FunCall, Lambda, Literal, Sym, SymRef
from iterir.builders import call, deref, lam
from tests.conftest import ROOT
from typeinf import infer, infer_all, pformat
from typeinf.fencil.infer import solve
from typeinf.within import subject


def _type(text: str, locations: bool = False, **kwargs) -> str:
    return pformat(infer(iterir.parse(text), **kwargs), locations=locations)


def _error(text: str, **kwargs) -> typeinf.TypeInferenceError:
    with pytest.raises(typeinf.TypeInferenceError) as info:
        infer(iterir.parse(text, "t.itir"), **kwargs)
    return info.value


def test_definitions_are_polymorphic_at_every_use() -> None:
    program = (
        "f(a, b, c) { id = λ(x) → x; b ← (λ(i) → id(·i))(a) @ D; c ← (λ(j) → ·id(j))(a) @ D; }"
    )
    text = _type(program.replace("@ D", "@ c⟨ IDim: [0, 1) ⟩"))
    assert text.startswith("{id :: (T₀) → T₀, f(")


def test_lambda_parameters_are_monomorphic() -> None:
    error = _error("λ(f) → {f(1), f(True)}")
    assert isinstance(error, typeinf.UnsatisfiableConstraintError)
    assert str(error) == (
        "t.itir:1:17: error: type mismatch in the first argument of `f`: expected `int32⁰`, "
        "found `bool¹`; `int32` is not `bool`"
    )


def test_definition_order_does_not_matter() -> None:
    before = "p(a, b) { g = λ(x) → ·x; f = λ(x) → g(x); b ← (f)(a) @ c⟨ IDim: [0, 1) ⟩; }"
    after = "p(a, b) { f = λ(x) → g(x); g = λ(x) → ·x; b ← (f)(a) @ c⟨ IDim: [0, 1) ⟩; }"
    assert _type(before).split("p(")[1] == _type(after).split("p(")[1]
    assert _type(before) == "{g :: (It[T₀¹]) → T₀¹, f :: (It[T₂³]) → T₂³, p(It[T₄ᶜ], It[T₄ᶜ])}"


def test_allowed_free_names_in_a_standalone_expression_share_a_type() -> None:
    assert _type("λ(y) → x + y", allow_free={"x"}) == "(T₀¹) → T₀¹ where T₀: numeric"
    assert _type("{x, x}", allow_free=True) == "ItOrVal₀[(T₁, T₁)²]"  # an iterator or a value


def test_annotations_constrain_parameters() -> None:
    assert _type("λ(x: It[float64]) → x") == "(It[float64⁰]) → It[float64⁰]"
    assert _type("λ(x: It[float64]) → x", locations=True) == (
        "(It[T₁, T₂, float64⁰]) → It[T₁, T₂, float64⁰]"
    )
    assert _type("λ(x: Val) → x") == "(T₀¹) → T₀¹"
    assert (
        _type("λ(x: L[int32]) → x") == "(ItOrVal₀[L[int32, T₁, T₂]³]) → ItOrVal₀[L[int32, T₁, T₂]³]"
    )
    node = iterir.from_json(
        {
            "node": "Lambda",
            "params": [{"node": "Sym", "id": "x", "kind": "Iterator"}],
            "expr": {"node": "SymRef", "id": "x"},
        }
    )
    assert pformat(infer(node)) == "(It[T₀¹]) → It[T₀¹]"
    assert pformat(infer(node), locations=True) == "(It[T₂, T₃, T₀¹]) → It[T₂, T₃, T₀¹]"


def test_closure_outputs_and_tuples_of_outputs() -> None:
    text = _type(
        "f(a, b, o1, o2) { {o1, o2} ← (λ(x, y) → {·x, ·y})(a, b) @ c⟨ IDim: [0, 1) ⟩; }",
        locations=True,
    )
    assert text == (
        "{f(It[ANYWHERE, T₁, T₀ᶜ], It[ANYWHERE, T₁, T₂ᶜ], It[ANYWHERE, T₁, T₀ᶜ], "
        "It[ANYWHERE, T₁, T₂ᶜ])}"
    )


ERRORS = [
    (
        "sqrt(1)",
        typeinf.UnsatisfiableConstraintError,
        "t.itir:1:6: error: type mismatch in the first argument of `sqrt`: expected `T₀¹`, found "
        "`int32²`; `sqrt` needs a float, found `int32`; where T₀: float",
    ),
    (
        "power(True, 1.0)",
        typeinf.UnsatisfiableConstraintError,
        "t.itir:1:7: error: type mismatch in the first argument of `power`: expected `T₀¹`, found "
        "`bool²`; `power` needs a number, found `bool`; where T₀: numeric",
    ),
    (
        "1 + True",
        typeinf.UnsatisfiableConstraintError,
        "t.itir:1:5: error: type mismatch in the second argument of `plus`: expected `int32⁰`, "
        "found `bool¹`; `int32` is not `bool`",
    ),
    (
        "plus(1, 2, 3)",
        typeinf.UnsatisfiableConstraintError,
        "t.itir:1:1: error: `plus` takes 2 arguments, but is given 3",
    ),
    (
        "λ(x) → ·x + x",
        typeinf.UnsatisfiableConstraintError,
        "t.itir:1:13: error: type mismatch in the second argument of `plus`: expected `T₀¹`, found "
        "`It[T₀¹]`; `Value` and `Iterator` differ (different constructors); where T₀: numeric; "
        "did you mean `·x`?",
    ),
    (
        "λ(f) → f(f)",
        typeinf.InfiniteTypeError,
        "t.itir:1:10: error: this would need an infinite type (`(…) → T₀`, where `…` is the type "
        "itself)",
    ),
    (
        "λ(x) → x(λ(y) → x)",
        typeinf.InfiniteTypeError,
        "t.itir:1:17: error: this would need an infinite type (`((T₀) → …) → T₁`, where `…` is the "
        "type itself)",
    ),
    (
        "f(a, b) { g = λ(x) → x(x); b ← (λ(i) → ·i)(a) @ c⟨ IDim: [0, 1) ⟩; }",
        typeinf.InfiniteTypeError,
        "t.itir:1:24: error: this would need an infinite type (`(…) → T₀`, where `…` is the type "
        "itself)",
    ),
    (
        "make_tuple",
        typeinf.GrammarBuiltinError,
        "t.itir:1:1: error: `make_tuple` is part of the grammar: it can only be called, not used as "
        "a value",
    ),
    (
        "f(shift)",
        typeinf.GrammarBuiltinError,
        "t.itir:1:3: error: `shift` is part of the grammar: it can only be called, not used as a "
        "value",
    ),
    (
        "tuple_get(x, y)",
        typeinf.GrammarBuiltinError,
        "t.itir:1:11: error: the index of `tuple_get` must be a non-negative integer literal",
    ),
    (
        "cast_(1, x)",
        typeinf.GrammarBuiltinError,
        "t.itir:1:10: error: the second argument of `cast_` must be a type name, such as `float64`",
    ),
    (
        "float64",
        typeinf.GrammarBuiltinError,
        "t.itir:1:1: error: `float64` is a type name: it can only be the second argument of `cast_`",
    ),
    (
        "float64(1)",
        typeinf.GrammarBuiltinError,
        "t.itir:1:1: error: `float64` is a type name, not a function: cast with `cast_(x, float64)`",
    ),
    (
        "neighbors(1, it)",
        typeinf.GrammarBuiltinError,
        "t.itir:1:11: error: the first argument of `neighbors` must be an offset tag, such as `V2Eₒ`",
    ),
    (
        "tuple_get(0, x, y)",
        typeinf.GrammarBuiltinError,
        "t.itir:1:1: error: `tuple_get` takes 2 arguments, not 3",
    ),
    (
        "f(a) { a ← (deref)(zz) @ c⟨ IDim: [0, 1) ⟩; }",
        typeinf.UnboundSymbolError,
        "t.itir:1:20: error: `zz` is not defined: not a parameter, a function definition or a builtin",
    ),
    (
        "f(a) { g = λ(x) → h(x); h = λ(y) → g(y); a ← (g)(a) @ c⟨ IDim: [0, 1) ⟩; }",
        typeinf.RecursionCycleError,
        "t.itir:1:36: error: recursion is not allowed: g → h → g",
    ),
    (
        "f(a) { g = λ(x) → g(x); a ← (g)(a) @ c⟨ IDim: [0, 1) ⟩; }",
        typeinf.RecursionCycleError,
        "t.itir:1:19: error: recursion is not allowed: g → g",
    ),
]


@pytest.mark.parametrize(("text", "kind", "message"), ERRORS)
def test_errors(text: str, kind: type, message: str) -> None:
    error = _error(text, allow_free={"f", "x", "y", "it"})  # unknowns: `zz` stays an error
    assert type(error) is kind
    assert str(error) == message
    assert error.node is not None and error.node.loc is not None


def test_offset_provider_errors() -> None:
    provider = {
        "V2E": {
            "type": "Connectivity",
            "origin": "Vertex",
            "neighbor": "Edge",
            "max_neighbors": 4,
            "has_skip_values": False,
        },
        "I": {"type": "Dimension", "value": "IDim"},
    }
    error = _error("⟪E2Vₒ, 0ₒ⟫", offset_provider=provider)
    assert isinstance(error, typeinf.OffsetProviderError)
    assert (
        str(error)
        == "t.itir:1:2: error: offset `E2V` is not in the offset provider (it has: I, V2E)"
    )
    error = _error("neighbors(Iₒ, it)", offset_provider=provider, allow_free={"it"})
    assert (
        str(error)
        == "t.itir:1:11: error: `neighbors` needs a connectivity, but `I` is the dimension IDim"
    )
    error = _error("λ(it) → ⟪V2Eₒ, 0ₒ⟫(⟪V2Eₒ, 0ₒ⟫(it))", offset_provider=provider)
    assert str(error) == (
        "t.itir:1:20: error: type mismatch in the first argument of `⟪V2Eₒ, 0ₒ⟫`: expected "
        "`It[Vertex, T₂, T₀¹]`, found `It[Edge, T₅, T₃⁴]`; `Vertex` is not `Edge`"
    )
    with pytest.raises(
        typeinf.core.offsets.OffsetProviderFormatError, match="'I': missing 'value'"
    ):
        infer(SymRef("x"), {"I": {"type": "Dimension"}})


def test_errors_on_ir_built_in_python_name_the_node() -> None:
    with pytest.raises(typeinf.UnsatisfiableConstraintError) as info:
        infer(call("sqrt")(1))
    assert str(info.value).startswith(
        "<ir> 1: error: type mismatch in the first argument of `sqrt`"
    )


def test_infer_all_types_every_node_in_pre_order() -> None:
    program = iterir.parse("λ(x) → ·x + 1")
    types = infer_all(program, attach=True)
    nodes = list(iterir.walk(program))
    assert list(types) == [id(n) for n in nodes]
    printed = [pformat(types[id(n)]) for n in nodes]
    assert printed == [
        "(It[int32⁰]) → int32⁰",
        "It[int32⁰]",
        "int32⁰",
        "(int32⁰, int32⁰) → int32⁰",
        "int32⁰",
        "(It[int32⁰]) → int32⁰",
        "It[int32⁰]",
        "int32⁰",
    ]
    assert pformat(program.expr.inferred_type) == "int32⁰"  # type: ignore[attr-defined]


def test_grammar_builtins_are_typed_at_their_call() -> None:
    program = iterir.parse("{1, True}")
    types = infer_all(program)
    assert pformat(types[id(program.fun)]) == "(int32⁰, bool⁰) → (int32, bool)⁰"  # type: ignore[attr-defined]


def test_register_builtin() -> None:
    typeinf.register_builtin("my_fma", "(T₀¹, T₀¹, T₀¹) → T₀¹ where T₀: float")
    try:
        assert _type("λ(a) → my_fma(·a, 2.0, 1.0)") == "(It[float64⁰]) → float64⁰"
        assert isinstance(_error("my_fma(1, 2, 3)"), typeinf.UnsatisfiableConstraintError)
        with pytest.raises(ValueError, match="is a builtin already"):
            typeinf.register_builtin("my_fma", "(T₀¹) → T₀¹")
    finally:
        del typeinf.fencil.signatures.BUILTINS["my_fma"]
    with pytest.raises(typeinf.TypeSyntaxError, match="not a type"):
        typeinf.register_builtin("bad_op", "(T₀¹ → ")
    with pytest.raises(typeinf.TypeSyntaxError, match="unknown family"):
        typeinf.register_builtin("bad_op", "(T₀¹) → T₀¹ where T₀: real")
    with pytest.raises(ValueError, match="identifier"):
        typeinf.register_builtin("not a name", "(T₀¹) → T₀¹")


@pytest.mark.parametrize("build", [deep_lambdas, deep_calls, plus_chain])
def test_deep_programs_infer(build) -> None:
    assert sys.getrecursionlimit() <= 1100
    text = pformat(infer(build(100_000)))
    assert (
        text == "((T₀) → T₀, T₀) → T₀"
        or (text.startswith("(T₀¹, T₀¹, T₀¹, ") and text.endswith(") → T₀¹ where T₀: numeric"))
        or text.startswith("(T₀) → (T₁) → ")
    )


_DETERMINISM = """
import iterir, typeinf, json
sample = json.loads(open({path!r}).readlines()[{line}])
node = iterir.from_json(sample["ir"])
print(typeinf.pformat(typeinf.infer(node, sample["offset_provider"]), locations=True))
print(typeinf.pformat(typeinf.infer(iterir.parse("λ(f, g) → {{f(g), g}}"))))
"""


def test_output_is_identical_in_fresh_processes_whatever_the_hash_seed() -> None:
    from tests.conftest import SAMPLES_PATH

    outputs = set()
    for seed in ("0", "1", "12345"):
        script = _DETERMINISM.format(path=str(SAMPLES_PATH), line=20)
        env = {**os.environ, "PYTHONHASHSEED": seed}
        result = subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            cwd=ROOT,
            env=env,
            check=True,
        )
        outputs.add(result.stdout)
    assert len(outputs) == 1


def test_syms_and_symrefs_share_parameter_types() -> None:
    program = lam(Sym("x"))(deref("x"))
    types = infer_all(program)
    assert pformat(types[id(program.params[0])]) == pformat(types[id(program.expr.args[0])])  # type: ignore[attr-defined]


def test_output_does_not_depend_on_what_ran_before() -> None:
    program = "f(a, b) { g = λ(x) → ·x; b ← (g)(a) @ c⟨ IDim: [0, 1) ⟩; }"
    first = _type(program, locations=True)
    for other in ["λ(x) → x", "lift", "reduce(plus, 0)", "λ(f) → {f, f}"]:
        infer(iterir.parse(other))
    assert _type(program, locations=True) == first


def _shapes() -> list[tuple[str, typeinf.fencil.signatures.Signature]]:
    """Shapes of every size: small, nested deeper than generated code goes (a tuple_get of a
    far element, a closure of many inputs), and past the size that is compiled at all."""
    from typeinf.fencil import shaped

    shapes = [(f"make_tuple/{n}", shaped.make_tuple(n)) for n in (0, 1, 2, 3, 70)]
    shapes += [(f"tuple_get/{i}", shaped.tuple_get(i)) for i in (0, 1, 2, 10, 99, 200)]
    shapes += [(f"closure/{n}", shaped.closure(n)) for n in (0, 1, 2, 8, 20)]
    sizes = {name: len(signature.scheme.cells) for name, signature in shapes}  # type: ignore[union-attr]
    assert sizes["tuple_get/10"] < typeinf.core.codegen.MOST_COMPILED_CELLS < sizes["tuple_get/200"]
    assert (
        sizes["closure/8"]
        < typeinf.core.codegen.MOST_COMPILED_CELLS
        < sizes["closure/20"]
        < sizes["make_tuple/70"]
    )
    return shapes


def test_compiled_builtin_instances_equal_the_plan_and_are_fresh() -> None:
    from typeinf.fencil.signatures import BUILTINS

    for name, signature in [*BUILTINS.items(), *_shapes()]:
        if signature.how != "signature":
            continue
        first, second = signature.instantiate(), signature.instantiate()  # type: ignore[misc]
        expected = typeinf.fencil.notation.pformat(signature.scheme.instantiate(), locations=True)  # type: ignore[union-attr]
        assert typeinf.fencil.notation.pformat(first, locations=True) == expected, name
        assert typeinf.fencil.notation.pformat(second, locations=True) == expected, name
        assert not _variables(first) & _variables(second), name
        *params, result = signature.instantiate_call()  # type: ignore[misc]
        assert (
            typeinf.fencil.notation.pformat(
                typeinf.core.constructors.fun(params, result), locations=True
            )
            == expected
        ), name


@pytest.mark.parametrize("arguments", ["fresh variables", "the parameters' own types"])
def test_matching_a_builtin_call_gives_what_unifying_its_parameters_gives(arguments: str) -> None:
    from typeinf.core.terms import Sort, var
    from typeinf.core.unify import unify
    from typeinf.fencil.signatures import BUILTINS

    for name, signature in [*BUILTINS.items(), *_shapes()]:
        if signature.match is None:
            continue
        *params, expected = signature.instantiate_call()  # type: ignore[misc]
        if arguments == "fresh variables":
            given = [var(Sort.TYPE) for _ in params]
        else:
            *given, _ = signature.instantiate_call()  # type: ignore[misc]
        undecided: list = []
        matched = signature.match(given, undecided)
        assert matched is not None and not undecided, name
        for param, argument in zip(params, list(given), strict=True):
            assert not unify(param, argument), name
        by_matching = typeinf.fencil.notation.pformat(
            typeinf.core.constructors.fun(list(given), matched), locations=True
        )
        assert by_matching == typeinf.fencil.notation.pformat(
            typeinf.core.constructors.fun(params, expected), locations=True
        ), name
        assert signature.match([*given, var(Sort.TYPE)], []) is None, (
            name
        )  # a wrong number of arguments


def test_a_template_instance_is_a_fresh_copy_like_a_schemes_and_matching_it_is_unifying() -> None:
    from typeinf.core.constructors import fun
    from typeinf.core.matching import walk_match
    from typeinf.core.schemes import Scheme, Template
    from typeinf.core.terms import Sort, var
    from typeinf.core.unify import unify

    program = iterir.parse(
        "f(a, b) { g = λ(x, y) → {·x, tuple_get(1, ·y)}; h = λ(z) → g(z, z); "
        "k = λ(u, v) → ·u + ·v; b ← (h)(a) @ c⟨ IDim: [0, 1) ⟩; }"
    )
    for definition in solve(subject(program, False, None)).type.definitions:  # type: ignore[union-attr]
        template = Template(definition.type)
        copy = template.instantiate()
        assert typeinf.fencil.notation.pformat(
            copy, locations=True
        ) == typeinf.fencil.notation.pformat(Scheme(definition.type).instantiate(), locations=True)
        assert not _variables(copy) & _variables(definition.type)
        # Matching against fresh variables, or against the parameters' own types, gives what
        # unifying the parameters of an instance with them gives.
        arity = len(_params(copy))
        for given in ([var(Sort.TYPE) for _ in range(arity)], _params(template.instantiate())):
            instance = template.instantiate()
            matched = walk_match(template.root, given, [])
            for param, argument in zip(_params(instance), given, strict=True):
                assert not unify(param, argument)
            assert typeinf.fencil.notation.pformat(
                fun(given, matched), locations=True
            ) == typeinf.fencil.notation.pformat(instance, locations=True)
        assert walk_match(template.root, [var(Sort.TYPE) for _ in range(arity + 1)], []) is None


def _params(function: typeinf.core.terms.Cell) -> list[typeinf.core.terms.Cell]:
    return typeinf.core.constructors.row_items(typeinf.core.terms.find(function).args[0])[0]


def _variables(cell: typeinf.core.terms.Cell) -> set[int]:
    """The ids of the variables reachable from `cell`."""
    seen: set[int] = set()
    out: set[int] = set()
    stack = [cell]
    while stack:
        current = typeinf.core.terms.find(stack.pop())
        if id(current) in seen:
            continue
        seen.add(id(current))
        if current.ctor is None:
            out.add(id(current))
        stack.extend(current.args)
    return out


def _subscript(number: int) -> str:
    return str(number).translate(str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉"))


def _superscript(number: int) -> str:
    return str(number).translate(str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"))


@pytest.mark.parametrize("index", [1, 7, 98, 99, 334, 5000, 9999])
def test_tuple_get_of_a_far_element_has_a_row_of_that_many_elements(index: int) -> None:
    # Matching code nests a level per element: far elements once made it fail to compile.
    elements = ", ".join(f"T{_subscript(k)}" for k in range(1, index + 2))
    tail, size = _subscript(index + 2), _superscript(index + 3)
    expected = f"(ItOrVal₀[({elements}):T{tail}{size}]) → ItOrVal₀[T{_subscript(index + 1)}{size}]"
    if index == 1:
        assert expected == "(ItOrVal₀[(T₁, T₂):T₃⁴]) → ItOrVal₀[T₂⁴]"
    assert _type(f"λ(t) → tuple_get({index}, t)") == expected
    assert (
        _type(f"λ(t) → tuple_get({index}, {{{', '.join(['1'] * (index + 1))}}})") == "(T₀) → int32¹"
    )


@pytest.mark.parametrize(
    "value",
    ["10000", "0" * 50 + "10000", "9" * 5000, "²", "٣", "-1", "1.0", ""],
    ids=[
        "limit",
        "zeros",
        "5000 digits",
        "superscript",
        "arabic-indic",
        "negative",
        "float",
        "empty",
    ],
)
def test_a_tuple_get_index_that_is_no_supported_integer_is_an_error(value: str) -> None:
    program = FunCall(SymRef("tuple_get"), (Literal(value, "int32"), SymRef("t")))
    with pytest.raises(typeinf.GrammarBuiltinError) as info:
        infer(Lambda((Sym("t"),), program))
    assert info.value.node is program.args[0]
    assert len(str(info.value)) < 300  # the index is shortened, not printed whole


@pytest.mark.parametrize("name", ["lift", "scan", "reduce", "map_"])
def test_a_builtin_of_any_arity_made_to_one_types_a_use_as_its_signature_does(name: str) -> None:
    # The builtin given a function of `count` parameters, and its result left alone or called
    # (with one input per parameter, but the state of `scan` and `reduce`).
    from typeinf.core.constructors import fun
    from typeinf.core.terms import Sort, var
    from typeinf.core.unify import unify
    from typeinf.fencil import shaped
    from typeinf.fencil.signatures import BUILTINS

    general = BUILTINS[name]
    assert general.takes_any_arity and not BUILTINS["deref"].takes_any_arity
    state = 1 if name in ("scan", "reduce") else 0
    for count in range(4):
        specialized = shaped.for_arity(general, count)
        if count < state:  # no function of `count` parameters fits: the general way reports it
            assert specialized is general
            continue
        assert specialized is not general
        for called in (False, True):
            printed = []
            for signature in (general, specialized):
                *params, result = signature.instantiate_call()  # type: ignore[misc]
                function = fun([var(Sort.TYPE) for _ in range(count)], var(Sort.TYPE))
                arguments = [function, *(var(Sort.TYPE) for _ in params[1:])]
                for param, argument in zip(params, arguments, strict=True):
                    assert not unify(param, argument)
                if called:
                    inputs, out = [var(Sort.TYPE) for _ in range(count - state)], var(Sort.TYPE)
                    assert not unify(result, fun(inputs, out))
                    arguments, result = [*arguments, *inputs], out
                printed.append(
                    typeinf.fencil.notation.pformat(fun(arguments, result), locations=True)
                )
            assert printed[0] == printed[1], (name, count, called)
