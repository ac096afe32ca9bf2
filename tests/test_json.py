"""JSON snapshots: the encoding, round trips, and errors that name the JSON path."""

from __future__ import annotations

import json

import pytest

import iterir
from iterir import jsontext
from iterir.builders import call, deref, lam


def test_encoding_uses_gt4py_names_and_order() -> None:
    node = iterir.parse("λ(x: It[float64], y) → ·x + ⟪V2Eₒ, 1ₒ⟫(y)[0]")
    data = iterir.to_json(node)
    assert json.dumps(data["params"]) == (
        '[{"node": "Sym", "id": "x", "kind": "Iterator", "dtype": ["float64", false]}, '
        '{"node": "Sym", "id": "y"}]'
    )
    assert list(data) == ["node", "params", "expr"]
    offsets = data["expr"]["args"][1]["args"][1]["fun"]["args"]
    assert offsets == [
        {"node": "OffsetLiteral", "value": "V2E"},
        {"node": "OffsetLiteral", "value": 1},
    ]
    assert iterir.from_json(data) == node


def _error(data: object) -> str:
    with pytest.raises(iterir.ParseError) as info:
        iterir.from_json(data, "p.json")
    return str(info.value)


def test_errors_name_the_json_path() -> None:
    fencil = iterir.to_json(iterir.parse("f(a, b, c) { out ← (λ(x) → ·x)(a) @ D; }"))
    fencil["closures"][0]["stencil"]["node"] = "Lamda"
    assert _error(fencil) == "p.json: $.closures[0].stencil: error: unknown node 'Lamda'"
    fencil = iterir.to_json(iterir.parse("f(a, b, c) { out ← (deref)(a) @ D; }"))
    del fencil["params"][2]["id"]
    assert _error(fencil) == "p.json: $.params[2]: error: missing field 'id'"
    fencil = iterir.to_json(iterir.parse("f(a) { out ← (deref)(a) @ D; }"))
    fencil["closures"][0]["inputs"][0] = {"node": "Sym", "id": "a"}
    assert _error(fencil) == (
        "p.json: $.closures[0].inputs[0]: error: expected an expression node, found 'Sym'"
    )


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "$: error: expected a node object, found a list"),
        ({"id": "x"}, "$: error: missing field 'node'"),
        ({"node": "SymRef", "id": 3}, "$.id: error: expected a string, found a number"),
        ({"node": "SymRef", "id": "x", "type": "int"}, "$: error: unknown field 'type' of SymRef"),
        (
            {"node": "Literal", "value": "1", "type": "int128"},
            "$.type: error: unknown literal type 'int128'",
        ),
        (
            {"node": "OffsetLiteral", "value": True},
            "$.value: error: expected an integer or a string, found a boolean",
        ),
        (
            {"node": "FunCall", "fun": {"node": "SymRef", "id": "f"}, "args": {}},
            "$.args: error: expected a list, found an object",
        ),
        (
            {
                "node": "Lambda",
                "params": [{"node": "Sym", "id": "x", "kind": "Field"}],
                "expr": {"node": "SymRef", "id": "x"},
            },
            "$.params[0].kind: error: unknown kind 'Field'; expected 'Iterator' or 'Value'",
        ),
        (
            {
                "node": "Lambda",
                "params": [{"node": "Sym", "id": "x", "dtype": ["float", False]}],
                "expr": {"node": "SymRef", "id": "x"},
            },
            "$.params[0].dtype[0]: error: unknown dtype 'float'",
        ),
        (
            {
                "node": "Lambda",
                "params": [{"node": "SymRef", "id": "x"}],
                "expr": {"node": "SymRef", "id": "x"},
            },
            "$.params[0]: error: expected 'Sym', found 'SymRef'",
        ),
        (
            {
                "node": "FencilDefinition",
                "id": "f",
                "function_definitions": [],
                "params": [],
                "closures": [{"node": "SymRef", "id": "x"}],
            },
            "$.closures[0]: error: expected 'StencilClosure', found 'SymRef'",
        ),
    ],
)
def test_malformed_documents(data: object, message: str) -> None:
    assert _error(data) == "p.json: " + message


def test_optional_sym_fields_may_be_null() -> None:
    data = {"node": "Sym", "id": "x", "kind": None, "dtype": None}
    assert iterir.from_json(data) == iterir.Sym("x")


def test_json_text_errors_have_line_and_column(tmp_path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"node": "SymRef",\n "id": }', encoding="utf-8")
    with pytest.raises(iterir.ParseError) as info:
        iterir.load(path)
    assert str(info.value).startswith(f"{path}:2:8: error: invalid JSON: Expecting value")


def test_file_format_by_extension_or_content(tmp_path) -> None:
    node = lam("x")(deref("x"))
    (tmp_path / "a.itir").write_text(iterir.pformat(node), encoding="utf-8")
    (tmp_path / "a.json").write_text(jsontext.dumps(iterir.to_json(node)), encoding="utf-8")
    (tmp_path / "a.txt").write_text(jsontext.dumps(iterir.to_json(node)), encoding="utf-8")
    (tmp_path / "b.txt").write_text("{x, y}", encoding="utf-8")  # a make_tuple, not JSON
    assert iterir.load(tmp_path / "a.itir") == node
    assert iterir.load(tmp_path / "a.json") == node
    assert iterir.load(tmp_path / "a.txt") == node
    assert iterir.load(tmp_path / "b.txt") == call("make_tuple")("x", "y")
    with pytest.raises(iterir.ParseError, match="cannot read file"):
        iterir.load(tmp_path / "missing.itir")
    (tmp_path / "bin.itir").write_bytes(b"\xff\xfe")
    with pytest.raises(iterir.ParseError, match="not UTF-8"):
        iterir.load(tmp_path / "bin.itir")


def test_json_error_excerpt_is_the_line_json_counts() -> None:
    """A U+2028 inside a string is not a line break for JSON, nor for the excerpt."""
    text = '{"node": "SymRef", "id": "a\u2028b",\n "x": }'
    with pytest.raises(iterir.ParseError) as info:
        iterir.loads_ir(text, "p.json")
    assert (
        str(info.value)
        == 'p.json:2:7: error: invalid JSON: Expecting value\n     "x": }\n          ^'
    )
