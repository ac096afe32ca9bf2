"""The design's canonical examples (tests/data/design, copied verbatim from the design's
section 3), printed exactly: every row of its table in both notations, and the examples its
prose gives after the table. The compact notation writes no location; the located notation
is GT4Py 1.0.3's. The `where` clause is left aside, as the design says."""

from __future__ import annotations

import re

import pytest

import iterir
from tests.conftest import DATA, required_file
from typeinf import infer, pformat

DESIGN = required_file(DATA / "design" / "canonical-examples.md").read_text(encoding="utf-8")


def _table() -> list[tuple[str, str, str]]:
    """(program, compact, located) of each row of the code block: columns two or more spaces
    apart; a located type on a line of its own belongs to the row above; `(same)` is the
    compact type again."""
    block = DESIGN.split("```")[1].strip("\n").splitlines()
    rows: list[list[str]] = []
    for line in block:
        cells = re.split(r" {2,}", line.strip())
        if line.startswith(" "):  # the row above's located type, on a line of its own
            rows[-1].append(cells[0])
        else:
            rows.append(cells)
    return [(p, c, c if rest == ["(same)"] else rest[0]) for p, c, *rest in rows]


TABLE = _table()


def test_the_table_is_read_whole() -> None:
    assert len(TABLE) == 23
    assert TABLE[0] == ("x", "T₀", "T₀")
    assert TABLE[14][0] == "lift" and TABLE[14][2].startswith("((It[T₂, …₃, T¹], …)₀")


@pytest.mark.parametrize(("program", "compact", "located"), TABLE, ids=[r[0] for r in TABLE])
def test_the_design_table_prints_verbatim(program: str, compact: str, located: str) -> None:
    # The table's free names (`x`, `cond`, `it`) are unknowns.
    type_ = infer(iterir.parse(program), allow_free=True)
    assert pformat(type_).split(" where ")[0] == compact
    assert pformat(type_, locations=True).split(" where ")[0] == located


CARTESIAN = {"i": {"type": "Dimension", "value": "IDim"}}
UNSTRUCTURED = {
    "V2E": {
        "type": "Connectivity",
        "origin": "Vertex",
        "neighbor": "Edge",
        "max_neighbors": 4,
        "has_skip_values": False,
    },
    "E2C": {
        "type": "Connectivity",
        "origin": "Edge",
        "neighbor": "Cell",
        "max_neighbors": 2,
        "has_skip_values": False,
    },
}
DOMAIN = "c⟨ IDim: [0, i), JDim: [0, j), KDim: [0, k) ⟩"

#: The examples of the prose after the table: (program, offset provider, located, what the
#: design writes of it, which must stand in it verbatim).
PROSE = [
    ("⟪iₒ, 1ₒ⟫", CARTESIAN, True, "`(It[T₂, T₃, T₀¹]) → It[T₂, T₃, T₀¹]` (located)"),
    ("⟪iₒ⟫", CARTESIAN, True, "`(It[T₂, T₃, T₀¹]) → It[T₂, T₃, T₀¹]` (located)"),
    (
        "⟪V2Eₒ, 0ₒ⟫",
        UNSTRUCTURED,
        True,
        "`⟪V2Eₒ, 0ₒ⟫` is `(It[Vertex, T₂, T₀¹]) → It[Edge, T₂, T₀¹]`",
    ),
    (
        "⟪V2Eₒ, 0ₒ, E2Cₒ⟫",
        UNSTRUCTURED,
        True,
        "`⟪V2Eₒ, 0ₒ, E2Cₒ⟫` is\n`(It[Vertex, T₂, T₀¹]) → It[Cell, T₂, T₀¹]`",
    ),
    (
        "reduce(λ(acc, x, y) → acc + cast_(x × cast_(y, float64), int64), 0i64)",
        None,
        False,
        "`(L[float64, T₁, T₂]³, L[T₀, T₁, T₂]³) → int64³`",
    ),
    (
        "scan(λ(acc, x, y) → acc + ·x × ·y, True, 0i64)",
        None,
        True,
        "`(It[T₀, T₀, int64ᶜ], It[T₀, T₀, int64ᶜ]) → int64ᶜ`",
    ),
    (
        f"f(i, j, k, a, b, c, d) {{ b ← (deref)(a) @ {DOMAIN}; d ← (deref)(c) @ {DOMAIN}; }}",
        None,
        True,
        "`{f(int32ˢ, int32ˢ, int32ˢ, It[ANYWHERE, T₁, T₀ᶜ], It[ANYWHERE, T₁, T₀ᶜ], "
        "It[ANYWHERE, T₃, T₂ᶜ], It[ANYWHERE, T₃, T₂ᶜ])}`",
    ),
]


@pytest.mark.parametrize(("program", "provider", "located", "written"), PROSE)
def test_the_designs_prose_examples_print_verbatim(
    program: str, provider: dict | None, located: bool, written: str
) -> None:
    assert written in DESIGN
    expected = written.split("`")[-2]
    type_ = infer(iterir.parse(program), provider)
    assert pformat(type_, locations=located).split(" where ")[0] == expected


def test_the_designs_definitions_print_numbered_with_their_fencil() -> None:
    written = "`f :: (T₀) → T₀, g :: (It[T₃, T₃, T₁²]) → T₁²` (located, numbered together"
    assert written in DESIGN
    program = "foo(a, b) { f = λ(x) → x; g = λ(x) → ·x; b ← (g)(a) @ c⟨ IDim: [0, 1) ⟩; }"
    text = pformat(infer(iterir.parse(program)), locations=True)
    assert text.startswith("{" + written.split("`")[1] + ", foo(")
