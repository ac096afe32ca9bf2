"""The floor of `benchmarks.gtir_inference --gt4py` does all the work it stands for: on every
sample and generated shape, each of its unifications runs to the end (none cut short by a
mismatch, which would make the floor cheaper than the work it claims to measure)."""

from __future__ import annotations

import pytest

import iterir
from benchmarks.gtir_floor import floor
from benchmarks.gtir_shapes import GTIR_SHAPES
from tests.test_gtir_samples import SAMPLES


def test_no_unification_of_the_floor_ends_early_on_a_sample() -> None:
    early = {s["id"]: n for s in SAMPLES if (n := floor(iterir.from_json(s["ir"])))}
    assert early == {}


@pytest.mark.parametrize("shape", sorted(GTIR_SHAPES))
def test_no_unification_of_the_floor_ends_early_on_a_shape(shape: str) -> None:
    assert floor(GTIR_SHAPES[shape](1_000)) == 0
