"""Properties over generated IR: printing and JSON are lossless, deterministic and idempotent;
arbitrary text never escapes as anything but a ParseError."""

from __future__ import annotations

import json

from hypothesis import example, given
from hypothesis import strategies as st

import iterir
from iterir import jsontext
from tests.strategies import programs


@given(programs)
def test_text_round_trip(program: iterir.Node) -> None:
    text = iterir.pformat(program)
    parsed = iterir.parse(text)
    assert parsed == program
    assert hash(parsed) == hash(program)
    assert iterir.pformat(parsed) == text


@given(programs)
def test_json_round_trip(program: iterir.Node) -> None:
    data = iterir.to_json(program)
    assert iterir.from_json(data) == program
    text = jsontext.dumps(data)
    assert json.loads(text) == data
    assert iterir.to_json(iterir.from_json(jsontext.loads(text))) == data


@given(programs)
def test_walk_visits_every_node_once_in_pre_order(program: iterir.Node) -> None:
    nodes = list(iterir.walk(program))
    assert nodes[0] is program
    assert len(nodes) == 1 + sum(len(list(n.iter_children())) for n in nodes)


_PIECES = [
    "λ(",
    "x",
    ")",
    "→",
    "·",
    "+",
    "-",
    "⟪",
    "⟫",
    "Iₒ",
    "1ₒ",
    "{",
    "}",
    "c⟨",
    "⟩",
    "IDim",
    ":",
    "[",
    ",",
    "if",
    "then",
    "else",
    "←",
    "@",
    ";",
    "=",
    "1.0f32",
    '"',
    "`",
    "(",
    "1",
    " ",
    "\n",
    "f",
    "True",
    "×",
    "#",
    "∨",
    "Ω",
    "\x00",
    "ₐ",
]


@given(
    st.one_of(st.text(max_size=40), st.lists(st.sampled_from(_PIECES), max_size=30).map("".join))
)
@example("((((((((((")
@example("`\\q`")
@example("1" * 5000 + "ₒ")
def test_any_text_parses_or_raises_parse_error(text: str) -> None:
    try:
        iterir.parse(text, "fuzz.itir")
    except iterir.ParseError as error:
        assert str(error).startswith("fuzz.itir:")


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=5),
        lambda c: (
            st.lists(c, max_size=3)
            | st.dictionaries(
                st.sampled_from(
                    [
                        "node",
                        "id",
                        "fun",
                        "args",
                        "params",
                        "expr",
                        "value",
                        "type",
                        "kind",
                        "dtype",
                    ]
                ),
                c,
                max_size=4,
            )
        ),
        max_leaves=20,
    )
)
def test_any_json_value_loads_or_raises_parse_error(data: object) -> None:
    try:
        node = iterir.from_json(data, "fuzz.json")
    except iterir.ParseError as error:
        assert str(error).startswith("fuzz.json: $")
    else:
        assert iterir.from_json(iterir.to_json(node)) == node
