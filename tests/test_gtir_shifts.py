"""`typeinf.gtir.shifts`: the shifts a stencil reads each input after, as GT4Py traces them (what
`as_fieldop` without a domain deduces its dimensions from)."""

from __future__ import annotations

import pytest

import iterir
from tests.test_parser_fuzz import CPU_SECONDS_PER_INPUT, cpu_time_limit
from typeinf.gtir.shifts import shifts_read


def _read(text: str, inputs: int) -> list[list[str]] | None:
    found = shifts_read(iterir.parse(text), inputs)
    if found is None:
        return None
    return [sorted(" ".join(iterir.pformat(t) for t in tags) for tags in each) for each in found]


@pytest.mark.parametrize(
    ("stencil", "inputs", "expected"),
    [
        ("λ(a, b) → ·a + ·⟪V2Eₒ, 1ₒ⟫(b)", 2, [[""], ["V2Eₒ"]]),
        ("λ(a) → ·⟪V2Eₒ, 0ₒ, E2Vₒ, 1ₒ⟫(a) + ·a", 1, [["", "V2Eₒ E2Vₒ"]]),
        ("λ(a) → reduce(plus, 0.0)(neighbors(V2Eₒ, a))", 1, [["V2Eₒ"]]),
        (
            "λ(a) → ·⟪IDimₕ→IDimₕ, 1ₒ⟫((↑(λ(x) → ·⟪KDimᵥ→KDimᵥ, 1ₒ⟫(x)))(a))",
            1,
            [["IDimₕ→IDimₕ KDimᵥ→KDimᵥ"]],
        ),  # the lift shifted first
        ("λ(a, b) → ·if_(True, a, ⟪V2Eₒ, 1ₒ⟫(b))", 2, [[""], ["V2Eₒ"]]),
        ("λ(a) → can_deref(a)", 1, [[]]),  # checked, never read
        ("scan(λ(acc, x) → acc + ·x, True, 0.0)", 1, [[""]]),
        ("λ(t) → {·t, 1}[0]", 1, [[""]]),
        ("λ(a) → (λ(y) → ·y)(a)", 1, [[""]]),
        ("λ(a) → f(·a)", 1, None),  # a name from outside: GT4Py deduces nothing
        ("λ(a) → a", 1, None),  # an iterator returned
        ("λ(a, b) → ·a", 1, None),  # arity
    ],
)
def test_shifts_read(stencil: str, inputs: int, expected: list[list[str]] | None) -> None:
    assert _read(stencil, inputs) == expected


def test_a_deep_stencil_is_given_up_not_a_recursion_error() -> None:
    text = "λ(a) → " + "(λ(x) → " * 400 + "·a" + ")(1)" * 400
    assert shifts_read(iterir.parse(text), 1) is None


def test_nested_lifts_that_read_their_input_twice_are_run_once_each() -> None:
    """Each lifted iterator is read once however often its readers read it: 40 nested lifts
    each reading its input twice (once shifted, so that the reads differ) took 2^40 runs. A
    guard against hangs, on CPU time (not a speed test)."""
    inner = "a"
    for _ in range(40):
        inner = f"(↑(λ(x) → ·x + ·⟪IDimₕ→IDimₕ, 1ₒ⟫(x)))({inner})"
    with cpu_time_limit(CPU_SECONDS_PER_INPUT):
        found = _read(f"λ(a) → ·{inner}", 1)
    assert found == [["", "IDimₕ→IDimₕ"] + [" ".join(["IDimₕ→IDimₕ"] * n) for n in range(2, 41)]]
