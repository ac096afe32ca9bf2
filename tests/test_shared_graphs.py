"""Types are shared graphs: a chain of definitions that doubles its type is neither expanded by
inference nor printed past the limits of `typeinf.core.sizes` (docs/rules.md, Limits)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import iterir
import typeinf
from typeinf.core.constructors import TEMPTY, TTUPLE
from typeinf.core.notation import type_tree
from typeinf.core.sizes import (
    MOST_PRINTED_CELLS,
    MOST_TYPE_CELLS,
    TypeTooLargeError,
    WrittenOut,
    graph_cells,
)
from typeinf.core.terms import Cell, FencilType, Sort, find, make, var
from typeinf.fencil.infer import solve
from typeinf.fencil.notation import FencilPrinter
from typeinf.types import Fencil, Fun, tree
from typeinf.within import subject

ROOT = Path(__file__).resolve().parent.parent


def doubling(depth: int) -> str:
    """`f1 = λ(x) → {x, x}` and each next definition applying the one before twice: the type of
    `f{depth}` is a tuple nested 2^(depth-1) levels, written out 2^(2^(depth-1)) leaves."""
    lines = ["p(a, out) {", "  f1 = λ(x) → {x, x};"]
    lines += [f"  f{i} = λ(x) → f{i - 1}(f{i - 1}(x));" for i in range(2, depth + 1)]
    lines += [f"  out ← (λ(a) → f{depth}(·a))(a) @ c⟨ IDimₕ: [0, 1) ⟩;", "}"]
    return "\n".join(lines) + "\n"


def _typeinf(
    folder: Path, depth: int, command: str, at: str
) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """`typeinf COMMAND FILE{at}` on the chain of `depth` in a file of `folder`, in a process of
    its own: a hang shows as the timeout."""
    path = folder / "chain.itir"
    path.write_text(doubling(depth), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "typeinf", command, f"{path}{at}"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    return path, done


def test_small_types_print_as_before() -> None:
    type_ = typeinf.infer(iterir.parse(doubling(2)))
    assert typeinf.pformat(type_) == (
        "{f1 :: (ItOrVal₀[T₁²]) → ItOrVal₀[(T₁, T₁)²], "
        "f2 :: (ItOrVal₃[T₄⁵]) → ItOrVal₃[((T₄, T₄), (T₄, T₄))⁵], "
        "p(It[T₆ᶜ], It[((T₆, T₆), (T₆, T₆))ᶜ])}"
    )
    assert typeinf.pformat(type_, locations=True) == (
        "{f1 :: (ItOrVal₀[T₁²]) → ItOrVal₀[(T₁, T₁)²], "
        "f2 :: (ItOrVal₅[T₆⁷]) → ItOrVal₅[((T₆, T₆), (T₆, T₆))⁷], "
        "p(It[ANYWHERE, T₁₁, T₁₀ᶜ], It[ANYWHERE, T₁₁, ((T₁₀, T₁₀), (T₁₀, T₁₀))ᶜ])}"
    )


def test_a_type_too_large_to_print_is_inferred_and_then_refused_with_its_size() -> None:
    type_ = typeinf.infer(iterir.parse(doubling(6)))  # a graph of a few hundred cells
    with pytest.raises(TypeTooLargeError) as raised:
        typeinf.pformat(type_)
    assert "the type of `f6` is too large to print" in str(raised.value)
    assert "17,179,869,195 cells" in str(raised.value)
    assert raised.value.cells > MOST_PRINTED_CELLS


def test_check_reports_a_type_too_large_to_print_at_its_definition() -> None:
    program = iterir.parse(doubling(6), filename="chain.itir")
    checked = typeinf.check(program)
    (error,) = checked.errors
    assert isinstance(error, TypeTooLargeError)
    assert str(error).startswith("chain.itir:7:3: error: the type of `f6` is too large to print")
    assert checked.type is None


def test_a_part_too_large_is_a_placeholder_in_a_message() -> None:
    program = iterir.parse(doubling(6))
    type_ = solve(subject(program, False, None)).types[
        id(program)
    ]  # the cells, which `Printer` prints
    assert isinstance(type_, FencilType)
    text = FencilPrinter([]).render(type_.definitions[-1].type)
    assert text.startswith("‹a type of ") and text.endswith(" cells, too large to print›")


@pytest.mark.parametrize("depth", [30, 100, 1000])
def test_a_doubling_chain_stops_at_the_graph_limit(depth: int, tmp_path: Path) -> None:
    """Before, depth 6 did not finish in 60 s and depth 30 ran out of memory: a hang shows as
    the timeout here."""
    path, done = _typeinf(tmp_path, depth, "infer", "")
    assert done.returncode == 1, done.stderr
    first = done.stderr.splitlines()[0]
    assert first.startswith(f"{path}:18:3: error: the type of `f17` is too large")
    assert f"more than {MOST_TYPE_CELLS:,} cells" in first


def test_the_graph_limit_is_the_same_in_both_runs() -> None:
    with pytest.raises(TypeTooLargeError) as raised:
        typeinf.infer(iterir.parse(doubling(40), filename="chain.itir"))
    assert str(raised.value).startswith("chain.itir:18:3: error: the type of `f17` is too large")


def _shared(depth: int) -> Cell:
    """A tuple row nested `depth` levels, each level's two items the level below."""
    cell = var(Sort.TYPE)
    for _ in range(depth):
        cell = make(TTUPLE, cell, make(TTUPLE, cell, make(TEMPTY)))
    return cell


def _expanded(cell: Cell) -> int:
    """The written-out size by brute force (for small types)."""
    return 1 + sum(_expanded(a) for a in cell.args)


@given(st.integers(0, 8))
def test_written_out_size_counts_each_use_and_the_graph_each_cell_once(depth: int) -> None:
    cell = _shared(depth)
    assert WrittenOut()(cell) == _expanded(cell)
    # Each level: the outer row, the inner row and its empty end; then the variable.
    assert graph_cells(cell, 10**6) == 3 * depth + 1


def test_the_measures_stop_at_their_limits() -> None:
    cell = _shared(200)
    assert graph_cells(cell, 50) == 51
    assert WrittenOut()(cell).bit_length() > 200  # no float, no overflow: counted exactly


def test_a_type_too_large_has_a_repr_and_no_json_tree() -> None:
    program = iterir.parse(doubling(6))
    type_ = solve(subject(program, False, None)).types[
        id(program)
    ]  # the cells, which `type_tree` prints
    assert isinstance(type_, FencilType)
    cell = type_.definitions[-1].type
    assert repr(cell).startswith("Cell«‹a type of ")
    with pytest.raises(TypeTooLargeError):
        type_tree(type_)


def test_the_value_of_a_type_too_large_has_a_short_repr_and_refuses_str() -> None:
    """Before, the repr wrote the value out (out of memory at 16 GB)."""
    value = typeinf.infer(iterir.parse(doubling(6)))
    assert isinstance(value, Fencil)
    assert repr(value) == "Fencil(‹a type of 51,540,002,696 cells, too large to print›)"
    assert repr(value.definitions[1]).startswith("Definition(name='f2', type=Fun(params=(")
    for spec in ("", "located"):
        with pytest.raises(TypeTooLargeError, match="the type of `f6` is too large to print"):
            format(value, spec)
    data = tree(value)  # a shared part is one object: built in one walk of the graph
    assert data["definitions"][5]["name"] == "f6"


_CONVERT = """
import sys
sys.path.insert(0, "tests")
import iterir, typeinf
from typeinf.fencil.convert import to_cells, to_value
from typeinf.types import tree
from test_shared_graphs import doubling

first, second = (typeinf.infer(iterir.parse(doubling(16))) for _ in range(2))
assert first == second and hash(first) == hash(second) and first.alpha_eq(second)
assert to_value(to_cells(first)) == first and tree(first)["name"] == "p"
print(repr(first.definitions[-1]))
"""


def test_the_value_of_a_graph_of_100000_cells_converts_compares_and_hashes() -> None:
    """`f16`'s type is written out with 2^(2^15) leaves: every step walks the shared graph, in a
    process of its own with 2 GB of memory (a walk of the written-out type runs out of memory,
    or shows as the timeout)."""
    done = subprocess.run(
        ["sh", "-c", f'ulimit -v 2000000 && exec "{sys.executable}" -c "$0"', _CONVERT],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Definition(‹a type of more than 2^")


def test_explain_says_a_type_too_large_as_an_error(tmp_path: Path) -> None:
    path, done = _typeinf(tmp_path, 6, "explain", ":7:3")
    assert done.returncode == 1, done.stderr
    assert done.stderr.startswith(f"{path}:7:3: error: the type of `f6` is too large to print")


def test_an_expression_that_doubles_its_type_without_definitions_is_inferred() -> None:
    """`(λ(y) → …)({x, x})` nested 40 times: a graph of a few hundred cells written out as 2^40
    leaves, inferred and measured without writing it out (a hang would show as a timeout)."""
    body = "y40"
    for level in range(40, 0, -1):
        body = f"(λ(y{level}) → {body})({{y{level - 1}, y{level - 1}}})"
    program = iterir.parse(f"λ(y0) → {body}")
    type_ = solve(subject(program, False, None)).types[
        id(program)
    ]  # the cells, which `WrittenOut` measures
    assert isinstance(type_, Cell) and WrittenOut()(find(type_).args[1]) > 2**40  # a function
    value = typeinf.infer(program)
    assert (
        isinstance(value, Fun)
        and repr(value) == "Fun(‹a type of 6,597,069,766,694 cells, too large to print›)"
    )
    checked = typeinf.check(iterir.parse(f"λ(y0) → {body}", filename="deep.itir"))
    (error,) = checked.errors
    assert str(error).startswith("deep.itir:1:1: error: the type is too large to print")
