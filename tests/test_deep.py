"""100,000-level programs go through every iterir operation at the default recursion limit."""

from __future__ import annotations

import sys

import pytest

import iterir
from benchmarks.shapes import deep_calls, deep_lambdas, plus_chain
from iterir import jsontext
from iterir.symbols import BindingKind

LEVELS = 100_000


@pytest.fixture(autouse=True)
def default_recursion_limit() -> None:
    assert sys.getrecursionlimit() <= 1000 + 100  # nobody raised it to get there


@pytest.mark.parametrize("build", [deep_lambdas, deep_calls, plus_chain])
def test_deep_program_round_trips(build) -> None:
    node, twin = build(LEVELS), build(LEVELS)
    assert node == twin and hash(node) == hash(twin)
    assert node != build(LEVELS - 1)
    text = iterir.pformat(node)
    parsed = iterir.parse(text)
    assert parsed == node
    data = iterir.to_json(node)
    assert iterir.from_json(data) == node
    assert sum(1 for _ in iterir.walk(node)) >= 2 * LEVELS
    assert repr(node).startswith(type(node).__name__ + "«")


def test_deep_json_text_round_trips() -> None:
    """The standard library's JSON gives up near 1,000 levels; ours does not."""
    node = deep_calls(LEVELS)
    text = jsontext.dumps(iterir.to_json(node))
    assert text.startswith(
        '{"node": "Lambda", "params": [{"node": "Sym", "id": "f"}, {"node": "Sym"'
    )
    assert iterir.from_json(jsontext.loads(text)) == node


def test_deep_scopes_resolve() -> None:
    table = iterir.resolve(deep_lambdas(LEVELS))
    ((ref, binding),) = table.occurrences
    assert ref.id == "x0" and binding.kind is BindingKind.PARAMETER


def test_deep_printing_stays_linear_in_size() -> None:
    text = iterir.pformat(deep_calls(LEVELS))
    assert len(text) < 200 * LEVELS  # indentation stops growing at a bounded depth
