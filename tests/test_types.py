"""The public type values (`typeinf.types`): what the API returns for each construct of the
notation, how a pass reads them (`match`), how they compare and hash, that they print as the
notation does and read back, that no internal cell escapes, and that deep and shared types
convert, compare and print without recursion or blow-up."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given

import iterir
import typeinf
from benchmarks.shapes import deep_lambdas
from iterir.builders import lam
from tests.conftest import ROOT
from tests.test_relations import larger  # noqa: F401  # the builtin `larger`, for one test
from tests.welltyped import well_typed_programs
from typeinf.core.constructors import fun
from typeinf.core.terms import Cell, Sort, var
from typeinf.fencil.convert import to_value
from typeinf.types import (
    Closure,
    Definition,
    Fencil,
    Fun,
    List,
    ListRow,
    Relation,
    Tuple,
    Type,
    Val,
    ValRow,
    Var,
)

EXAMPLES = ROOT / "docs" / "examples"


def size(n: int) -> Var:
    return Var("size", n)


def dtype(n: int, family: str | None = None) -> Var:
    return Var("dtype", n, family)


def location(n: int) -> Var:
    return Var("location", n)


def value(d: Any, s: Any) -> Val:
    return Val("Value", d, s)


def iterator(d: Any, s: Any, current: Any, defined: Any) -> Val:
    return Val("Iterator", d, s, current, defined)


@pytest.mark.parametrize(
    ("program", "expected"),
    [
        ("3", value("int32", size(0))),
        (
            "λ(x) → ·x + 1.0",
            Fun((iterator("float64", size(0), location(1), location(1)),), value("float64", size(0))),
        ),
        ("λ(x) → x", Fun((Var("type", 0),), Var("type", 0))),
        (
            "plus",
            Fun(
                (value(dtype(0, "numeric"), size(1)), value(dtype(0, "numeric"), size(1))),
                value(dtype(0, "numeric"), size(1)),
            ),
        ),
        ("{True, 42.0}", value(Tuple(("bool", "float64")), size(0))),
        (
            "λ(x) → x[1]",
            Fun(
                (
                    Val(
                        Var("kind", 0),
                        Tuple((dtype(1), dtype(2)), Var("dtype row", 3)),
                        size(4),
                        location(5),
                        location(6),
                    ),
                ),
                Val(Var("kind", 0), dtype(2), size(4), location(5), location(6)),
            ),
        ),
        (
            "λ(f) → f(1, 2)",
            Fun(
                (Fun((value("int32", size(0)), value("int32", size(1))), Var("type", 2)),),
                Var("type", 2),
            ),
        ),
        (
            "make_const_list",
            Fun(
                (value(dtype(0), size(1)),),
                value(List(dtype(0), Var("list length", 2), Var("skip flag", 3)), size(1)),
            ),
        ),
        ("IDimₐ", Val("Value", "axis", "Scalar")),
        (  # a row of values known to be empty: the notation numbers its size first
            "↑(λ() → x)",
            Fun(
                (),
                iterator(dtype(2), size(0), location(1), location(3)),
                ValRow("Iterator", Tuple(()), size(0), location(1), Tuple(())),
            ),
        ),
        (
            "lift",
            Fun(
                (
                    Fun(
                        (),
                        value(dtype(4), size(1)),
                        ValRow(
                            "Iterator", Var("dtype row", 0), size(1), location(2),
                            Var("location row", 3),
                        ),
                    ),
                ),
                Fun(
                    (),
                    iterator(dtype(4), size(1), location(5), location(2)),
                    ValRow(
                        "Iterator", Var("dtype row", 0), size(1), location(5),
                        Var("location row", 3),
                    ),
                ),
            ),
        ),
        (  # a row of lists whose one dtype is known: it prints as that one parameter
            "reduce(plus, 0)",
            Fun(
                (),
                value("int32", size(2)),
                ListRow(
                    "Value", Tuple(("int32",)), Var("list length", 0), Var("skip flag", 1),
                    size(2),
                ),
            ),
        ),
    ],
)  # fmt: skip
def test_each_construct_as_a_value(program: str, expected: Type) -> None:
    inferred = typeinf.infer(iterir.parse(program), allow_free=True)  # `x` of `↑(λ() → x)`
    assert inferred == expected, repr(inferred)
    assert str(inferred) == str(expected)


def test_a_row_of_lists() -> None:
    reduce = typeinf.infer(iterir.parse("reduce"))
    assert isinstance(reduce, Fun) and isinstance(reduce.result, Fun)
    assert reduce.result.tail == ListRow(
        "Value", Var("dtype row", 2), Var("list length", 5), Var("skip flag", 6), size(1)
    )
    assert str(reduce) == "((T₀¹):(T¹, …)₂ → T₀¹, T₀¹) → (L[…₂, T₃, T₄]¹, …) → T₀¹"


def test_fields_are_resolved() -> None:
    """The issue's example: the cells' raw fields said `None` for the result's dtype."""
    inferred = typeinf.infer(iterir.parse("λ(x) → ·x + 1.0"))
    assert isinstance(inferred, Fun) and isinstance(inferred.result, Val)
    assert inferred.result.dtype == "float64"
    assert repr(inferred) == (
        "Fun(params=(Val(kind='Iterator', dtype='float64', size=Var(sort='size', number=0), "
        "current_loc=Var(sort='location', number=1), defined_loc=Var(sort='location', number=1)),),"
        " result=Val(kind='Value', dtype='float64', size=Var(sort='size', number=0)))"
    )


def test_definitions_closures_and_fencils() -> None:
    fencil = iterir.load(EXAMPLES / "notation-fencil.itir")
    inferred = typeinf.infer(fencil)
    assert isinstance(inferred, Fencil)
    assert inferred.name == "sums"
    assert [d.name for d in inferred.definitions] == ["add", "twice"]
    column = iterator("float64", "Column", "ANYWHERE", location(7))
    scalar = Val("Value", "int32", "Scalar")
    assert inferred.params == (column, column, column, scalar, scalar)
    add = inferred.definitions[0]
    assert add == Definition(
        "add",
        Fun(
            (
                iterator(dtype(0, "numeric"), size(1), location(2), location(2)),
                iterator(dtype(0, "numeric"), size(1), location(3), location(3)),
            ),
            value(dtype(0, "numeric"), size(1)),
        ),
    )
    assert str(add) == "add :: (It[T₀¹], It[T₀¹]) → T₀¹ where T₀: numeric"
    types = typeinf.infer_all(fencil)
    closure = types[id(fencil.closures[0])]
    assert isinstance(closure, Closure)
    assert str(closure) == "(It[float64ᶜ], It[float64ᶜ]) ⇒ It[float64ᶜ]"
    assert format(closure, "located") == (
        "(It[ANYWHERE, T₀, float64ᶜ], It[ANYWHERE, T₀, float64ᶜ]) ⇒ It[ANYWHERE, T₀, float64ᶜ]"
    )
    assert types[id(fencil)] == inferred  # the root is numbered as `infer` numbers it


@pytest.mark.usefixtures("larger")
def test_a_definition_keeps_its_relations() -> None:
    program = iterir.parse(
        "p(a, b, out, n) { g = λ(x, y) → larger(·x, ·y); out ← (g)(a, b) @ c⟨ IDim: [0, n) ⟩; }"
    )
    [definition] = typeinf.infer(program).definitions  # type: ignore[union-attr]
    [relation] = definition.relations
    assert isinstance(relation, Relation)
    assert (relation.rule, relation.args) == ("Larger", (dtype(0), dtype(3), dtype(5)))
    assert str(definition) == "g :: (It[T₀¹], It[T₂¹]) → T₃¹ where T₃ = max(T₀, T₂)"
    # Made in Python, a relation has no rule to print by.
    made = dataclasses.replace(definition, relations=(Relation("Larger", relation.args),))
    with pytest.raises(ValueError, match="no rule to print by"):
        str(made)


def iterator_dtypes(type_: Type) -> list[str]:
    """A pass's view: the dtypes a stencil reads through its iterator parameters, by `match`."""
    found = []
    match type_:
        case Fun(params=params):
            for param in params:
                match param:
                    case Val(kind="Iterator", dtype=str(name)):
                        found.append(name)
                    case Val(kind="Iterator", dtype=Var(family=family)):
                        found.append(f"any {family or 'dtype'}")
                    case Val(kind="Value"):
                        found.append("(a value)")
    return found


def test_pattern_matching() -> None:
    stencil = typeinf.infer(iterir.parse("λ(a, b, c, k) → ·a + cast_(·b, float64) × k + sqrt(·c)"))
    assert iterator_dtypes(stencil) == ["float64", "any dtype", "float64", "(a value)"]
    match typeinf.infer(iterir.parse("λ(x) → ·x")):
        case Fun(params=(Val(kind="Iterator", dtype=d, size=s),), result=Val(dtype=e, size=t)):
            assert (d, s) == (e, t) == (dtype(0), size(1))
        case _:
            pytest.fail("no match")


def test_equality_hashing_and_renaming() -> None:
    first = typeinf.infer(iterir.parse("λ(x, y) → ·x + ·y"))
    again = typeinf.infer(iterir.parse("λ(a, b) → ·a + ·b"))
    # Every result is numbered in the located notation's order: `==` is then "the same type".
    assert first == again and hash(first) == hash(again) and len({first, again}) == 1
    identity = typeinf.infer(iterir.parse("λ(x) → x"))
    constant = typeinf.infer(iterir.parse("λ(x, y) → y"))
    assert isinstance(identity, Fun) and isinstance(constant, Fun)
    assert identity.params[0] == identity.result  # one variable
    assert constant.params[0] != constant.result  # two: `==` tells them apart
    assert constant.params[0].alpha_eq(constant.result)  # the same up to renaming
    renamed = Fun((Var("type", 7),), Var("type", 7))
    assert renamed != identity and renamed.alpha_eq(identity) and identity.alpha_eq(renamed)
    # Renaming is one to one, and keeps sorts and families.
    two = Fun((Var("type", 0), Var("type", 1)), Var("type", 0))
    one = Fun((Var("type", 0), Var("type", 0)), Var("type", 0))
    assert not two.alpha_eq(one) and not one.alpha_eq(two)
    assert not dtype(0).alpha_eq(size(0)) and not dtype(0).alpha_eq(dtype(0, "float"))
    assert value("float64", size(0)) != "float64" and Tuple(()) != ()


def test_printing_and_reading_values_made_in_python() -> None:
    made = Fun((iterator("float64", size(3), location(4), location(4)),), value("float64", size(3)))
    assert str(made) == "(It[float64⁰]) → float64⁰"
    assert format(made, "located") == "(It[T₁, T₁, float64⁰]) → float64⁰"
    assert f"{made:compact}" == str(made) == typeinf.pformat(made)
    assert typeinf.parse_type("(It[T₁, T₁, float64⁰]) → float64⁰") == Fun(
        (iterator("float64", size(0), location(1), location(1)),), value("float64", size(0))
    )
    assert str(List("float64", 7, True)) == "L[float64, 7, True]"
    assert str(Tuple(("float64", dtype(3)))) == "(float64, T₀)"
    assert typeinf.pformat("float64") == "float64"
    with pytest.raises(ValueError, match="unknown format 'wide'"):
        format(made, "wide")


@pytest.mark.parametrize(
    ("made", "message"),
    [
        (Val("Iter", "float64", "Column"), r"^\.kind: expected a kind, found 'Iter'"),
        (Fun((Val("Value", "float65", "Column"),), Var("type", 0)),
         r"\.params\[0\]\.dtype: expected a dtype, found 'float65'"),
        (Fun((Var("size", 0),), Var("type", 1)),
         r"\.params\[0\]: expected a type, found a variable of sort 'size'"),
        (Val("Value", Var("dtype", 0), Var("dtype", 0)),
         "size: expected a size, found a variable of sort 'dtype'"),
        (Fun((Val("Value", dtype(0), size(1)),), Val("Value", dtype(0, "float"), size(1))),
         r"\.result\.dtype: expected a dtype, found variable 0 of another sort or family"),
        (Val("Value", List("int32", "four", False), "Scalar"),
         r"\.dtype\.length: expected a list length, found 'four'"),
    ],
)  # fmt: skip
def test_a_value_that_is_no_type_is_an_error_that_says_where(made: Type, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        str(made)


def test_values_are_immutable() -> None:
    inferred = typeinf.infer(iterir.parse("3"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        inferred.dtype = "float64"  # type: ignore[misc]


def test_substitution_and_is_instance_speak_values() -> None:
    general = typeinf.parse_type("(T₀¹, T₀¹) → T₂¹ where T₀: numeric")
    specific = typeinf.parse_type("(float64ᶜ, float64ᶜ) → T₄ᶜ")
    assert typeinf.substitution(general, specific) == {
        dtype(0, "numeric"): "float64",
        size(1): "Column",
        dtype(2): dtype(0),  # named as in `specific`, whose only variable is its dtype 0
    }
    assert typeinf.is_instance(general, specific) and not typeinf.is_instance(specific, general)
    fencil = typeinf.infer(iterir.load(EXAMPLES / "notation-fencil.itir"))
    assert typeinf.is_instance(fencil, fencil)


def test_check_gives_values_and_leaves_out_types_that_contain_themselves() -> None:
    program = iterir.parse("λ(f) → f(f)")
    checked = typeinf.check(program)
    assert checked.type is None and len(checked.errors) == 1
    assert id(program) not in checked.types  # `((…) → T₀) → T₀` has no value
    assert all(isinstance(t, Type) for t in checked.types.values())
    fine = typeinf.check(iterir.parse("λ(x) → ·x"))
    assert fine.type == typeinf.infer(iterir.parse("λ(x) → ·x"))


def test_json_all_of_an_infinite_type_ends(tmp_path: Path) -> None:
    """It looped for ever: the JSON tree of a type that contains itself."""
    path = tmp_path / "f.itir"
    path.write_text("λ(f) → f(f)\n", encoding="utf-8")
    command = [sys.executable, "-m", "typeinf", "infer", "--json", "--all", str(path)]
    environment = {"PYTHONPATH": str(ROOT), "PATH": ""}
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=60, cwd=ROOT, env=environment
    )
    assert done.returncode == 1, done.stderr
    [report] = json.loads(done.stdout)["files"]
    assert report["diagnostics"][0]["kind"] == "InfiniteTypeError"
    assert [n["node"] for n in report["nodes"]] == ["f(f)"]  # the one finite type: `T₀`


def test_infer_all_attaches_values_numbered_together() -> None:
    program = iterir.parse("λ(x) → ·x")
    types = typeinf.infer_all(program, attach=True)
    root = program.inferred_type  # type: ignore[attr-defined]
    assert root == types[id(program)] == typeinf.infer(program)
    assert isinstance(root, Fun)
    # One numbering over the program: the body's type is the root's result.
    assert program.expr.inferred_type == root.result  # type: ignore[attr-defined]
    assert types[id(program.expr.args[0])] == root.params[0]  # type: ignore[attr-defined]


@given(well_typed_programs)
def test_attach_gives_each_node_its_value(generated: tuple[iterir.Node, Any]) -> None:
    program, _ = generated
    types = typeinf.infer_all(program, attach=True)
    for node in iterir.walk(program):
        assert node.inferred_type is types[id(node)]  # type: ignore[attr-defined]


def test_attach_gives_a_node_object_in_several_places_its_first_occurrences_value() -> None:
    shared = iterir.parse("·x")
    program = lam("x", "y")(iterir.FunCall(iterir.SymRef("plus"), (shared, shared)))
    types = typeinf.infer_all(program, attach=True)
    assert len(types) < len(list(iterir.walk(program)))  # `shared` is keyed once
    for node in iterir.walk(program):
        assert node.inferred_type is types[id(node)]  # type: ignore[attr-defined]


def test_attach_within_a_fencil_gives_the_definitions_nodes_their_values() -> None:
    fencil = iterir.load(ROOT / "examples" / "laplacian.itir")
    definition = fencil.function_definitions[0]
    types = typeinf.infer_all(definition, attach=True, within=fencil)
    for node in iterir.walk(definition):
        assert node.inferred_type is types[id(node)]  # type: ignore[attr-defined]
    assert str(definition.inferred_type) == "lap :: (It[float64⁰]) → float64⁰"  # type: ignore[attr-defined]
    assert not hasattr(fencil, "inferred_type")


def _cells(found: object) -> Iterator[object]:
    """Every object reachable from `found` through public fields, tuples, lists and dicts."""
    stack, seen = [found], set()
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        yield item
        if isinstance(item, Type):
            stack.extend(getattr(item, f.name) for f in dataclasses.fields(item))
        elif isinstance(item, tuple | list):
            stack.extend(item)
        elif isinstance(item, Mapping):  # a dict, or `infer_all`'s mapping
            stack.extend([*item.keys(), *item.values()])
        elif isinstance(item, typeinf.Checked):
            stack.extend([item.type, item.types])


def _rows_of_values(found: object) -> bool:
    return any(isinstance(item, ValRow | ListRow) for item in _cells(found))


@given(well_typed_programs)
def test_no_cell_escapes_and_values_read_back(generated: tuple[iterir.Node, Any]) -> None:
    program, known = generated
    inferred = typeinf.infer(program)
    located = format(inferred, "located")
    read = typeinf.parse_type(located, locations=True)
    results: list[object] = [
        inferred,
        typeinf.infer_all(program),
        typeinf.check(program),
        read,
        typeinf.substitution(inferred, to_value(known)),
    ]
    for result in results:
        for item in _cells(result):
            assert not isinstance(item, Cell) and "Cell«" not in repr(item)
    # Round trip: value → located text → parse_type → value. It is the same value unless the
    # type has variables the text does not show (the locations of an `ItOrVal` or of a value:
    # the text read back numbers without them, and reads back to itself from there on), or a
    # row of values whose items are known (it prints as those items, and reads back as a
    # tuple). The type read back is at least as general (what the text hides is fresh there).
    if format(read, "located") == located and "ItOrVal" not in located:
        assert typeinf.is_instance(inferred, read)
        if not _rows_of_values(inferred):
            assert read == inferred
    assert typeinf.parse_type(format(read, "located"), locations=True) == read
    assert str(read) == str(inferred)  # the compact text shows no location, hidden or not
    assert typeinf.is_instance(read, inferred)


def test_a_100000_level_type() -> None:
    inferred = typeinf.infer(deep_lambdas(100_000))
    again = typeinf.infer(deep_lambdas(100_000))
    assert inferred == again and hash(inferred) == hash(again) and inferred.alpha_eq(again)
    text = str(inferred)
    assert text.startswith("(T₀) → (T₁) → (T₂) → ") and text.endswith("(T₉₉₉₉₉) → T₀")
    assert repr(inferred).startswith("Fun(params=(Var(sort='type', number=0),), result=Fun(")
    assert typeinf.is_instance(inferred, again)
    assert len(json.dumps(typeinf.types.tree(inferred)["params"])) < 100


def test_shared_types_convert_and_compare_without_expanding() -> None:
    """A type whose printed form doubles at each of 200 levels is a graph of 200 cells."""
    cell: Cell = var(Sort.TYPE)
    for _ in range(200):
        cell = fun([cell, cell], cell)
    first, second = to_value(cell), to_value(cell)
    assert first == second and hash(first) == hash(second) and first.alpha_eq(second)
    assert isinstance(first, Fun) and first.params[0] is first.params[1] is first.result
    assert first != Fun((first, first), second)
    assert lam("x")("x") is not None  # builders still import: the module is whole


def test_values_are_deterministic_across_processes() -> None:
    code = (
        "import iterir, typeinf; "
        "print(repr(typeinf.infer(iterir.load('docs/examples/notation-fencil.itir'))))"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
            env={"PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT), "PATH": ""},
            timeout=60,
        ).stdout
        for seed in ("0", "7")
    }
    assert len(outputs) == 1 and "Fencil(name='sums'" in outputs.pop()


def test_the_readme_example_of_a_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's pass (its one `pycon` block, under "Python API") runs as shown."""
    import doctest

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Python API") :]
    block = section[section.index("```pycon\n") + len("```pycon\n") : section.index("\n```\n")]
    monkeypatch.chdir(ROOT)
    test = doctest.DocTestParser().get_doctest(block, {}, "README.md", "README.md", 0)
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.tries > 4 and runner.failures == 0


def test_infer_all_gives_the_same_values_whatever_order_they_are_read_in() -> None:
    """`infer_all` makes a node's value when it is first read, converting the types before it
    in pre-order with it: the numbering is the program's whatever the order of reading."""
    source = "docs/examples/notation-fencil.itir"
    forward = typeinf.infer_all(iterir.load(ROOT / source))
    backward_program = iterir.load(ROOT / source)
    backward = typeinf.infer_all(backward_program)
    keys = list(backward)
    assert len(keys) == len(forward) > 10 and keys[0] == id(backward_program)
    read_backward = [(k, backward[k]) for k in reversed(keys)][::-1]
    read_forward = list(forward.values())
    assert [v for _, v in read_backward] == read_forward
    assert [repr(v) for _, v in read_backward] == [repr(v) for v in read_forward]
    assert backward[id(backward_program)] == typeinf.infer(backward_program)
    assert isinstance(forward, Mapping) and not hasattr(forward, "__setitem__")
    with pytest.raises(KeyError):
        forward[0]
