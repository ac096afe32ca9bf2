"""Deep GTIR (100,000 nested as_fieldop/lambda/call levels, a 100,000-statement program) goes
through every iterir operation at the default recursion limit."""

from __future__ import annotations

import sys

import pytest

import iterir
from benchmarks.gtir_shapes import deep_gtir, many_statements
from iterir import jsontext

LEVELS = 100_000


@pytest.fixture(autouse=True)
def default_recursion_limit() -> None:
    assert sys.getrecursionlimit() <= 1000 + 100  # nobody raised it to get there


@pytest.mark.parametrize("build", [deep_gtir, many_statements])
def test_deep_gtir_round_trips(build) -> None:
    node, twin = build(LEVELS), build(LEVELS)
    assert node == twin and hash(node) == hash(twin)
    assert node != build(LEVELS - 1)
    text = iterir.pformat(node)
    assert iterir.parse(text) == node
    json_text = jsontext.dumps(iterir.to_json(node))
    assert iterir.from_json(jsontext.loads(json_text)) == node
    assert len(iterir.resolve(node).bindings) > 0
