"""A GTIR `ScalarType`'s and `Dimension`'s kind is checked when the type is made: every printer
and converter looks the kind up, so a type with an unknown one made a message that crashed when
printed. The loaders still say where a bad kind stands."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import iterir
from iterir import gtir_types as gt
from iterir import vocabulary as voc
from iterir.errors import ParseError
from iterir.offset_types import offset_types_from_json


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: gt.ScalarType("float128"), "unknown scalar kind 'float128'; expected one of ["),
        (lambda: gt.ScalarType("FLOAT64"), "unknown scalar kind 'FLOAT64'"),
        (lambda: gt.Dimension("I", "weird"), "unknown dimension kind 'weird'; expected one of"),
        (lambda: gt.Dimension("I", None), "unknown dimension kind None"),
        (lambda: gt.Dimension("I", ["local"]), "unknown dimension kind ['local']"),
    ],
)
def test_an_unknown_kind_is_refused_when_the_type_is_made(make: Any, message: str) -> None:
    with pytest.raises(gt.TypeFormatError) as refused:
        make()
    assert str(refused.value).startswith(message)
    assert refused.value.keys == ("kind",)
    assert isinstance(refused.value, ValueError)


@given(st.text(max_size=12))
def test_only_known_kinds_make_types(kind: str) -> None:
    for make, known in ((gt.ScalarType, voc.PRIMITIVES), (gt.Dimension, gt.KIND_SUFFIXES)):
        try:
            made = make("x", kind) if make is gt.Dimension else make(kind)
        except gt.TypeFormatError:
            assert kind not in known
        else:
            assert kind in known
            assert made.kind == kind
            gt.type_text(made, str)  # prints: its kind has a name in the notation


def _sym(type_json: Any) -> Any:
    return {"node": "Lambda", "params": [{"node": "Sym", "id": "x", "type": type_json}],
            "expr": {"node": "SymRef", "id": "x"}}  # fmt: skip


_I32 = {"t": "ScalarType", "kind": "int32", "shape": None}


@pytest.mark.parametrize(
    ("type_json", "where", "message"),
    [
        ({"t": "ScalarType", "kind": "float128", "shape": None}, "", "unknown scalar kind"),
        (
            {"t": "FieldType", "dims": [{"t": "Dimension", "value": "I", "kind": "weird"}],
             "dtype": _I32},
            ".dims[0]",
            "unknown dimension kind 'weird'",
        ),
        (
            {"t": "TupleType", "types": [_I32, {"t": "ScalarType", "kind": "", "shape": None}]},
            ".types[1]",
            "unknown scalar kind ''",
        ),
    ],
)  # fmt: skip
def test_the_json_codec_says_where_a_bad_kind_stands(
    type_json: Any, where: str, message: str
) -> None:
    text = json.dumps(_sym(type_json))
    with pytest.raises(ParseError) as refused:
        iterir.from_json(json.loads(text), "p.json")
    assert str(refused.value).startswith(f"p.json: $.params[0].type{where}.kind: error: {message}")


def test_offset_types_say_where_a_bad_dimension_kind_stands() -> None:
    with pytest.raises(ParseError) as refused:
        offset_types_from_json({"Ioff": {"t": "Dimension", "value": "I", "kind": "diagonal"}})
    assert str(refused.value).startswith(
        "<string>: $.Ioff.kind: error: unknown dimension kind 'diagonal'"
    )


def test_the_text_parser_says_where_a_bad_scalar_stands() -> None:
    with pytest.raises(ParseError) as refused:
        iterir.parse("λ(x: Field[[IDimₕ], float128]) → x", "p.gtir")
    assert str(refused.value).startswith("p.gtir:1:21: error: unknown type `float128`")
