"""Wrong arguments to the Python API and malformed input are errors that say what was expected
and where, never an AttributeError, an unhashable type or an error whose own text fails."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import iterir
import typeinf
from iterir import AxisLiteral, FunCall, Lambda, Literal, Node, OffsetLiteral, Sym, SymRef
from iterir.jsontext import loads
from iterir.nodes import NODE_CLASSES, allowed_children
from typeinf.core.offsets import OffsetProviderFormatError, read_offset_provider

ROOT = Path(__file__).resolve().parent.parent


def _message(error: type[Exception], make: Any) -> str:
    with pytest.raises(error) as caught:
        make()
    return str(caught.value)


# -- node fields, checked when a node is made ------------------------------------------------------
@pytest.mark.parametrize(
    ("make", "error", "message"),
    [
        (
            lambda: Literal(0, "int32"),
            TypeError,
            "Literal.value must be a str (the literal's text, such as '1.0'), not 0",
        ),
        (
            lambda: Literal("1", "float128"),
            ValueError,
            "Literal.type must be a primitive type name such as 'int32' or 'float64' "
            "(docs/notation.md), not 'float128'",
        ),
        (
            lambda: Sym("x", "Value", "float64"),
            TypeError,
            "Sym.dtype must be None or a (dtype name, is_list) pair such as ('float64', False), "
            "not 'float64'",
        ),
        (
            lambda: Sym("x", "Value", ("float128", False)),
            ValueError,
            "Sym.dtype must be None or a (dtype name, is_list) pair such as ('float64', False), "
            "not ('float128', False)",
        ),
        (
            lambda: Sym("x", "Field"),
            ValueError,
            "Sym.kind must be None or 'Iterator' or 'Value', not 'Field'",
        ),
        (lambda: Sym(3), TypeError, "Sym.id must be a str, not 3"),
        (lambda: SymRef(None), TypeError, "SymRef.id must be a str, not None"),
        (
            lambda: OffsetLiteral(1.5),
            TypeError,
            "OffsetLiteral.value must be an int or a str, not 1.5",
        ),
        (
            lambda: OffsetLiteral(True),
            TypeError,
            "OffsetLiteral.value must be an int or a str, not True",
        ),
        (
            lambda: Lambda("x", SymRef("x")),
            TypeError,
            "Lambda.params must be a tuple or list of nodes, not 'x'",
        ),
        (
            lambda: SymRef("x" * 1000),
            None,
            None,
        ),
    ],
)
def test_node_fields_are_checked_when_made(make: Any, error: Any, message: str | None) -> None:
    if error is None:  # a long name is a name: only its message is shortened
        make()
        return
    assert _message(error, make) == message


def test_a_long_value_is_shortened_in_the_message() -> None:
    text = _message(TypeError, lambda: Literal(7 * 10**500, "int32"))
    assert len(text) < 200 and text.startswith("Literal.value must be a str")
    assert _message(TypeError, lambda: Literal(10**5000, "int32")) == (
        "Literal.value must be a str (the literal's text, such as '1.0'), not an int of 16,610 bits"
    )


_ANYTHING = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    st.text(max_size=5),
    st.sampled_from(["int32", "float64", "Iterator", "local", "POSITIVE"]),
    st.tuples(st.sampled_from(["float64", "int128", 3]), st.sampled_from([True, 0, None])),
    st.lists(st.integers(), max_size=2),
)


@given(st.sampled_from(sorted(NODE_CLASSES)), st.data())
def test_any_plain_field_value_makes_a_node_or_a_clear_error(name: str, data: Any) -> None:
    """Whatever the plain fields hold, a node is made whose text can be printed, or the error
    is a TypeError or ValueError naming the field."""
    cls = NODE_CLASSES[name]
    values = {field: data.draw(_ANYTHING) for field in cls.value_fields}
    children: dict[str, Any] = {}
    for field in cls.child_fields:
        kinds = allowed_children(name, field)
        child: Node = Sym("p") if kinds == ("Sym",) else SymRef("e")
        if kinds == ("AxisLiteral",):
            child = AxisLiteral("IDim")
        children[field] = (child,) if field in cls.sequence_fields else child
    try:
        node = cls(**values, **children)
    except (TypeError, ValueError) as error:
        assert str(error).startswith(f"{name}.") and " must be " in str(error)
    else:
        if name in ("Sym", "SymRef", "Literal", "OffsetLiteral", "AxisLiteral", "InfinityLiteral"):
            assert isinstance(repr(node), str)


def test_a_malformed_tree_has_an_error_whose_text_can_be_printed() -> None:
    with pytest.raises(typeinf.MalformedIRError) as caught:
        typeinf.infer(FunCall(None, ()))  # type: ignore[arg-type]
    assert str(caught.value) == (
        "<ir> a FunCall: error: a NoneType cannot stand inside the `fun` of a FunCall"
    )
    checked = typeinf.check(Lambda((Sym("x"),), FunCall(None, ())))  # type: ignore[arg-type]
    assert [str(e) for e in checked.errors] == [
        "<ir> a FunCall: error: a NoneType cannot stand inside the `fun` of a FunCall"
    ]


# -- the public functions' arguments ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (
            lambda: typeinf.register_builtin("my_rule", "rule"),
            ValueError,
            "'my_rule' cannot be registered as 'rule': register_builtin takes a type; a builtin "
            "typed by a rule, or a type name, needs code of typeinf's own (docs/architecture.md)",
        ),
        (
            lambda: typeinf.register_builtin("my_type", "dtype"),
            ValueError,
            "'my_type' cannot be registered as 'dtype': register_builtin takes a type; a builtin "
            "typed by a rule, or a type name, needs code of typeinf's own (docs/architecture.md)",
        ),
        (
            lambda: typeinf.register_builtin(5, "(T₀¹) → T₀¹"),
            TypeError,
            "typeinf.register_builtin: name must be a str, not 5",
        ),
        (
            lambda: typeinf.register_builtin("f5", ["(T₀¹) → T₀¹"]),
            TypeError,
            "typeinf.register_builtin: signature must be a str, not ['(T₀¹) → T₀¹']",
        ),
        (
            lambda: typeinf.register_builtin("f5", "(T₀¹) → T₀¹", replace="yes"),
            TypeError,
            "typeinf.register_builtin: replace must be True or False, not 'yes'",
        ),
        (
            lambda: typeinf.register_builtin("f5", "(T₀¹) → T₀¹", relations=[1]),
            TypeError,
            "typeinf.register_builtin: relations must be None or a function of the signature's "
            "variables, not [1]",
        ),
        (
            lambda: typeinf.infer(iterir.parse("1"), 5),
            TypeError,
            "typeinf: offset_provider must be None or a mapping of offset tags, not 5",
        ),
        (
            lambda: typeinf.check(iterir.parse("1"), max_errors="x"),
            TypeError,
            "typeinf.check: max_errors must be None or a positive int, not 'x'",
        ),
        (
            lambda: typeinf.check(iterir.parse("1"), max_errors=0),
            TypeError,
            "typeinf.check: max_errors must be None or a positive int, not 0",
        ),
        (
            lambda: typeinf.pformat(["int32"]),
            TypeError,
            "typeinf.pformat: type_ must be a type (as `infer` or `parse_type` give), not ['int32']",
        ),
        (
            lambda: typeinf.render("t.itir:1:1: error: …"),
            TypeError,
            "typeinf.render: error must be a TypeInferenceError, not 't.itir:1:1: error: …'",
        ),
        (
            lambda: typeinf.render(typeinf.UnboundSymbolError("x"), b"x"),
            TypeError,
            "typeinf.render: text must be None or a str, not b'x'",
        ),
        (
            lambda: typeinf.render(typeinf.UnboundSymbolError("x"), "x", Path("t.itir")),
            TypeError,
            "typeinf.render: filename must be None or a str, not PosixPath('t.itir')",
        ),
        (
            lambda: typeinf.render(typeinf.UnboundSymbolError("x"), program={"expr": 1}),
            TypeError,
            "typeinf.render: program must be None or an IR node, not {'expr': 1}",
        ),
        (
            lambda: typeinf.render(typeinf.UnboundSymbolError("x"), color="always"),
            TypeError,
            "typeinf.render: color must be True or False, not 'always'",
        ),
        (
            lambda: typeinf.is_instance(typeinf.parse_type("T₀¹"), 2),
            TypeError,
            "typeinf.substitution: specific must be a type (as `infer` or `parse_type` give), "
            "not 2",
        ),
    ],
)
def test_wrong_arguments_say_what_was_expected(call: Any, error: Any, message: str) -> None:
    assert _message(error, call) == message


def test_a_rejected_registration_adds_nothing() -> None:
    with pytest.raises(ValueError):
        typeinf.register_builtin("my_rule", "rule")
    with pytest.raises(typeinf.UnboundSymbolError):
        typeinf.infer(
            iterir.parse("f(a) { o = λ(x) → my_rule(x); a ← (λ(i) → ·i)(a) @ c⟨ IDim: [0, 1) ⟩; }")
        )


# -- offset providers -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("make", "error", "message"),
    [
        (
            lambda: typeinf.Connectivity(None, None, None, None),  # type: ignore[arg-type]
            TypeError,
            "Connectivity.origin must be a str (a location's name, such as 'Vertex'), not None",
        ),
        (
            lambda: typeinf.Connectivity("Vertex", "Edge", 4.5, "yes"),  # type: ignore[arg-type]
            TypeError,
            "Connectivity.max_neighbors must be an int from 0 to 10,000, not 4.5",
        ),
        (
            lambda: typeinf.Connectivity("Vertex", "Edge", 4, "yes"),  # type: ignore[arg-type]
            TypeError,
            "Connectivity.has_skip_values must be True or False, not 'yes'",
        ),
        (
            lambda: typeinf.Connectivity("Vertex", "Edge", -4, False),
            ValueError,
            "Connectivity.max_neighbors must be an integer from 0 to 10,000, not -4",
        ),
        (
            lambda: typeinf.Connectivity("Vertex", "Edge", 10**18, False),
            ValueError,
            "Connectivity.max_neighbors must be an integer from 0 to 10,000, "
            "not 1,000,000,000,000,000,000",
        ),
        (
            lambda: typeinf.Connectivity("Vertex", "Edge", 10**5000, False),
            ValueError,
            "Connectivity.max_neighbors must be an integer from 0 to 10,000, "
            "not one of more than 20 digits",
        ),
        (
            lambda: typeinf.Dimension(None),  # type: ignore[arg-type]
            TypeError,
            "Dimension.value must be a str (the dimension's name, such as 'KDim'), not None",
        ),
    ],
)
def test_offset_provider_entries_are_checked(make: Any, error: Any, message: str) -> None:
    assert _message(error, make) == message


def test_an_offset_tag_that_is_not_a_string() -> None:
    assert _message(
        OffsetProviderFormatError,
        lambda: typeinf.infer(iterir.parse("1"), {5: typeinf.Dimension("K")}),
    ) == ("an offset tag must be a string, not 5")


def test_the_bounds_of_max_neighbors_are_accepted() -> None:
    program = iterir.parse("λ(it) → neighbors(V2Eₒ, it)")
    for most in (0, 10_000):
        provider = {"V2E": typeinf.Connectivity("Vertex", "Edge", most, False)}
        assert typeinf.pformat(typeinf.infer(program, provider), locations=True) == (
            f"(It[Vertex, Edge, T₀¹]) → L[T₀, {most}, False]¹"
        )


def _entry(most: object) -> dict[str, object]:
    return {
        "type": "Connectivity",
        "origin": "Vertex",
        "neighbor": "Edge",
        "max_neighbors": most,
        "has_skip_values": False,
    }


@pytest.mark.parametrize("most", [-4, 10**18, 10_001])
def test_max_neighbors_out_of_range_in_json(most: int) -> None:
    message = _message(
        OffsetProviderFormatError, lambda: typeinf.load_offset_provider({"V2E": _entry(most)})
    )
    assert message == (
        f"offset provider entry 'V2E': 'max_neighbors' must be an integer from 0 to 10,000, "
        f"not {most:,}"
    )


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        (
            "max_neighbors",
            -4,
            "$.V2E.max_neighbors: error: must be an integer from 0 to 10,000, not -4",
        ),
        ("dtype", ["int32"], "$.V2E.dtype: error: expected a dtype name, found a list"),
    ],
)
def test_malformed_fields_in_gt4py_form(tmp_path: Path, key: str, value: Any, message: str) -> None:
    document = json.loads((ROOT / "docs/examples/offsets-gt4py-types.json").read_text("utf-8"))
    document["V2E"][key] = value
    path = tmp_path / "p.offsets.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(iterir.ParseError) as caught:
        read_offset_provider(path)
    assert str(caught.value) == f"{path}: {message}"


# -- JSON documents --------------------------------------------------------------------------------
def test_a_dtype_name_that_is_not_a_string_is_located() -> None:
    for name, kind in ((["a"], "a list"), ({"a": 1}, "an object")):
        document = {
            "node": "Lambda",
            "params": [{"node": "Sym", "id": "x", "kind": "Value", "dtype": [name, False]}],
            "expr": {"node": "SymRef", "id": "x"},
        }
        with pytest.raises(iterir.ParseError) as caught:
            iterir.from_json(document, "p.json")
        assert str(caught.value) == (
            f"p.json: $.params[0].dtype[0]: error: expected a dtype name, found {kind}"
        )


def _parse_error(text: str) -> str:
    with pytest.raises(iterir.ParseError) as caught:
        loads(text, "p.json")
    return str(caught.value)


def test_a_huge_integer_is_located() -> None:
    text = '{"node": "OffsetLiteral",\n "value": ' + "9" * 5000 + "}"
    assert _parse_error(text) == (
        "p.json:2:11: error: invalid JSON: an integer of 5,000 digits (at most 4,300 are read)\n"
        '     "value": ' + "9" * 90 + "…\n"
        "              ^"
    )


def test_duplicate_keys_are_located() -> None:
    assert _parse_error(
        '{"node": "Literal", "value": "1", "type": "int32", "type": "float64"}'
    ) == (
        'p.json:1:52: error: invalid JSON: the key "type" appears twice in one object\n'
        '    {"node": "Literal", "value": "1", "type": "int32", "type": "float64"}\n'
        "                                                       ^"
    )
    # In a nested object, and spelled otherwise (an escape): the decoded keys are equal.
    assert _parse_error('[{"a": {"b": 1, "\\u0062": 2}}]').startswith(
        'p.json:1:17: error: invalid JSON: the key "b" appears twice in one object'
    )
    assert loads('{"a": {"b": 1}, "b": {"a": 2}}') == {"a": {"b": 1}, "b": {"a": 2}}


def test_a_duplicate_key_deeper_than_the_standard_reader_goes_is_located() -> None:
    text = '{"a": ' * 3000 + '{"b": 1, "b": 2}' + "}" * 3000
    assert _parse_error(text).startswith(
        'p.json:1:18010: error: invalid JSON: the key "b" appears twice in one object'
    )


def _cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "typeinf", *args],
        capture_output=True,
        text=True,
        input=stdin,
        cwd=ROOT,
        timeout=120,
        check=False,
    )


_ENTRY = json.dumps(_entry(4))


@pytest.mark.parametrize(
    ("document", "message"),
    [
        (
            f'{{"V2E": {_ENTRY},\n "V2E": {_ENTRY}}}\n',
            ':2:2: error: invalid JSON: the key "V2E" appears twice in one object\n     "V2E"',
        ),
        (
            json.dumps({"V2E": _entry(7)}).replace("7", "9" * 5000),
            ":1:91: error: invalid JSON: an integer of 5,000 digits (at most 4,300 are read)\n",
        ),
        (
            json.dumps({"V2E": _entry(-4)}),
            ": error: offset provider entry 'V2E': 'max_neighbors' must be an integer from 0 "
            "to 10,000, not -4\n",
        ),
    ],
)
def test_a_malformed_provider_on_the_command_line(
    tmp_path: Path, document: str, message: str
) -> None:
    """A key twice (the last would win), an integer too long to read, a count out of range."""
    provider = tmp_path / "p.offsets.json"
    provider.write_text(document, encoding="utf-8")
    done = _cli(
        "infer", "-", "--offset-provider", str(provider), stdin="λ(it) → neighbors(V2Eₒ, it)\n"
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith(f"{provider}{message}")


def test_a_list_dtype_name_in_a_json_program_on_the_command_line(tmp_path: Path) -> None:
    program = tmp_path / "p.json"
    program.write_text(
        '{"node": "Lambda", "params": [{"node": "Sym", "id": "x", "kind": "Value", '
        '"dtype": [["a"], false]}], "expr": {"node": "SymRef", "id": "x"}}',
        encoding="utf-8",
    )
    done = _cli("infer", str(program))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        f"{program}: $.params[0].dtype[0]: error: expected a dtype name, found a list\n"
    )
